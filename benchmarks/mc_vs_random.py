"""How much better than random the Monte Carlo agent plays, per bundled game, with 95% Wilson intervals.

mc sits at one seat and random at every other; the mc seat rotates through all seats (games are
split evenly), so seat advantages cancel. A win is credited as the result's winners say (a win shared
between teams counts in part; in a team game the mc seat wins with its random partner, so a random
seat's expected share there is 1/teams, not 1/seats).

    .venv/bin/python benchmarks/mc_vs_random.py -n 60 --agent mc:20 --workers 2 [--games rook,luk-fu]
"""

from __future__ import annotations

import argparse
import time

from rulecraft.load import load_ruleset
from rulecraft.runs.distribute import RunSpec, run_games
from rulecraft.runs.stats import wilson

GAMES = ["rook", "luk-fu", "tien-gow", "yukushi", "doubt"]
MAX_HANDS = {"rook": 6}  # a Rook match to 300 can run for 100+ hands; 6 hands, highest total wins


def measure(game: str, n: int, agent: str, workers: int, seed: int) -> dict[str, object]:
    rs = load_ruleset(game)
    seats = rs.seats.count
    wins = 0.0
    played = 0
    start = time.perf_counter()
    for seat in range(seats):
        agents = ["random"] * seats
        agents[seat] = agent
        k = n // seats + (1 if seat < n % seats else 0)
        spec = RunSpec.make(game, {}, None, agents, seed + seat, MAX_HANDS.get(game))
        for rec in run_games(spec, k, workers=workers):
            teams = {rs.seats.team_of[w] for w in rec["winners"]}
            if rs.seats.team_of[seat] in teams:
                wins += 1 / len(teams)  # a shared win counts in part
            played += 1
    lo, hi = wilson(wins, played)
    chance = 1 / len(rs.seats.teams)
    return {"game": game, "games": played, "wins": wins, "rate": wins / played, "ci95": (lo, hi),
            "random_share": chance, "seconds": time.perf_counter() - start}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=60)
    ap.add_argument("--agent", default="mc:20")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", default=",".join(GAMES))
    args = ap.parse_args()
    for game in args.games.split(","):
        r = measure(game, args.n, args.agent, args.workers, args.seed)
        lo, hi = r["ci95"]  # type: ignore[misc]
        print(f"{game:9} {args.agent} vs random: won {r['wins']:g}/{r['games']} = {100 * r['rate']:.1f}% "  # type: ignore[operator]
              f"(95% CI {100 * lo:.1f}-{100 * hi:.1f}); random's share {100 * r['random_share']:.1f}%  "  # type: ignore[operator]
              f"[{r['seconds']:.0f} s]", flush=True)


if __name__ == "__main__":
    main()
