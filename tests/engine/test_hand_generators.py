"""Keyed hands (``Board.hands_keyed``): each hand draws from a generator of its own, made from the seed and
the hand's number, so that what was drawn in one hand (and what a seat saw of it) says nothing of the next."""

from __future__ import annotations

from typing import Any

from support import ruleset

from rulecraft.engine.game import Game
from rulecraft.engine.state import State


def second_deal(keyed: bool, extra_draws: int) -> tuple[list[Any], State]:
    """The first chance outcome of hand 2 of a Hearts game (seed 5, the first legal move each time), hand 1
    having drawn ``extra_draws`` more numbers than it needed (as a hand with more dice or a redeal would)."""
    st = Game(ruleset("hearts"), 5, 2, keyed).new_state()
    for _ in range(extra_draws):
        st.rng.random()
    while st.hand_no < 2:
        st.apply(st.legal_moves()[0])
    hand2 = next(e for e in st.history if e["type"] == "hand" and e["number"] == 2)
    events = list(st.history)
    chance = next(e for e in events[events.index(hand2):] if e["type"] == "chance")
    return list(chance["order"]), st


def test_a_keyed_hand_deals_the_same_whatever_the_hands_before_it_drew() -> None:
    plain, _ = second_deal(keyed=True, extra_draws=0)
    disturbed, st = second_deal(keyed=True, extra_draws=7)
    assert plain == disturbed and st.hands_keyed
    # (one generator for the match: the second deal follows from everything the first hand drew)
    assert second_deal(keyed=False, extra_draws=0)[0] != second_deal(keyed=False, extra_draws=7)[0]


def test_keyed_hands_are_their_own_deals_and_the_same_seed_gives_the_same_game() -> None:
    keyed, a = second_deal(keyed=True, extra_draws=0)
    again, b = second_deal(keyed=True, extra_draws=0)
    assert keyed == again and list(a.history) == list(b.history)
    assert keyed != second_deal(keyed=False, extra_draws=0)[0]
    clone = a.clone()  # a clone (an agent's) keeps the game keyed
    assert clone.hands_keyed
