"""Mutants judged equivalent: listed, with a reason, in a scenario folder's ``mutants.yaml``.

Some mutants cannot change any game (``>= 0`` against ``> -1`` on whole numbers, a bound no deal
reaches). A rule author who has convinced themselves of that lists the mutant as
``rulecraft test --mutate`` printed it — by its place (``at``), or by its rule path (``rule``, which
does not move when lines above are edited; with ``occurrence`` when the rule has the same change in
more than one place: the first, second ... in the order of its text), or both — with the change and
the reason (schema: ``schemas/mutants.schema.json``)::

    equivalent:
      - at: variants/my-game/base.yaml:120:14
        change: "'>=' -> '>'"
        reason: "scores are multiples of 5, so no score lies between the two bounds"
      - rule: "hand.phases[scoring].effects[bid-made].when"
        change: "'>=' -> '>'"
        reason: "..."
      - rule: "functions[\"pays(s)\"]"
        occurrence: 2
        change: "'==' -> '!='"
        reason: "..."

``--mutate`` then reports it apart from the survivors. A listed mutant that no longer exists (the
file was edited) or that a scenario kills is reported too, so the list cannot silently go stale.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from rulecraft.errors import SourcePos
from rulecraft.rules.located import pos_of
from rulecraft.runs.mutants import Mutant
from rulecraft.runs.suite import EQUIVALENT_MUTANTS_FILE


@dataclass(frozen=True, slots=True)
class Equivalent:
    at: str | None  # file:line:col, as printed
    rule: str | None  # the rule path, as in --format json
    occurrence: int | None  # which of the rule's mutants making ``change`` (1, 2, ...), as in --format json
    change: str
    reason: str
    where: SourcePos  # where the entry is written in the mutants file

    def matches(self, m: Mutant) -> bool:
        """Whether ``m`` is the mutant listed: the same change, at the place and rule given."""
        return (m.change == self.change and self.at in (None, m.at) and self.rule in (None, m.rule)
                and self.occurrence in (None, m.occurrence))

    @property
    def named(self) -> str:
        rule = f"[{self.rule}]" if self.rule else None
        nth = f"(occurrence {self.occurrence})" if self.occurrence is not None else None
        return " ".join(x for x in (self.at, rule, nth) if x)


def equivalents_files(paths: Iterable[str | Path]) -> list[Path]:
    """The mutants lists in the folders named (and below them), and any named directly."""
    out: list[Path] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            out.extend(sorted(path.rglob(EQUIVALENT_MUTANTS_FILE)))
        elif path.name == EQUIVALENT_MUTANTS_FILE:
            out.append(path)
    return out


def load_equivalents(paths: Iterable[str | Path]) -> list[Equivalent]:
    """Every entry of every mutants list under ``paths`` (RuleFileError for a malformed list)."""
    from rulecraft.rules.schema_check import check_mutants
    from rulecraft.rules.yamlload import read_yaml_file

    out: list[Equivalent] = []
    for f in equivalents_files(paths):
        doc = read_yaml_file(f)
        check_mutants(doc.data, doc.file, doc.text)
        for item in doc.data["equivalent"]:
            at, rule, nth = item.get("at"), item.get("rule"), item.get("occurrence")
            out.append(Equivalent(str(at) if at is not None else None, str(rule) if rule is not None else None,
                                  int(nth) if nth is not None else None, str(item["change"]), str(item["reason"]),
                                  pos_of(item)))
    return out
