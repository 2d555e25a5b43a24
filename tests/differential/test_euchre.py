"""Euchre under the preset `openspiel` plays as OpenSpiel's `euchre` (tests/support_openspiel.py)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from support_openspiel import Correspondence, replay

from rulecraft.engine.state import State

SUITS = "cdhs"  # OpenSpiel's card = rank * 4 + suit, clubs first
RANKS = ("9", "10", "J", "Q", "K", "A")
PASS, CLUBS, ALONE, PARTNER = 24, 25, 29, 30  # OpenSpiel's actions; 25 to 28 name clubs to spades trump
FIRST_BID = 22  # OpenSpiel's history: the dealer, twenty cards dealt, the card turned up, then the bids


def card(action: int) -> str:
    return f"{SUITS[action % 4]}{RANKS[action // 4]}"


def start(state: Any) -> dict[str, Any]:
    dealer, *cards = state.history()[:FIRST_BID]
    hands: dict[str, list[str]] = {f"hand[{p}]": [] for p in range(4)}
    for i, action in enumerate(cards[:20]):  # the deal: card i to player (dealer + i) % 4
        hands[f"hand[{(dealer + i) % 4}]"].append(card(action))
    return {"deal": {**hands, "turnup": [card(cards[20])]}, "given": {"vars": {"dealer": dealer}}}


def move(state: Any, actions: Sequence[int]) -> str:
    action = actions[0]
    if action < PASS:  # a card: the dealer's discard, or a play
        return f"{'give' if _discarding(state) else 'play'} {card(action)}"
    if action in (ALONE, PARTNER):
        return "name alone" if action == ALONE else "name partner"
    if action == PASS:
        return "name pass"
    first_round = len(state.history()) - FIRST_BID < 4
    return "name up" if first_round else f"name {SUITS[action - CLUBS]}"


def _discarding(state: Any) -> bool:
    """Whether OpenSpiel's dealer is to discard: trump was just ordered up, in the first round of bids."""
    bids = state.history()[FIRST_BID:]
    return 0 < len(bids) <= 4 and bids[-1] != PASS and all(b == PASS for b in bids[:-1])


def excluded(state: Any, st: State) -> list[str]:
    """OpenSpiel's dealer may not discard the card it took up (the preset's notes)."""
    return [f"give {card(state.history()[FIRST_BID - 1])}"] if _discarding(state) else []


def returns(st: State) -> list[float]:
    score = st.vars[st.rs.var_index["score"]]
    team = st.rs.seats.team_of
    return [score[team[s]] - score[1 - team[s]] for s in range(4)]


EUCHRE = Correspondence(game="euchre", params={}, ruleset="euchre", preset="openspiel",
                        start=start, move=move, returns=returns, excluded=excluded)


def test_openspiels_random_games_are_replayed_move_for_move() -> None:
    report = replay(EUCHRE, games=300, seed=1)
    assert report.games == 300
    assert {tuple(r) for r in report.returns} >= {(1, -1, 1, -1), (-2, 2, -2, 2), (2, -2, 2, -2)}
