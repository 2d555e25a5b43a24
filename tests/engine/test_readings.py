"""Readings: pieces that two combinations make are played as the one the move names (engine/readings.py).

The game (tests/engine/readings/rules.yaml) deals a-3 b-3 a-1 to seat 0, who leads, and a-2 b-2 b-1 to
seat 1. a-3 b-3 is both the high pair (a table entry, combination ``high``) and a pair of threes
(``pair``); the high pair may not lead the first round.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulecraft.engine.readings import overlapping
from rulecraft.engine.state import State
from rulecraft.errors import IllegalMoveError
from rulecraft.load import load_ruleset
from rulecraft.runs.scenario import run_scenario_file, start_arranged

HERE = Path(__file__).parent / "readings"
RULES = str(HERE / "rules.yaml")
DEAL = {"deal": {"hand[0]": ["a-3", "b-3", "a-1"], "hand[1]": ["a-2", "b-2", "b-1"]}}


def dealt() -> State:
    return start_arranged(load_ruleset(RULES), DEAL)


@pytest.mark.parametrize("name", ["high-pair-barred-first", "both-readings-later"])
def test_scenarios(name: str) -> None:
    result = run_scenario_file(HERE / f"{name}.yaml")
    assert result.passed, result.failures


def test_a_restriction_on_one_reading_is_not_passed_through_the_other() -> None:
    st = dealt()
    legal = [m.text for m in st.legal_moves()]
    # Only the pair reading may lead; its move names it, so no unnamed move stands for it.
    assert "play a-3 b-3 as pair" in legal
    assert not [t for t in legal if t.startswith("play a-3 b-3") and t != "play a-3 b-3 as pair"]
    for text in ("play a-3 b-3", "play a-3 b-3 as high"):
        with pytest.raises(IllegalMoveError, match="the high pair may not lead the first round"):
            st.apply(text)
    st.apply("play a-3 b-3 as pair")
    assert st.pdata.plays[0].combo == "pair"
    assert st.history[-1]["move"] == "play a-3 b-3 as pair"


def test_unnamed_means_the_first_reading_and_a_table_entry_names_its_combination() -> None:
    st = dealt()
    st.apply("play a-1")
    st.apply("play b-1")
    legal = [m.text for m in st.legal_moves()]
    assert {"play a-3 b-3 as high", "play a-3 b-3 as pair"} <= set(legal)
    assert st.parse_move("play a-3 b-3").text == "play a-3 b-3 as high"  # the combination listed first
    assert st.parse_move("play b-3 a-3 as top-pair").text == "play a-3 b-3 as high"
    clone = st.clone()
    clone.apply("play a-3 b-3 as pair")
    assert clone.pdata.plays[0].combo == "pair"
    st.apply("play a-3 b-3")
    assert st.pdata.plays[0].combo == "high"


def test_pieces_of_one_reading_keep_their_plain_move() -> None:
    st = dealt()
    st.apply("play a-1")
    legal = [m.text for m in st.legal_moves()]
    assert "play b-1" in legal  # a single: one reading, no name
    st.apply("play b-1")
    # Seat 0 took the round (a tie goes to the lead) and leads again; seat 1's a-2 b-2 is only a pair.
    st.apply("play a-3 b-3 as high")
    assert [m.text for m in st.legal_moves()] == ["play a-2 b-2"]
    assert st.parse_move("play a-2 b-2 as pair").text == "play a-2 b-2"
    with pytest.raises(IllegalMoveError, match="not played as 'high' here: they form pair"):
        st.apply("play a-2 b-2 as high")


def test_phases_whose_combinations_never_meet_name_nothing() -> None:
    # Sets of a rank and runs in a suit cannot be the same pieces; nor a table's entries that no other
    # combination makes: such phases spend nothing on readings.
    for ref in ("luk-fu", "tien-gow", "tien-gow/bunmu-son"):
        rs = load_ruleset(ref)
        for phase in rs.phases:
            combos = getattr(phase, "combos", ())
            if combos:
                assert overlapping(combos, rs.pieces) == frozenset(), (ref, phase.id)
    rs = load_ruleset(RULES)
    assert overlapping(rs.phases[2].combos, rs.pieces) == {"high", "pair"}
