"""Checking rule files the way ``rulecraft validate`` does: every stage, every option choice, every preset.

A file is one of three things, told apart by its top-level keys:

- a **scenario** (has ``ruleset:``): checked against the scenario schema;
- a list of **equivalent mutants** (has ``equivalent:``; ``rulecraft test --mutate``): checked against
  its schema;
- an **overlay** (has ``extends:``): checked against the overlay schema, then composed with what it
  extends and checked as a whole;
- a **ruleset**: composed, checked against the full schema and built (references resolved,
  expressions compiled), so semantic errors show too.

A ruleset's or overlay's citations (``source:``, ``notes:``) that name a file not shipped beside it are
warned about (runs/citations.py): a warning does not make the file invalid.

Rulesets and overlays are then composed and built once per option choice (the defaults plus that
one choice) and once per preset, so a broken patch is caught even when it is not the default.
Problems are collected, never raised: a validator reports everything it can find. With
``simulate``, every configuration also plays that many seeded random games (runs/invariants.py).
"""

from __future__ import annotations

import dataclasses
import time
import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulecraft.errors import Diagnostic, RulecraftError, RuleFileError, SourcePos, sort_diagnostics
from rulecraft.rules.registry import RULE_SUFFIXES
from rulecraft.rules.rulefiles import document_kind, read_rule_file
from rulecraft.rules.yamlload import YamlDocument, display_path


@dataclass(frozen=True, slots=True)
class PlayCheck:
    """``validate --simulate``: how many random games each configuration plays, and the bounds on each."""

    games: int = 0
    max_moves: int = 100_000  # a game still going after this many moves does not end
    time_limit: float | None = 30.0  # nor does one still going after this many seconds
    progress: Callable[[str], None] | None = None  # told which game is being played, as it starts
    # Local processes the games are played in (each plays whole configurations). Every configuration
    # is built and checked here first; results are reported in the order of the configurations.
    workers: int = 1


@dataclass
class FileReport:
    path: str
    kind: str  # ruleset | overlay | scenario | mutants | unknown
    diagnostics: list[Diagnostic] = field(default_factory=list)
    variants_checked: int = 0

    @property
    def ok(self) -> bool:
        return not any(d.severity == "error" for d in self.diagnostics)


def collect_files(paths: Iterable[str | Path]) -> list[Path]:
    """Files named, and every *.yaml / *.yml / *.rules under directories named (sorted, each once)."""
    out: list[Path] = []
    seen: set[Path] = set()
    for p in paths:
        path = Path(p)
        found = sorted(f for f in path.rglob("*") if f.is_file() and f.suffix in RULE_SUFFIXES) \
            if path.is_dir() else [path]
        for f in found:
            key = f.resolve()
            if key not in seen:
                seen.add(key)
                out.append(f)
    return out


def validate_file(path: str | Path, build: bool = True, simulate: int | PlayCheck = 0) -> FileReport:
    """Every problem of one file (and of what it composes with), as Diagnostics.

    ``simulate``: how many random games each configuration plays (or a PlayCheck with its bounds).
    """
    play = simulate if isinstance(simulate, PlayCheck) else PlayCheck(simulate)
    name = display_path(path)
    report = FileReport(name, "unknown")
    sink = _Sink(report)
    try:
        doc = read_rule_file(path)
    except RulecraftError as exc:
        sink.add(exc, name)
        return report
    report.kind = document_kind(doc.data)
    if report.kind == "unknown":
        what = "empty" if doc.data is None else "not a mapping"
        report.diagnostics.append(Diagnostic(SourcePos(name, 1, 1), f"the file is {what}: a rule file, overlay or "
                                                                    "scenario is a mapping of keys"))
        return report
    if report.kind == "scenario":
        from rulecraft.rules.schema_check import check_scenario

        if sink.run(lambda: check_scenario(doc.data, doc.file, doc.text), name):
            from rulecraft.runs.scenario import scenario_problems

            for d in scenario_problems(doc.data, str(path)):
                sink.add(RuleFileError([d]), name)
        return report
    if report.kind == "mutants":
        from rulecraft.rules.schema_check import check_mutants

        sink.run(lambda: check_mutants(doc.data, doc.file, doc.text), name)
        return report
    from rulecraft.runs.citations import unshipped_citations

    for warning in unshipped_citations(doc.data, path, name):
        sink.add(RuleFileError([warning]), name)
    if report.kind == "overlay":
        from rulecraft.rules.schema_check import check_overlay

        if not sink.run(lambda: check_overlay(doc.data, doc.file, doc.text), name):
            return report
    _validate_ruleset(path, doc, sink, build, play)
    return report


