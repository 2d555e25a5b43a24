"""How searches play their playouts (agents/rollout.py ``playout_policy``, agents/policy.py ``playout_move``):
at random, by the heuristics when asked (``mc:N:h``), and by the heuristics in a claims turn, where a uniform
move is a large lie and random playouts misjudge every answer."""

from __future__ import annotations

import random

from support import ruleset
from test_climb_policy import _big_two

from rulecraft.agents.policy import climb_move, phase_kind, playout_move
from rulecraft.agents.rollout import playout_policy, random_move
from rulecraft.engine.game import Game
from rulecraft.engine.state import State


def _first(ref: str, kind: str) -> State:
    st = Game(ruleset(ref), 4).new_state()
    rng = random.Random(4)
    while phase_kind(st) != kind:
        legal = st.legal_moves()
        st.apply(legal[rng.randrange(len(legal))])
    return st


def test_playouts_are_random_unless_asked_or_in_a_claims_turn() -> None:
    assert playout_policy(_first("rook", "tricks"), False) is random_move
    assert playout_policy(_first("big-two", "climb"), False) is random_move
    assert playout_policy(_first("rook", "tricks"), True) is playout_move
    assert playout_policy(_first("yukushi", "claims"), False) is playout_move
    assert playout_policy(_first("doubt", "claims"), False) is playout_move


def test_a_heuristic_playout_climbs_as_the_default_does() -> None:
    st = _big_two()
    assert st.to_act == 0
    assert str(playout_move(st, random.Random(1))) == "play d3 d4 c5 h6 d7"  # the largest play of low pieces
    for seed in range(5):  # whatever the draw, the heuristic's move (before: one of 30-odd at random)
        assert playout_move(st, random.Random(seed)) == climb_move(st, 0, st.legal_moves(), random.Random(seed))


def _claim_answered_by(st: State, value: str, count: int) -> tuple[State, int]:
    """``st`` after its seat to play claims ``count`` of its pieces as ``value``: the state and who answers."""
    after = st.clone()
    seat = after.to_act
    assert seat is not None
    ids = [after.rs.pieces.type_id(p) for p in after.hand(seat)][:count]
    after.apply(after.parse_move(f"claim {value}: {' '.join(ids)}"))
    answering = after.to_act
    assert answering is not None and answering != seat
    return after, answering


def test_a_heuristic_playout_challenges_a_claim_the_answering_seat_can_see_is_false() -> None:
    st = Game(ruleset("yukushi"), 1).new_state()
    rank = st.rs.pieces.columns["rank"]
    probe, answering = _claim_answered_by(st, "K", 1)
    held = sum(1 for p in probe.hand(answering) if rank[p] == "K")
    assert held >= 1  # (this deal: the answering seat holds kings)
    impossible, _ = _claim_answered_by(st, "K", 5 - held)  # with its own, one king more than there are
    assert all(playout_move(impossible, random.Random(s)).verb == "challenge" for s in range(40))
    possible, _ = _claim_answered_by(st, "K", 4 - held)
    answers = [playout_move(possible, random.Random(s)).verb for s in range(40)]
    assert answers.count("accept") >= 30  # let stand nine times in ten
