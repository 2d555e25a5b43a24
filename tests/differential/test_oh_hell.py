"""Oh Hell under the preset `openspiel` plays as OpenSpiel's `oh_hell` (tests/support_openspiel.py).

OpenSpiel draws each game's number of tricks at random unless `num_tricks_fixed` says; its hand of n
tricks, 1 to 7, is the rule file's hand of n cards (its hands of 8 to 17 tricks have no counterpart)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest
from support_openspiel import Correspondence, card_id, replay

from rulecraft.engine.state import State

SUITS = "cdsh"  # OpenSpiel's card = rank * 4 + suit, its suits in the order clubs, diamonds, spades, hearts
PLAYERS = 3
BIDS = 52  # OpenSpiel's bid of n is action 52 + n


def card(action: int) -> str:
    return card_id(SUITS[action % 4], action // 4)


def start(state: Any) -> dict[str, Any]:
    tricks, dealer, *cards = state.history()
    hands: dict[str, list[str]] = {f"hand[{p}]": [] for p in range(PLAYERS)}
    for i, action in enumerate(cards[:PLAYERS * tricks]):  # the deal: card i to player i % players
        hands[f"hand[{i % PLAYERS}]"].append(card(action))
    # The hand of the sequence 7 ... 1 ... 7 that deals `tricks` cards each (hand 8 - tricks), and its dealer.
    return {"deal": {**hands, "turnup": [card(cards[PLAYERS * tricks])]},
            "given": {"hand_number": 8 - tricks, "vars": {"dealer": dealer}}}


def move(state: Any, actions: Sequence[int]) -> str:
    action = actions[0]
    return f"bid {action - BIDS}" if action >= BIDS else f"play {card(action)}"


def returns(st: State) -> list[float]:
    return list(st.vars[st.rs.var_index["score"]])


OH_HELL = Correspondence(game="oh_hell", params={"players": PLAYERS}, ruleset="oh-hell", preset="openspiel",
                         start=start, move=move, returns=returns)


@pytest.mark.parametrize("tricks", range(1, 8))
def test_openspiels_random_games_are_replayed_move_for_move(tricks: int) -> None:
    corr = replace(OH_HELL, params={**OH_HELL.params, "num_tricks_fixed": tricks})
    report = replay(corr, games=60, seed=100 * tricks)
    assert report.games == 60
    assert report.decisions == 60 * PLAYERS * (tricks + 1)  # a bid and a card each per trick
    # Some seat made its bid (a trick each and 10 more) and some missed it, in these games.
    assert any(r >= 10 for game in report.returns for r in game)
    assert any(r < 10 for game in report.returns for r in game)
