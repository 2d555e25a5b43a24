"""What the rules count about a hand before its play: the default agent's sight of a hand's combinations.

A bid's worth is not always the sum of what its pieces are worth one by one: a game may score, before the
first trick, what the winning hand holds together (a meld of a king and queen of one suit, a run in trump,
one of each suit of a rank), which a per-piece strength cannot see. The rules already count it: an effect
sets a hand variable from the winner's pieces. So the agent asks the rules. From a decision of an auction,
in a world sampled from its own knowledge, it makes the lowest bid it may, lets every other seat pass, and
plays on as its heuristics would (takes the widow, buries, names trump ...) until the hand's play begins;
the hand's *number* variables as they then stand (an entry per seat or team read for the seat's own) are
the hand's *pre-play counts*. Which of them matter (each enters a plane with its square: ``terms``), and how
much, is learnt like the rest of ``agents.decision_values`` (slopes of each label's plane, from the learning's
own playouts): nothing names a game or a variable.

A decision outside an auction, or with no bid among its candidates, has counts of 0 (in learning and in play
alike). Each count is the mean over ``WORLDS`` sampled worlds (the widow it would take is unknown), each run
at most ``MOVES`` moves.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from rulecraft.agents.policy import phase_kind
from rulecraft.agents.rollout import sample_world
from rulecraft.dsl.types import T

if TYPE_CHECKING:
    from rulecraft.engine.moves import Move
    from rulecraft.engine.ruleset import Ruleset
    from rulecraft.engine.state import State

Policy = Callable[["State", random.Random], "Move"]

WORLDS = 4  # sampled worlds a hand's counts are the mean of
MOVES = 60  # moves of one run to the start of play, at most (an exchange of a few pieces, a trump named ...)
# The phase kinds a run goes on through (the auction's end, a widow taken and buried, trump named, effects that
# count); any other is where the hand's play begins (a trick or climbing round ...), or something the counts
# need not wait for.
BEFORE_PLAY = frozenset({"auction", "exchange", "choose", "effects", "shuffle", "deal"})


def counted(rs: Ruleset) -> tuple[tuple[int, str], ...]:
    """The hand variables read as counts: (index, per) of each hand-scope variable of type number."""
    return tuple((i, v.per) for i, v in enumerate(rs.variables)
                 if v.scope == "hand" and v.value_type is T.NUMBER)


def bid_of(cands: Sequence[Move]) -> Move | None:
    """The bid among an auction's candidates (a move with a value that is not a named call), if any."""
    return next((m for m in cands if m.value and m.verb not in ("pass", "call")), None)


def preplay(st: State, seat: int, cands: Sequence[Move], rng: random.Random, policy: Policy) -> tuple[float, ...]:
    """The hand's pre-play counts at a decision of ``seat`` among ``cands`` (see the module docstring);
    ``policy`` plays every move of the run after the bid."""
    wanted = counted(st.rs)
    bid = bid_of(cands) if phase_kind(st) == "auction" else None
    if bid is None or not wanted:
        return (0.0,) * len(wanted)
    total = [0.0] * len(wanted)
    for _ in range(WORLDS):
        world = sample_world(st, seat, rng)
        world.apply(bid)
        for _ in range(MOVES):
            if world.is_over or phase_kind(world) not in BEFORE_PLAY or not world.legal_moves():
                break
            world.apply(policy(world, rng))
        for k, value in enumerate(_read(world, seat, wanted)):
            total[k] += value
    return tuple(t / WORLDS for t in total)


def terms(counts: Sequence[float]) -> tuple[float, ...]:
    """The plane's terms of pre-play counts: each count and its square. A combination's worth is seldom
    linear in it: a contract is lost alike on a meld of 20 or of 120 and made on one of 200, so the plane
    needs a bend to say where bidding starts to pay."""
    return (*counts, *(c * c for c in counts))


def _read(st: State, seat: int, wanted: Sequence[tuple[int, str]]) -> list[float]:
    team = st.rs.seats.team_of[seat]
    out = []
    for i, per in wanted:
        value = st.vars[i]
        if per != "none":
            value = value[seat if per == "seat" else team]
        out.append(float(value) if isinstance(value, (int, float)) else 0.0)
    return out
