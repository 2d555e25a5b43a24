"""The trick heuristic's leads where the rules allow composite leads (``lead.composite``, Sheng Ji's throw):
a composite is led only when no piece the seat cannot rule out of the other hands could beat a part of it.
Leading the largest play it holds, the heuristic used to throw whatever was largest, and a throw that fails
pays its penalty and leads only its beaten part: the default lost every match of Sheng Ji to random play."""

from __future__ import annotations

import random
from pathlib import Path

from support import ruleset

from rulecraft.agents.policy import trick_move
from rulecraft.engine.moves import Move
from rulecraft.engine.state import State
from rulecraft.runs.scenario import load_scenario, start_arranged

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios" / "sheng-ji"


def _lead(name: str) -> State:
    """Scenario ``name`` of Sheng Ji up to the starter's first lead (the kitty given back)."""
    data = load_scenario(SCENARIOS / f"{name}.yaml")
    st = start_arranged(ruleset("sheng-ji", trump="hearts"), data)
    for move in data["steps"][0]:
        st.apply(st.parse_move(move))
    return st


def _spades(st: State) -> list[Move]:
    """The starter's leads of spades only (its clubs make a long tractor, the largest play of the hand)."""
    spades = {p for p in range(st.rs.pieces.count) if st.rs.pieces.type_id(p).startswith("s")}
    return [m for m in st.legal_moves() if m.pieces and all(p in spades for p in m.pieces)]


def test_a_throw_another_seat_might_beat_is_not_led() -> None:
    st = _lead("throw-fails")  # sK + sJ sJ: an ace and a pair of queens are out, unseen by the starter
    moves = _spades(st)
    assert "play sJ sJ sK" in {str(m) for m in moves}  # offered, and the largest spade play
    assert max(len(m.pieces) for m in moves) == 3
    for seed in range(5):
        led = trick_move(st, 0, moves, random.Random(seed))
        assert str(led) == "play sJ sJ"  # the largest play that cannot fail: the pair


def test_a_throw_nobody_can_beat_is_led() -> None:
    st = _lead("throw-holds")  # sA + sK sK: the other ace only ties, a pair of aces would need both
    for seed in range(5):
        assert str(trick_move(st, 0, _spades(st), random.Random(seed))) == "play sK sK sA"
