"""CPU time of a Sheng Ji lead's legal moves (singles, pairs, tractors of a 25-card hand) and of the default
agent's first lead, as ratios to a yardstick measured in the same run: the legal moves of Rook's first lead
(singles of a 9-card hand, the simplest trick decision bundled).

    .venv/bin/python benchmarks/sheng_ji_lead.py               # 20 deals, 5 rounds
    .venv/bin/python benchmarks/sheng_ji_lead.py --deals 10 --rounds 3

Each deal is played at random up to its first lead (Sheng Ji with the trump suit fixed, so no deal
windows; Rook up to its first lead); each round times every deal's decision afresh (a clone, so nothing is
kept from the last round), the two games alternating; the medians of the rounds are reported.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from rulecraft.agents.base import make_agent
from rulecraft.agents.policy import phase_kind
from rulecraft.engine.game import Game
from rulecraft.engine.state import State
from rulecraft.load import load_ruleset


def first_leads(game: str, options: dict[str, str], deals: int) -> list[State]:
    rs = load_ruleset(game, options)
    out = []
    for seed in range(deals):
        st = Game(rs, seed, max_hands=1).new_state()
        rng = random.Random(seed)
        while phase_kind(st) != "tricks":
            legal = st.legal_moves()
            st.apply(legal[rng.randrange(len(legal))])
        out.append(st)
    return out


def cpu_per_decision(states: list[State], agent: bool) -> float:
    t = time.process_time()
    for st in states:
        c = st.clone()
        if agent:
            assert c.to_act is not None
            make_agent("default", 1, c.to_act).choose(c, c.to_act)
        else:
            c.legal_moves()
    return (time.process_time() - t) / len(states)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    sheng = first_leads("sheng-ji", {"trump": "hearts"}, args.deals)
    rook = first_leads("rook", {}, args.deals)
    cpu_per_decision(sheng, True)  # (first calls compile and import: not counted)
    cpu_per_decision(rook, False)
    legal, agent, yard = [], [], []
    for _ in range(args.rounds):
        yard.append(cpu_per_decision(rook, False))
        legal.append(cpu_per_decision(sheng, False))
        agent.append(cpu_per_decision(sheng, True))
    y, lg, ag = statistics.median(yard), statistics.median(legal), statistics.median(agent)
    print(f"rook first lead, legal moves (yardstick): {y * 1e3:.3f} ms")
    print(f"sheng-ji first lead, legal moves:        {lg * 1e3:.3f} ms  ({lg / y:.1f}x the yardstick)")
    print(f"sheng-ji first lead, default agent:      {ag * 1e3:.3f} ms  ({ag / y:.1f}x the yardstick)")


if __name__ == "__main__":
    main()
