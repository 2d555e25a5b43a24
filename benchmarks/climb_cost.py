"""CPU time of an agent's decision in climbing rounds (or another phase kind, ``--kind``), as ratios between
agent specs within one run.

The same decisions (states some random moves into a climbing round, where the seat to act has more
than one legal move) are made by each agent spec in turn, in rounds that alternate the specs, each
round timed by the process's CPU clock; the figures are each spec's CPU per decision (median of the
rounds) and the ratio of the first spec's time to each other's, round by round (median and quartiles),
so the machine's load cancels as far as it can.

    .venv/bin/python benchmarks/climb_cost.py                       # default-search (before) vs default
    .venv/bin/python benchmarks/climb_cost.py --games big-two --states 60 --rounds 9
    .venv/bin/python benchmarks/climb_cost.py --kind shed --specs default-shed-search,default \
        --games crazy-eights,fan-tan
    .venv/bin/python benchmarks/climb_cost.py --kind each_seat --specs default-give-search,default --hands 2 \
        --games president,daifugo
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from agents_vs import SearchingClimber  # noqa: F401  (registers 'default-search')

from rulecraft.agents.base import make_agent
from rulecraft.agents.policy import phase_kind
from rulecraft.engine.game import Game
from rulecraft.engine.state import State
from rulecraft.load import load_ruleset

GAMES = ["big-two", "zheng-shangyou", "daifugo", "president"]


def decisions(game: str, count: int, seed: int, kind: str = "climb", hands: int = 1) -> list[State]:
    """``count`` decisions of a phase of ``kind`` with more than one legal move, random moves into such a
    phase (of a match's hand ``hands``: a card return, say, comes only from the second hand on)."""
    rs = load_ruleset(game)
    rng = random.Random(seed)
    out: list[State] = []
    s = seed
    while len(out) < count:
        st = Game(rs, s, max_hands=hands).new_state()
        s += 1
        while not st.is_over and (phase_kind(st) != kind or st.hand_no < hands):
            legal = st.legal_moves()
            st.apply(legal[rng.randrange(len(legal))])
        for _ in range(rng.randrange(0, 40) if kind in ("climb", "shed") else 0):
            if st.is_over:
                break
            legal = st.legal_moves()
            st.apply(legal[rng.randrange(len(legal))])
        if not st.is_over and phase_kind(st) == kind and len(st.legal_moves()) > 1:
            out.append(st)
    return out


def quartiles(xs: list[float]) -> tuple[float, float, float]:
    q = statistics.quantiles(xs, n=4) if len(xs) > 1 else [xs[0]] * 3
    return q[0], statistics.median(xs), q[2]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--specs", default="default-search,default")
    ap.add_argument("--states", type=int, default=30)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", default=",".join(GAMES))
    ap.add_argument("--kind", default="climb", help="the phase kind whose decisions are timed")
    ap.add_argument("--hands", type=int, default=1, help="decisions from this hand of a match on")
    args = ap.parse_args()
    specs = args.specs.split(",")
    for game in args.games.split(","):
        states = decisions(game, args.states, args.seed, args.kind, args.hands)
        seconds: dict[str, list[float]] = {spec: [] for spec in specs}
        for spec in specs:  # untimed: what an agent learns once per ruleset (piece values, playability)
            seat = states[0].to_act
            assert seat is not None
            make_agent(spec, 1, seat).choose(states[0].clone(), seat)
        for r in range(args.rounds):
            for spec in specs if r % 2 == 0 else reversed(specs):
                start = time.process_time()
                for st in states:
                    seat = st.to_act
                    assert seat is not None
                    make_agent(spec, 1, seat).choose(st.clone(), seat)
                seconds[spec].append(time.process_time() - start)
        first = seconds[specs[0]]
        cells = []
        for spec in specs:
            ms = 1000 * statistics.median(seconds[spec]) / len(states)
            lo, mid, hi = quartiles([a / b for a, b in zip(first, seconds[spec], strict=True)])
            ratio = "" if spec == specs[0] else f" ({mid:.1f}x fewer, quartiles {lo:.1f}-{hi:.1f})"
            cells.append(f"{spec} {ms:.2f} ms{ratio}")
        print(f"{game.rsplit('/', 1)[-1]:22} {len(states)} decisions: " + " | ".join(cells), flush=True)


if __name__ == "__main__":
    main()
