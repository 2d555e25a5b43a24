"""``rulecraft test --mutate`` and ``rulecraft test --coverage``: what the scenario suite pins down, and what not."""

from __future__ import annotations

import json
import sys

import click

from rulecraft.runs.mutate import EQUIVALENT_MOVES, NOT_REACHED, SURVIVED, MutationReport


def run_mutate(paths: tuple[str, ...], *, fmt: str, quiet: bool, workers: int, max_mutants: int | None, seed: int,
               timeout: float | None, fail_under: float | None, moves: int = EQUIVALENT_MOVES) -> None:
    """Mutate the rule files the scenarios play and report the survivors; exit 1 on a problem."""
    from rulecraft.cli.progress import progress_bar
    from rulecraft.runs.mutate import plan_mutations

    plan = plan_mutations(list(paths), max_mutants=max_mutants, seed=seed)
    with progress_bar(len(plan.tried), "mutants") as update:
        report = plan.run(workers=workers, timeout=timeout, progress=update, moves=moves)
    if fmt == "json":
        click.echo(json.dumps(report.as_json(), indent=2, ensure_ascii=False))
    else:
        _print_mutants(report, quiet)
    rate = report.kill_rate()
    below = fail_under is not None and rate is not None and 100 * rate < fail_under
    if below and fmt != "json":
        click.echo(f"the kill rate {100 * (rate or 0):.1f}% is below --fail-under {fail_under:g}%")
    if report.baseline.failures or report.killed_equivalents() or report.changed_equivalents() \
            or report.stale_equivalents() or below:
        sys.exit(1)


def _print_mutants(report: MutationReport, quiet: bool) -> None:
    for failure in report.baseline.failures:
        click.echo(f"not used (fails with the rules as written): {failure}")
    for m in report.by_status(SURVIVED):
        reached = report.outcomes[m.index].detail != NOT_REACHED
        click.echo(f"{m.at}: {m.change} survived" + ("" if reached else f" ({NOT_REACHED})"))
    if not quiet:
        for m in report.by_status("equivalent"):
            listing = report.listing(m)
            click.echo(f"{m.at}: {m.change} equivalent: {listing.reason if listing else ''}")
    for e, m in report.killed_equivalents():
        click.echo(f"{e.where}: the mutant {m.at}: {m.change} is listed as equivalent, but it is "
                   f"{report.status(m)}: {report.outcomes[m.index].detail}")
    for e, m, detail in report.changed_equivalents():
        click.echo(f"{e.where}: the mutant {m.at}: {m.change} is listed as equivalent, but {detail}")
    for e in report.stale_equivalents():
        meant = report.likely_meant(e)
        hint = f"did you mean {meant}?" if meant else "was the rule file edited?"
        click.echo(f"{e.where}: no mutant {e.named}: {e.change} ({hint})")
    if not quiet:  # (the files' figures last: the line a reader looks for)
        for kind, figures in report.by_operator().items():
            _summary(f"operator {kind}", figures)
    for f in report.suite.files:
        _summary(f"{f} ({', '.join(report.suite.rulesets_of(f))})", report.figures([m for m in report.mutants
                                                                                        if m.file == f]))
    if len(report.suite.files) > 1:
        _summary("total", report.figures(report.mutants))
    if len(report.mutants) < report.total:
        click.echo(f"(a sample of {len(report.mutants)} of {report.total} mutants)")


def _summary(label: str, f: dict[str, object]) -> None:
    rate = f["kill_rate"]
    shown = f"{100 * float(rate):.1f}%" if isinstance(rate, float | int) else "-"
    click.echo(f"{label}: {f['mutants']} mutants: {f['killed']} killed, {f['survived']} survived, "
               f"{f['invalid']} invalid, {f['equivalent']} equivalent; kill rate {shown}")


def run_coverage(paths: tuple[str, ...], *, fmt: str) -> None:
    """List the rules with an id that no scenario exercises; exit 1 when a scenario fails."""
    from rulecraft.runs.coverage import rule_coverage

    report = rule_coverage(list(paths))
    if fmt == "json":
        click.echo(json.dumps(report.as_json(), indent=2, ensure_ascii=False))
    else:
        for failure in report.failing:
            click.echo(f"FAIL  {failure.splitlines()[0]}")
        for r in report.unexercised():
            click.echo(f"{r.at}: rule '{r.id}' ({r.kind}) is never exercised")
        missing = len(report.unexercised())
        click.echo(f"{len(report.rules) - missing} of {len(report.rules)} rules exercised by "
                   f"{report.scenarios} scenario{'' if report.scenarios == 1 else 's'}")
    if report.failing:
        sys.exit(1)
