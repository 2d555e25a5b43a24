"""Rule coverage: which rules with an id no scenario exercises.

A rule is *exercised* when, in at least one scenario:

- an **effect**, **multiplier**, **extra call** or **play effect** (an ``on_play`` item) fired (the
  engine counts these by id in ``fired``; a multiplier fires when its condition holds and its factor
  is not 1);
- a **restriction** refused at least one candidate play (told by the trick phase's ``observer``);
- an **option choice** was in effect (by default, preset or the scenario's ``options``).

Every rule with an id in the files the scenarios play is listed, including those of option choices no
scenario takes. Ids are matched by kind and id: a restriction a patch changes is one rule with its base.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulecraft.errors import RulecraftError, SourcePos, UsageError
from rulecraft.rules.located import pos_of
from rulecraft.runs.ruleshape import sites
from rulecraft.runs.suite import Suite, build_composed, compose_group, load_suite

CHOICE = "option choice"


@dataclass(frozen=True, slots=True)
class RuleId:
    kind: str  # restriction | effect | multiplier | extra call | play effect | option choice
    id: str  # an option choice is OPTION=CHOICE
    pos: SourcePos

    @property
    def at(self) -> str:
        return str(self.pos)


@dataclass
class CoverageReport:
    rules: list[RuleId]
    exercised: set[tuple[str, str]]
    scenarios: int
    failing: list[str] = field(default_factory=list)  # scenarios that failed (their rules still count)

    def unexercised(self) -> list[RuleId]:
        return [r for r in self.rules if (r.kind, r.id) not in self.exercised]

    def as_json(self) -> dict[str, Any]:
        missing = self.unexercised()
        return {
            "rules": len(self.rules),
            "exercised": len(self.rules) - len(missing),
            "unexercised": [{"at": r.at, "file": r.pos.file, "line": r.pos.line, "col": r.pos.col, "id": r.id,
                             "kind": r.kind} for r in missing],
            "scenarios": self.scenarios,
            "failing": self.failing,
        }


def declared_rules(suite: Suite) -> list[RuleId]:
    """Every rule with an id in the suite's rule files, each (kind, id) once, where first written."""
    found: dict[tuple[str, str], RuleId] = {}
    for f in suite.files:
        for rule in _rules_of(suite.docs[f].data):
            found.setdefault((rule.kind, rule.id), rule)
    return list(found.values())


def _rules_of(data: Any) -> Iterator[RuleId]:
    for site in sites(data):
        if site.role == "item" and isinstance(site.value.get("id"), str):
            yield RuleId(site.kind, str(site.value["id"]), pos_of(site.value["id"], site.pos))
    options = data.get("options") if isinstance(data, dict) else None
    for opt in options if isinstance(options, list) else ():
        if not isinstance(opt, dict) or not isinstance(opt.get("choices"), list):
            continue
        for choice in opt["choices"]:
            if isinstance(choice, dict) and "id" in choice:
                yield RuleId(CHOICE, f"{opt.get('id')}={choice['id']}", pos_of(choice["id"], pos_of(choice)))


def rule_coverage(paths: Sequence[str | Path]) -> CoverageReport:
    """Play every scenario under ``paths`` once, watching which rules act."""
    from rulecraft.engine.phases.tricks import Tricks

    suite = load_suite(paths)
    if not suite.scenarios:
        raise UsageError("no scenario files found")
    exercised: set[tuple[str, str]] = set()
    refused: set[str] = set()
    failing: list[str] = []
    for group in suite.groups:
        try:
            rs = build_composed(compose_group(suite, group))
        except RulecraftError as exc:
            failing.extend(f"{suite.scenarios[i].path}: the rules do not load: {exc}" for i in group.scenarios)
            continue
        exercised.update((CHOICE, f"{k}={v}") for k, v in rs.chosen.items())
        for phase in rs.phases:
            if isinstance(phase, Tricks):
                phase.observer = refused.update  # this ruleset is ours: nothing else plays it
        for i in group.scenarios:
            sc = suite.scenarios[i]
            try:
                res = suite.play(i, rs)
            except RulecraftError as exc:
                failing.append(f"{sc.path}: {exc}")
                continue
            if not res.passed:
                failing.append(f"{sc.path}: {res.failures[0]}")
            exercised.update((kind, rid) for rid in res.fired
                             for kind in ("effect", "multiplier", "extra call", "play effect"))
    exercised.update(("restriction", rid) for rid in refused)
    return CoverageReport(declared_rules(suite), exercised, len(suite.scenarios), failing)
