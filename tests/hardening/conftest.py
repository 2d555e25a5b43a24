"""The ``cli`` fixture of the bad-input corpus (its helpers are in ``cli_support``, a module name no other
test directory uses, so any set of test directories can be collected together)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_support import Cli


@pytest.fixture
def cli(tmp_path: Path) -> Iterator[Cli]:
    yield Cli(tmp_path)
