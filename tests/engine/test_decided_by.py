"""seats.decided_by: a seat whose decisions another seat's player makes (a dummy).

The rules of a whole game are pinned by tests/scenarios/dummy-whist; these tests pin the kind's own
contract: who is to act, what the phases judge, what the log, the views, clones, replays and the
refusal messages say.
"""

from __future__ import annotations

import copy
import random
from pathlib import Path
from typing import Any

import pytest

from rulecraft.engine.build import build_from_data
from rulecraft.engine.game import Game
from rulecraft.engine.ruleset import Ruleset
from rulecraft.errors import IllegalMoveError, RulecraftError, RuleFileError
from rulecraft.rules.compose import compose
from rulecraft.runs.log import log_lines, replay_lines

DUMMY = Path(__file__).resolve().parents[2] / "variants" / "dummy-whist" / "base.yaml"


def _rules(decided_by: Any = "seat - 2 if seat in dummies else seat", **options: str) -> Ruleset:
    data = copy.deepcopy(compose(str(DUMMY), options).data)
    if decided_by is None:
        del data["seats"]["decided_by"]
    else:
        data["seats"]["decided_by"] = decided_by
    return build_from_data(data, name="dummy-whist", chosen=options, content_hash="test")


def _to_dummys_turn(rs: Ruleset, seed: int = 3) -> Any:
    st = Game(rs, seed).new_state()
    while st.playing_for is None:
        assert not st.is_over
        st.apply(st.legal_moves()[0])
    return st


def test_the_partner_is_to_act_for_the_dummy_and_plays_the_dummys_pieces() -> None:
    st = _to_dummys_turn(_rules())
    assert (st.to_act, st.playing_for) == (0, 2)
    legal = st.legal_moves()
    assert legal and all(p in st.hand(2) for m in legal for p in m.pieces)
    view = st.view(0)
    assert view["to_act"] == 0 and view["playing_for"] == 2 and view["legal"] == [m.text for m in legal]
    assert "legal" not in st.view(2)
    played = legal[0]
    st.apply(played)
    assert played.pieces[0] not in st.hand(2)
    moves = [e for e in st.history if e.get("type") == "move" and e.get("for") == 2]
    assert moves == [{"type": "move", "seat": 0, "move": played.text, "for": 2}]


def test_without_decided_by_every_seat_decides_for_itself() -> None:
    rs = _rules(None)
    st = Game(rs, 3).new_state()
    seen = set()
    for _ in range(60):
        seen.add(st.to_act)
        assert st.playing_for is None and "playing_for" not in st.view(st.to_act)
        st.apply(st.legal_moves()[0])
    assert 2 in seen


def test_a_refused_move_is_explained_for_the_seat_decided_for() -> None:
    st = _to_dummys_turn(_rules())
    own = next(p for p in st.hand(0))
    with pytest.raises(IllegalMoveError, match="you do not hold"):
        st.apply(f"play {st.rs.pieces.type_id(own)}")
    d = st.pdata
    if d.plays:  # a follow: a card of another suit the dummy holds is refused by the dummy's follow rule
        led = st.rs.pieces.columns["suit"][d.plays[0].pieces[0]]
        if any(st.rs.pieces.columns["suit"][p] == led for p in st.hand(2)):
            other = next((p for p in st.hand(2) if st.rs.pieces.columns["suit"][p] != led), None)
            if other is not None:
                with pytest.raises(IllegalMoveError, match="follow the led suit"):
                    st.apply(f"play {st.rs.pieces.type_id(other)}")
    assert (st.to_act, st.playing_for) == (0, 2)  # a refusal changes nothing


def test_a_clone_keeps_whom_its_decision_is_for_and_a_log_replays() -> None:
    rs = _rules(players="2")
    st = _to_dummys_turn(rs)
    c = st.clone()
    assert (c.to_act, c.playing_for) == (st.to_act, st.playing_for)
    assert c.legal_moves() == st.legal_moves()
    rng = random.Random(4)
    while not st.is_over:
        legal = st.legal_moves()
        st.apply(legal[rng.randrange(len(legal))])
    lines = log_lines(st, ["random"] * 4)
    again = replay_lines(lines, rs)
    assert again.history == st.history and again.result == st.result


def test_a_value_that_is_no_seat_stops_the_game_at_the_rule() -> None:
    rs = _rules("seat + 10")  # (it loads: the value is judged in play)
    with pytest.raises(RulecraftError, match=r"seats.decided_by: 'seat \+ 10' gave \d+, which is no seat"):
        Game(rs, 3).new_state()


def test_decided_by_is_an_expression_checked_at_load() -> None:
    with pytest.raises(RuleFileError, match="unknown name 'dumy'"):
        _rules("0 if seat == dumy else seat")


def test_the_table_says_whom_a_decision_is_for_and_names_a_piece_variable_by_its_piece() -> None:
    from rulecraft.cli.table import render_table
    from rulecraft.wording import Seats, event_text

    rs = _rules()
    st = _to_dummys_turn(rs)
    seats = Seats(("you", "random", "random", "random"))
    lines = render_table(rs, st.view(0), seats)
    assert "to act: seat 0 (you), for seat 2 (random) — your move" in lines
    trump_card = rs.pieces.type_id(st.vars[rs.var_index["trump_card"]])
    assert f"  trump_card: {trump_card}" in lines
    st.apply(st.legal_moves()[0])
    made = next(e for e in reversed(st.history) if e.get("type") == "move")
    assert (event_text(made, seats, rs) or "").startswith("seat 0 (you) for seat 2 (random): play ")
