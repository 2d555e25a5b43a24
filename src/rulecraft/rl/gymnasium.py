"""Any ruleset as a gymnasium environment for one seat, the others played by bundled agents; and N of
them as one vector environment.

``single_agent_env("hearts", seat=0, opponents="default")`` is a ``gymnasium.Env``: each step is one
action of ``seat`` (a token of a move, as in PettingZoo: a set of k pieces is k steps); between two of
its decisions the other seats move by their agents (``default``, ``random``, ``mc:50`` ..., the names
``rulecraft simulate --agents`` takes), each seeded from the game's seed and its seat, so a seed and
the same actions give the same game. A game that ends before the seat's first decision (the others
threw the hand in, with ``max_hands=1``) is no episode: ``reset`` deals the next one, its seed drawn
from the reset's, and lists the seeds it passed over in ``info["skipped_games"]``. Observations are a
dict of ``observation`` (the flat vector of ``rl.encoding``, or the named arrays of ``rl.structured``)
and ``action_mask``; ``action_masks()`` gives the mask too (as sb3-contrib's MaskablePPO asks). The
reward is the seat's (``rl.episode``: by match, hand or step), summed over everything that happened
since its last action.

An action the mask does not allow ends the episode (``terminated``) with ``illegal_reward`` and
``info["illegal_action"]`` (PettingZoo's convention for classic games), or, with ``illegal="raise"``,
raises ValueError and changes nothing.

``vector_env("hearts", 8)`` is gymnasium's ``SyncVectorEnv`` over eight such games sharing one loaded
ruleset, with gymnasium's auto-reset (a game that ends is dealt again at the next step). Needs the
``rl`` extra.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import SyncVectorEnv

from rulecraft.agents.base import Agent, make_agent
from rulecraft.engine.ruleset import Ruleset
from rulecraft.rl import choices
from rulecraft.rl.encoding import Encoding
from rulecraft.rl.episode import DEFAULT_MAX_MOVES, Episode, check_reward, new_state, ruleset_of
from rulecraft.rl.spaces import check_observation, mask_space, observation_space
from rulecraft.rl.structured import Structure

ILLEGAL = ("terminate", "raise")
MAX_SKIPPED = 100  # games in a row that end before the seat's first decision, before reset() gives up


def single_agent_env(ruleset: str | Ruleset, seat: int = 0, opponents: str | Sequence[str] = "default", *,
                     preset: str | None = None, max_hands: int | None = None, max_moves: int = DEFAULT_MAX_MOVES,
                     reward: str = "win", observation: str = "flat", illegal: str = "terminate",
                     illegal_reward: float = -1.0, render_mode: str | None = None,
                     **options: Any) -> SingleAgentEnv:
    """A gymnasium environment: ``seat`` of ``ruleset`` (a bundled name, a path or a loaded Ruleset),
    the other seats played by ``opponents`` (one agent name for all, or one per seat, the learner's
    own entry ignored). Other keywords are the ruleset's option choices; the rest as ``rl.pettingzoo.env``."""
    return SingleAgentEnv(ruleset_of(ruleset, options, preset), seat, opponents, max_hands=max_hands,
                          max_moves=max_moves, reward=reward, observation=observation, illegal=illegal,
                          illegal_reward=illegal_reward, render_mode=render_mode)


def vector_env(ruleset: str | Ruleset, n: int, *, preset: str | None = None, **kwargs: Any) -> SyncVectorEnv:
    """``n`` games of ``single_agent_env(ruleset, **kwargs)`` as gymnasium's vector environment (auto-reset:
    a game that ends is dealt again at the next step). ``reset(seed=s)`` deals game i with seed s + i."""
    if n < 1:
        raise ValueError(f"a vector environment needs at least one game, not {n}")
    rules = {k: kwargs.pop(k) for k in list(kwargs) if k not in _SETTINGS}
    rs = ruleset_of(ruleset, rules, preset)  # loaded once, shared by every game
    return SyncVectorEnv([lambda: single_agent_env(rs, **kwargs) for _ in range(n)])


_SETTINGS = ("seat", "opponents", "max_hands", "max_moves", "reward", "observation", "illegal", "illegal_reward",
             "render_mode")


