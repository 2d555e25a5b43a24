"""Play episodes and keep every decision as arrays (RLCard's ``run``): for imitation, offline RL, analysis.

``run("hearts", ["default", "random", my_policy, "default"], episodes=100, seed=1)`` plays 100 seeded
games (each seat by a bundled agent's name, as ``rulecraft simulate --agents`` takes, or by a function
``policy(observation, action_mask) -> action id``) and returns ``Trajectories``: one row per action
taken (a token of a move, as in the PettingZoo environment: a bundled agent's move is recorded as the
tokens that make it), with the acting seat's flat observation and action mask before the action, the
action, and its reward. ``save("run.npz")`` writes NumPy's compressed archive; ``save("run.parquet")``
writes a Parquet table (pyarrow, imported only then: ``pip install pyarrow``).

A row's ``reward`` is everything the acting seat was given from that action until its next one (or
the end): rewards by match, hand or step (``rl.episode``) land on the action they follow. ``done`` marks
each seat's last action of an episode; ``payoffs`` holds each episode's returns per seat.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from rulecraft.agents.base import make_agent
from rulecraft.engine.ruleset import Ruleset
from rulecraft.rl.encoding import Encoding
from rulecraft.rl.episode import DEFAULT_MAX_MOVES, Episode, check_reward, new_state, ruleset_of

Policy = Callable[[npt.NDArray[np.float32], npt.NDArray[np.int8]], int]


@dataclass
class Trajectories:
    """Every action of the episodes played, one row each (see the module docstring)."""

    episode: npt.NDArray[np.int32]
    seat: npt.NDArray[np.int16]
    observation: npt.NDArray[np.float32]
    action_mask: npt.NDArray[np.int8]
    action: npt.NDArray[np.int32]
    reward: npt.NDArray[np.float32]
    done: npt.NDArray[np.bool_]
    payoffs: npt.NDArray[np.float32]  # per episode, per seat: what each seat was given in all
    seeds: npt.NDArray[np.int64]  # per episode: the game's seed

    def __len__(self) -> int:
        return len(self.action)

    def save(self, path: str | Path) -> Path:
        """Write to ``path``: ``.npz`` (NumPy) or ``.parquet`` (pyarrow; one row per action, the episode
        payoffs and seeds in its metadata)."""
        path = Path(path)
        if path.suffix == ".npz":
            np.savez_compressed(path, **{f.name: getattr(self, f.name) for f in fields(self)})
        elif path.suffix == ".parquet":
            _write_parquet(self, path)
        else:
            raise ValueError(f"{path}: trajectories are saved as .npz or .parquet, not '{path.suffix}'")
        return path

    @classmethod
    def load(cls, path: str | Path) -> Trajectories:
        path = Path(path)
        if path.suffix == ".parquet":
            return _read_parquet(path)
        with np.load(path) as data:
            return cls(**{f.name: data[f.name] for f in fields(cls)})


def run(ruleset: str | Ruleset, players: Sequence[str | Policy], episodes: int = 1, seed: int = 0, *,
        preset: str | None = None, max_hands: int | None = None, max_moves: int = DEFAULT_MAX_MOVES,
        reward: str = "win", **options: Any) -> Trajectories:
    """Play ``episodes`` games, game i dealt with seed ``seed + i``, each seat by ``players[seat]`` (an
    agent's name or a policy function); every action recorded (see the module docstring)."""
    rs = ruleset_of(ruleset, options, preset)
    n = rs.seats.count
    if len(players) != n:
        raise ValueError(f"{rs.name} has {n} seats: give {n} players, not {len(players)}")
    for s, p in enumerate(players):
        if isinstance(p, str):
            make_agent(p, 0, s)  # an unknown name is refused before anything is played
    check_reward(reward)
    enc = Encoding(rs)
    rows: dict[str, list[Any]] = {k: [] for k in ("episode", "seat", "observation", "action_mask", "action", "reward")}
    done: list[bool] = []
    payoffs, seeds = [], []
    for i in range(episodes):
        game_seed = seed + i
        episode = Episode(enc, new_state(rs, game_seed, max_hands), max_moves, reward)
        agents = [make_agent(p, game_seed, s) if isinstance(p, str) else None for s, p in enumerate(players)]
        last: dict[int, int] = {}  # seat -> its latest row (the one its rewards go to)
        while not episode.over:
            seat = episode.to_act
            assert seat is not None and episode.st is not None
            agent = agents[seat]
            if agent is not None:
                actions: Any = episode.move_actions(agent.choose(episode.st, seat))
            else:
                actions = None
            while episode.to_act == seat and not episode.over:
                obs, mask = episode.observation(seat), episode.mask(seat)
                if actions is not None:
                    action = next(actions, None)
                    if action is None:
                        break
                else:
                    policy = players[seat]
                    assert callable(policy)
                    action = int(policy(obs, mask))
                last[seat] = len(rows["action"])
                for k, v in (("episode", i), ("seat", seat), ("observation", obs), ("action_mask", mask),
                             ("action", action), ("reward", 0.0)):
                    rows[k].append(v)
                done.append(False)
                episode.take(action)
                if episode.last_rewards is not None:
                    for s, r in enumerate(episode.last_rewards):
                        if r and s in last:
                            rows["reward"][last[s]] += r
                if actions is None:
                    break  # (a policy is asked again for each action)
        for row in last.values():
            done[row] = True
        payoffs.append(list(episode.returns))
        seeds.append(game_seed)
    width = enc.size
    return Trajectories(
        episode=np.asarray(rows["episode"], np.int32),
        seat=np.asarray(rows["seat"], np.int16),
        observation=np.asarray(rows["observation"], np.float32).reshape(-1, width),
        action_mask=np.asarray(rows["action_mask"], np.int8).reshape(-1, enc.num_actions),
        action=np.asarray(rows["action"], np.int32),
        reward=np.asarray(rows["reward"], np.float32),
        done=np.asarray(done, np.bool_),
        payoffs=np.asarray(payoffs, np.float32).reshape(-1, n),
        seeds=np.asarray(seeds, np.int64),
    )


def random_policy(seed: int = 0) -> Policy:
    """A policy that takes a legal action uniformly at random (seeded)."""
    rng = random.Random(seed)

    def policy(observation: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> int:
        return int(rng.choice(np.flatnonzero(mask).tolist()))

    return policy


# -------------------------------------------------------------- Parquet (pyarrow, optional)
def _pyarrow() -> Any:
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ModuleNotFoundError:
        raise ValueError("saving trajectories as Parquet needs pyarrow: pip install pyarrow "
                         "(or save as .npz)") from None
    return pa, pq


def _write_parquet(t: Trajectories, path: Path) -> None:
    pa, pq = _pyarrow()
    table = pa.table({
        "episode": t.episode, "seat": t.seat, "action": t.action, "reward": t.reward, "done": t.done,
        "observation": pa.FixedSizeListArray.from_arrays(t.observation.ravel(), t.observation.shape[1]),
        "action_mask": pa.FixedSizeListArray.from_arrays(t.action_mask.ravel(), t.action_mask.shape[1]),
    })
    meta = {b"payoffs": np.ascontiguousarray(t.payoffs).tobytes(), b"seats": str(t.payoffs.shape[1]).encode(),
            b"seeds": np.ascontiguousarray(t.seeds).tobytes()}
    pq.write_table(table.replace_schema_metadata(meta), path)


def _read_parquet(path: Path) -> Trajectories:
    _pa, pq = _pyarrow()
    table = pq.read_table(path)
    meta = table.schema.metadata
    seats = int(meta[b"seats"])

    def matrix(name: str, dtype: Any) -> Any:
        column = table.column(name).combine_chunks()
        return column.flatten().to_numpy(zero_copy_only=False).astype(dtype).reshape(len(column), -1)

    return Trajectories(
        episode=table.column("episode").to_numpy().astype(np.int32),
        seat=table.column("seat").to_numpy().astype(np.int16),
        observation=matrix("observation", np.float32),
        action_mask=matrix("action_mask", np.int8),
        action=table.column("action").to_numpy().astype(np.int32),
        reward=table.column("reward").to_numpy().astype(np.float32),
        done=table.column("done").to_numpy(zero_copy_only=False).astype(np.bool_),
        payoffs=np.frombuffer(meta[b"payoffs"], np.float32).reshape(-1, seats).copy(),
        seeds=np.frombuffer(meta[b"seeds"], np.int64).copy(),
    )
