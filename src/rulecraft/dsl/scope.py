"""Scopes: which names and functions an expression may use, decided where the expression is written.

A scope maps names to *bindings*. Names (``tricks``, ``trump``) and functions (``piece('x')``,
``team_of(s)``) live in separate namespaces, so a trick round's ``piece`` (the piece being played)
and the ruleset-wide ``piece('joker')`` do not collide. Scopes nest: the engine builds a root
of constants and piece attributes, a game scope on top (seats, variables, zones, knowledge) and one
scope per phase kind (the lead, the candidate play...). The builtins (min, max, count...) are
visible everywhere.

User functions declared in a rule file are *macros*: their body is compiled where they are called,
so it sees the caller's names (a follow rule's ``led``, a payment's ``winner``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from rulecraft.dsl.bindings import FunctionBinding, MacroBinding, NameBinding, getter_from_code
from rulecraft.dsl.builtins import BUILTINS
from rulecraft.dsl.types import T
from rulecraft.errors import UNKNOWN_POS, SourcePos


class Scope:
    def __init__(self, parent: Scope | None = None, name: str = "") -> None:
        self.parent = parent
        self.name = name
        self._names: dict[str, NameBinding] = {}
        self._functions: dict[str, FunctionBinding | MacroBinding] = {}
        # The evaluation context's slot that holds the item an expression judges, when expressions
        # of this scope are evaluated over many items at once (see ``NameBinding.per_item``).
        self.item_slot: str | None = None
        # The most items a list read from the game can hold (a hand, seats(), a list variable): what
        # the load-time cost check (dsl/cost.py) assumes for them. Set by the engine on its root scope.
        self.list_bound: int | None = None
        # How many seats the game has: a number given where a seat is wanted is checked against it.
        # Set by the engine on its root scope (None: seats are not known, as in ``rulecraft eval``).
        self.seat_count: int | None = None

    # ----------------------------------------------------------------- declaring
    def add_name(self, name: str, type_: T, getter: Callable[[Any], Any] | None = None, doc: str = "",
                 per_item: bool = False, item_code: str | None = None, code: str | None = None,
                 elem: T = T.ANY, span: tuple[int, int] | None = None) -> None:
        """A name read at evaluation time: through ``getter``, or ``code`` (a Python expression over
        ``ctx``, engine code with no builtins) from which the getter is made and which generated code
        may inline."""
        if code is not None:
            getter = getter_from_code(code)
        if getter is None:
            raise ValueError(f"name '{name}' needs a getter or code")
        self._names[name] = NameBinding(name, type_, getter, None, doc, per_item or item_code is not None, item_code,
                                        code, elem, span)

    def add_constant(self, name: str, type_: T, value: Any, doc: str = "") -> None:
        self._names[name] = NameBinding(name, type_, None, value, doc)

    def add_function(self, name: str, params: list[T] | tuple[T, ...], returns: T, impl: Callable[..., Any],
                     doc: str = "", param_names: tuple[str, ...] = (), pure: bool = False,
                     table: list[Any] | None = None, elem: T = T.ANY, literal_args: bool = False,
                     code: str | None = None) -> None:
        self._functions[name] = FunctionBinding(name, tuple(params), returns, impl, doc, True, param_names, pure,
                                                table, elem, literal_args, code)

    def add_user_function(self, name: str, params: list[str], body: Any, pos: SourcePos = UNKNOWN_POS,
                          doc: str = "") -> None:
        self._functions[name] = MacroBinding(name, tuple(params), body, pos, doc)

    # ----------------------------------------------------------------- looking up
    def lookup_name(self, name: str) -> NameBinding | None:
        s: Scope | None = self
        while s is not None:  # the walk of _find, written out: every compiled expression looks names up
            found = s._names.get(name)
            if found is not None:
                return found
            s = s.parent
        return None

    def lookup_function(self, name: str) -> FunctionBinding | MacroBinding | None:
        s: Scope | None = self
        while s is not None:
            found = s._functions.get(name)
            if found is not None:
                return found
            s = s.parent
        return BUILTINS.get(name)

    def names(self) -> Iterator[NameBinding]:
        """Every visible name, innermost first (shadowed ones left out)."""
        yield from self._visible(lambda s: s._names)

    def functions(self) -> Iterator[FunctionBinding | MacroBinding]:
        """Every visible function, innermost first, then the builtins not shadowed."""
        seen: set[str] = set()
        yield from self._visible(lambda s: s._functions, seen)
        yield from (b for n, b in BUILTINS.items() if n not in seen)

    def own_bindings(self) -> Iterator[NameBinding | FunctionBinding | MacroBinding]:
        """The names and functions declared in this scope itself (not its parents'), names first."""
        yield from self._names.values()
        yield from self._functions.values()

    def _find(self, table: Callable[[Scope], dict[str, Any]], name: str) -> Any:
        """The innermost binding of ``name`` in ``table`` along the scope chain, or None."""
        s: Scope | None = self
        while s is not None:
            found = table(s).get(name)
            if found is not None:
                return found
            s = s.parent
        return None

    def _visible(self, table: Callable[[Scope], dict[str, Any]], seen: set[str] | None = None) -> Iterator[Any]:
        seen = set() if seen is None else seen
        s: Scope | None = self
        while s is not None:
            for n, b in table(s).items():
                if n not in seen:
                    seen.add(n)
                    yield b
            s = s.parent

    def find_item_slot(self) -> str | None:
        s: Scope | None = self
        while s is not None:
            if s.item_slot is not None:
                return s.item_slot
            s = s.parent
        return None

    def find_list_bound(self) -> int | None:
        s: Scope | None = self
        while s is not None:
            if s.list_bound is not None:
                return s.list_bound
            s = s.parent
        return None

    def find_seat_count(self) -> int | None:
        s: Scope | None = self
        while s is not None:
            if s.seat_count is not None:
                return s.seat_count
            s = s.parent
        return None

    def root(self) -> Scope:
        s = self
        while s.parent is not None:
            s = s.parent
        return s
