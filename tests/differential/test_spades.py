"""Spades under the preset `openspiel` plays as OpenSpiel's `spades` (tests/support_openspiel.py)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from support_openspiel import Correspondence, card_id, replay

from rulecraft.engine.state import State

SUITS = "cdhs"  # OpenSpiel's card = suit * 13 + rank, clubs first
BIDS = 52  # OpenSpiel's bid of n is action 52 + n (0: nil)


def card(action: int) -> str:
    return card_id(SUITS[action // 13], action % 13)


def start(state: Any) -> dict[str, Any]:
    hands: dict[str, list[str]] = {f"hand[{p}]": [] for p in range(4)}
    for i, action in enumerate(state.history()[:52]):  # the deal: card i to player i % 4
        hands[f"hand[{i % 4}]"].append(card(action))
    # Dealer 3: seat 0, on its left, bids and leads first, as OpenSpiel's player 0 does.
    return {"deal": hands, "given": {"vars": {"dealer": 3}}}


def move(state: Any, actions: Sequence[int]) -> str:
    action = actions[0]
    return f"bid {action - BIDS}" if action >= BIDS else f"play {card(action)}"


def returns(st: State) -> list[float]:
    score = st.vars[st.rs.var_index["score"]]
    return [score[st.rs.seats.team_of[s]] for s in range(4)]


SPADES = Correspondence(game="spades", params={}, ruleset="spades", preset="openspiel",
                        start=start, move=move, returns=returns)


def test_openspiels_random_games_are_replayed_move_for_move() -> None:
    report = replay(SPADES, games=300, seed=1)
    assert report.games == 300
    assert report.choices > report.decisions // 2
    # Random bids fail most contracts; some side made its contract all the same, and a nil was won.
    assert any(r[0] > 0 for r in report.returns)
