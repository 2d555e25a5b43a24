"""Compare two variants from Python: the same seeded games under option A and option B.

``rulecraft compare`` does this from the command line; here the same building blocks are called
directly: ``play_record`` plays one seeded game and returns its record, ``side_stats`` summarises a
side, ``compare_stats`` gives B minus A. Both sides use the same game seeds, so the difference is the
rule's, not a different luck of the deal.

    python examples/compare_variants.py --ruleset luk-fu --option old_cards \
        --a known-to-leader --b public-plus-original-run --games 30
"""

from __future__ import annotations

import argparse

from rulecraft.load import load_ruleset
from rulecraft.runs.comparison import compare_stats, side_stats
from rulecraft.runs.simulate import play_record, resolve_agents


def side(ruleset: str, option: str, choice: str, games: int, seed: int) -> dict[str, object]:
    rs = load_ruleset(ruleset, {option: choice})
    agents = resolve_agents(rs, ["random"])  # one name for every seat
    records = [play_record(rs, seed, i, agents) for i in range(games)]
    return side_stats(records, rs.seats.count)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="luk-fu")
    parser.add_argument("--option", default="old_cards")
    parser.add_argument("--a", default="known-to-leader")
    parser.add_argument("--b", default="public-plus-original-run")
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    a = side(args.ruleset, args.option, args.a, args.games, args.seed)
    b = side(args.ruleset, args.option, args.b, args.games, args.seed)
    diff = compare_stats(a, b)
    print(f"{args.ruleset}: {args.option}={args.a} (A) against {args.option}={args.b} (B), {args.games} games each")
    for label, s in (("A", a), ("B", b)):
        moves = s["length"]["moves"]["mean"]  # type: ignore[index]
        rates = ", ".join(f"{w['rate']:.0%}" for w in s["win_rate"])  # type: ignore[union-attr]
        print(f"  {label}: mean moves per game {moves:.1f}; win rate by seat {rates}")
    print(f"  B - A: moves per game {diff['mean_moves']:+.1f}, "
          f"first-player advantage {diff['first_player_advantage']:+.3f}")


if __name__ == "__main__":
    main()