class SingleAgentEnv(gymnasium.Env[dict[str, Any], int]):
    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012  (gymnasium declares it an instance attribute)

    def __init__(self, rs: Ruleset, seat: int = 0, opponents: str | Sequence[str] = "default", *,
                 max_hands: int | None = None, max_moves: int = DEFAULT_MAX_MOVES, reward: str = "win",
                 observation: str = "flat", illegal: str = "terminate", illegal_reward: float = -1.0,
                 render_mode: str | None = None) -> None:
        n = rs.seats.count
        if not 0 <= seat < n:
            raise ValueError(f"seat must be one of 0 to {n - 1}, not {seat}")
        specs = [opponents] * n if isinstance(opponents, str) else list(opponents)
        if len(specs) == n - 1:
            specs.insert(seat, "")
        if len(specs) != n:
            raise ValueError(f"opponents: one agent name for all, or one per seat ({n}, or {n - 1} without "
                             f"the learner's), not {len(specs)}")
        for s, spec in enumerate(specs):
            if s != seat:
                make_agent(spec, 0, s)  # an unknown name is refused now, not at the first reset
        check_reward(reward)
        check_observation(observation)
        if illegal not in ILLEGAL:
            raise ValueError(f"illegal must be one of {', '.join(ILLEGAL)}, not {illegal!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        if max_moves < 1:
            raise ValueError(f"max_moves must be at least 1, not {max_moves}")
        self.rs, self.seat, self.specs = rs, seat, specs
        self.enc = Encoding(rs)
        self.max_hands, self.max_moves, self.reward = max_hands, max_moves, reward
        self.illegal, self.illegal_reward = illegal, float(illegal_reward)
        self.render_mode = render_mode
        self.structure = Structure(self.enc) if observation == "structured" else None
        self.observation_space = spaces.Dict({"observation": observation_space(self.enc, self.structure),
                                              "action_mask": mask_space(self.enc)})
        self.action_space = spaces.Discrete(self.enc.num_actions)  # type: ignore[assignment]  # (a Discrete of int64)
        self.episode: Episode | None = None
        self.agents: list[Agent | None] = []
        self.game_seed = 0
        self._ended = False  # by an illegal action

    # -------------------------------------------------------------- gymnasium
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(seed) if seed is not None else int(self.np_random.integers(2**63))
        skipped: list[int] = []
        while True:
            self._deal(game_seed)
            assert self.episode is not None
            if not self.episode.over:
                break
            # The game ended before the seat had a decision (the others threw the hand in, say, with
            # max_hands=1): an episode with nothing to do is no episode; the next game is dealt, its
            # seed drawn from this reset's (so the same seed still gives the same episode).
            skipped.append(game_seed)
            if len(skipped) == MAX_SKIPPED:
                raise RuntimeError(f"seat {self.seat} had no decision in {MAX_SKIPPED} games dealt (seeds "
                                   f"{skipped[0]}, {skipped[1]} ...): in this ruleset the seat may sit the hand "
                                   "out or another seat decide for it; choose another seat, or more hands "
                                   f"(max_hands={self.max_hands})")
            game_seed = int(self.np_random.integers(2**63))
        info = self._info()
        if skipped:
            info["skipped_games"] = skipped
        return self._observation(), info

    def _deal(self, game_seed: int) -> None:
        """Deal the game of ``game_seed`` and play the other seats until the seat is to act or it ends."""
        self.game_seed = game_seed
        self.episode = Episode(self.enc, new_state(self.rs, game_seed, self.max_hands), self.max_moves,
                               self.reward)
        self.agents = [None if s == self.seat else make_agent(spec, game_seed, s)
                       for s, spec in enumerate(self.specs)]
        self._ended = False
        self._others()

    def step(self, action: int) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        episode = self.episode
        if episode is None:
            raise RuntimeError("call reset() first")
        if self._ended or episode.over:
            raise RuntimeError("the episode has ended: call reset()")
        try:
            choices.action_id(self.enc, action)
            legal = action in episode.legal_actions()
        except ValueError:
            if self.illegal == "raise":
                raise
            legal = False
        if not legal:
            if self.illegal == "raise":
                episode.take(action)  # (raises, saying why)
            self._ended = True
            info = self._info()
            info["illegal_action"] = True
            return self._observation(), self.illegal_reward, True, False, info
        episode.take(int(action))
        reward = self._reward()
        reward += self._others()
        over = episode.over
        return self._observation(), reward, over and not episode.truncated, episode.truncated, self._info()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of the seat now, as booleans (sb3-contrib's MaskablePPO asks for this)."""
        assert self.episode is not None, "call reset() first"
        return self.episode.mask(self.seat).astype(bool)

    def render(self) -> str | None:
        """The table as the seat sees it (JSON, with its legal moves when it is to act)."""
        if self.render_mode is None or self.episode is None or self.episode.st is None:
            return None
        return json.dumps(self.episode.st.view(self.seat), ensure_ascii=False, sort_keys=True)

    # -------------------------------------------------------------- the other seats
    def _others(self) -> float:
        """Play the other seats until ``seat`` is to act or the game is over; the seat's rewards meanwhile."""
        episode = self.episode
        assert episode is not None and episode.st is not None
        reward = 0.0
        while not episode.over and episode.to_act != self.seat:
            mover = episode.to_act
            assert mover is not None
            agent = self.agents[mover]
            assert agent is not None
            for a in episode.move_actions(agent.choose(episode.st, mover)):
                episode.take(a)
                reward += self._reward()
        return reward

    def _reward(self) -> float:
        assert self.episode is not None
        given = self.episode.last_rewards
        return given[self.seat] if given is not None else 0.0

    def _observation(self) -> dict[str, Any]:
        episode = self.episode
        assert episode is not None
        vec = episode.observation(self.seat)
        mask = episode.mask(self.seat) if not self._ended else np.zeros(self.enc.num_actions, np.int8)
        return {"observation": vec if self.structure is None else self.structure.split(vec), "action_mask": mask}

    def _info(self) -> dict[str, Any]:
        episode = self.episode
        assert episode is not None and episode.st is not None
        info: dict[str, Any] = {"seed": self.game_seed}
        if episode.st.result is not None:
            info["result"] = episode.st.result
        return info
