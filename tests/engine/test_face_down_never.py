"""A follower who can form no combination of the lead's size, where nothing may go face down
(``face_down: never``), plays as many pieces face up forming none: they win nothing, and the follow
restrictions narrow them (an ``if_able`` follow-suit restriction: the pieces of the suit led)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from rulecraft.engine.phases.tricks import FreeOptions
from rulecraft.errors import IllegalMoveError
from rulecraft.load import load_ruleset
from rulecraft.runs.scenario import start_arranged

RULES = Path(__file__).parent / "free_follows.yaml"
# Seat 0 leads the pair of ones in suit a; seat 1 holds no pair, and two pieces of suit a.
DEAL = {"hand[0]": ["a-1", "b-1", "a-5", "b-6"], "hand[1]": ["a-2", "a-3", "b-4", "b-5"]}


def _after_the_pair(rules: Path = RULES) -> object:
    st = start_arranged(load_ruleset(str(rules)), {"deal": DEAL})
    st.apply("play a-1 b-1")
    return st


def test_the_follow_is_face_up_and_follows_suit() -> None:
    st = _after_the_pair()
    assert [m.text for m in st.legal_moves()] == ["play a-2 a-3"]  # no face-down play; the suit led
    assert isinstance(st.pdata.options, FreeOptions)
    st.apply("play a-2 a-3")
    assert (st.tricks, st.to_act) == ([2, 0], 0)  # the pair won (2 tricks): a play forming no combination wins nothing
    assert all(not st.face_down[p] for p in range(st.rs.pieces.count))


def test_other_pieces_are_refused_in_the_restrictions_words() -> None:
    st = _after_the_pair()
    with pytest.raises(IllegalMoveError, match="follow the suit led with every piece you can"):
        st.apply("play a-2 b-4")
    with pytest.raises(IllegalMoveError):
        st.apply("down a-2 a-3")


def test_without_two_of_the_suit_led_any_two_pieces() -> None:
    rs = load_ruleset(str(RULES))
    st = start_arranged(rs, {"deal": {**DEAL, "hand[1]": ["a-2", "b-3", "b-4", "b-5"]}})
    st.apply("play a-1 b-1")
    assert sorted(m.text for m in st.legal_moves()) == [
        "play a-2 b-3", "play a-2 b-4", "play a-2 b-5", "play b-3 b-4", "play b-3 b-5", "play b-4 b-5"]


def test_where_pieces_may_go_face_down_they_still_do(tmp_path: Path) -> None:
    rules = tmp_path / "discard.yaml"
    rules.write_text(RULES.read_text(encoding="utf-8").replace("face_down: never", "face_down: when_cannot_beat"),
                     encoding="utf-8")
    st = _after_the_pair(rules)
    assert [m.text for m in st.legal_moves()][:2] == ["down a-2 a-3", "down a-2 b-4"]


def test_a_free_play_after_a_face_down_lead_is_not_the_best() -> None:
    # (replace: the same rule file, its lead allowed face down only by a deal with no combination to lead)
    st = _after_the_pair()
    d = st.pdata
    d.plays[0] = replace(d.plays[0], combo=None, face_up=False)
    d.best = -1
    st.apply("play a-2 a-3")
    assert (st.tricks, st.to_act) == ([2, 0], 0)  # the leader keeps the round


def test_the_generated_decision_and_play_agree_with_the_generic_ones() -> None:
    # As tests/engine/test_combo_code.py checks every combination game, at the decisions that offer free follows.
    import random

    from test_combo_code import _after, _apply_generic, _trick_phase

    from rulecraft.engine.game import Game

    rs = load_ruleset(str(RULES))
    phase = _trick_phase(rs)
    rng = random.Random(3)
    free = 0
    for seed in range(300):
        st = Game(rs, seed).new_state()
        while not st.is_over:
            legal = st.legal_moves()
            move = legal[rng.randrange(len(legal))]
            if st.rs.phases[st.pidx] is phase:
                assert phase.combo_generated
                generated = st.pdata.options
                generic = st.clone()
                generic.pdata.options = None
                want = phase._options(generic)
                assert list(want.moves) == list(legal)
                assert list(want.each_play()) == list(generated.each_play())
                assert type(want) is type(generated)
                free += isinstance(generated, FreeOptions)
                generic = st.clone()
                _apply_generic(phase, generic, move)
                st.apply(move)
                assert _after(st) == _after(generic), f"{move} applied differently"
            else:
                st.apply(move)
    assert free > 10
