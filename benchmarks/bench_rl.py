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

from ab_playouts import _load, _source

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


def _rate(run: Any, first: int, games: int) -> float:
    done, took = run(first, games)
    return done / max(took, 1e-9)


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
    args = ap.parse_args()
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
