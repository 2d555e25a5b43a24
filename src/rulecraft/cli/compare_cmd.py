"""``rulecraft compare A B``: what a house rule changes, measured over the same seeded games.

A and B are rulesets, or one ruleset under two sets of options; as in ``rulecraft diff``, each side
takes its own options (``-a/--a-option``, ``--a-preset`` for A; ``-b/--b-option``, ``--b-preset``
for B). Both sides play games 0..N-1 of the same run seed with the same agents.

``--moves N`` compares the games' first N moves (for hands that run to thousands of moves, as a claims
hand between seats that challenge can): a game still going then is won as a search scores a playout cut
short (``runs.simulate.cut_result``: the seat holding the fewest pieces), and every game, ended or cut, is
scored by the same measure, minus the pieces each seat holds when it stopped, so that mean scores and
their differences are on one scale; the rules' own scores of the games that ended are reported apart.
"""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING, Any

import click

from rulecraft.cli.options import comma_list, parse_option_assignments
from rulecraft.cli.table import language, named, pad
from rulecraft.wording import scaled_ci, with_ci

if TYPE_CHECKING:
    from rulecraft.engine.ruleset import Ruleset


def register(group: click.Group) -> None:
    group.add_command(compare)


@click.command()
@click.argument("a")
@click.argument("b")
@click.option("-n", "games", type=click.IntRange(min=1), default=200, show_default=True,
              help="Games per side.")
@click.option("-a", "--a-option", "a_options", multiple=True, metavar="NAME=CHOICE", help="An option for A.")
@click.option("-b", "--b-option", "b_options", multiple=True, metavar="NAME=CHOICE", help="An option for B.")
@click.option("--a-preset", default=None, help="A preset for A.")
@click.option("--b-preset", default=None, help="A preset for B.")
@click.option("--agents", default="default", show_default=True,
              help="One agent for every seat, or one per seat separated by commas (both sides).")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the run (both sides).")
@click.option("--hands", "max_hands", type=click.IntRange(min=1), default=None, metavar="N",
              help="Play only the first N hands of each match (--hands 1: a per-hand comparison, for games "
                   "whose matches are long; each game is then a hand, its winner the seat ahead after it).")
@click.option("--moves", "max_moves", type=click.IntRange(min=1), default=None, metavar="N",
              help="Play only the first N moves of each game; a game still going is won by the seat holding the "
                   "fewest pieces (how searches score a cut playout), and every game, ended or cut, scores each "
                   "seat minus the pieces it holds when it stopped; the rules' scores of games that ended are "
                   "shown apart.")
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False), default=None, metavar="FILE.png",
              help="Draw the distributions side by side (needs matplotlib: pip install '.[plot]' in rulecraft's "
                   "checkout).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--no-timings", is_flag=True, help="Leave timings out, so output is byte-for-byte reproducible.")
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
              help="Local worker processes; the numbers do not depend on it.")
@click.option("--dask", "dask_address", default=None, metavar="ADDRESS",
              help="Run the games on a dask.distributed scheduler.")
@click.option("--lang", "lang", default=None, metavar="CODE",
              help="Text output: show options and the rules fired also by their names in this language.")
