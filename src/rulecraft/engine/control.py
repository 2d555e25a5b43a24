"""Who decides for a seat: a seat whose decisions another seat's player makes (a dummy).

``seats.decided_by`` is an expression over ``seat`` (the seat whose turn it is) giving the seat whose
player decides for it: ``"declarer if seat == dummy else seat"``. It is asked whenever a decision
becomes due, in any phase kind. When it names another seat, that seat is the one to act — ``to_act``,
the seat whose agent, person or adapter chooses, as OpenSpiel's current player — and the seat the
decision is for is kept in ``playing_for``. The phases never see the difference: while the state
asks a phase for the decision's moves, applies one, or explains why a move is refused, ``to_act`` is
the seat whose turn it is, as for any decision (``as_turn``).

What the deciding player sees is its own view: a rule file shows it the hand it plays (a ``show``
effect, as the dummy is laid face up), or the legal moves tell it what that hand hides.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from rulecraft.engine.phases.base import seat_of

if TYPE_CHECKING:
    from rulecraft.engine.board import Board

R = TypeVar("R")
_UNBOUND = object()


def hand_over(st: Board) -> None:
    """Give the decision just set (``st.to_act``) to the player of its seat, as ``seats.decided_by`` says."""
    decided_by = st.rs.seats.decided_by
    seat = st.to_act
    if decided_by is None or seat is None:
        return
    bind = st.ctx.bind
    saved = bind.get("seat", _UNBOUND)
    bind["seat"] = seat
    try:
        player = seat_of(decided_by, st.ctx, st.rs.seats.count, "seats.decided_by")
    finally:
        if saved is _UNBOUND:
            bind.pop("seat", None)
        else:
            bind["seat"] = saved
    if player != seat:
        st.playing_for, st.to_act = seat, player


def as_turn(st: Board, ask: Callable[[Board], R]) -> R:
    """``ask(st)`` with ``to_act`` the seat whose turn it is (the phases' view of a decision)."""
    player, seat = st.to_act, st.playing_for
    if seat is None:
        return ask(st)
    st.to_act = seat
    try:
        return ask(st)
    finally:
        st.to_act = player


__all__ = ["as_turn", "hand_over"]
