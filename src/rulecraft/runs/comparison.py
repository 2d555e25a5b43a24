"""What a rule change does, measured: statistics of one side's game records, and of two sides side by side.

Both sides are played over the same game seeds, so a difference is the rules' (and chance's), not a
different luck of the deal. Everything here reads only the plain per-game records of
``runs.simulate.game_record``, so it does not matter where the games were played.

Balance measures:

* *first-player advantage*: the win rate of the seat that made the game's first decision, minus
  the mean win rate of all seats (0 when acting first is worth nothing);
* *decisiveness*: the final margin between the winner and the best rival team, and how early the
  eventual winner took the lead for good (``lead_for_good``: the share of the match's hands it led
  throughout, 1 when it led from the first hand on; single-hand games are always 1).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from rulecraft.runs.stats import Z95, describe, wilson


def side_stats(records: Sequence[dict[str, Any]], seats: int) -> dict[str, Any]:
    """Every statistic ``compare`` reports for one side."""
    n = len(records)
    wins = [0.0] * seats
    for r in records:
        for w in r["winners"]:
            wins[w] += 1 / len(r["winners"])
    win_rates = []
    for s in range(seats):
        lo, hi = wilson(wins[s], n)
        win_rates.append({"seat": s, "wins": round(wins[s], 6), "rate": round(wins[s] / n, 6) if n else 0.0,
                          "ci95": [round(lo, 6), round(hi, 6)]})
    fired: dict[str, int] = {}
    games_with: dict[str, int] = {}
    for r in records:
        for k, v in r["fired"].items():
            fired[k] = fired.get(k, 0) + v
            games_with[k] = games_with.get(k, 0) + (1 if v else 0)
    rules = {k: {"count": fired[k], "per_game": round(fired[k] / n, 4), "games": games_with[k],
                 "share_of_games": round(games_with[k] / n, 4)} for k in sorted(fired)}
    out: dict[str, Any] = {
        "games": n,
        "win_rate": win_rates,
        "scores": [describe([float(r["scores"][s]) for r in records]) for s in range(seats)],
        "length": {"moves": describe([float(r["moves"]) for r in records]),
                   "hands": describe([float(r["hands"]) for r in records])},
        "truncated": sum(1 for r in records if r["truncated"]),
        "rules_fired": rules,
        "balance": _balance(records, seats, wins),
    }
    if any("rules_scores" in r for r in records):
        # A run cut at a number of moves: ``scores`` are the pieces held, every game alike; the rules' own
        # scores, of the games that ended before the cut, on their own scale and apart.
        ended = [r["rules_scores"] for r in records if r.get("rules_scores") is not None]
        out["score_measure"] = "minus pieces held"
        out["ended_rules_scores"] = [describe([float(sc[s]) for sc in ended]) for s in range(seats)]
    return out


def _balance(records: Sequence[dict[str, Any]], seats: int, wins: list[float]) -> dict[str, Any]:
    n = len(records)
    firsts = [r for r in records if r.get("first") is not None]
    first_wins = sum(1 / len(r["winners"]) for r in firsts if r["first"] in r["winners"])
    mean_rate = (math.fsum(wins) / seats / n) if n else 0.0
    first_rate = first_wins / len(firsts) if firsts else 0.0
    lo, hi = wilson(first_wins, len(firsts))
    shares = [1 - (r["led_from"] - 1) / r["hands"] for r in records if r.get("led_from") and r["hands"]]
    return {
        "first_player": {"games": len(firsts), "win_rate": round(first_rate, 6), "ci95": [round(lo, 6), round(hi, 6)],
                         "mean_win_rate": round(mean_rate, 6), "advantage": round(first_rate - mean_rate, 6)},
        "margin": describe([float(r["margin"]) for r in records]),
        "lead_for_good": describe(shares),
        "undecided": sum(1 for r in records if not r.get("led_from")),
    }


def compare_stats(a: dict[str, Any], b: dict[str, Any], records_a: Sequence[dict[str, Any]] = (),
                  records_b: Sequence[dict[str, Any]] = ()) -> dict[str, Any]:
    """B minus A for the headline numbers (win rates, mean scores, length, rule firings per game).

    Given both sides' records, ``ci95`` adds a 95% interval to each difference: Newcombe's interval
    (from the two Wilson intervals) for a win rate, and for a mean the interval of the mean of the
    per-game differences — both sides play the same seeds, so game i of A and game i of B share
    their deal, and pairing them removes the deal's luck from the difference.
    """
    seats = min(len(a["win_rate"]), len(b["win_rate"]))
    rules = sorted(set(a["rules_fired"]) | set(b["rules_fired"]))

    def per_game(side: dict[str, Any], k: str) -> float:
        return float(side["rules_fired"].get(k, {}).get("per_game", 0.0))

    def mean(d: dict[str, Any]) -> float:
        return float(d.get("mean", 0.0))

    out = {
        "win_rate": [round(b["win_rate"][s]["rate"] - a["win_rate"][s]["rate"], 6) for s in range(seats)],
        "mean_score": [round(mean(b["scores"][s]) - mean(a["scores"][s]), 4) for s in range(seats)],
        "mean_moves": round(mean(b["length"]["moves"]) - mean(a["length"]["moves"]), 4),
        "mean_hands": round(mean(b["length"]["hands"]) - mean(a["length"]["hands"]), 4),
        "rules_fired_per_game": {k: round(per_game(b, k) - per_game(a, k), 4) for k in rules},
        "first_player_advantage": round(b["balance"]["first_player"]["advantage"]
                                        - a["balance"]["first_player"]["advantage"], 6),
    }
    if records_a and records_b:
        out["ci95"] = _intervals(a, b, records_a, records_b, seats, rules)
    return out


def _intervals(a: dict[str, Any], b: dict[str, Any], ra: Sequence[dict[str, Any]], rb: Sequence[dict[str, Any]],
               seats: int, rules: list[str]) -> dict[str, Any]:
    pairs = list(zip(sorted(ra, key=lambda r: r["index"]), sorted(rb, key=lambda r: r["index"]), strict=False))

    def paired(value: Any) -> list[float]:
        lo, hi = paired_interval([float(value(y)) - float(value(x)) for x, y in pairs])
        return [round(lo, 6), round(hi, 6)]

    win = []
    for s in range(seats):
        wa, wb = a["win_rate"][s], b["win_rate"][s]
        lo, hi = newcombe(wa["rate"], tuple(wa["ci95"]), wb["rate"], tuple(wb["ci95"]))
        win.append([round(lo, 6), round(hi, 6)])
    return {
        "win_rate": win,
        "mean_score": [paired(lambda r, s=s: r["scores"][s]) for s in range(seats)],
        "mean_moves": paired(lambda r: r["moves"]),
        "mean_hands": paired(lambda r: r["hands"]),
        "rules_fired_per_game": {k: paired(lambda r, k=k: r["fired"].get(k, 0)) for k in rules},
    }


def newcombe(pa: float, ci_a: tuple[float, float], pb: float, ci_b: tuple[float, float]) -> tuple[float, float]:
    """Newcombe's (1998, method 10) interval for pb - pa from the two proportions' Wilson intervals."""
    (la, ua), (lb, ub) = ci_a, ci_b
    d = pb - pa
    return (d - math.sqrt((pb - lb) ** 2 + (ua - pa) ** 2), d + math.sqrt((ub - pb) ** 2 + (pa - la) ** 2))


def paired_interval(diffs: Sequence[float]) -> tuple[float, float]:
    """The normal-approximation 95% interval of the mean of paired differences."""
    n = len(diffs)
    if n == 0:
        return (0.0, 0.0)
    mean = math.fsum(diffs) / n
    if n == 1:
        return (mean, mean)
    sd = math.sqrt(math.fsum((x - mean) ** 2 for x in diffs) / (n - 1))
    half = Z95 * sd / math.sqrt(n)
    return (mean - half, mean + half)
