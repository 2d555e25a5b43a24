"""Collect every rule scenario under tests/scenarios/ as a pytest item, so `pytest` runs them all.

The same files run with `rulecraft test tests/scenarios`; a failure reads the same in both.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from rule_items import ScenarioOrRuleFile


def pytest_collect_file(parent: pytest.Collector, file_path: Path) -> pytest.Collector | None:
    from rulecraft.runs.suite import EQUIVALENT_MUTANTS_FILE

    # A folder's list of equivalent mutants (rulecraft test --mutate) is not a scenario.
    if file_path.suffix in (".yaml", ".yml") and file_path.name != EQUIVALENT_MUTANTS_FILE:
        return ScenarioOrRuleFile.from_parent(parent, path=file_path)
    return None
