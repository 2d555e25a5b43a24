"""One-hand random playouts through the public API against a yardstick for the same kind of game.

    python benchmarks/bench_yardsticks.py                       # every pair below, ~10 s each
    python benchmarks/bench_yardsticks.py --pair tien-gow --seconds 20 --slices 20

Each pair plays matches of one hand, with uniform-random decisions, in slices alternating with its
yardstick in the same process; each engine slice is divided by the mean of the yardstick slices
either side of it, and the median ratio is reported with its quartiles (the machine's speed drifts
by ±20% within seconds, the ratio far less). Slices are timed by the process's CPU time unless
``--clock wall`` is given: on a machine shared with other work, time spent waiting for a core would
otherwise count against whichever side was running. Speed is measured here, never asserted in tests.

- rook: OpenSpiel's C++ hearts driven from Python (``legal_actions``, a uniform choice,
  ``apply_action``; the deal's chance nodes drawn the same way and not counted), a hand-coded C++
  trick game. Needs the optional ``bench`` extra (``pip install -e '.[bench]'``); skipped without it.
- tien-gow: ``tiengow_baseline.py``, a naive plain-Python Tien Gow.
- luk-fu: ``lukfu_baseline.py``, a naive plain-Python Luk Fu.
- ``--phases``: instead of ratios, where a hand's time goes on the engine's side (the new state with its
  deal, then each phase's decisions, the last one's apply, which scores the hand, apart), in CPU µs a hand,
  beside the yardstick's whole hand in the same run: which part alone already costs more than the
  yardstick's hand.
- rook-by-hand: not the engine but ``rook_baseline.py``, a hand-written plain-Python Rook, against
  the same OpenSpiel hearts: what straightforward Python achieves, to read the rook pair's target by
  (only when asked for with ``--pair rook-by-hand``).

Decisions are counted alike on both sides: every move a player (not chance) makes. Beside the ratio of
decisions per second, ``hands`` is the ratio of whole hands per second (the deal and everything up to
the hand's end, on both sides): the measure for games whose hands take different numbers of decisions
(a hand of hearts has 61, one of Rook about 47).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import lukfu_baseline
import rook_baseline
import tiengow_baseline

from rulecraft.engine.game import Game
from rulecraft.load import load_ruleset

CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}
clock = time.process_time


class Playouts:
    """Matches of one hand played back to back for about ``seconds``; returns (decisions, hands, seconds)."""

    def __init__(self, play_one: Callable[[int], int]) -> None:
        self.play_one = play_one
        self.seed = 0

    def run(self, seconds: float) -> tuple[int, int, float]:
        moves = hands = 0
        start = clock()
        while clock() - start < seconds:
            moves += self.play_one(self.seed)
            self.seed += 1
            hands += 1
        return moves, hands, clock() - start


def engine_hand(ref: str) -> Callable[[int], int]:
    rs = load_ruleset(ref)
    rng = random.Random(1)

    def play(seed: int) -> int:
        st = Game(rs, seed, 1).new_state()
        moves = 0
        while not st.is_over:
            legal = st.legal_moves()
            st.apply(legal[rng.randrange(len(legal))])
            moves += 1
        return moves

    return play


def phase_split(ref: str, hands: int) -> dict[str, float]:
    """µs a hand (wall clock) spent in each part of ``hands`` one-hand random playouts of ``ref``: the new state (its
    deal), each phase's decisions (legal moves and apply), and the hand's last apply (its scoring) apart."""
    rs = load_ruleset(ref)
    rng = random.Random(1)
    spent: dict[str, float] = {}
    # Read per decision, so the wall clock (~0.05 µs a read; the CPU clock is a system call of ~1 µs, which
    # would swamp the parts): run it on a quiet machine, or read the ratio beside it as approximate.
    tick = time.perf_counter
    for seed in range(hands):
        t0 = tick()
        st = Game(rs, seed, 1).new_state()
        t1 = tick()
        spent["new state and deal"] = spent.get("new state and deal", 0.0) + t1 - t0
        while not st.is_over:
            part = rs.phases[st.pidx].id
            legal = st.legal_moves()
            st.apply(legal[rng.randrange(len(legal))])
            t0, t1 = t1, tick()
            part = "last decision and scoring" if st.is_over else f"phase '{part}'"
            spent[part] = spent.get(part, 0.0) + t1 - t0
    return {part: seconds / hands * 1e6 for part, seconds in spent.items()}


def show_phases(ref: str, yardstick: tuple[str, Callable[[int], int] | None], hands: int) -> None:
    name, play = yardstick
    split = phase_split(ref, hands)
    print(f"{ref}: µs a hand (wall clock), {hands:,} one-hand random playouts")
    for part, us in sorted(split.items(), key=lambda kv: -kv[1]):
        print(f"  {part:<32} {us:8.1f}")
    print(f"  {'whole hand':<32} {sum(split.values()):8.1f}")
    if play is not None:  # timed by the same (wall) clock as the parts
        global clock
        kept, clock = clock, time.perf_counter
        try:
            base = Playouts(play)
            base.run(0.3)
            _, played, seconds = base.run(max(1.0, sum(split.values()) * hands / 1e6))
        finally:
            clock = kept
        print(f"  {name + ', whole hand':<32} {seconds / played * 1e6:8.1f}")


def openspiel_hand() -> Callable[[int], int] | None:
    try:
        import pyspiel  # type: ignore[import-not-found]  # the optional bench extra
    except ImportError:
        return None
    game = pyspiel.load_game("hearts")
    rng = random.Random(1)

    def play(seed: int) -> int:
        st = game.new_initial_state()
        moves = 0
        while not st.is_terminal():
            legal = st.legal_actions()
            if not st.is_chance_node():
                moves += 1
            st.apply_action(legal[rng.randrange(len(legal))])
        return moves

    return play


def interleaved(engine: Playouts, yardstick: Playouts, seconds: float,
                slices: int) -> tuple[float, float, list[float], list[float]]:
    """(engine decisions/s, yardstick decisions/s, per-slice ratios of decisions/s, per-slice ratios of
    whole hands/s), in alternating slices."""
    part = seconds / slices
    base = [yardstick.run(part)]
    eng = []
    for _ in range(slices):
        eng.append(engine.run(part))
        base.append(yardstick.run(part))
    ratios = [_ratio(e, base[i], base[i + 1], 0) for i, e in enumerate(eng)]
    hand_ratios = [_ratio(e, base[i], base[i + 1], 1) for i, e in enumerate(eng)]
    return (statistics.median(_rate(e, 0) for e in eng), statistics.median(_rate(b, 0) for b in base),
            ratios, hand_ratios)


def _rate(result: tuple[int, int, float], what: int) -> float:
    """Decisions (``what`` 0) or whole hands (1) per second."""
    return result[what] / result[2]


def _ratio(eng: tuple[int, int, float], before: tuple[int, int, float], after: tuple[int, int, float],
           what: int) -> float:
    return _rate(eng, what) / ((_rate(before, what) + _rate(after, what)) / 2)


def _quartiles(ratios: list[float]) -> tuple[float, float, float]:
    q1, med, q3 = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else (ratios[0],) * 3
    return q1, med, q3


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=5.0, help="engine time per pair (as much again for the yardstick)")
    ap.add_argument("--slices", type=int, default=10, help="alternating slices per pair")
    ap.add_argument("--pair", action="append", choices=["rook", "tien-gow", "luk-fu", "rook-by-hand"],
                    help="ruleset to measure (default: the three rulesets)")
    ap.add_argument("--clock", choices=list(CLOCKS), default="cpu",
                    help="time by this process's CPU time (default: steadier on a shared machine) or the wall clock")
    ap.add_argument("--phases", type=int, metavar="HANDS", default=0,
                    help="where a hand's time goes on the engine's side, over this many hands, beside the "
                         "yardstick's whole hand (instead of the ratios)")
    args = ap.parse_args()
    global clock
    clock = CLOCKS[args.clock]
    yardsticks: dict[str, tuple[str, Callable[[int], int] | None]] = {
        "rook": ("OpenSpiel hearts (C++)", openspiel_hand()),
        "tien-gow": ("tiengow_baseline.py", tiengow_baseline.play_match),
        "luk-fu": ("lukfu_baseline.py", lukfu_baseline.play_match),
    }
    if args.phases:
        for ref in args.pair or list(yardsticks):
            show_phases(ref, yardsticks["rook" if ref == "rook-by-hand" else ref], args.phases)
        return
    print(f"{'ruleset':<12} {'engine dec/s':>13} {'yardstick dec/s':>16} {'ratio':>6} {'quartiles':>15}"
          f" {'hands':>6} {'quartiles':>15}  yardstick   ({args.slices} slices, one hand per match,"
          f" {args.clock} clock)")
    for ref in args.pair or list(yardsticks):
        name, play = yardsticks["rook" if ref == "rook-by-hand" else ref]
        if play is None:
            print(f"{ref:<12} skipped: {name} needs the bench extra (pip install -e '.[bench]')")
            continue
        measured = (lambda seed: rook_baseline.play_match(seed, 1)) if ref == "rook-by-hand" else engine_hand(ref)
        engine, yardstick = Playouts(measured), Playouts(play)
        engine.run(0.3)  # warm up: first-use caches, generated code
        yardstick.run(0.3)
        rate, base, ratios, hand_ratios = interleaved(engine, yardstick, args.seconds, args.slices)
        q1, med, q3 = _quartiles(ratios)
        h1, hmed, h3 = _quartiles(hand_ratios)
        print(f"{ref:<12} {rate:>13,.0f} {base:>16,.0f} {med:>6.2f} {q1:>7.2f}..{q3:<6.2f}"
              f" {hmed:>6.2f} {h1:>7.2f}..{h3:<6.2f}  {name}")


if __name__ == "__main__":
    main()
