"""What a search budget costs: playouts made (counted) and time per decision, as ratios within one run.

The same decisions (states some random moves into a hand, in every bundled game) are searched by each
agent spec; the figures are each spec's playouts per decision and its time relative to the first
spec's in the same run, so the machine's speed cancels.

    .venv/bin/python benchmarks/mc_budget.py                 # mc:5 mc:20 mc:80 ismcts:20 ismcts:80
    .venv/bin/python benchmarks/mc_budget.py --specs mc:20,mc:80 --states 20
"""

from __future__ import annotations

import argparse
import random
import time

from rulecraft.agents.base import make_agent
from rulecraft.engine.game import Game
from rulecraft.engine.state import State
from rulecraft.load import load_ruleset

GAMES = ["rook", "luk-fu", "tien-gow", "yukushi", "doubt"]


def decisions(game: str, count: int, seed: int) -> list[State]:
    """``count`` states waiting on a seat with more than one legal move, random moves into a hand."""
    rs = load_ruleset(game)
    rng = random.Random(seed)
    out: list[State] = []
    s = seed
    while len(out) < count:
        st = Game(rs, s).new_state()
        s += 1
        for _ in range(rng.randrange(4, 30)):
            if st.is_over:
                break
            legal = st.legal_moves()
            st.apply(legal[rng.randrange(len(legal))])
        if not st.is_over and len(st.legal_moves()) > 2:
            out.append(st)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--specs", default="mc:5,mc:20,mc:80,ismcts:20,ismcts:80")
    ap.add_argument("--states", type=int, default=12)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", default=",".join(GAMES))
    args = ap.parse_args()
    specs = args.specs.split(",")
    for game in args.games.split(","):
        states = decisions(game, args.states, args.seed)
        row = []
        first = None
        for spec in specs:
            playouts = 0
            start = time.perf_counter()
            for st in states:
                seat = st.to_act
                assert seat is not None
                agent = make_agent(spec, 1, seat)
                agent.choose(st, seat)
                playouts += getattr(agent, "playouts", 0)
            seconds = time.perf_counter() - start
            first = first or seconds
            row.append(f"{spec} {playouts / len(states):.1f} playouts, {1000 * seconds / len(states):.1f} ms "
                       f"({seconds / first:.2f}x)")
        print(f"{game:9} " + " | ".join(row), flush=True)


if __name__ == "__main__":
    main()