def compare(a: str, b: str, games: int, a_options: tuple[str, ...], b_options: tuple[str, ...],
            a_preset: str | None, b_preset: str | None, agents: str, seed: int, max_hands: int | None,
            max_moves: int | None, plot_path: str | None, fmt: str,
            no_timings: bool, workers: int, dask_address: str | None, lang: str | None) -> None:
    """Compare rulesets A and B over the same N seeded games: win rates, scores, length, rules fired, balance."""
    from rulecraft.cli.progress import progress_bar
    from rulecraft.load import load_ruleset
    from rulecraft.runs.comparison import compare_stats, side_stats
    from rulecraft.runs.distribute import RunSpec, run_games
    from rulecraft.runs.simulate import resolve_agents

    if dask_address is not None:
        from rulecraft.runs.distribute import check_dask_address

        check_dask_address(dask_address)
    if plot_path is not None:
        from rulecraft.cli.plot import check_plot_path, require_matplotlib

        check_plot_path(plot_path)  # fail before playing, not after
        require_matplotlib()
    agent_list = comma_list(agents, "--agents")
    sides = []
    for ref, opts, preset in ((a, a_options, a_preset), (b, b_options, b_preset)):
        chosen = parse_option_assignments(opts)
        rs = load_ruleset(ref, chosen, preset)
        language(rs, lang)  # before playing: both sides must have the language
        names = resolve_agents(rs, agent_list)
        sides.append((rs, RunSpec.make(ref, chosen, preset, names, seed, max_hands, max_moves)))
    report: dict[str, Any] = {"games": games, "seed": seed}
    if max_hands is not None:
        report["hands_per_game"] = max_hands
    if max_moves is not None:
        report["moves_per_game"] = max_moves
    records = []
    with progress_bar(2 * games, "compare") as update:
        for label, (rs, spec) in zip("ab", sides, strict=True):
            start = time.perf_counter()
            recs = run_games(spec, games, workers=workers, dask=dask_address, progress=update)
            records.append(recs)
            side: dict[str, Any] = {"ruleset": rs.identity, "title": rs.title, "agents": list(spec.agents),
                                    **side_stats(recs, rs.seats.count)}
            if not no_timings:
                side["seconds"] = round(time.perf_counter() - start, 3)
            report[label] = side
    report["b_minus_a"] = compare_stats(report["a"], report["b"], records[0], records[1])
    if plot_path is not None:
        from rulecraft.cli.plot import plot_comparison

        plot_comparison(plot_path, report, records)
    if fmt == "json":
        click.echo(json.dumps(report, indent=2, sort_keys=True, ensure_ascii=False))
        return
    click.echo(render_text(report, (sides[0][0], sides[1][0]), lang))
    if plot_path is not None:
        click.echo(f"plot written to {plot_path}")


def _label(side: dict[str, Any], rs: Ruleset | None = None, lang: str | None = None) -> str:
    ident = side["ruleset"]
    opts = ", ".join(f"{_name(rs, 'options', k, lang)}={v}" for k, v in ident["options"].items()) or "-"
    return f"{ident['name']} ({opts})"


def _name(rs: Ruleset | None, category: str, key: str, lang: str | None) -> str:
    return named(rs, category, key, lang) if rs is not None else key


def _dist(d: dict[str, Any]) -> str:
    if not d.get("n"):
        return "-"
    def num(key: str) -> str:  # two decimals at most: the report's JSON keeps the rest
        return f"{round(d[key], 2) + 0.0:g}"

    return (f"mean {num('mean')} sd {num('stdev')}  [q05 {num('q05')}, q25 {num('q25')}, median {num('q50')}, "
            f"q75 {num('q75')}, q95 {num('q95')}]")


def _per_hand(hands_per_game: int | None) -> str:
    if hands_per_game is None:
        return ""
    first = "the first hand" if hands_per_game == 1 else f"the first {hands_per_game} hands"
    return f"; each game is {first} of a match, won by the seat ahead after it (--hands {hands_per_game})"


def _per_moves(moves_per_game: int | None) -> str:
    if moves_per_game is None:
        return ""
    return (f"; each game is its first {moves_per_game} moves, a game still going then won by the seat holding "
            f"the fewest pieces (--moves {moves_per_game}); every game's score, ended or cut, is minus the pieces "
            "held when it stopped, the rules' scores of games that ended shown apart")


def _stopped(side: dict[str, Any], hands_per_game: int | None, moves_per_game: int | None = None) -> str:
    """How many games were cut short: by ``--moves`` or ``--hands`` (asked for; each game is then its first
    moves or hands) or by the match's bound on hands (its end never came)."""
    cut = side["truncated"]
    if moves_per_game is not None:
        return f"{cut} stopped (--moves {moves_per_game} or --hands), {side['games'] - cut} ended before"
    if hands_per_game is None:
        return f"truncated {cut}"
    ended = side["games"] - cut
    plural = "s" if hands_per_game != 1 else ""
    return f"{cut} stopped after {hands_per_game} hand{plural} (--hands), {ended} ended before"


