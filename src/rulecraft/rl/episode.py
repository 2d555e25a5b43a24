"""One game as a learning environment sees it: whose turn, which action ids are legal, taking one.

An ``Episode`` wraps an engine ``State`` with the move being chosen (a prefix of tokens, see
``rl.choices``), the number of actions taken and a cap on them. Both adapters drive one.

Rewards come from the match result. ``reward="win"`` (the default) is zero-sum: each winner gets
``n / w - 1`` and every other seat ``-1`` (n seats, w winners; a two-seat game is +1 / -1, a four-seat
partnership game +1 for each partner of the winning side and -1 for the others, a tie among all 0).
``reward="score"`` gives each seat its match score as the ruleset ranks seats (``match.score``). A game
stopped by the cap on actions (``max_moves``) is *truncated* and every seat gets 0.
"""

from __future__ import annotations

from typing import Any

from rulecraft.engine.game import Game
from rulecraft.engine.moves import Move
from rulecraft.engine.ruleset import Ruleset
from rulecraft.engine.state import State
from rulecraft.load import load_ruleset
from rulecraft.rl import choices
from rulecraft.rl.encoding import Encoding

REWARDS = ("win", "score")
DEFAULT_MAX_MOVES = 100_000


def match_rewards(result: dict[str, Any] | None, seats: int, reward: str) -> list[float]:
    if result is None:
        return [0.0] * seats
    if reward == "score":
        return [float(x) for x in result["scores"]]
    winners = set(result["winners"])
    share = seats / len(winners) - 1.0
    return [share if s in winners else -1.0 for s in range(seats)]


class Episode:
    """A game in progress with the move being chosen. ``st`` is None only before the first deal."""

    def __init__(self, enc: Encoding, st: State | None, max_moves: int = DEFAULT_MAX_MOVES,
                 reward: str = "win") -> None:
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        if max_moves < 1:
            raise ValueError(f"max_moves must be at least 1, not {max_moves}")
        self.enc = enc
        self.st = st
        self.prefix: tuple[int, ...] = ()
        self.steps = 0
        self.max_moves = max_moves
        self.reward = reward
        self.truncated = False

    def copy(self) -> Episode:
        c = Episode.__new__(Episode)
        c.enc, c.max_moves, c.reward = self.enc, self.max_moves, self.reward
        c.st = self.st.clone() if self.st is not None else None
        c.prefix, c.steps, c.truncated = self.prefix, self.steps, self.truncated
        return c

    @property
    def over(self) -> bool:
        return self.truncated or (self.st is not None and self.st.is_over)

    @property
    def to_act(self) -> int | None:
        if self.over or self.st is None:
            return None
        return self.st.to_act

    def legal_actions(self) -> list[int]:
        if self.to_act is None:
            return []
        assert self.st is not None
        return choices.legal_actions(self.enc, self.st.legal_moves(), self.prefix)

    def take(self, action: int) -> Move | None:
        """Take one action of the seat to act; returns the move it completes (already made), if any."""
        assert self.st is not None and self.to_act is not None
        self.prefix, move = choices.choose(self.enc, self.st.legal_moves(), self.prefix, action)
        self.steps += 1
        if move is not None:
            self.make(move)
        if self.steps >= self.max_moves and not self.over:
            self.truncated = True
        return move

    def make(self, move: Move) -> None:
        """Make a whole move on the engine state (the OpenSpiel adapter turns chance into chance nodes here)."""
        assert self.st is not None
        self.st.apply(move)

    def rewards(self) -> list[float]:
        if self.truncated or self.st is None or not self.st.is_over:
            return [0.0] * self.enc.seats
        return match_rewards(self.st.result, self.enc.seats, self.reward)

    def observation(self, viewer: int | None, recall: bool = False) -> Any:
        assert self.st is not None
        selection = self.prefix if viewer is not None and viewer == self.to_act else ()
        return self.enc.observe(self.st, viewer, selection, recall)


def ruleset_of(ruleset: Any, options: dict[str, Any], preset: str | None) -> Ruleset:
    """A loaded ruleset, or one loaded from a bundled name or a path with option choices and a preset."""
    if isinstance(ruleset, Ruleset):
        if options or preset:
            raise ValueError("options and a preset are chosen when a ruleset is loaded: pass its name or path")
        return ruleset
    return load_ruleset(str(ruleset), {k: str(v) for k, v in options.items()}, preset)


def new_state(rs: Ruleset, seed: int, max_hands: int | None) -> State:
    """A seeded game dealt up to its first decision; ``max_hands`` stops the match early (truncated)."""
    return Game(rs, seed, max_hands=max_hands or None).new_state()