def _validate_ruleset(path: str | Path, doc: YamlDocument, sink: _Sink, build: bool, simulate: PlayCheck) -> None:
    from rulecraft.rules.compose import compose_documents, load_chain

    # The files are read once: each configuration composes the same documents (a 2 MB file takes
    # about a second to read, and a ruleset may have dozens of configurations).
    chain = sink.run(lambda: load_chain(str(path), {Path(path).resolve(): doc}), doc.file)
    base = sink.run(lambda: compose_documents(chain, {}, None, ref=str(path)), doc.file) if chain else None
    if not base:
        return
    configs: list[tuple[dict[str, str], str | None, str]] = [({}, None, "")]
    configs += [({opt.id: choice.id}, None, f"with option {opt.id}={choice.id}: ")
                for opt in base.options for choice in opt.choices if choice.id != opt.default]
    configs += [({}, preset.id, f"with preset {preset.id}: ") for preset in base.presets]
    workers = simulate.workers > 1 and build and simulate.games > 0
    play: list[PlayCheck | None] = [dataclasses.replace(simulate, games=0) if workers else simulate]
    clock = _Clock(len(configs) * simulate.games)
    built: list[tuple[dict[str, str], str | None, str]] = []
    from rulecraft.engine.reuse import BuildReuse

    # The configurations share most of their data: what is built from it, once; whole phases too,
    # unless their rulesets are played here.
    reuse = BuildReuse(phases=not (build and simulate.games > 0 and not workers))
    passed: list[Any] = []  # the composed data of every configuration that passed, to know one seen again

    def check(options: dict[str, str], preset: str | None, label: str) -> bool:
        try:
            return _check_one(path, options, preset, build, play[0], label or "the defaults: ", chain, clock, reuse,
                              passed)
        except _NoEnd:
            play[0] = None  # a game that does not end costs its whole bound: play no other configuration
            raise

    for options, preset, label in configs:
        if sink.run(lambda o=options, p=preset, w=label: check(o, p, w), doc.file, label):
            built.append((options, preset, label))
        sink.report.variants_checked += 1
    if workers and built:
        _play_in_workers(path, built, simulate, sink, doc.file, _Clock(len(built) * simulate.games))


def _play_in_workers(path: str | Path, configs: list[tuple[dict[str, str], str | None, str]], check: PlayCheck,
                     sink: _Sink, where: str, clock: _Clock) -> None:
    """Play every configuration's games in ``check.workers`` processes; report as ``_check_play`` does, in order.

    As when they are played here, no configuration after one with a game that does not end is reported
    (those not yet started are not played)."""
    from rulecraft.runs.pool import local_workers, worker_pool

    file = display_path(path)
    workers = local_workers(check.workers, len(configs))
    with worker_pool(workers) as pool:
        futures = [pool.submit(_play_configuration, str(path), options, preset, check.games, check.max_moves,
                               check.time_limit) for options, preset, _label in configs]
        for n, (future, (_options, _preset, label)) in enumerate(zip(futures, configs, strict=True)):
            if check.progress is not None:
                check.progress(f"{file}: {n} of {len(configs)} configurations played in {workers} processes"
                               f"{clock.left(n * check.games)}")
            shown = label.removesuffix(": ") or "the defaults"
            outcome = sink.run(lambda f=future: f.result(), where, label)  # a worker that failed is reported
            problems = outcome if isinstance(outcome, list) else []
            sink.run(lambda p=problems, w=shown: _report_play(p, check.games, file, w), where, label)
            if any(p.ends is False for p in problems):  # as played here: no other configuration is played
                for f in futures[n + 1:]:
                    f.cancel()
                break


def _play_configuration(path: str, options: dict[str, str], preset: str | None, games: int, max_moves: int,
                        time_limit: float | None) -> list[Any]:
    """In a worker: the problems of ``games`` random games of one configuration (see check_behaviour)."""
    from rulecraft.load import load_ruleset
    from rulecraft.runs.invariants import check_behaviour

    return check_behaviour(load_ruleset(path, options, preset), games, max_moves=max_moves, time_limit=time_limit)


