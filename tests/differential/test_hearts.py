"""Hearts under the preset `openspiel` plays as OpenSpiel's `hearts` (tests/support_openspiel.py)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from support_openspiel import Correspondence, card_id, replay

from rulecraft.engine.state import State

SUITS = "cdhs"  # OpenSpiel's card = rank * 4 + suit, clubs first
# OpenSpiel's pass direction (none, left, across, right) as the rule file's count of hands played,
# whose rotation is left, right, across, none.
PASSES = {0: 3, 1: 0, 2: 2, 3: 1}


def card(action: int) -> str:
    return card_id(SUITS[action % 4], action // 4)


def start(state: Any) -> dict[str, Any]:
    history = state.history()
    hands: dict[str, list[str]] = {f"hand[{p}]": [] for p in range(4)}
    for i, action in enumerate(history[1:53]):  # the deal: card i to player i % 4
        hands[f"hand[{i % 4}]"].append(card(action))
    # Dealer 3: seat 0, on its left, passes first, as OpenSpiel's player 0 does.
    return {"deal": hands, "given": {"vars": {"passes": PASSES[history[0]], "dealer": 3}}}


def move(state: Any, actions: Sequence[int]) -> str:
    history = state.history()
    passing = history[0] != 0 and len(history) < 1 + 52 + 12  # twelve cards passed, one at a time
    return f"{'give' if passing else 'play'} {card(actions[0])}"


def returns(st: State) -> list[float]:
    score = st.vars[st.rs.var_index["score"]]
    return [26 - s for s in score]


HEARTS = Correspondence(game="hearts", params={}, ruleset="hearts", preset="openspiel",
                        start=start, move=move, returns=returns)


def test_openspiels_random_games_are_replayed_move_for_move() -> None:
    report = replay(HEARTS, games=300, seed=1)
    assert report.games == 300
    assert report.choices > report.decisions * 3 // 4  # most decisions offer a real choice
    # A moon was shot in some game (26 to the shooter, nothing to the others), and checked.
    assert any(sorted(r) == [0, 0, 0, 26] for r in report.returns)
