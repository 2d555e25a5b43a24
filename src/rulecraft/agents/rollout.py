"""Playouts for searching agents: how one ends, how it is scored, and a one-ply search built on them.

A playout is scored for the seat as its match score change minus the mean change of the seats not
on its team (the match ``score`` expression at the end of the hand, relative to the decision): that
is the hand's points for trick games, its chips for payment games and its finishing place for
shedding games, with nothing game-specific. A playout cut short by the depth limit before its hand
ends (shedding games can run for thousands of moves) is scored by the one generic signal left: how
many fewer pieces the seat holds than its opponents.

How far a playout goes (``playout_depth``) is the caller's budget when it sets one; otherwise 60 moves,
and in a claims phase as many moves as there are seats (a claim and the answers to it). There a move is
a claim or an answer to one, and what a decision changes (who takes the pile) shows at once; random
seats then challenge half the claims they are asked about, so every further move passes a pile back and
forth and adds noise, not signal, at a cost. (Measured in a bundled claims game of four seats: mc:10 cut
at 4 moves won 43% of its games against three mc:10 cut at 12, where an even share is 25%; see
benchmarks/README.md.)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from rulecraft.agents.claim_truth import OpenClaim, make_plausible, open_claim
from rulecraft.agents.inference import Fits, Learner
from rulecraft.agents.policy import phase_kind, playout_move
from rulecraft.engine.determinize import determinize
from rulecraft.engine.standings import match_scores

if TYPE_CHECKING:
    from rulecraft.engine.moves import Move
    from rulecraft.engine.state import State

Policy = Callable[["State", random.Random], "Move"]

DEPTH = 60  # moves per playout before it is cut, when neither the caller nor the phase kind says otherwise
DEPTH_IN_SEATS = {"claims": 1}  # phase kinds whose decisions show their effect within a round of the table
HEURISTIC_IN = frozenset({"claims"})  # phase kinds whose playouts follow the heuristics (``playout_policy``)


def playout_depth(st: State, depth: int | None) -> int:
    """Moves per playout from a decision in ``st``: ``depth`` when the caller set one (see the module docstring)."""
    if depth is not None:
        return depth
    rounds = DEPTH_IN_SEATS.get(phase_kind(st))
    return DEPTH if rounds is None else rounds * st.rs.seats.count


def random_move(st: State, rng: random.Random) -> Move:
    moves = st.legal_moves()
    return moves[rng.randrange(len(moves))]


def playout_policy(st: State, heuristic: bool) -> Policy:
    """How a search's playouts from a decision in ``st`` play: by the heuristics (``policy.playout_move``) when
    the caller asks (``h``), and in a phase kind where uniform play says nothing (``HEURISTIC_IN``); else at
    random. A uniform claim is mostly a lie of many pieces that is challenged: random playouts of a claims
    turn judge a line by how badly the seats, the searching one included, would play next, so accepting a
    claim (after which the searching seat soon claims again) looked worse than challenging it whether the
    claim was true or not. (Measured: see benchmarks/README.md, claims games.)"""
    return playout_move if heuristic or phase_kind(st) in HEURISTIC_IN else random_move


def opponents(st: State, seat: int) -> list[int]:
    team = st.rs.seats.team_of
    return [s for s in range(st.rs.seats.count) if team[s] != team[seat]]


def outcome(st: State, seat: int, base: list[float]) -> float:
    """How well the playout went for ``seat`` (see the module docstring)."""
    opp = opponents(st, seat)
    if not opp:
        return 0.0
    if st.is_over:
        final = match_scores(st)
        delta = [f - b for f, b in zip(final, base, strict=True)]
        return delta[seat] - sum(delta[s] for s in opp) / len(opp)
    held = [len(st.hand(s)) for s in range(st.rs.seats.count)]
    return sum(held[s] for s in opp) / len(opp) - held[seat]


def play_out(st: State, rng: random.Random, depth: int, policy: Policy = playout_move) -> int:
    """Play ``st`` on in place by ``policy`` for every seat, at most ``depth`` moves; returns the moves made."""
    for made in range(depth):
        if st.is_over:
            return made
        if not st.legal_moves():  # rules that leave a seat nothing to do: the game loop reports it, not the search
            return made
        st.apply(policy(st, rng))
    return depth


def sample_world(state: State, seat: int, rng: random.Random, fits: Fits | None = None,
                 claim: OpenClaim | None = None, draw: float | None = None) -> State:
    """A determinization of ``state`` for ``seat`` whose playouts end with the hand in progress.

    ``fits`` is what the seat has learnt (``agents.inference.learnt_fits``) and ``claim`` the claim it
    may challenge (``agents.claim_truth.open_claim``), both worked out once a decision; ``draw`` whether
    the claim is made true in this world (``agents.claim_truth.spread_draws``).
    """
    world = determinize(state, seat, rng, fits=fits)
    if claim is not None:
        make_plausible(world, claim, rng, fits, draw)
    world.hand_limit = world.hand_no  # the playout ends with this hand: no later deal is simulated
    world.legal_moves()  # computed once, shared by every copy
    return world


def one_ply(state: State, seat: int, cands: Sequence[Move], rng: random.Random, worlds: int, depth: int,
            policy: Policy = playout_move, learner: Learner | None = None,
            budget: int | None = None) -> tuple[Move, int]:
    """The candidate with the best mean playout in ``worlds`` sampled worlds (each tried in the same world).

    Ties go to the earlier candidate. Returns the move and the number of playouts made. ``learner``: the
    caller's own (``agents.inference.Learner``), which reads the game's record only once. ``budget``: no
    further world is sampled once this many moves were played out (so a decision's cost is bounded
    whatever the length of the hand and the number of candidates: the first world is always played).
    """
    base = match_scores(state)
    totals = [0.0] * len(cands)
    fits = (learner or Learner()).fits(state, seat, rng)
    claim = open_claim(state, seat)
    made = played = 0
    for _ in range(worlds):
        if budget is not None and made >= budget:
            break
        world = sample_world(state, seat, rng, fits, claim)
        for i, move in enumerate(cands):
            st = world.clone()
            st.apply(move)
            made += 1 + play_out(st, rng, depth, policy)
            totals[i] += outcome(st, seat, base)
        played += 1
    best = max(range(len(cands)), key=lambda i: (totals[i], -i))
    return cands[best], played * len(cands)
