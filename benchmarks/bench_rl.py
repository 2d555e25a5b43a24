"""The research adapters at the engine's speed: PettingZoo random-loop steps/s over the raw engine's moves/s.

    python benchmarks/bench_rl.py                                   # Hearts, Rook, Big Two, Luk Fu
    python benchmarks/bench_rl.py --ruleset hearts --rounds 9 --before cf832a3

For each ruleset, three loops play one-hand games (``max_hands=1``) with uniform-random choices:

* ``raw``: the engine itself, ``state.legal_moves()`` then ``state.apply`` (a Monte Carlo rollout);
* ``after``: the PettingZoo AEC loop of this working tree, ``agent_iter`` / ``last()`` (the acting
  seat's observation and action mask) / a random legal action from the mask / ``step``;
* ``before``: the same loop on the adapters of the revision ``--before`` (default ``cf832a3``, before
  issue 36), its ``src`` copied under another package name and loaded beside this one (as
  ``ab_playouts.py`` does).

The three alternate in short slices, round after round, timed by this process's CPU time (a machine
shared with other work drifts; a slice's CPU time much less); each round gives ``after`` and
``before`` steps/s over the mean of the ``raw`` slices either side, and the median over the rounds is
reported. A PettingZoo step is one token of a move (a set of k pieces is k steps), as an RL agent
acts. The target of issue 36 is ``after / raw >= 0.40``. Speed is measured here, never asserted in tests.

``--where`` says where a step's time goes instead, in microseconds of CPU per step (medians over the
rounds, in the same alternation): ``engine``, the raw loop's time per move times the moves per step;
``floor``, the same AEC loop over an environment that does nothing (PettingZoo's ``agent_iter`` and
``last``, a fresh observation and mask, this loop's random pick from the mask); ``adapter``, what the
AEC loop with the observation vector left out (the mask only) costs beyond those two (legal action ids
and the mask, tokens into moves, rewards, whose turn); ``observation``, what the vector adds.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np
from ab_playouts import _load, _source
from pettingzoo import AECEnv

from rulecraft.engine.game import Game
from rulecraft.load import load_ruleset
from rulecraft.rl.pettingzoo import env

RULESETS = ("hearts", "rook", "big-two", "luk-fu")
clock = time.process_time


def raw_loop(ref: str) -> Any:
    rs = load_ruleset(ref)
    rng = random.Random(1)

    def run(first: int, games: int) -> tuple[int, float]:
        moves, start = 0, clock()
        for seed in range(first, first + games):
            st = Game(rs, seed, 1).new_state()
            while not st.is_over:
                legal = st.legal_moves()
                st.apply(legal[rng.randrange(len(legal))])
                moves += 1
        return moves, clock() - start

    return run


def aec_loop(make_env: Any, ref: str) -> Any:
    game = make_env(ref, max_hands=1)
    rng = random.Random(1)

    def run(first: int, games: int) -> tuple[int, float]:
        steps, start = 0, clock()
        for seed in range(first, first + games):
            game.reset(seed=seed)
            for _agent in game.agent_iter():
                obs, _reward, terminated, truncated, _info = game.last()
                if terminated or truncated:
                    game.step(None)
                    continue
                game.step(rng.choice(obs["action_mask"].nonzero()[0].tolist()))
                steps += 1
        return steps, clock() - start

    return run


class _Idle(AECEnv):  # type: ignore[misc]
    """The floor: an AEC environment of ``seats`` agents whose observation, mask and step cost nothing
    beyond PettingZoo's API (a game of ``length`` steps, a fixed mask)."""

    def __init__(self, seats: int, size: int, actions: int, length: int) -> None:
        super().__init__()
        self.possible_agents = [f"seat_{s}" for s in range(seats)]
        self.length = length
        self.vec = np.zeros(size, np.float32)
        self.mask = np.zeros(actions, np.int8)
        self.mask[: min(actions, 8)] = 1

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.agents = list(self.possible_agents)
        self.n = 0
        self.agent_selection = self.agents[0]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}

    def observe(self, agent: str) -> dict[str, Any]:
        return {"observation": self.vec.copy(), "action_mask": self.mask.copy()}

    def step(self, action: int | None) -> None:
        self.n += 1
        if self.n >= self.length:
            self.agents = []
            return
        self.agent_selection = self.possible_agents[self.n % len(self.possible_agents)]


def _mask_only(make_env: Any) -> Any:
    """``make_env`` whose observations leave the vector out (None): the adapter without its observation."""

    def make(ref: str, **kw: Any) -> Any:
        game = make_env(ref, **kw)
        game.observe = lambda agent: {"observation": None, "action_mask": game.episode.mask(game._seat[agent])}
        return game

    return make


