"""What whole games of a claims ruleset cost with given agents, and how they are played: CPU time per game
and per decision, moves per game, and the play behind the length (claims, their size, how many were lies,
how many were challenged, how many challenged claims were true).

    .venv/bin/python benchmarks/claims_games.py yukushi --agents mc:10 -n 6
    .venv/bin/python benchmarks/claims_games.py doubt --agents mc:10 -n 4 --max-moves 6000

Times are the process's CPU time (``time.process_time``), so a loaded machine stretches the wall clock
but not the figures much; compare specs within one run. A game still going after ``--max-moves`` moves
is stopped and counted as not ended (its moves count as the bound).
"""

from __future__ import annotations

import argparse
import statistics
import time

from rulecraft.agents.base import make_agent
from rulecraft.engine.game import Game
from rulecraft.load import load_ruleset
from rulecraft.runs.simulate import game_seed


def play(game: str, options: dict[str, str], agents: list[str], seed: int, max_moves: int) -> dict[str, float]:
    rs = load_ruleset(game, options)
    st = Game(rs, seed).new_state()
    players = [make_agent(a, seed, s) for s, a in enumerate(agents)]
    moves = decisions = 0
    cpu = time.process_time()
    while not st.is_over and moves < max_moves:
        seat = st.to_act
        assert seat is not None
        if len(st.legal_moves()) > 1:
            decisions += 1
        st.apply(players[seat].choose(st, seat))
        moves += 1
    cpu = time.process_time() - cpu
    claims = [e for e in st.history if e.get("type") == "move" and str(e.get("move", "")).startswith("claim")]
    reveals = [e for e in st.history if e.get("type") == "reveal"]
    sizes = [len(str(e["move"]).split(":", 1)[1].split()) for e in claims if ":" in str(e["move"])]
    lies = sum(1 for e in reveals if e["lie"])
    return {"moves": moves, "ended": float(st.is_over), "cpu": cpu, "decisions": decisions,
            "claims": len(claims), "challenged": len(reveals), "true_challenged": len(reveals) - lies,
            "size": statistics.fmean(sizes) if sizes else 0.0}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("game")
    ap.add_argument("--agents", default="mc:10", help="one spec for every seat, or one per seat (commas)")
    ap.add_argument("-o", "--option", action="append", default=[], metavar="NAME=CHOICE")
    ap.add_argument("-n", type=int, default=4, help="games")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-moves", type=int, default=5000)
    args = ap.parse_args()
    options = dict(o.split("=", 1) for o in args.option)
    seats = load_ruleset(args.game, options).seats.count
    agents = args.agents.split(",")
    agents = agents * seats if len(agents) == 1 else agents
    rows = []
    for i in range(args.n):
        r = play(args.game, options, agents, game_seed(args.seed, i), args.max_moves)
        rows.append(r)
        print(f"game {i}: {r['moves']:.0f} moves{'' if r['ended'] else ' (not ended)'}, {r['cpu']:.1f} s CPU, "
              f"{1000 * r['cpu'] / max(r['decisions'], 1):.2f} ms/decision, {r['claims']:.0f} claims "
              f"(mean size {r['size']:.2f}), {r['challenged']:.0f} challenged, "
              f"{r['true_challenged']:.0f} of them true", flush=True)
    total = sum(r["cpu"] for r in rows)
    moves = [r["moves"] for r in rows]
    print(f"{args.game} {','.join(agents)}: {sum(r['ended'] for r in rows):.0f}/{len(rows)} ended; moves median "
          f"{statistics.median(moves):.0f} (min {min(moves):.0f}, max {max(moves):.0f}); CPU {total / len(rows):.2f} s "
          f"a game, {1000 * total / max(sum(r['decisions'] for r in rows), 1):.2f} ms a decision; challenged "
          f"{sum(r['challenged'] for r in rows) / max(sum(r['claims'] for r in rows), 1):.0%} of claims, "
          f"{sum(r['true_challenged'] for r in rows) / max(sum(r['challenged'] for r in rows), 1):.0%} of those true")


if __name__ == "__main__":
    main()
