"""Games written from the docs alone, as an outsider would (tests/dogfood/<game>/): each folder holds a
rule file that is not bundled (YAML, or the text form `.rules`) and the scenarios that play it.
pytest checks every rule file as `rulecraft validate` does and runs every scenario, as
`rulecraft test tests/dogfood` does."""

from __future__ import annotations

from pathlib import Path

import pytest
from rule_items import ScenarioOrRuleFile, TextFormFile


def pytest_collect_file(parent: pytest.Collector, file_path: Path) -> pytest.Collector | None:
    from rulecraft.runs.suite import EQUIVALENT_MUTANTS_FILE

    if file_path.suffix == ".yaml" and file_path.name != EQUIVALENT_MUTANTS_FILE:
        return ScenarioOrRuleFile.from_parent(parent, path=file_path)
    if file_path.suffix == ".rules":  # the text form holds nothing but a rule file
        return TextFormFile.from_parent(parent, path=file_path)
    return None
