"""Crazy Eights under the preset `openspiel` plays as OpenSpiel's `crazy_eights` (tests/support_openspiel.py).

OpenSpiel's scoring differs from the sources in two ways the preset's notes name (an ace costs 10, a
plain card its index in OpenSpiel's pack plus two): the returns compared are rulecraft's scores with
those differences added for the cards left in each hand, so every other point is rulecraft's own."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pyspiel
from support_openspiel import Correspondence, replay

from rulecraft.engine.state import State

SUITS = "cdhs"  # OpenSpiel's card = rank * 4 + suit, its suits clubs, diamonds, hearts, spades
PLAYERS = 5
HAND = 5
DRAW, PASS, NAME = 52, 53, 54  # OpenSpiel's actions beyond the cards; 54 to 57 name clubs to spades
EIGHT, ACE = 6, 12  # OpenSpiel's rank indices (0 for the two)


def rank_of(index: int) -> int:
    """The rule file's rank (1 for the ace, 11 to 13 for the court cards) of OpenSpiel's rank index."""
    return 1 if index == ACE else index + 2


def card(action: int) -> str:
    return f"{SUITS[action % 4]}{rank_of(action // 4)}"


CARD_OF = {card(a): a for a in range(52)}


def start(state: Any) -> dict[str, Any]:
    dealer_action, *cards = state.history()
    dealer = dealer_action - DRAW  # OpenSpiel's chance action 52 + p makes player p the dealer
    hands: dict[str, list[str]] = {f"hand[{p}]": [] for p in range(PLAYERS)}
    for i, action in enumerate(cards[:PLAYERS * HAND]):  # the deal: card i to player (dealer + 1 + i) % players
        hands[f"hand[{(dealer + 1 + i) % PLAYERS}]"].append(card(action))
    # Then the dealer turns cards up until one is not an eight (the eights go back): the last is the starter.
    return {"deal": {**hands, "pile": [card(cards[-1])]}, "given": {"vars": {"dealer": dealer}}}


def move(state: Any, actions: Sequence[int]) -> str:
    action = actions[0]
    if action < DRAW:
        return f"play {card(action)}"
    if action in (DRAW, PASS):
        return "draw" if action == DRAW else "pass"
    return f"name {SUITS[action - NAME]}"


def openspiel_hand(state: Any, seat: int) -> set[int]:
    """The cards OpenSpiel's player holds, read from its history: dealt, drawn after its own draws, less
    those it played."""
    steps = state.full_history()
    dealer = steps[0].action - DRAW
    held = {a.action for i, a in enumerate(steps[1:PLAYERS * HAND + 1]) if (dealer + 1 + i) % PLAYERS == seat}
    actor = None  # the player who acted last: a chance card after its draw is its own (none for the starter)
    for step in steps[PLAYERS * HAND + 1:]:
        if step.player == pyspiel.PlayerId.CHANCE:
            if actor == seat:
                held.add(step.action)
        else:
            actor = step.player
            if actor == seat and step.action < DRAW:
                held.discard(step.action)
    return held


def chance(state: Any, st: State) -> int:
    """The card rulecraft's seat just drew: in its hand there, not yet in OpenSpiel's."""
    seat = st.to_act
    assert seat is not None
    ids = st.rs.pieces.type_id
    new = {CARD_OF[ids(p)] for p in st.hand(seat)} - openspiel_hand(state, seat)
    assert len(new) == 1, new
    return new.pop()


def openspiel_charge(action: int) -> int:
    """What OpenSpiel charges for a card left in hand (its ScoreUp): 50 an eight, 10 a court card or an
    ace, the card's index plus two for the rest."""
    rank = action // 4
    return 50 if rank == EIGHT else 10 if rank >= 9 else action + 2


def face_value(action: int) -> int:
    rank = rank_of(action // 4)
    return 50 if rank == 8 else 10 if rank > 10 else rank


def returns(st: State) -> list[float]:
    score = st.vars[st.rs.var_index["score"]]
    ids = st.rs.pieces.type_id
    return [score[s] - sum(openspiel_charge(CARD_OF[ids(p)]) - face_value(CARD_OF[ids(p)]) for p in st.hand(s))
            for s in range(PLAYERS)]


CRAZY_EIGHTS = Correspondence(game="crazy_eights", params={}, ruleset="crazy-eights", preset="openspiel",
                              start=start, move=move, returns=returns, chance=chance, forced_tail=True)


def test_openspiels_random_games_are_replayed_move_for_move() -> None:
    report = replay(CRAZY_EIGHTS, games=300, seed=1)
    assert report.games == 300
    assert report.choices > report.decisions // 2  # drawing by choice: most decisions offer more than one move
    # Some games end with a player out (a zero return), some blocked with every hand still holding cards.
    assert any(0.0 in game for game in report.returns)
    assert any(0.0 not in game for game in report.returns)


def test_the_scoring_differences_are_only_those_the_notes_name() -> None:
    assert face_value(CARD_OF["h3"]) == 3 and openspiel_charge(CARD_OF["h3"]) == 8  # index 6, plus two
    assert face_value(CARD_OF["s1"]) == 1 and openspiel_charge(CARD_OF["s1"]) == 10
    assert all(face_value(a) == openspiel_charge(a) for a in range(52) if a // 4 in (EIGHT, 9, 10, 11))
