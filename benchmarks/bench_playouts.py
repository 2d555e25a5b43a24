"""Random playouts through the public API, in moves per second, against a hand-written baseline.

    python benchmarks/bench_playouts.py [--seconds 3] [--ruleset rook ...]

Each ruleset is played with uniform-random moves (``state.legal_moves()`` then ``state.apply``),
exactly as a Monte Carlo rollout would, for about ``--seconds``; then the hand-written plain-Python
Rook of ``rook_baseline.py`` runs for as long in the same process. Figures are reported as a
ratio to that baseline because these machines are noisy: absolute moves/s drift run to run, the
ratio much less. Speed is measured here, never asserted in tests.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from rook_baseline import play_match

from rulecraft.engine.game import Game
from rulecraft.rules.model import load_ruleset
from rulecraft.rules.registry import list_bundled


def engine_rate(ref: str, seconds: float, max_hands: int) -> float:
    rs = load_ruleset(ref)
    rng = random.Random(1)
    moves = 0
    seed = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        st = Game(rs, seed, max_hands).new_state()
        while not st.is_over:
            legal = st.legal_moves()
            st.apply(legal[rng.randrange(len(legal))])
            moves += 1
        seed += 1
    return moves / (time.perf_counter() - start)


def baseline_rate(seconds: float, max_hands: int) -> float:
    moves = 0
    seed = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        moves += play_match(seed, max_hands)
        seed += 1
    return moves / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    ap.add_argument("--ruleset", action="append", help="ruleset to measure (default: every bundled base)")
    ap.add_argument("--max-hands", type=int, default=20, help="hands per match (keeps matches comparable)")
    args = ap.parse_args()
    refs = args.ruleset or [name for name in list_bundled() if "/" not in name]
    base = baseline_rate(args.seconds, args.max_hands)
    print(f"{'hand-written Rook (baseline)':<32} {base:>12,.0f} moves/s   1.000")
    for ref in refs:
        rate = engine_rate(ref, args.seconds, args.max_hands)
        print(f"{'engine ' + ref:<32} {rate:>12,.0f} moves/s   {rate / base:.3f} of baseline")
    again = baseline_rate(args.seconds, args.max_hands)
    print(f"{'baseline again (noise check)':<32} {again:>12,.0f} moves/s   {again / base:.3f}")


if __name__ == "__main__":
    main()
