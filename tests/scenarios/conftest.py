"""Collect every rule scenario under tests/scenarios/ as a pytest item, so `pytest` runs them all.

The same files run with `rulecraft test tests/scenarios`; a failure reads the same in both.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest


def pytest_collect_file(parent: pytest.Collector, file_path: Path) -> pytest.Collector | None:
    from rulecraft.runs.suite import EQUIVALENT_MUTANTS_FILE

    # A folder's list of equivalent mutants (rulecraft test --mutate) is not a scenario.
    if file_path.suffix in (".yaml", ".yml") and file_path.name != EQUIVALENT_MUTANTS_FILE:
        return ScenarioFile.from_parent(parent, path=file_path)
    return None


class ScenarioFile(pytest.File):
    def collect(self) -> Any:
        from rulecraft.rules.yamlload import load_yaml_file
        from rulecraft.runs.scenario import is_rule_file

        # A rule file kept beside the scenarios that play it (a short pack, as rulecraft test reads it too)
        # is checked as rulecraft validate checks it.
        if is_rule_file(load_yaml_file(self.path)):
            yield RuleFileItem.from_parent(self, name=f"validate {self.path.stem}")
        else:
            yield ScenarioItem.from_parent(self, name=self.path.stem)


class RuleFileItem(pytest.Item):
    def runtest(self) -> None:
        from rulecraft.runs.validate import validate_file

        report = validate_file(self.path)
        if not report.ok:
            raise ScenarioFailed([str(d) for d in report.diagnostics])

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, ScenarioFailed):
            return "\n".join(excinfo.value.failures)
        return str(excinfo.getrepr(style="short"))


class ScenarioItem(pytest.Item):
    def runtest(self) -> None:
        from rulecraft.runs.scenario import run_scenario_file

        result = run_scenario_file(self.path)
        if not result.passed:
            raise ScenarioFailed(result.failures)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, ScenarioFailed):
            return "\n".join(excinfo.value.failures)
        return str(excinfo.getrepr(style="short"))

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, f"scenario {self.name}"


class ScenarioFailed(Exception):
    def __init__(self, failures: list[str]) -> None:
        super().__init__("; ".join(failures))
        self.failures = failures
