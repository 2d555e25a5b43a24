"""``rulecraft simulate`` and ``rulecraft test``: running many games, and running rule scenarios."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from rulecraft.cli.options import FiniteFloatRange, comma_list, parse_option_assignments
from rulecraft.errors import RuleFileError, UsageError

if TYPE_CHECKING:
    from rulecraft.engine.ruleset import Ruleset

option_flag = click.option("-o", "--option", "options", multiple=True, metavar="NAME=CHOICE",
                           help="Choose an option of the ruleset (repeatable).")
preset_flag = click.option("--preset", default=None, help="Select a named preset of options.")


def _load(ruleset: str, options: tuple[str, ...], preset: str | None) -> Ruleset:
    from rulecraft.load import load_ruleset

    return load_ruleset(ruleset, parse_option_assignments(options), preset)


@click.command()
@click.argument("ruleset")
@option_flag
@preset_flag
@click.option("-n", "games", type=click.IntRange(min=1), default=100, show_default=True, help="Games to play.")
@click.option("--seed", type=int, default=1, show_default=True,
              help="Seed of the run (each game's seed derives from it).")
@click.option("--agents", default="default", show_default=True,
              help="One agent for every seat, or one per seat separated by commas (e.g. default,mc,random,mc).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--log-dir", type=click.Path(file_okay=False), default=None, help="Write every game's log here.")
@click.option("--no-timings", is_flag=True, help="Leave timings out, so output is byte-for-byte reproducible.")
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
              help="Local worker processes; the numbers do not depend on it.")
@click.option("--dask", "dask_address", default=None, metavar="ADDRESS",
              help="Run the games on a dask.distributed scheduler (e.g. tcp://10.0.0.5:8786).")
@click.option("--lang", "lang", default=None, metavar="CODE",
              help="Text output: show the options also by their names in this language of the ruleset.")
def simulate(ruleset: str, options: tuple[str, ...], preset: str | None, games: int, seed: int, agents: str,
             fmt: str, log_dir: str | None, no_timings: bool, workers: int, dask_address: str | None,
             lang: str | None) -> None:
    """Play N seeded games of RULESET and summarise them."""
    from rulecraft.cli.progress import progress_bar
    from rulecraft.cli.table import language, options_text
    from rulecraft.runs.distribute import RunSpec, check_dask_address, simulate_run
    from rulecraft.runs.simulate import resolve_agents

    if dask_address is not None:
        check_dask_address(dask_address)
    rs = _load(ruleset, options, preset)
    lang = language(rs, lang)
    if log_dir is not None:
        _new_log_dir(log_dir)
    names = resolve_agents(rs, comma_list(agents, "--agents"))
    spec = RunSpec.make(ruleset, parse_option_assignments(options), preset, names, seed)
    with progress_bar(games, rs.name) as update:
        summary = simulate_run(spec, games, workers=workers, dask=dask_address, log_dir=log_dir, progress=update)
    out = summary.as_json(timings=not no_timings)
    if fmt == "json":
        click.echo(json.dumps(out, indent=2, sort_keys=True))
        return
    click.echo(f"{rs.title}  options: {options_text(rs, lang) or '-'}")
    click.echo(f"{games} games, seed {seed}, agents {','.join(names)}")
    for s in range(rs.seats.count):
        click.echo(f"  seat {s} ({names[s]}): wins {out['wins'][s]:g} ({100 * out['win_rate'][s]:.1f}%), "
                   f"mean score {out['mean_score'][s]:g}")
    click.echo(f"  mean moves per game {out['mean_moves']:g}, mean hands {out['mean_hands']:g}, "
               f"truncated {out['truncated']}")
    if not no_timings:
        click.echo(f"  {out['seconds']:g} s, {out['moves_per_second'] or 0:,.0f} moves/s")


def _new_log_dir(log_dir: str) -> None:
    """--log-dir: made if missing (itself only), and refused if a run already left game logs in it."""
    from rulecraft.runs.files import ensure_directory

    found = sorted(p.name for p in ensure_directory(log_dir, "--log-dir").glob("game-*.jsonl"))
    if found:
        more = f" and {len(found) - 1:,} more" if len(found) > 1 else ""
        raise UsageError(f"--log-dir {log_dir}: already holds game logs ({found[0]}{more}); give a new or empty "
                         "directory, so that no log is overwritten")


@click.command("test")
@click.argument("paths", nargs=-1)
@click.option("-q", "--quiet", is_flag=True, help="Only print failures and the summary.")
@click.option("--mutate", is_flag=True,
              help="Mutation testing: change the rule files the scenarios play, one small change at a time, and "
                   "report the changes no scenario notices.")
@click.option("--coverage", is_flag=True, help="List the rules with an id (restrictions, effects, multipliers, "
                                               "extra calls, option choices) that no scenario exercises.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="Output of --mutate and --coverage.")
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
              help="--mutate: local worker processes; the figures do not depend on it.")
@click.option("--max-mutants", type=click.IntRange(min=1), default=None,
              help="--mutate: try a sample of this many mutants (chosen by --seed).")
@click.option("--seed", type=int, default=1, show_default=True, help="--mutate: the seed of --max-mutants' sample.")
@click.option("--timeout", type=FiniteFloatRange(min=0), default=None,
              help="--mutate: seconds a mutant may run before it counts as killed (default: ten times the "
                   "suite's own time, at least 30; 0: no limit).")
@click.option("--fail-under", type=FiniteFloatRange(min=0, max=100), default=None,
              help="--mutate: exit 1 when the kill rate (percent) is below this.")
@click.option("--equivalent-moves", type=click.IntRange(min=0), default=20_000, show_default=True,
              help="--mutate: moves of seeded random games each mutant listed as equivalent is checked in, the "
                   "games played in step with and without it; a listing whose games offer other moves or end "
                   "otherwise is reported (0: none).")
def test_cmd(paths: tuple[str, ...], quiet: bool, mutate: bool, coverage: bool, fmt: str, workers: int,
             max_mutants: int | None, seed: int, timeout: float | None, fail_under: float | None,
             equivalent_moves: int) -> None:
    """Run rule scenarios (YAML files, or directories of them) and report like pytest.

    With --mutate, measure what the scenarios pin down instead; with --coverage, which rules they exercise.
    With no PATHS, the bundled rulesets' scenarios; a bundled ruleset's name (GAME) or a path that does
    not exist here but names bundled ones (tests/scenarios/GAME) means those.
    """
    from rulecraft.cli.inputs import input_paths
    from rulecraft.rules.registry import bundled_scenarios_dir

    if mutate and coverage:
        raise UsageError("--mutate and --coverage are separate runs: give one of them")
    paths = tuple(str(p) for p in input_paths(paths, bundled_scenarios_dir(), scenarios=True))
    if mutate or coverage:
        from rulecraft.cli.mutate_cmd import run_coverage, run_mutate

        if mutate:
            run_mutate(paths, fmt=fmt, quiet=quiet, workers=workers, max_mutants=max_mutants, seed=seed,
                       timeout=timeout, fail_under=fail_under, moves=equivalent_moves)
        else:
            run_coverage(paths, fmt=fmt)
        return
    from rulecraft.runs.scenario import run_scenario_file
    from rulecraft.runs.suite import scenario_files

    files: list[Path] = scenario_files(paths)
    if not files:
        raise UsageError("no scenario files found")
    passed = failed = errors = 0
    for f in files:
        try:
            res = run_scenario_file(f)
        except RuleFileError as exc:
            errors += 1
            click.echo(f"ERROR {f}\n{exc}")
            continue
        if res.passed:
            passed += 1
            if not quiet:
                click.echo(f"PASS  {f}  {res.name}")
        else:
            failed += 1
            click.echo(f"FAIL  {f}  {res.name}")
            for msg in res.failures:
                click.echo(f"      {msg}")
    summary = f"{passed} passed, {failed} failed" + (f", {errors} errors" if errors else "")
    click.echo(summary)
    if failed or errors:
        sys.exit(1)


def register(group: click.Group) -> None:
    group.add_command(simulate)
    group.add_command(test_cmd)
