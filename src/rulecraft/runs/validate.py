"""Checking rule files the way ``rulecraft validate`` does: every stage, every option choice, every preset.

A file is one of three things, told apart by its top-level keys:

- a **scenario** (has ``ruleset:``): checked against the scenario schema;
- a list of **equivalent mutants** (has ``equivalent:``; ``rulecraft test --mutate``): checked against
  its schema;
- an **overlay** (has ``extends:``): checked against the overlay schema, then composed with what it
  extends and checked as a whole;
- a **ruleset**: composed, checked against the full schema and built (references resolved,
  expressions compiled), so semantic errors show too.

Rulesets and overlays are then composed and built once per option choice (the defaults plus that
one choice) and once per preset, so a broken patch is caught even when it is not the default.
Problems are collected, never raised: a validator reports everything it can find. With
``simulate``, every configuration also plays that many seeded random games (runs/invariants.py).
"""

from __future__ import annotations

import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulecraft.errors import Diagnostic, RulecraftError, RuleFileError, SourcePos, sort_diagnostics
from rulecraft.rules.registry import RULE_SUFFIXES
from rulecraft.rules.rulefiles import read_rule_file
from rulecraft.rules.yamlload import YamlDocument, display_path


@dataclass(frozen=True, slots=True)
class PlayCheck:
    """``validate --simulate``: how many random games each configuration plays, and the bounds on each."""

    games: int = 0
    max_moves: int = 100_000  # a game still going after this many moves does not end
    time_limit: float | None = 30.0  # nor does one still going after this many seconds
    progress: Callable[[str], None] | None = None  # told which game is being played, as it starts


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


def classify(data: Any) -> str:
    if not isinstance(data, dict):
        return "unknown"
    if "ruleset" in data:
        return "scenario"
    if "equivalent" in data:
        return "mutants"
    if "extends" in data:
        return "overlay"
    return "ruleset"


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
    report.kind = classify(doc.data)
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
    play: list[PlayCheck | None] = [simulate]

    def check(options: dict[str, str], preset: str | None, label: str) -> bool:
        try:
            return _check_one(path, options, preset, build, play[0], label or "the defaults: ", chain)
        except _NoEnd:
            play[0] = None  # a game that does not end costs its whole bound: play no other configuration
            raise

    for options, preset, label in configs:
        sink.run(lambda o=options, p=preset, w=label: check(o, p, w), doc.file, label)
        sink.report.variants_checked += 1


def _check_one(path: str | Path, options: dict[str, str], preset: str | None, build: bool,
               simulate: PlayCheck | None = None, label: str = "", chain: list[YamlDocument] | None = None) -> bool:
    from rulecraft.rules.compose import compose, compose_documents
    from rulecraft.rules.schema_check import check_composed

    composed = compose(str(path), options, preset) if chain is None else \
        compose_documents(chain, options, preset, ref=str(path))
    check_composed(composed)
    if build:
        from rulecraft.load import build_ruleset
        from rulecraft.rules.relocate import relocate

        try:
            rs = build_ruleset(composed)
        except RuleFileError as exc:
            raise RuleFileError(relocate(exc.diagnostics, composed.data, composed.source_text)) from None
        if simulate is not None and simulate.games:
            _check_play(rs, simulate, display_path(path), label.removesuffix(": "))
    return True


def _check_play(rs: Any, check: PlayCheck, file: str, label: str) -> None:
    """Play the configuration; every game that breaks is reported with its seed: where the rule at fault
    is written when the problem says (a game that does not end: its end_when), else at the file's top."""
    from rulecraft.runs.invariants import check_behaviour

    progress = None
    if check.progress is not None:
        tell = check.progress
        progress = lambda i: tell(f"{file} ({label}): game {i + 1} of {check.games}")  # noqa: E731
    problems = check_behaviour(rs, check.games, max_moves=check.max_moves, time_limit=check.time_limit,
                               progress=progress)
    if problems:
        diags = [Diagnostic(p.pos or SourcePos(file, 1, 1), f"cannot be played: {p}") for p in problems]
        raise (_NoEnd if any(p.ends is False for p in problems) else RuleFileError)(diags)


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
