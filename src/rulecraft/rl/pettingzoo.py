"""Any ruleset as a PettingZoo AEC environment: ``env("my-game", some_option="x")``.

Agents are the seats (``seat_0`` ...). Each observation is a dict: ``observation``, the float32 vector
of ``rl.encoding`` computed only from what that seat may see, and ``action_mask``, the legal action
ids (all zeros for a seat not to act). An action is one token of a move (``rl.choices``): a set of
pieces takes one step per piece, so the same seat may act several times in a row. Rewards arrive
when the match ends (``rl.episode``); a game stopped by ``max_moves`` is truncated. ``reset(seed=s)``
deals the game the engine deals for seed s, so the same seed and actions give the same game.

Needs the ``rl`` extra (pettingzoo, gymnasium, numpy).
"""

from __future__ import annotations

import json
import random
from typing import Any, ClassVar

from gymnasium import spaces
from pettingzoo import AECEnv

from rulecraft.engine.ruleset import Ruleset
from rulecraft.rl import choices
from rulecraft.rl.encoding import Encoding
from rulecraft.rl.episode import DEFAULT_MAX_MOVES, Episode, new_state, ruleset_of
from rulecraft.rl.spaces import check_observation, mask_space, observation_space
from rulecraft.rl.structured import Structure


def env(ruleset: str | Ruleset, *, preset: str | None = None, max_hands: int | None = None,
        max_moves: int = DEFAULT_MAX_MOVES, reward: str = "win", observation: str = "flat",
        render_mode: str | None = None, **options: Any) -> RulecraftEnv:
    """A PettingZoo AEC environment for ``ruleset`` (a bundled name, a path, or a loaded Ruleset).

    Keyword arguments other than those named are the ruleset's option choices (``bird_rank="lowest"``).
    ``max_hands`` stops the match after that many hands (for single-hand studies), ``max_moves`` after
    that many actions (truncated), ``reward`` is ``"win"``, ``"score"``, ``"hand"`` or ``"step"`` (see
    ``rl.episode``), ``observation`` ``"flat"`` (one vector) or ``"structured"`` (named arrays: piece
    planes per zone and seat, scalars, the record; see ``rl.structured``).
    """
    return RulecraftEnv(ruleset_of(ruleset, options, preset), max_hands=max_hands, max_moves=max_moves,
                        reward=reward, observation=observation, render_mode=render_mode)


class RulecraftEnv(AECEnv[str, dict[str, Any], int]):  # type: ignore[misc]
    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi", "human"], "name": "rulecraft_v0",
                                          "is_parallelizable": False}

    def __init__(self, rs: Ruleset, max_hands: int | None = None, max_moves: int = DEFAULT_MAX_MOVES,
                 reward: str = "win", render_mode: str | None = None, observation: str = "flat") -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        check_observation(observation)
        self.rs = rs
        self.enc = Encoding(rs)
        self.max_hands = max_hands
        self.max_moves = max_moves
        self.reward = reward
        self.render_mode = render_mode
        Episode(self.enc, None, max_moves, reward)  # checks max_moves and reward now, not at reset
        self.possible_agents = [f"seat_{s}" for s in range(rs.seats.count)]
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        self.agents = list(self.possible_agents)
        self.structure = Structure(self.enc) if observation == "structured" else None
        obs_space = spaces.Dict({
            "observation": observation_space(self.enc, self.structure),
            "action_mask": mask_space(self.enc),
        })
        act_space = spaces.Discrete(self.enc.num_actions)
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, act_space)
        self._seeds = random.Random()  # for reset() without a seed, as gymnasium does
        self.episode: Episode | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = random.Random(seed)
            game_seed = int(seed)
        else:
            game_seed = self._seeds.randrange(2**63)
        last = self.episode
        self.episode = Episode(self.enc, new_state(self.rs, game_seed, self.max_hands), self.max_moves, self.reward)
        if last is not None:  # the seats' views go on to the next game (each reads what differs from the last)
            self.episode.views = last.views
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._rewarded = False
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        if self.episode.over:  # (a game that ends as it is dealt, before anyone's decision)
            self._end()
        self._select()

    def _end(self) -> None:
        """Every seat's game is over (terminated, or truncated by ``max_moves``), with the result."""
        episode = self.episode
        assert episode is not None
        result = episode.st.result if episode.st is not None else None
        for a in self.possible_agents:
            self.terminations[a] = not episode.truncated
            self.truncations[a] = episode.truncated
            self.infos[a] = {"result": result} if result is not None else {}

    def _select(self) -> None:
        assert self.episode is not None
        seat = self.episode.to_act
        self.agent_selection = self.possible_agents[seat] if seat is not None else self.agents[0]

    def observe(self, agent: str) -> dict[str, Any]:
        assert self.episode is not None, "call reset() first"
        seat = self._seat[agent]
        vec = self.episode.observation(seat)
        return {"observation": vec if self.structure is None else self.structure.split(vec),
                "action_mask": self.episode.mask(seat)}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        episode = self.episode
        assert episode is not None
        if action is None:
            raise ValueError(f"{agent} is to act: step(None) is only for a seat whose game has ended")
        episode.take(action)  # (first: an action refused leaves the rewards as they were)
        self._cumulative_rewards[agent] = 0.0
        if self._rewarded:  # (rewards stay 0 between those given: no loop over the agents at every step)
            self._clear_rewards()
            self._rewarded = False
        given = episode.last_rewards
        if given is not None:
            for a, r in zip(self.possible_agents, given, strict=True):
                self.rewards[a] = r
            self._rewarded = True
        if episode.over:
            self._end()
        if given is not None:
            self._accumulate_rewards()
        self._select()
        if self.render_mode == "human":
            print(self.render())

    def action_string(self, action: int) -> str:
        """An action id as text (``play red-14``, ``bid 85``, ``done``)."""
        return self.enc.action_string(choices.action_id(self.enc, action))

    def render(self) -> str | None:
        """The table as the seat to act sees it (JSON), or the result once the game is over."""
        if self.render_mode is None or self.episode is None or self.episode.st is None:
            return None
        st = self.episode.st
        seat = self.episode.to_act
        view = st.view(seat) if seat is not None else {"result": st.result, "truncated": self.episode.truncated}
        return json.dumps(view, ensure_ascii=False, sort_keys=True)

    def close(self) -> None:
        self.episode = None
