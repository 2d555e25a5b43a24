"""Games written from the docs alone, as an outsider would (tests/dogfood/<game>/): each folder holds a
rule file that is not bundled (YAML, or the text form `.rules`) and the scenarios that play it.
pytest checks every rule file as `rulecraft validate` does and runs every scenario, as
`rulecraft test tests/dogfood` does."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest


def pytest_collect_file(parent: pytest.Collector, file_path: Path) -> pytest.Collector | None:
    from rulecraft.runs.suite import EQUIVALENT_MUTANTS_FILE

    if file_path.suffix == ".yaml" and file_path.name != EQUIVALENT_MUTANTS_FILE:
        return DogfoodFile.from_parent(parent, path=file_path)
    if file_path.suffix == ".rules":  # the text form holds nothing but a rule file
        return TextFormFile.from_parent(parent, path=file_path)
    return None


class DogfoodFile(pytest.File):
    def collect(self) -> Any:
        from rulecraft.rules.yamlload import load_yaml_file
        from rulecraft.runs.scenario import is_rule_file

        if is_rule_file(load_yaml_file(self.path)):
            yield RuleFileItem.from_parent(self, name=f"validate {self.path.stem}")
        else:
            yield ScenarioItem.from_parent(self, name=self.path.stem)


class TextFormFile(pytest.File):
    def collect(self) -> Any:
        yield RuleFileItem.from_parent(self, name=f"validate {self.path.stem}")


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
