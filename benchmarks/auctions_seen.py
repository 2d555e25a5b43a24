"""What an agent bids and calls, hand by hand: the auction of one-hand matches and what each seat scored.

    .venv/bin/python benchmarks/auctions_seen.py bridge -n 20 --show 4
    .venv/bin/python benchmarks/auctions_seen.py rook -n 60 --show 0 --agent default

For seeds 1..N, one hand of RULESET with the agent in every seat; prints the first ``--show`` hands' calls (each
decision of an auction with two or more moves, and elsewhere any bid, pass, call, order, stop or double) with
the match scores after the hand, then the mean score of each seat and how many hands scored nothing (thrown
in, or an auction every seat passed). A look at whether bids are sane, not a measure of strength.
"""

from __future__ import annotations

import argparse

from rulecraft.agents.base import make_agent
from rulecraft.agents.policy import phase_kind
from rulecraft.engine.game import Game
from rulecraft.engine.standings import match_scores
from rulecraft.load import load_ruleset

CALLS = frozenset({"bid", "pass", "call", "order", "stop", "double"})


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("ruleset")
    ap.add_argument("-n", type=int, default=20)
    ap.add_argument("--show", type=int, default=5)
    ap.add_argument("--agent", default="default")
    args = ap.parse_args()
    rs = load_ruleset(args.ruleset)
    seats = rs.seats.count
    total = [0.0] * seats
    nothing = won = made = 0
    for seed in range(1, args.n + 1):
        st = Game(rs, seed, 1).new_state()
        st.hand_limit = st.hand_no
        agents = [make_agent(args.agent, seed, s) for s in range(seats)]
        calls = []
        high = None  # the seat holding the high bid, as the auction last stood
        for _ in range(20_000):
            if st.is_over:
                break
            seat = st.to_act
            assert seat is not None
            many = len(st.legal_moves()) > 1
            kind = phase_kind(st)
            move = agents[seat].choose(st, seat)
            if many and (kind == "auction" or move.verb in CALLS):
                calls.append(f"{seat}:{move.text}")
            st.apply(move)
            if not st.is_over and phase_kind(st) == "auction":
                high = getattr(st.pdata, "high_seat", None)
            elif kind == "auction" and move.value and move.verb != "pass":
                high = seat  # a bid that ended the auction at once (every other seat had passed)
        scores = match_scores(st)
        if high is not None:
            won += 1
            made += scores[high] > 0
        total = [t + s for t, s in zip(total, scores, strict=True)]
        nothing += not any(scores)
        if seed <= args.show:
            print(seed, " ".join(calls), "| scores", [round(s) for s in scores])
    print("mean score by seat", [round(t / args.n, 1) for t in total], f"; {nothing} of {args.n} hands scored nothing",
          f"; {won} auctions won, {made} of them made")


if __name__ == "__main__":
    main()