def where(ref: str, rounds: int, games: int) -> dict[str, float]:
    """Microseconds of CPU per PettingZoo step, by part (see the module docstring)."""
    probe = env(ref, max_hands=1)
    steps = moves = 0
    rng = random.Random(0)
    for seed in range(20_000, 20_000 + games):  # steps per game and moves per step, counted once
        probe.reset(seed=seed)
        for _agent in probe.agent_iter():
            obs, _r, terminated, truncated, _i = probe.last()
            probe.step(None if terminated or truncated else rng.choice(obs["action_mask"].nonzero()[0].tolist()))
            if not (terminated or truncated):
                steps += 1
                moves += not probe.episode.prefix
    idle = _Idle(probe.enc.seats, probe.enc.size, probe.enc.num_actions, max(1, steps // games))
    loops = {"raw": raw_loop(ref), "full": aec_loop(env, ref), "mask": aec_loop(_mask_only(env), ref),
             "floor": aec_loop(lambda _ref, **_kw: idle, ref)}
    for run in loops.values():
        run(10_000, 2)
    per: dict[str, list[float]] = {k: [] for k in loops}
    for r in range(rounds):
        for name, run in loops.items():
            per[name].append(1e6 / _rate(run, r * games, games))
    us = {k: statistics.median(v) for k, v in per.items()}
    engine = us["raw"] * moves / steps
    return {"engine": engine, "floor": us["floor"], "adapter": us["mask"] - us["floor"] - engine,
            "observation": us["full"] - us["mask"], "step": us["full"]}


def _rate(run: Any, first: int, games: int) -> float:
    done, took = run(first, games)
    return float(done / max(took, 1e-9))


def measure(ref: str, before_env: Any, rounds: int, games: int) -> dict[str, float]:
    loops = {"raw": raw_loop(ref), "after": aec_loop(env, ref)}
    if before_env is not None:
        loops["before"] = aec_loop(before_env, ref)
    for run in loops.values():  # warm up: generated code, first-use caches
        run(10_000, 2)
    ratios: dict[str, list[float]] = {k: [] for k in loops if k != "raw"}
    rates: dict[str, list[float]] = {k: [] for k in loops}
    for r in range(rounds):
        first = r * games
        raw1 = _rate(loops["raw"], first, games)
        for name in ratios:
            rates[name].append(_rate(loops[name], first, games))
        raw2 = _rate(loops["raw"], first, games)
        rates["raw"] += [raw1, raw2]
        for name in ratios:
            ratios[name].append(rates[name][-1] / ((raw1 + raw2) / 2))
    out = {f"{k} per s": statistics.median(v) for k, v in rates.items()}
    out.update({f"{k} / raw": statistics.median(v) for k, v in ratios.items()})
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ruleset", action="append", help=f"a ruleset to measure (default: {', '.join(RULESETS)})")
    ap.add_argument("--rounds", type=int, default=7, help="raw / after / before rounds (default 7)")
    ap.add_argument("--games", type=int, default=4, help="one-hand games per slice (default 4)")
    ap.add_argument("--before", default="cf832a3", help="the revision to compare with (default cf832a3); "
                    "'none' measures this tree alone")
    ap.add_argument("--where", action="store_true", help="where a step's time goes (microseconds per step)")
    args = ap.parse_args()
    if args.where:
        print(f"{'ruleset':10} {'engine':>8} {'floor':>8} {'adapter':>8} {'observation':>12} {'step':>8}"
              f" {'engine / step':>14}   (CPU microseconds per PettingZoo step)")
        for ref in args.ruleset or RULESETS:
            w = where(ref, args.rounds, args.games)
            print(f"{ref:10} {w['engine']:8.1f} {w['floor']:8.1f} {w['adapter']:8.1f} {w['observation']:12.1f}"
                  f" {w['step']:8.1f} {w['engine'] / w['step']:14.2f}", flush=True)
        return
    with tempfile.TemporaryDirectory(prefix="rulecraft-rl-") as tmp:
        before_env = None
        if args.before != "none":
            work = Path(tmp)
            (work / "rev").mkdir()
            _load(_source(args.before, work / "rev"), "rulecraft_before", work)
            before_env = __import__("rulecraft_before.rl.pettingzoo", fromlist=["env"]).env
        print(f"{'ruleset':10} {'raw moves/s':>12} {'after steps/s':>14} {'after / raw':>12}"
              + (f" {'before steps/s':>15} {'before / raw':>13} {'after / before':>15}" if before_env else ""))
        for ref in args.ruleset or RULESETS:
            m = measure(ref, before_env, args.rounds, args.games)
            line = f"{ref:10} {m['raw per s']:12,.0f} {m['after per s']:14,.0f} {m['after / raw']:12.3f}"
            if before_env is not None:
                line += (f" {m['before per s']:15,.0f} {m['before / raw']:13.3f}"
                         f" {m['after / raw'] / m['before / raw']:15.2f}")
            print(line, flush=True)


if __name__ == "__main__":
    main()
