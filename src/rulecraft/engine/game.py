"""``Game(ruleset, seed)``: the entry point of the Python API."""

from __future__ import annotations

from typing import Any

from rulecraft.engine.combos import between_games
from rulecraft.engine.ruleset import Ruleset
from rulecraft.engine.state import State, start, started


class Game:
    """A ruleset and a seed. ``new_state()`` deals the first hand and runs until the first decision.

    ``chance`` replays given chance outcomes (shuffles, dice) instead of drawing them, as logs and
    scenarios do; the seed still drives anything the list does not cover. ``max_hands`` stops a match
    early (the result says it was truncated), for studies of single hands and for quick tests.
    """

    def __init__(self, ruleset: Ruleset, seed: int = 0, max_hands: int | None = None,
                 hands_keyed: bool = False) -> None:
        self.ruleset = ruleset
        self.seed = seed
        self.max_hands = max_hands
        self.hands_keyed = hands_keyed  # each hand's chance from a generator of its own (a table's secret deals)

    def new_state(self, chance: list[dict[str, Any]] | None = None,
                  match_vars: dict[str, Any] | None = None, hand_number: int | None = None) -> State:
        """``match_vars`` sets match variables before the first hand begins (a scenario that starts
        "in the fourth hand" of a rotation, or with the scores a hand's own rules read);
        ``hand_number`` makes that first hand the match's hand_number-th, before it begins, so its
        own rules (a deal whose size depends on ``hand_number``) read it."""
        between_games()  # (stores of plays start again past their bound: engine/combos.py)
        if not chance and match_vars is None and hand_number is None:
            return started(self.ruleset, self.seed, self.max_hands, self.hands_keyed)  # (the usual case)
        st = State(self.ruleset, self.seed)
        st.hands_keyed = self.hands_keyed
        if self.max_hands is not None:
            st.hand_limit = min(st.hand_limit, self.max_hands)
        st.chance_feed = list(chance) if chance else None
        if hand_number is not None:
            st.hand_no = hand_number - 1  # beginning the hand counts it
        start(st, match_vars)
        return st
