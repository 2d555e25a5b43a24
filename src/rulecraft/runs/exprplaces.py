"""Where each expression of a rule file is read: the scope it is compiled in and the type expected there.

A rule file says what an expression is (``ruleshape``), but only the builder knows which names it may
use (a trick round's ``top``, a payment's ``winner``) and what it must give. Mutation testing builds
every group of scenarios' rules once as written; ``Places`` keeps, for each expression it compiled, its
scope and expected type (``Builder.compiled``), so that a replacement (another name, another function)
can be checked by compiling the changed text where the original is read, before any mutant is made.

A rule function (``functions:``) is compiled where it is called, so it has no one place: its body is
checked in the widest scope a rule reads (a trick round's), its parameters taken to be any value.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from rulecraft.dsl import Scope, T, compile_expr
from rulecraft.engine.builder import Builder
from rulecraft.errors import RulecraftError, SourcePos
from rulecraft.rules.located import pos_of

Key = tuple[str, int, int]


@dataclass(frozen=True, slots=True)
class Place:
    """Where an expression is read: names and functions visible there, and what it must give."""

    scope: Scope
    expect: T | None

    def compiles(self, text: str) -> bool:
        """Whether ``text`` would be accepted here (its names known, its types fitting, its cost bounded)."""
        try:
            compile_expr(text, self.scope, expect=self.expect)
        except (RulecraftError, RecursionError, ValueError):
            return False
        return True

    def type_of_name(self, name: str) -> T | None:
        found = self.scope.lookup_name(name)
        return found.type if found is not None else None

    def sort_of_name(self, name: str) -> tuple[T, T, str] | None:
        """What a name is here, as far as a replacement should keep it: its type, its items' type (for a
        list) and whether it is a variable of the game, a constant or a name the engine gives (a
        per-seat table of scores is a list, as the pieces of a play are, but no author confuses them)."""
        found = self.scope.lookup_name(name)
        if found is None:
            return None
        if found.getter is None:
            what = "constant"
        elif found.code is not None and ".vars[" in found.code:
            what = "variable"
        else:
            what = "engine"
        if found.type is not T.LIST:
            return (found.type, T.ANY, "")  # (a seat is a seat, whoever keeps it)
        return (found.type, found.elem, what)

    def returns(self, func: str) -> T | None:
        """What a call of ``func`` gives here: a rule function's value is not known until it is inlined."""
        found = self.scope.lookup_function(func)
        if found is None:
            return None
        return getattr(found, "returns", T.ANY)

    def signature(self, func: str) -> tuple[object, ...] | None:
        """What ``func`` takes: its parameters' types (a rule function's: how many), None when unknown here."""
        found = self.scope.lookup_function(func)
        if found is None:
            return None
        params = getattr(found, "params", ())
        if found.__class__.__name__ == "MacroBinding":
            return ("rule function", len(params))
        return tuple(params) if params else ("any",)


def _key(pos: SourcePos) -> Key:
    return (pos.file, pos.line, pos.col)


class Places:
    """Every expression's place, gathered from builds of the files (the first build that reads it wins)."""

    def __init__(self) -> None:
        self._at: dict[Key, Place] = {}
        self._widest: Scope | None = None

    def builder(self) -> Builder:
        """A builder that keeps what it compiles; give it back to ``keep`` once the build is done."""
        b = Builder()
        b.compiled = []
        return b

    def keep(self, b: Builder, trick_scope: Scope | None) -> None:
        for text, scope, expect in b.compiled or ():
            self._at.setdefault(_key(pos_of(text)), Place(scope, expect))
        if self._widest is None and trick_scope is not None:
            self._widest = trick_scope

    def at(self, pos: SourcePos) -> Place | None:
        return self._at.get(_key(pos))

    def of_function(self, params: list[str]) -> Place | None:
        """Where a rule function's body is checked: the widest scope, its parameters any value."""
        if self._widest is None:
            return None
        scope = Scope(parent=self._widest, name="rule function")
        for p in params:
            scope.add_name(p, T.ANY, getter=_nothing)
        return Place(scope, None)

    def __len__(self) -> int:
        return len(self._at)

    def __iter__(self) -> Iterator[Key]:
        return iter(self._at)


def _nothing(ctx: Any) -> Any:
    return None
