"""Named values: what a seat chooses from a list, kept with its type (number, seat, text, piece).

A decision offers each value of a list as a move (``name 3``, ``name red``, ``name red-12``); the
move's text is only how the value is written. The value stored is the list's own item, so a number
chosen stays a number, and a piece is named by its id. Where the value goes is a variable, or one
entry of a per-seat or per-team variable (``bid[seat]``), checked when the rules are built.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rulecraft.dsl import CompiledExpr, Scope, T
from rulecraft.dsl.types import accepts, describe, type_of_value
from rulecraft.engine.effects import _substr
from rulecraft.errors import ExpressionRuntimeError, clip

if TYPE_CHECKING:
    from rulecraft.engine.board import Board
    from rulecraft.engine.builder import Builder
    from rulecraft.engine.equipment import Equipment

_TARGET = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\[(.+)\])?\s*$")


@dataclass(frozen=True, slots=True)
class Target:
    """A variable, or one entry of a per-seat/per-team one, that a decision writes."""

    var: int
    index: CompiledExpr | None
    type: T  # what it holds (T.ANY when undeclared)

    def write(self, st: Board, value: Any) -> None:
        if self.index is None:
            st.vars[self.var] = value
        else:
            st.vars[self.var][int(self.index(st.ctx))] = value


def build_target(b: Builder, rs: Equipment, text: Any, scope: Scope, what: str) -> Target | None:
    """``name`` or ``name[index]`` (the index an expression in ``scope``, e.g. ``bid[seat]``)."""
    m = _TARGET.match(str(text)) if text is not None else None
    if m is None:
        b.error(text, f"'{text}' is not a variable: write NAME or NAME[index], e.g. bid[seat]")
        return None
    name = _substr(text, m.group(1), m.start(1))
    if not b.ref(name, rs.var_index, "variable"):
        return None
    var = rs.variables[rs.var_index[str(name)]]
    index = m.group(2)
    if var.per == "none" and index is not None:
        b.error(text, f"variable '{name}' is a single value, not one per seat or team")
        return None
    if var.per != "none" and index is None:
        b.error(text, f"variable '{name}' holds one value per {var.per}: write {name}[seat]")
        return None
    idx = b.expr(_substr(text, index, m.start(2)), scope, T.NUMBER, what) if index is not None else None
    return Target(rs.var_index[str(name)], idx, var.value_type if idx is not None else var.expr_type)


def check_items(b: Builder, target: Target | None, values: CompiledExpr, where: Any, rs: Equipment) -> None:
    """Refuse a list whose items are surely not what the target holds (text into a number)."""
    if target is None:
        return
    got = getattr(values, "item_type", T.ANY)
    name = rs.variables[target.var].name
    if got is T.ANY and target.type is not T.ANY:
        # A list of mixed items (['pass', 1, 2, 3]) types as 'any': when it is fixed by the rules (it reads
        # nothing of the game), each item is judged now, rather than the first wrong one stopping a game.
        wrong = _unfit_item(values, target.type)
        if wrong is not None:
            b.error(where, f"the values to choose from include {clip(repr(wrong), 60)}, but '{name}' holds "
                           f"{describe(target.type)}; choose from values of one kind (a pass is a move of "
                           "its own: an auction's 'pass')")
        return
    if target.type is T.ANY or got is T.ANY or accepts(target.type, got):
        return
    hint = " (number(x) reads a number from text)" if target.type is T.NUMBER and got is T.STRING else ""
    b.error(where, f"each value to choose from is {describe(got)}, but '{name}' holds {describe(target.type)}{hint}")


def _unfit_item(values: CompiledExpr, want: T) -> Any:
    """The first item of a list fixed by the rules that a variable of type ``want`` cannot hold; None when
    every item fits, or when the list depends on the game (computing it then needs a game, and fails here)."""
    if values.reads:
        return None
    try:
        items = values(None)
    except Exception:  # the list reads the game (a hand, the seats in play): judged as it is chosen
        return None
    if not isinstance(items, (list, tuple, range)):
        return None
    for item in items:
        kind = type_of_value(item)
        if item is not None and kind is not T.ANY and not accepts(want, kind):
            return item
    return None


def value_text(value: Any, kind: T, piece_ids: list[str]) -> str:
    """How a value is written in a move: a piece by its id, a whole number without '.0'."""
    if kind is T.PIECE and isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(piece_ids):
        return piece_ids[value]
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if value is None:
        return "none"
    return str(value).replace(" ", "_")


# The Python types a value of each type may have (made once: a choice is checked at every choose).
_PYTHON_TYPES: dict[T, tuple[type, ...]] = {T.NUMBER: (int, float), T.SEAT: (int,), T.PIECE: (int,), T.STRING: (str,),
                                            T.BOOL: (bool,), T.LIST: (list, tuple)}


def checked(value: Any, target: Target | None, values: CompiledExpr) -> Any:
    """The chosen value, refused at the ``from`` expression when it is not of the target's type."""
    if target is None or target.type is T.ANY or value is None:
        return value
    ok = _PYTHON_TYPES.get(target.type)
    if ok is None or (isinstance(value, ok) and (target.type is T.BOOL or not isinstance(value, bool))):
        return value
    raise ExpressionRuntimeError(
        f"{values.pos}: error: this list gave {value!r}, but the variable it is chosen into holds "
        f"{describe(target.type)}", f"gave {value!r}, where {describe(target.type)} is needed")


@dataclass(frozen=True, slots=True)
class ChoiceSpec:
    """What a play (or a round's end) makes a seat name: a value of ``values`` into ``target``."""

    values: CompiledExpr
    target: Target | None
    verb: str
    kind: T


def build_choice(b: Builder, rs: Equipment, raw: dict[str, Any], scope: Scope, what: str,
                 verbs: tuple[str, ...]) -> ChoiceSpec:
    """A ``choose: {from, set, verb}`` mapping compiled (a play's item, a round's end)."""
    values = b.expr(raw["from"], scope, T.LIST, f"{what} choose from")
    target = build_target(b, rs, raw.get("set"), scope, f"{what} set")
    check_items(b, target, values, raw["from"], rs)
    kind = target.type if target is not None and target.type is not T.ANY else values.item_type
    verb = str(raw.get("verb", "name"))
    if verb not in verbs:
        b.error(raw.get("verb"), f"verb is one of {', '.join(verbs)}, not '{verb}'")
    return ChoiceSpec(values, target, verb, kind)


def choice_values(st: Board, spec: ChoiceSpec) -> dict[str, Any]:
    """The values a seat may name now, by the text a move writes them with (``st.ctx`` set by the caller)."""
    ids = st.rs.pieces.columns["id"]
    out: dict[str, Any] = {}
    for v in spec.values(st.ctx):
        out.setdefault(value_text(v, spec.kind, ids), v)
    return out
