"""One game as a learning environment sees it: whose turn, which action ids are legal, taking one.

An ``Episode`` wraps an engine ``State`` with the move being chosen (a prefix of tokens, see
``rl.choices``), the number of actions taken and a cap on them. Every adapter drives one.

Rewards (``reward=``), the same in every adapter:

* ``"win"`` (the default), at the end of the match, zero-sum: each winner gets ``n / w - 1`` and every
  other seat ``-1`` (n seats, w winners; a two-seat game is +1 / -1, a four-seat partnership game +1
  for each partner of the winning side and -1 for the others, a tie among all 0);
* ``"score"``, at the end of the match: each seat's match score (``match.score``, how the ruleset
  ranks seats);
* ``"hand"``, at the end of each hand: how much each seat's match score changed over the hand;
* ``"step"``, after every action: how much each seat's match score changed with it (0 until a rule
  changes a score; a move of several tokens changes it at its last).

``"hand"`` and ``"step"`` add up, over a match, to the match score less the score it began with. A
game stopped by the cap on actions (``max_moves``) is *truncated*: no reward at its end (every seat
gets 0 then; rewards already given by ``"hand"`` or ``"step"`` stay given).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import numpy.typing as npt

from rulecraft.engine.game import Game
from rulecraft.engine.moves import Move
from rulecraft.engine.ruleset import Ruleset
from rulecraft.engine.standings import match_scores
from rulecraft.engine.state import State
from rulecraft.load import load_ruleset
from rulecraft.rl import choices
from rulecraft.rl.encoding import DONE, Encoding, Vector
from rulecraft.rl.seatview import SeatView

REWARDS = ("win", "score", "hand", "step")
AT_THE_END = ("win", "score")  # rewards only when the match ends (zero-sum: "win")
DEFAULT_MAX_MOVES = 100_000


def match_rewards(result: dict[str, Any] | None, seats: int, reward: str) -> list[float]:
    if result is None:
        return [0.0] * seats
    if reward != "win":
        return [float(x) for x in result["scores"]]
    winners = set(result["winners"])
    share = seats / len(winners) - 1.0
    return [share if s in winners else -1.0 for s in range(seats)]


def check_reward(reward: str) -> None:
    if reward not in REWARDS:
        raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")


class Episode:
    """A game in progress with the move being chosen. ``st`` is None only before the first deal."""

    def __init__(self, enc: Encoding, st: State | None, max_moves: int = DEFAULT_MAX_MOVES,
                 reward: str = "win") -> None:
        check_reward(reward)
        if max_moves < 1:
            raise ValueError(f"max_moves must be at least 1, not {max_moves}")
        self.enc = enc
        self.st = st
        self.prefix: tuple[int, ...] = ()
        self.steps = 0
        self.max_moves = max_moves
        self.reward = reward
        self.truncated = False
        self.views: dict[tuple[int | None, bool], SeatView] = {}  # each viewer's observation, kept up to date
        self._found: tuple[Any, tuple[int, ...], choices.Options, choices.Candidates | None] | None = None
        self.last_rewards: list[float] | None = None  # what the last action gave each seat (None: nothing)
        self.returns = [0.0] * enc.seats  # what every action so far gave, added up
        self._scores: list[float] | None = None  # the match scores when rewards were last given ("hand", "step")
        self._hands = 0  # hands ended when rewards were last given ("hand")

    def copy(self) -> Episode:
        c = Episode.__new__(Episode)
        self._copy_into(c)
        return c

    def _copy_into(self, c: Episode) -> None:
        c.enc, c.max_moves, c.reward = self.enc, self.max_moves, self.reward
        c.st = self.st.clone() if self.st is not None else None
        c.prefix, c.steps, c.truncated = self.prefix, self.steps, self.truncated
        c.views, c._found = {}, None  # (a copy's views start afresh when first asked)
        c.last_rewards, c.returns = self.last_rewards, list(self.returns)
        c._scores, c._hands = self._scores, self._hands

    @property
    def over(self) -> bool:
        return self.truncated or (self.st is not None and self.st.is_over)

    @property
    def to_act(self) -> int | None:
        st = self.st
        if st is None or self.truncated or st.is_over:
            return None
        return st.to_act

    def options(self) -> choices.Options:
        """What may follow the prefix now, worked out once per decision and prefix (the mask and the
        step that follows it both need it)."""
        assert self.st is not None
        legal = self.st.legal_moves()
        found, prefix = self._found, self.prefix
        if found is None or found[0] is not legal or found[1] != prefix:  # (a new list after each move)
            # The moves that begin with the prefix, narrowed token by token within a decision.
            within = found[3] if found is not None and found[0] is legal and found[1] == prefix[:-1] else None
            cands = choices.candidates(self.enc, legal, prefix, within)
            found = self._found = (legal, prefix, choices.options(self.enc, legal, prefix, cands), cands)
        return found[2]

    def legal_actions(self) -> list[int]:
        if self.to_act is None:
            return []
        assert self.st is not None
        return choices.legal_actions(self.enc, self.st.legal_moves(), self.prefix, self.options())

    def mask(self, seat: int) -> npt.NDArray[np.int8]:
        """The action mask of ``seat``: 1 for each legal action id (all 0 for a seat not to act)."""
        mask = np.zeros(self.enc.num_actions, np.int8)
        if seat == self.to_act:
            cells: Any = memoryview(mask)  # type: ignore[arg-type]  # (item by item, quicker than indexing the array)
            nexts, complete = self.options()[:2]  # (what legal_actions lists, without sorting it)
            for a in nexts:
                cells[a] = 1
            if complete is not None and nexts:
                cells[DONE] = 1
        return mask

    def move_actions(self, move: Move) -> Iterator[int]:
        """The actions that make ``move`` (a bundled agent's choice), each to be taken before the next is
        asked for: its tokens, and ``done`` when a longer move could have followed them."""
        yield from self.enc.move_tokens(move)
        if self.prefix:
            yield DONE

    def take(self, action: int) -> Move | None:
        """Take one action of the seat to act; returns the move it completes (already made), if any.
        ``last_rewards`` then says what the action gave each seat."""
        assert self.st is not None and self.to_act is not None
        if self._scores is None and self.reward not in AT_THE_END:
            self.start_scores()
        self.prefix, move = choices.choose(self.enc, self.st.legal_moves(), self.prefix, action, self.options())
        self.steps += 1
        if move is not None:
            self.make(move)
        self.last_rewards = None
        if not self.waiting:
            self.settle(move is not None)
        if self.steps >= self.max_moves and not self.over:
            self.truncated = True
        return move

    def make(self, move: Move) -> None:
        """Make a whole move on the engine state (the OpenSpiel adapter turns chance into chance nodes here)."""
        assert self.st is not None
        self.st.apply(move)

    @property
    def waiting(self) -> bool:
        """Whether the move just made waits for chance before the game goes on (OpenSpiel's chance nodes)."""
        return False

    def settle(self, made: bool) -> None:
        """Give the rewards of the step that just ended (``made``: a whole move was made)."""
        self.last_rewards = given = self._rewarded(made)
        if given is not None:
            self.returns = [a + b for a, b in zip(self.returns, given, strict=True)]

    def start_scores(self) -> None:
        """Take the scores rewards by ``"hand"`` and ``"step"`` are changes of (when the game is dealt)."""
        assert self.st is not None
        self._scores = match_scores(self.st)
        self._hands = len(self.st.hand_results)

    def _rewarded(self, made: bool) -> list[float] | None:
        st = self.st
        if self.truncated or st is None:
            return None
        if self.reward in AT_THE_END:
            return match_rewards(st.result, self.enc.seats, self.reward) if st.is_over else None
        if not made or (self.reward == "hand" and len(st.hand_results) == self._hands):
            return None
        now = match_scores(st)
        assert self._scores is not None
        change = [a - b for a, b in zip(now, self._scores, strict=True)]
        self._scores, self._hands = now, len(st.hand_results)
        return change if any(change) else None

    def rewards(self) -> list[float]:
        """The match's rewards by ``"win"`` or ``"score"`` once it is over (0 while it goes on, or truncated)."""
        if self.truncated or self.st is None or not self.st.is_over:
            return [0.0] * self.enc.seats
        return match_rewards(self.st.result, self.enc.seats, "win" if self.reward == "win" else "score")

    def observation(self, viewer: int | None, recall: bool = False) -> Vector:
        """``viewer``'s observation now (a new array), from its view kept since it last asked (``rl.seatview``)."""
        assert self.st is not None
        view = self.views.get((viewer, recall))
        if view is None:
            view = self.views[viewer, recall] = SeatView(self.enc, viewer, recall)
        selection = self.prefix if self.prefix and viewer is not None and viewer == self.to_act else ()
        return view.update(self.st, selection).copy()


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
