"""A scenario suite as mutation testing and coverage see it: scenarios grouped by the rules they play.

Scenarios are grouped by the ruleset they name with their options and preset (a *group*); each
group's rules are composed from the files of its ``extends`` chain. Every file is read once and
shared by all the groups whose chain holds it, so a change to a file (a mutant) reaches every group
that uses it. ``rules_for`` composes, checks and builds a group's ruleset from given documents:
the seam through which a scenario runs against changed rules without anything being written to disk.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulecraft.rules.compose import Composed, compose_documents, load_chain
from rulecraft.rules.yamlload import YamlDocument

if TYPE_CHECKING:
    from rulecraft.engine.builder import Builder
    from rulecraft.engine.ruleset import Ruleset
    from rulecraft.runs.scenario import ScenarioResult

# A scenario folder may hold this file, listing mutants judged equivalent (runs/equivalent.py);
# it is not a scenario.
EQUIVALENT_MUTANTS_FILE = "mutants.yaml"


@dataclass
class Scenario:
    path: str  # as given (relative paths stay relative)
    data: dict[str, Any]
    group: int  # index into Suite.groups


@dataclass
class Group:
    """The scenarios that play one ruleset with one set of options."""

    ref: str
    options: dict[str, str]
    preset: str | None
    files: list[str]  # the extends chain, base first, as positions name the files
    scenarios: list[int] = field(default_factory=list)  # indices into Suite.scenarios

    @property
    def name(self) -> str:
        """The ruleset as people name it: a bundled name, or the file (its own ``files[-1]``)."""
        return self.files[-1] if Path(self.ref).is_file() else self.ref

    @property
    def label(self) -> str:
        opts = ",".join(f"{k}={v}" for k, v in sorted(self.options.items()))
        return self.name + (f" -o {opts}" if opts else "") + (f" --preset {self.preset}" if self.preset else "")


@dataclass
class Suite:
    scenarios: list[Scenario]
    groups: list[Group]
    docs: dict[str, YamlDocument]  # every rule file of every group's chain, by name
    files: list[str]  # the rule files, in the order first met (a base before its overlays)
    problems: list[str] = field(default_factory=list)  # scenarios that could not be read

    def chain(self, group: Group, replaced: dict[str, YamlDocument] | None = None) -> list[YamlDocument]:
        """The group's documents, with any of them replaced (a mutated file)."""
        swap = replaced or {}
        return [swap.get(f, self.docs[f]) for f in group.files]

    def play(self, index: int, ruleset: Ruleset) -> ScenarioResult:
        """Play scenario ``index`` against ``ruleset`` (its group's rules, as written or changed)."""
        from rulecraft.runs.scenario import run_scenario

        sc = self.scenarios[index]
        return run_scenario(sc.data, sc.path, ruleset=ruleset)

    def groups_using(self, file: str) -> list[int]:
        return [i for i, g in enumerate(self.groups) if file in g.files]

    def rulesets_of(self, file: str) -> list[str]:
        """The rulesets (by bundled name, or by file for a path) whose chain holds ``file``."""
        return sorted({self.groups[i].name for i in self.groups_using(file)})


def scenario_files(paths: Iterable[str | Path]) -> list[Path]:
    """The scenario files named, and every *.yaml under directories named that is a scenario: not the
    mutants lists, nor a rule file kept beside the scenarios that play it."""
    out: list[Path] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            out.extend(f for f in sorted(path.rglob("*.yaml"))
                       if f.name != EQUIVALENT_MUTANTS_FILE and not _holds_rules(f))
        else:
            out.append(path)
    return out


def _holds_rules(path: Path) -> bool:
    from rulecraft.errors import RulecraftError
    from rulecraft.rules.yamlload import load_yaml_file
    from rulecraft.runs.scenario import is_rule_file

    try:
        return is_rule_file(load_yaml_file(path))
    except RulecraftError:
        return False  # a file that does not load is reported when it is run as a scenario


def load_suite(paths: Sequence[str | Path]) -> Suite:
    """Read the scenarios under ``paths`` and the rule files they play (RulecraftError on a broken file)."""
    from rulecraft.runs.scenario import load_scenario, scenario_ruleset

    scenarios: list[Scenario] = []
    groups: list[Group] = []
    by_key: dict[tuple[Any, ...], int] = {}
    docs: dict[str, YamlDocument] = {}
    files: list[str] = []
    for f in scenario_files(paths):
        data = load_scenario(f)
        ref, options, preset = scenario_ruleset(data, str(f))
        key = (ref, tuple(sorted(options.items())), preset)
        if key not in by_key:
            chain = load_chain(ref)
            for d in chain:
                if d.file not in docs:
                    docs[d.file] = d
                    files.append(d.file)
            by_key[key] = len(groups)
            groups.append(Group(ref, options, preset, [d.file for d in chain]))
        gi = by_key[key]
        groups[gi].scenarios.append(len(scenarios))
        scenarios.append(Scenario(str(f), data, gi))
    return Suite(scenarios, groups, docs, files)


def compose_group(suite: Suite, group: Group, replaced: dict[str, YamlDocument] | None = None) -> Composed:
    return compose_documents(suite.chain(group, replaced), group.options, group.preset, ref=group.ref)


def build_composed(composed: Composed, schema: bool = True, builder: Builder | None = None) -> Ruleset:
    """Check and build composed rules: the Ruleset (RuleFileError if they are not valid).

    ``schema=False`` skips the schema check (the builder's semantic checks still run): for the same
    changed file composed again with other options, once it has passed with one set. ``builder``: the
    one to build with (one that keeps what it compiles, see ``runs/exprplaces.py``).
    """
    from rulecraft.load import build_ruleset
    from rulecraft.rules.schema_check import check_composed

    if schema:
        check_composed(composed)
    return build_ruleset(composed, builder=builder)


def mutated_document(doc: YamlDocument, data: Any) -> YamlDocument:
    """The document with other data (a mutant's): same text and name, for positions and excerpts."""
    return YamlDocument(data, doc.text, doc.file)
