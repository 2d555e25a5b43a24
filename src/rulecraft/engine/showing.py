"""Making things public: the ``show`` effect, and what a claims phase's challenge turns up (``reveal``).

(Built by ``effects.compile_show``, run by ``show`` here.)

A show names pieces, variables, or both::

    show: {pieces: "[piece('c2')]"}            # every seat may see it wherever it lies, this hand
    show: {variables: [cup]}                   # every entry of a hidden variable (every seat's dice)
    show: {variables: ["cup[loser]"]}          # one entry of it

What is shown stays public for the rest of the hand (``Board.marks[SHOWN]`` for pieces,
``Board.shown_vars`` for variables), and is recorded at once as a public ``show`` event: the pieces with
the zone each lies in, the variables with their values. So a show as a hand ends (the dice turned up to
settle a challenge) still reaches every seat's log, and its view through the hand's record
(``views._shown``), although the next hand begins before anyone is asked to move.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rulecraft.dsl import CompiledExpr
from rulecraft.engine.board import SHOWN

if TYPE_CHECKING:
    from rulecraft.engine.board import Board, Ctx


@dataclass(frozen=True, slots=True)
class ShowAction:
    pieces: CompiledExpr | None  # pieces shown where they lie
    variables: tuple[tuple[int, CompiledExpr | None], ...] = ()  # (variable index, entry index or None: all)


def show(st: Board, action: ShowAction, ctx: Ctx) -> None:
    """Make the action's pieces and variables public for the rest of the hand, and record it for all."""
    record: dict[str, Any] = {"type": "show"}
    if action.pieces is not None:
        pieces = list(action.pieces(ctx))
        st.marks.setdefault(SHOWN, set()).update(pieces)
        type_id = st.rs.pieces.type_id
        record["pieces"] = [[type_id(p), zone_label(st, st.loc[p])] for p in pieces
                            if isinstance(p, int) and 0 <= p < st.rs.pieces.count]
    if action.variables:
        values: dict[str, Any] = {}
        added = set(st.shown_vars)
        for vi, entry_expr in action.variables:
            var = st.rs.variables[vi]
            value = st.vars[vi]
            if entry_expr is None:
                added.add((vi, None))
                values[var.name] = _copy(value)
            else:
                entry = int(entry_expr(ctx))
                shown = _copy(value[entry])  # (an entry that does not exist fails here, at the show)
                added.add((vi, entry))
                values[f"{var.name}[{entry}]"] = shown
        st.shown_vars = frozenset(added)
        record["variables"] = values
    st.history.append(record)
    st.shows.append(record)


def zone_label(st: Board, zi: int) -> str:
    """A zone instance as views name it: ``pile``, or ``hand[2]`` for one instance of a per-seat zone."""
    zone = st.zone_of_instance(zi)
    return zone.name if zone.per == "none" else f"{zone.name}[{zi - zone.base}]"


def _copy(value: Any) -> Any:
    return [_copy(x) for x in value] if isinstance(value, list) else value
