"""What a name in a scope is bound to: a value read at run time, a constant, a function, or a macro.

Kept apart from ``scope`` so that the builtins (which are function bindings) and the scopes (which
offer the builtins everywhere) each import this module, not each other.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from types import CodeType
from typing import Any

from rulecraft.disk_cache import compiled
from rulecraft.dsl.types import T
from rulecraft.errors import SourcePos


@dataclass(frozen=True, slots=True)
class NameBinding:
    name: str
    type: T
    getter: Callable[[Any], Any] | None  # reads the value from the evaluation context
    value: Any = None  # for constants (getter is None)
    doc: str = ""
    # A name that describes the item being judged (a trick round's candidate play): it changes from
    # item to item when an expression is evaluated over many (``CompiledExpr.select``); every other
    # name is read once for all of them. ``item_code`` reads it straight from the item ``_it`` (engine
    # code, never rule text; no builtins are available to it) instead of through the getter.
    per_item: bool = False
    item_code: str | None = None
    # The getter as a Python expression over ``ctx`` (engine code, no builtins), when it is that
    # simple: generated code then reads the value inline instead of calling the getter.
    code: str | None = None
    # For a list (a per-seat variable): the type of its items, when every item has one (``bid[s]`` is
    # a number); the checker then knows what indexing it gives.
    elem: T = T.ANY
    # For a whole number with a declared range (``hand_number``: 1 to the match's ``max_hands``): the
    # least and the most it may be, which the cost check (dsl/cost.py) reads to bound a ``range``.
    span: tuple[int, int] | None = None


def getter_from_code(code: str) -> Callable[[Any], Any]:
    """The getter that evaluates ``code`` (a Python expression over ``ctx``, engine code, no builtins)."""
    namespace: dict[str, Any] = {"__builtins__": {}}
    fn: Callable[[Any], Any] = eval(_getter_code(code), namespace)
    return fn


@lru_cache(maxsize=1024)
def _getter_code(code: str) -> CodeType:
    # Python's compile of the same text gives the same code object: a ruleset built once per option
    # choice (rulecraft validate) declares the same names each time. Each getter is still its own
    # function (bindings are told apart by identity), only the compiled code is shared.
    # Kept between runs too (``disk_cache``).
    source, name = f"lambda ctx: {code}", f"<getter {code!r}>"
    return compiled(source, name, lambda: compile(source, name, "eval"))


@dataclass(frozen=True, slots=True)
class FunctionBinding:
    name: str
    params: tuple[T, ...]
    returns: T
    impl: Callable[..., Any]  # called as impl(ctx, *args), or impl(*args) for builtins
    doc: str = ""
    takes_ctx: bool = True
    param_names: tuple[str, ...] = ()
    # A pure function's result depends only on its arguments (not on the game): called with
    # literal arguments it is evaluated once, at load time (``piece('joker')`` becomes a number).
    pure: bool = False
    # A function that only looks its one argument up in a table (a piece attribute): compiled to an
    # index into the table instead of a call. A ``None`` argument gives ``None``.
    table: list[Any] | None = None
    # For a function giving a list: the type of its items (seats() gives seats), T.ANY when unknown.
    elem: T = T.ANY
    # Every argument must be written as a literal in the rule text itself (not a name, not a formula,
    # not a rule function's parameter): what reads the data without compiling it (the content hash
    # of rules/compose.py) finds each call by its text.
    literal_args: bool = False
    # The call as a Python expression over ``ctx`` and its arguments ``{0}``, ``{1}``... (engine code,
    # no builtins), when it is that simple: generated code then computes it inline instead of calling
    # ``impl`` (an argument may be read more than once, so only arguments that are names, literals or
    # getters are put in; any other call is made through ``impl``, which must give the same).
    code: str | None = None


@dataclass(frozen=True, slots=True)
class MacroBinding:
    """A function written in the rule file: ``is_trump(p): "p == bird() or suit(p) == trump"``."""

    name: str
    params: tuple[str, ...]
    body: Any  # the located body text
    pos: SourcePos
    doc: str = ""


Binding = NameBinding | FunctionBinding | MacroBinding
