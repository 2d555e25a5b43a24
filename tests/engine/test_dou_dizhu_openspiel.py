"""Dou Dizhu's 'openspiel' preset against OpenSpiel's own dou_dizhu: OpenSpiel's random games replayed.

Each game is dealt by OpenSpiel's chance (the face-up card's place, then the 51 cards in the order
dealt) and given to rulecraft as the same deck and die. At every decision both must offer the same
moves — bids, passes and plays compared by the cards they take, suits not counting — and the game
goes on by one of OpenSpiel's moves picked at random; at the end the returns must be equal.

OpenSpiel's player p is rulecraft's seat -p mod 3: OpenSpiel numbers the players in the order of play,
rulecraft's Dou Dizhu plays counter-clockwise (0, 2, 1).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from rulecraft.engine.game import Game
from rulecraft.engine.ruleset import Ruleset
from rulecraft.load import load_ruleset

pyspiel = pytest.importorskip("pyspiel")

RANKS = "3456789TJQKA2"
DEALT = 51  # OpenSpiel deals 51 cards; the first chance outcome picks which of them is turned face up
GAMES = 30


def _card(card: int) -> str:
    """A rulecraft piece id for OpenSpiel's card number (0-51 by rank within suit, 52 and 53 the jokers)."""
    if card >= 52:
        return "BJ" if card == 52 else "RJ"
    r = RANKS[card % 13]
    return "r10" if r == "T" else "r" + r


def _cards(text: str) -> tuple[str, ...]:
    """The cards of an OpenSpiel play as written ('33344', '333444-56', '(BWJ)(CJ)'), sorted."""
    out, i, text = [], 0, text.replace("-", "")
    while i < len(text):
        if text.startswith("(BWJ)", i):
            out.append("BJ")
            i += 5
        elif text.startswith("(CJ)", i):
            out.append("RJ")
            i += 4
        else:
            out.append("r10" if text[i] == "T" else "r" + text[i])
            i += 1
    return tuple(sorted(out))


def _openspiel_move(state: Any, action: int) -> tuple[str, ...]:
    text = state.action_to_string(state.current_player(), action)
    if text == "Pass":
        return ("pass",)
    if text.startswith("Bid "):
        return ("bid", text[4:])
    return ("play", *_cards(text))


def _rulecraft_move(rs: Ruleset, move: Any) -> tuple[str, ...]:
    if move.verb == "pass":
        return ("pass",)
    if move.verb == "bid":
        return ("bid", move.value)
    return ("play", *sorted(rs.pieces.type_id(p) for p in move.pieces))


def _seat(player: int) -> int:
    return (-player) % 3


def _replay(seed: int, rs: Ruleset, game: Any) -> tuple[int, Counter[str]]:
    """Play one of OpenSpiel's random games through both; the number of decisions compared."""
    rng = random.Random(seed)
    os_state = game.new_initial_state()
    face_up = rng.randrange(DEALT)
    os_state.apply_action(face_up)
    order: list[str] = []
    while os_state.is_chance_node():
        action = rng.choice([a for a, _ in os_state.chance_outcomes()])
        order.append(_card(action - DEALT))
        os_state.apply_action(action)
    left = Counter(_card(c) for c in range(54)) - Counter(order)
    deck = order + sorted(left.elements())
    st = Game(rs, seed).new_state(chance=[{"type": "chance", "kind": "shuffle", "order": deck},
                                          {"type": "chance", "kind": "dice", "dice": [face_up + 1]}])
    seen: Counter[str] = Counter()
    decisions = 0
    while not os_state.is_terminal():
        player = os_state.current_player()
        assert st.to_act == _seat(player), f"game {seed}, decision {decisions}: seat to act"
        actions = os_state.legal_actions()
        theirs = {_openspiel_move(os_state, a) for a in actions}
        ours = {_rulecraft_move(rs, m): m for m in st.legal_moves()}
        assert set(ours) == theirs, (
            f"game {seed}, decision {decisions} (seat {st.to_act}): only OpenSpiel offers "
            f"{sorted(theirs - set(ours))[:5]}, only rulecraft {sorted(set(ours) - theirs)[:5]}")
        action = rng.choice(actions)
        key = _openspiel_move(os_state, action)
        seen[key[0]] += 1
        os_state.apply_action(action)
        st.apply(ours[key])
        decisions += 1
    assert st.is_over, f"game {seed}: OpenSpiel's game is over, rulecraft's is not"
    returns = os_state.returns()
    scores = st.result["scores"]
    assert [scores[_seat(p)] for p in range(3)] == list(returns), f"game {seed}: the returns differ"
    return decisions, seen


def test_openspiel_random_games_have_the_same_moves_and_returns() -> None:
    rs = load_ruleset("dou-dizhu", preset="openspiel")
    game = pyspiel.load_game("dou_dizhu")
    total, seen = 0, Counter[str]()
    for seed in range(GAMES):
        n, kinds = _replay(seed, rs, game)
        total += n
        seen += kinds
    assert total > 40 * GAMES  # whole games were compared, not only auctions
    assert seen["bid"] > 0 and seen["play"] > 0


def test_the_default_rules_differ_from_openspiel_as_the_preset_says() -> None:
    """Without the preset the comparison fails: the preset's options are what make the games agree."""
    rs = load_ruleset("dou-dizhu")
    game = pyspiel.load_game("dou_dizhu")
    with pytest.raises(AssertionError, match=r"only rulecraft|returns differ|not"):
        for seed in range(GAMES):
            _replay(seed, rs, game)