def render_text(report: dict[str, Any], rulesets: tuple[Ruleset, Ruleset] | None = None,
                lang: str | None = None) -> str:
    """The human report: A and B side by side, then what changed (options and rules named in ``lang``)."""
    a, b, d = report["a"], report["b"], report["b_minus_a"]
    rs_a, rs_b = rulesets if rulesets is not None else (None, None)
    lines = [f"A: {_label(a, rs_a, lang)}", f"B: {_label(b, rs_b, lang)}",
             f"{report['games']} games each, seed {report['seed']}, agents {','.join(a['agents'])}"
             + _per_hand(report.get("hands_per_game")) + _per_moves(report.get("moves_per_game"))]
    for title, side, rs in (("A", a, rs_a), ("B", b, rs_b)):
        lines.append("")
        lines.append(f"{title}: {side['title']}")
        for w, sc in zip(side["win_rate"], side["scores"], strict=True):
            lo, hi = w["ci95"]
            lines.append(f"  seat {w['seat']}: wins {100 * w['rate']:5.1f}% (95% CI {100 * lo:.1f}-{100 * hi:.1f})"
                         f"  score {_dist(sc)}")
        ended = side.get("ended_rules_scores")
        if ended is not None:
            count = ended[0].get("n", 0) if ended else 0
            lines.append(f"  scores above: minus the pieces held when each game stopped; the rules' scores of the "
                         f"{count} game{'s' if count != 1 else ''} that ended before the cut:"
                         + ("" if count else " -"))
            if count:
                for s, sc in enumerate(ended):
                    lines.append(f"    seat {s}: {_dist(sc)}")
        lines.append(f"  moves {_dist(side['length']['moves'])}")
        stopped = _stopped(side, report.get("hands_per_game"), report.get("moves_per_game"))
        lines.append(f"  hands {_dist(side['length']['hands'])}   {stopped}")
        fp = side["balance"]["first_player"]
        lines.append(f"  first player wins {100 * fp['win_rate']:.1f}% (95% CI {100 * fp['ci95'][0]:.1f}-"
                     f"{100 * fp['ci95'][1]:.1f}) vs mean {100 * fp['mean_win_rate']:.1f}%: "
                     f"advantage {100 * fp['advantage']:+.1f} points")
        lines.append(f"  winning margin {_dist(side['balance']['margin'])}")
        lead = side["balance"]["lead_for_good"]
        if lead.get("n"):
            lines.append(f"  share of the match the winner led for good: mean {lead['mean']:g}, "
                         f"median {lead['q50']:g} (undecided {side['balance']['undecided']})")
        if side["rules_fired"]:
            lines.append("  rules fired:")
            for k, v in side["rules_fired"].items():
                lines.append(f"    {pad(_name(rs, 'rules', k, lang), 28)} {v['count']:>7}  "
                             f"({v['per_game']:.3g}/game, in {100 * v['share_of_games']:.1f}% of games)")
        if "seconds" in side:
            lines.append(f"  {side['seconds']:g} s")
    lines.append("")
    ci = d.get("ci95", {})
    lines.append("B - A (95% CI; both sides play the same deals, so means are compared game by game):")
    score = "mean score (minus pieces held)" if "ended_rules_scores" in a else "mean score"
    for s, x in enumerate(d["win_rate"]):
        lines.append(f"  seat {s}: win rate {with_ci(100 * x, scaled_ci(ci, 'win_rate', s, 100))} points, "
                     f"{score} {with_ci(d['mean_score'][s], scaled_ci(ci, 'mean_score', s))}")
    lines.append(f"  moves {with_ci(d['mean_moves'], ci.get('mean_moves'))}, "
                 f"hands {with_ci(d['mean_hands'], ci.get('mean_hands'))}, "
                 f"first-player advantage {100 * d['first_player_advantage']:+.1f} points")
    fired_ci = ci.get("rules_fired_per_game", {})
    changed = {k: v for k, v in d["rules_fired_per_game"].items() if v}
    if changed:
        lines.append("  rules fired per game:")
        for k, v in changed.items():
            lines.append(f"    {pad(_name(rs_b or rs_a, 'rules', k, lang), 28)} {with_ci(v, fired_ci.get(k))}")
    return "\n".join(lines)
