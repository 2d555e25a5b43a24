"""pytest items for the project's rule files and scenarios, as `rulecraft validate` and `rulecraft test` run
them (tests/scenarios/ and tests/dogfood/ collect their files with these): a failure reads the same in both."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest


class Failed(Exception):
    def __init__(self, lines: list[str]) -> None:
        super().__init__("; ".join(lines))
        self.lines = lines


class _Item(pytest.Item):
    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, Failed):
            return "\n".join(excinfo.value.lines)
        return str(excinfo.getrepr(style="short"))

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, self.name


class RuleFileItem(_Item):
    def runtest(self) -> None:
        from rulecraft.runs.validate import validate_file

        report = validate_file(self.path)  # every option choice and preset built; no games played
        if not report.ok:
            raise Failed([str(d) for d in report.diagnostics])


class ScenarioItem(_Item):
    def runtest(self) -> None:
        from rulecraft.runs.scenario import run_scenario_file

        result = run_scenario_file(self.path)
        if not result.passed:
            raise Failed(result.failures)


class ScenarioOrRuleFile(pytest.File):
    """A YAML file of scenarios, or a rule file kept beside the scenarios that play it (checked as
    `rulecraft validate` checks it)."""

    def collect(self) -> Any:
        from rulecraft.rules.yamlload import load_yaml_file
        from rulecraft.runs.scenario import is_rule_file

        if is_rule_file(load_yaml_file(self.path)):
            yield RuleFileItem.from_parent(self, name=f"validate {self.path.stem}")
        else:
            yield ScenarioItem.from_parent(self, name=self.path.stem)


class TextFormFile(pytest.File):
    """A `.rules` file: nothing but a rule file."""

    def collect(self) -> Any:
        yield RuleFileItem.from_parent(self, name=f"validate {self.path.stem}")