class _Clock:
    """How long the games of a file have taken so far, and so about how long the rest will take."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.done = 0
        self.start = time.perf_counter()

    def left(self, done: int | None = None) -> str:
        done = self.done if done is None else done
        if done <= 0 or self.total <= done:
            return ""
        seconds = (time.perf_counter() - self.start) / done * (self.total - done)
        shown = f"{seconds:.0f} s" if seconds < 90 else f"{seconds / 60:.0f} min"
        return f", about {shown} left"


def _check_one(path: str | Path, options: dict[str, str], preset: str | None, build: bool,
               simulate: PlayCheck | None = None, label: str = "", chain: list[YamlDocument] | None = None,
               clock: _Clock | None = None, reuse: Any = None, passed: list[Any] | None = None) -> bool:
    """Compose, check and build one configuration (and play it, with ``simulate``).

    ``passed``: configurations of the same file that passed. One whose effective data is the same as
    theirs, value for value and place for place (an option choice and a preset that make the same
    rules), is not checked again: every check reads only that data, so it passes as they did."""
    from rulecraft.rules.compose import compose, compose_documents
    from rulecraft.rules.located import same_located
    from rulecraft.rules.schema_check import check_composed

    composed = compose(str(path), options, preset) if chain is None else \
        compose_documents(chain, options, preset, ref=str(path))
    plays = simulate is not None and simulate.games > 0
    if passed is not None and not plays and any(
            c.content_hash == composed.content_hash and c.source_text == composed.source_text
            and same_located(c.data, composed.data) for c in passed):
        return True
    check_composed(composed)
    if build:
        from rulecraft.load import build_ruleset
        from rulecraft.rules.relocate import relocate

        try:
            rs = build_ruleset(composed, reuse)
        except RuleFileError as exc:
            raise RuleFileError(relocate(exc.diagnostics, composed.data, composed.source_text)) from None
        if simulate is not None and simulate.games:
            _check_play(rs, simulate, display_path(path), label.removesuffix(": "), clock or _Clock(simulate.games))
    if passed is not None:
        passed.append(composed)
    return True


def _check_play(rs: Any, check: PlayCheck, file: str, label: str, clock: _Clock) -> None:
    """Play the configuration; every game that breaks is reported with its seed: where the rule at fault
    is written when the problem says (a game that does not end: its end_when), else at the file's top."""
    from rulecraft.runs.invariants import check_behaviour

    tell = check.progress

    def progress(i: int) -> None:
        if i:
            clock.done += 1
        if tell is not None:
            tell(f"{file} ({label}): game {i + 1} of {check.games}{clock.left()}")

    problems = check_behaviour(rs, check.games, max_moves=check.max_moves, time_limit=check.time_limit,
                               progress=progress)
    clock.done += 1 if check.games else 0
    _report_play(problems, check.games, file, label)


def _report_play(problems: list[Any], games: int, file: str, label: str) -> bool:
    """Raise the problems of a configuration's games as diagnostics; a game too slow to finish in its
    time is a warning (``BehaviourProblem.slow``), which fails neither the file nor the next configuration."""
    if problems:
        diags = [Diagnostic(p.pos or SourcePos(file, 1, 1), f"cannot be played: {p}") if not p.slow else
                 Diagnostic(SourcePos(file, 1, 1), f"not played to its end: {p}", severity="warning")
                 for p in problems]
        raise (_NoEnd if any(p.ends is False for p in problems) else RuleFileError)(diags)
    return True


class _NoEnd(RuleFileError):
    """A configuration has a game that did not end (within the bounds of a PlayCheck)."""


class _Sink:
    """Runs a check and turns whatever it raises into Diagnostics (deduplicated across runs)."""

    def __init__(self, report: FileReport) -> None:
        self.report = report
        self.seen: set[tuple[SourcePos, str]] = set()

    def run(self, fn: Any, where: str, label: str = "") -> Any:
        try:
            return fn() or True
        except RulecraftError as exc:
            self.add(exc, where, label)
        except Exception as exc:
            last = traceback.extract_tb(exc.__traceback__)[-1] if exc.__traceback__ else None
            at = f" at {Path(last.filename).name}:{last.lineno}" if last else ""
            self._append(Diagnostic(SourcePos(where, 1, 1), f"rulecraft failed while checking this file (a bug in "
                                                            f"rulecraft, please report it): {type(exc).__name__}: "
                                                            f"{exc}{at}"), label)
        return None

    def add(self, exc: RulecraftError, where: str, label: str = "") -> None:
        if isinstance(exc, RuleFileError):
            for d in exc.diagnostics:
                self._append(d, label)
        else:
            self._append(Diagnostic(SourcePos(where, 1, 1), str(exc)), label)

    def _append(self, d: Diagnostic, label: str) -> None:
        # The same problem found again under another option choice is reported once, without the label.
        key = (d.pos, d.message)
        if key in self.seen:
            return
        self.seen.add(key)
        if label:
            d = Diagnostic(d.pos, label + d.message, d.rule_path, d.severity, d.context)
        self.report.diagnostics.append(d)
        self.report.diagnostics[:] = sort_diagnostics(self.report.diagnostics)
