"""climb on_play: what a play does beyond lying on the pile (clear the round, skip seats, effects)."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from support import ruleset

from rulecraft.engine.build import build_from_data
from rulecraft.engine.game import Game
from rulecraft.engine.ruleset import Ruleset
from rulecraft.errors import RuleFileError


def _big_two_with(on_play: list[dict[str, Any]]) -> Ruleset:
    data = copy.deepcopy(ruleset("big-two").composed.data)  # type: ignore[union-attr]
    play = next(p for p in data["hand"]["phases"] if p["id"] == "play")
    play["on_play"] = on_play
    return build_from_data(data, name="big-two", chosen={}, content_hash="test")


def _first_play(rs: Ruleset) -> tuple[Any, int]:
    st = Game(rs, 1).new_state()
    seat = st.to_act
    st.apply(next(m for m in st.legal_moves() if m.text != "pass").text)
    return st, seat


def test_a_clearing_play_ends_the_round_and_its_player_leads_again() -> None:
    st, seat = _first_play(_big_two_with([{"id": "all-clear", "clear": True}]))
    assert st.to_act == seat
    assert "pass" not in [m.text for m in st.legal_moves()]  # a new round: the leader must play
    plain, plain_seat = _first_play(ruleset("big-two"))
    assert plain.to_act != plain_seat  # without it, the next seat answers


def test_skip_passes_over_that_many_seats() -> None:
    plain, seat = _first_play(ruleset("big-two"))
    skipped, _ = _first_play(_big_two_with([{"id": "skip-one", "skip": "1"}]))
    step = (plain.to_act - seat) % 4  # the direction of play: 1 or 3 (counter-clockwise)
    assert step in (1, 3) and skipped.to_act == (seat + 2 * step) % 4
    ended, _ = _first_play(_big_two_with([{"id": "skip-all", "skip": "3"}]))
    assert ended.to_act == seat  # skipped round to the player: the round is over


def test_an_item_that_does_nothing_is_refused_where_it_is_written() -> None:
    with pytest.raises(RuleFileError, match="on_play 'idle' does nothing"):
        _big_two_with([{"id": "idle", "when": "size == 1"}])


def test_skip_must_be_a_number() -> None:
    with pytest.raises(RuleFileError, match="a number is expected"):
        _big_two_with([{"id": "bad", "skip": "size == 1"}])


def test_playing_a_piece_not_held_says_so() -> None:
    from rulecraft.errors import IllegalMoveError

    st, _ = _first_play(ruleset("big-two"))
    seat = st.to_act
    held = {st.rs.pieces.type_id(p) for p in st.hand(seat)}
    other = next(st.rs.pieces.type_id(p) for p in range(st.rs.pieces.count)
                 if st.rs.pieces.type_id(p) not in held and st.rs.pieces.type_id(p) != "d3")
    # it was told the piece "does not beat the last play", as though it held it
    with pytest.raises(IllegalMoveError, match=f"you do not hold {other}"):
        st.apply(f"play {other}")
