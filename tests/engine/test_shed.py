"""The shed phase kind: shedding turns with a stock to draw from and plays that make their player choose.

The rules of a whole game are pinned by the scenarios of tests/scenarios/crazy-eights; these tests pin
what a rule author is told, and the kind's own corners (a choice pending across a clone, a blocked end).
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from rulecraft.engine.build import build_from_data
from rulecraft.engine.game import Game
from rulecraft.engine.ruleset import Ruleset
from rulecraft.engine.state import State
from rulecraft.errors import IllegalMoveError, RuleFileError
from rulecraft.rules.compose import compose

EIGHTS = Path(__file__).resolve().parents[2] / "variants" / "crazy-eights" / "base.yaml"


def _eights(change: Any = None, **options: str) -> Ruleset:
    data = copy.deepcopy(compose(str(EIGHTS), options).data)
    if change is not None:
        change(next(p for p in data["hand"]["phases"] if p["id"] == "play"))
    return build_from_data(data, name="crazy-eights", chosen=options, content_hash="test")


def _state(rs: Ruleset, seed: int = 1) -> State:
    return Game(rs, seed).new_state()


def _until(st: State, verb: str, limit: int = 400) -> None:
    """Play the first legal move until the seat to act may make a move with ``verb``."""
    for _ in range(limit):
        if any(m.verb == verb for m in st.legal_moves()):
            return
        st.apply(st.legal_moves()[0])
    raise AssertionError(f"no '{verb}' move within {limit} moves")


def test_an_item_that_does_nothing_is_refused_where_it_is_written() -> None:
    def idle(play: dict[str, Any]) -> None:
        play["on_play"].append({"id": "idle", "when": "rank(piece) == 5"})

    with pytest.raises(RuleFileError, match="on_play 'idle' does nothing"):
        _eights(idle)


def test_an_item_that_draws_needs_a_stock() -> None:
    def no_stock(play: dict[str, Any]) -> None:
        del play["draw"]
        play["on_play"].append({"id": "two-draws", "when": "rank(piece) == 2", "draw": {"count": 2}})

    with pytest.raises(RuleFileError, match="on_play 'two-draws' draws, but the phase has no stock"):
        _eights(no_stock)


def test_a_stock_is_not_refilled_from_itself() -> None:
    def itself(play: dict[str, Any]) -> None:
        play["draw"]["refill"] = {"from": "deck"}

    with pytest.raises(RuleFileError, match="refilled from another zone"):
        _eights(itself)


def test_draw_when_is_one_of_its_words() -> None:
    def sometimes(play: dict[str, Any]) -> None:
        play["draw"]["when"] = "sometimes"

    with pytest.raises(RuleFileError, match="draw 'when' is one of unable, always or a condition, not 'sometimes'"):
        _eights(sometimes)


def test_a_seat_able_to_play_is_told_why_it_may_not_draw() -> None:
    st = _state(_eights(players="2"))
    _until(st, "play")
    assert all(m.verb == "play" for m in st.legal_moves())
    with pytest.raises(IllegalMoveError, match="you may draw only when you cannot play"):
        st.apply("draw")
    with pytest.raises(IllegalMoveError, match="you may pass only when you can neither play nor draw"):
        st.apply("pass")


def test_a_choice_pending_after_a_play_is_kept_by_a_clone() -> None:
    st = _state(_eights(players="2"), seed=3)
    _until(st, "name")
    seat = st.to_act
    twin = st.clone()
    st.apply("name h")
    twin.apply("name s")
    assert twin.to_act == st.to_act != seat
    names = [v["suit_to_play"] for v in (st.view(None)["variables"], twin.view(None)["variables"])]
    assert names == ["h", "s"]
    assert st.view(None)["public"]["naming"] is None


def test_play_blocked_when_every_seat_passes_ends_the_hand() -> None:
    # Without draws the stock never helps: the hand ends when every seat holding cards has passed in turn.
    def no_stock(play: dict[str, Any]) -> None:
        del play["draw"]

    st = _state(_eights(no_stock, players="2"), seed=2)
    for _ in range(200):
        if st.hand_no != 1 or st.is_over:
            break
        st.apply(st.legal_moves()[0])
    else:
        raise AssertionError("the hand did not end")
    last = [e for e in st.history if e.get("type") == "move"][-2:]
    assert [e["move"] for e in last] == ["pass", "pass"]
    assert sorted(e["seat"] for e in last) == [0, 1]  # each seat passed once: nobody could play


def test_a_choice_with_nothing_to_choose_from_is_an_error_at_its_list() -> None:
    from rulecraft.errors import ExpressionRuntimeError

    def empty(play: dict[str, Any]) -> None:
        item = next(i for i in play["on_play"] if i["id"] == "eight-names-suit")
        item["choose"]["from"] = "[x for x in suits if x == 'none']"

    st = _state(_eights(empty, players="2"), seed=3)
    with pytest.raises(ExpressionRuntimeError, match="on_play 'eight-names-suit' makes its player choose, but"):
        for _ in range(400):
            st.apply(st.legal_moves()[0])


def test_pass_when_a_condition_offers_a_pass_by_choice_while_it_holds() -> None:
    def seat_one_may_pass(play: dict[str, Any]) -> None:
        play["pass_when"] = "seat == 1"

    st = _state(_eights(seat_one_may_pass, players="2"))
    _until(st, "play")
    able = [m for m in st.legal_moves() if m.verb == "play"]
    assert able, "the seat to act holds a play"
    assert (st.to_act == 1) == any(m.verb == "pass" for m in st.legal_moves())
    st.apply(able[0])
    _until(st, "play")
    assert (st.to_act == 1) == any(m.verb == "pass" for m in st.legal_moves())


def test_pass_when_is_one_of_its_words_or_a_condition() -> None:
    def sometimes(play: dict[str, Any]) -> None:
        play["pass_when"] = "sometimes"

    with pytest.raises(RuleFileError, match="pass_when is one of unable, always or a condition, not 'sometimes'"):
        _eights(sometimes)


def test_on_draw_needs_a_stock() -> None:
    def no_stock(play: dict[str, Any]) -> None:
        del play["draw"]
        play["on_draw"] = [{"set": {"suit_to_play": "'c'"}}]

    with pytest.raises(RuleFileError, match="has 'on_draw' effects, but no stock to draw from"):
        _eights(no_stock)


def test_a_draw_that_ends_the_turn_takes_its_count_and_passes_the_turn_on() -> None:
    def penalty_draw(play: dict[str, Any]) -> None:
        play["draw"].update({"count": 3, "ends_turn": True, "when": "always"})

    st = _state(_eights(penalty_draw, players="3"))
    _until(st, "draw")
    seat, held, stock = st.to_act, len(st.hand(st.to_act or 0)), st.view(None)["zones"]["deck"]["count"]
    st.apply("draw")
    assert st.to_act != seat
    assert len(st.hand(seat or 0)) == held + 3
    assert st.view(None)["zones"]["deck"]["count"] == stock - 3
