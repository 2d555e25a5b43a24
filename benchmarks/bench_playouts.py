"""Random playouts through the public API, in moves per second, against a hand-written baseline.

    python benchmarks/bench_playouts.py [--seconds 3] [--ruleset rook ...]

Each ruleset is played with uniform-random moves (``state.legal_moves()`` then ``state.apply``),
exactly as a Monte Carlo rollout would, for about ``--seconds``, in slices alternating with the
hand-written plain-Python Rook of ``rook_baseline.py`` in the same process. Figures are reported
as a ratio to that baseline because these machines are noisy: absolute moves/s drift from second
to second, so each engine slice is compared with the baseline slices either side of it and the
median ratio is reported. Speed is measured here, never asserted in tests.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from rook_baseline import play_match

from rulecraft.engine.game import Game
from rulecraft.load import load_ruleset
from rulecraft.rules.registry import list_bundled


class EnginePlayouts:
    """Random playouts of one ruleset, resumable: each ``run`` continues where the last one stopped."""

    def __init__(self, ref: str, max_hands: int) -> None:
        self.rs = load_ruleset(ref)
        self.max_hands = max_hands
        self.rng = random.Random(1)
        self.seed = 0

    def run(self, seconds: float) -> tuple[int, float]:
        """Play whole matches for about ``seconds``; returns (moves, elapsed seconds)."""
        rng, moves = self.rng, 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            st = Game(self.rs, self.seed, self.max_hands).new_state()
            while not st.is_over:
                legal = st.legal_moves()
                st.apply(legal[rng.randrange(len(legal))])
                moves += 1
            self.seed += 1
        return moves, time.perf_counter() - start


class BaselinePlayouts:
    def __init__(self, max_hands: int) -> None:
        self.max_hands = max_hands
        self.seed = 0

    def run(self, seconds: float) -> tuple[int, float]:
        moves = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            moves += play_match(self.seed, self.max_hands)
            self.seed += 1
        return moves, time.perf_counter() - start


def interleaved_ratio(engine: EnginePlayouts, baseline: BaselinePlayouts, seconds: float,
                      slices: int) -> tuple[float, float, float]:
    """(engine moves/s, baseline moves/s, median ratio), measured in alternating slices.

    The machine's speed drifts over seconds; each engine slice is compared with the baseline
    slices just before and after it, and the median of those ratios is reported.
    """
    part = seconds / slices
    base_rates = [_rate(baseline.run(part))]
    eng_rates = []
    for _ in range(slices):
        eng_rates.append(_rate(engine.run(part)))
        base_rates.append(_rate(baseline.run(part)))
    ratios = [e / ((base_rates[i] + base_rates[i + 1]) / 2) for i, e in enumerate(eng_rates)]
    return statistics.median(eng_rates), statistics.median(base_rates), statistics.median(ratios)


def _rate(result: tuple[int, float]) -> float:
    moves, elapsed = result
    return moves / elapsed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=3.0,
                    help="engine time per ruleset (as much again for the baseline)")
    ap.add_argument("--slices", type=int, default=6, help="alternating engine/baseline slices per ruleset")
    ap.add_argument("--ruleset", action="append", help="ruleset to measure (default: every bundled base)")
    ap.add_argument("--max-hands", type=int, default=20, help="hands per match (keeps matches comparable)")
    args = ap.parse_args()
    refs = args.ruleset or [name for name in list_bundled() if "/" not in name]
    baseline = BaselinePlayouts(args.max_hands)
    print(f"{'ruleset':<20} {'engine moves/s':>15} {'baseline moves/s':>17} {'ratio':>7}"
          f"   (median of {args.slices} slices)")
    for ref in refs:
        engine = EnginePlayouts(ref, args.max_hands)
        engine.run(min(0.3, args.seconds / 10))  # warm up: first-use caches, imports
        rate, base, ratio = interleaved_ratio(engine, baseline, args.seconds, args.slices)
        print(f"{ref:<20} {rate:>15,.0f} {base:>17,.0f} {ratio:>7.3f}")


if __name__ == "__main__":
    main()
