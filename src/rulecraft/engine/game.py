"""``Game(ruleset, seed)``: the entry point of the Python API."""

from __future__ import annotations

from typing import Any

from rulecraft.engine import flow
from rulecraft.engine.state import State
from rulecraft.rules.model import Ruleset


class Game:
    """A ruleset and a seed. ``new_state()`` deals the first hand and runs until the first decision.

    ``chance`` replays given chance outcomes (shuffles, dice) instead of drawing them, as logs and
    scenarios do; the seed still drives anything the list does not cover.
    """

    def __init__(self, ruleset: Ruleset, seed: int = 0) -> None:
        self.ruleset = ruleset
        self.seed = seed

    def new_state(self, chance: list[dict[str, Any]] | None = None) -> State:
        st = State(self.ruleset, self.seed)
        st.chance_feed = list(chance) if chance else None
        flow.start(st)
        return st
