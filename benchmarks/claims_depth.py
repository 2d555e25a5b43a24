"""How much a playout's depth tells a claims decision apart: per sampled world, the lead of the best candidate
over the second, over the spread of that lead (a signal-to-noise ratio), for several depths.

    .venv/bin/python benchmarks/claims_depth.py yukushi answer      # answers to a claim (challenge / accept)
    .venv/bin/python benchmarks/claims_depth.py yukushi claim       # a seat's own claims (5 candidates)

States are taken from games between ``default`` seats (20 seeds, a random number of moves in); each
candidate is tried in the same 60 sampled worlds with random playouts cut at the depth. The best and the
second are picked on the same samples, which flatters the noisier (deeper) playouts if anything.
"""

from __future__ import annotations

import argparse
import random
import statistics

from rulecraft.agents.base import make_agent
from rulecraft.agents.candidates import candidate_moves
from rulecraft.agents.claim_truth import open_claim, spread_draws
from rulecraft.agents.rollout import outcome, play_out, random_move, sample_world
from rulecraft.engine.game import Game
from rulecraft.engine.standings import match_scores
from rulecraft.engine.state import State
from rulecraft.load import load_ruleset


def decisions(game: str, kind: str, seeds: range) -> list[State]:
    rs = load_ruleset(game)
    out = []
    for seed in seeds:
        st = Game(rs, seed).new_state()
        agents = [make_agent("default", seed, s) for s in range(rs.seats.count)]
        target = random.Random(seed).randrange(10, 300)
        n = 0
        while not st.is_over and n < target:
            st.apply(agents[st.to_act].choose(st, st.to_act))  # type: ignore[index]
            n += 1
        while not st.is_over:
            legal = st.legal_moves()
            asked = any(m.verb == "challenge" for m in legal[:3])
            if (kind == "answer") == asked and len(legal) > 1:
                break
            st.apply(agents[st.to_act].choose(st, st.to_act))  # type: ignore[index]
        if not st.is_over:
            out.append(st)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("game")
    ap.add_argument("kind", choices=["answer", "claim"])
    ap.add_argument("--depths", default="2,4,8,12,24,60")
    ap.add_argument("--worlds", type=int, default=60)
    args = ap.parse_args()
    states = decisions(args.game, args.kind, range(20, 40))
    for depth in (int(d) for d in args.depths.split(",")):
        ratios = []
        for st in states:
            seat = st.to_act
            assert seat is not None
            rng = random.Random(5)
            cands = candidate_moves(st, seat, st.legal_moves(), rng, 5)
            claim = open_claim(st, seat)
            draws = spread_draws(rng)
            base = match_scores(st)
            values: list[list[float]] = [[] for _ in cands]
            for _ in range(args.worlds):
                world = sample_world(st, seat, rng, None, claim, next(draws) if claim else None)
                for i, move in enumerate(cands):
                    s2 = world.clone()
                    s2.apply(move)
                    play_out(s2, rng, depth, random_move)
                    values[i].append(outcome(s2, seat, base))
            means = [statistics.fmean(v) for v in values]
            best, second = sorted(range(len(cands)), key=lambda i: -means[i])[:2]
            diffs = [x - y for x, y in zip(values[best], values[second], strict=True)]
            ratios.append(statistics.fmean(diffs) / (statistics.stdev(diffs) or 1e-9))
        print(f"{args.game} {args.kind} depth {depth}: lead over spread, median {statistics.median(ratios):.3f} "
              f"(mean {statistics.fmean(ratios):.3f}, {len(ratios)} states)", flush=True)


if __name__ == "__main__":
    main()
