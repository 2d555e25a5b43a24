"""A follower void in the led suit facing an eight-card lead: its decision with free follows listed and unlisted.

    python benchmarks/bench_free_follows.py

Sheng Ji, trumps hearts: seat 0 holds every diamond and leads a tractor of four pairs (dJ dJ ... dA dA);
seat 3, holding 25 clubs and spades, may play any eight of them (``follow.free``: 225,081 distinct
sets). Measured in one run, CPU time, median of ``--repeat`` tries:

- ``listed``: the free plays made one by one, as the engine made them before ``trick_free.FreeSets``
  (``FreePlays.plays``, then the follow restrictions judging each), the old cost of the decision;
- ``legal``: ``legal_moves()`` of the position (FreeSets: counted, not listed), then its ``len``, a
  thousand moves read by index and found again by ``index``;
- ``random``/``default``: one decision of each agent at the position (the default's piece values,
  learnt once per ruleset, made before timing).

The line ``ratio`` is listed / legal: how many times cheaper the decision's moves are now.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from support import VOID_FOLLOWER_BURY as BURY
from support import VOID_FOLLOWER_DEAL as DEAL
from support import ruleset

from rulecraft.agents.base import make_agent
from rulecraft.agents.piece_values import piece_values
from rulecraft.engine.phases.tricks import Tricks, apply_restrictions
from rulecraft.engine.state import State
from rulecraft.runs.scenario import start_arranged

LEAD = "play dJ dJ dQ dQ dK dK dA dA"


def position() -> State:
    st = start_arranged(ruleset("sheng-ji", trump="hearts"), {"deal": DEAL})
    for move in [*BURY, LEAD]:
        st.apply(move)
    return st


def timed(work: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.process_time()
        work()
        times.append(time.process_time() - t)
    return statistics.median(times)


def listed(st: State) -> int:
    """The decision's free plays as they were made before: every one, judged by the restrictions."""
    phase = st.rs.phases[st.pidx]
    assert isinstance(phase, Tricks)
    st.ctx.seat = 3
    plays = phase._free_plays(st, st.hand(3), 8, [])
    assert isinstance(plays, list)
    return len(apply_restrictions(st, phase.follow_rules, plays)[0])


def fresh(st: State) -> bool:
    """Forget the decision's moves, made once per decision: each try makes them again."""
    st.pdata.options = None
    st._legal_cache = None
    return True


def legal(st: State) -> int:
    fresh(st)
    moves = st.legal_moves()
    n = len(moves)
    for i in range(0, n, n // 1000):
        assert moves.index(moves[i]) == i
    return n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    st = position()
    piece_values(st)  # (learnt once per ruleset: not the decision's cost)
    print(f"moves {legal(st)} (listed: {listed(st)})")
    old = timed(lambda: listed(st), args.repeat)
    new = timed(lambda: legal(st), args.repeat)
    print(f"listed  {old:8.3f} s")
    print(f"legal   {new:8.3f} s  (with 1,000 moves read and found)")
    print(f"ratio   {old / new:8.0f}x")
    for name in ("random", "default"):
        agent = make_agent(name, 1, 3)
        print(f"{name:7} {timed(lambda a=agent: fresh(st) and a.choose(st, 3), args.repeat):8.3f} s a decision")


if __name__ == "__main__":
    main()
