"""Shared fixtures."""

from __future__ import annotations

import pytest
from support import ruleset

from rulecraft.engine.ruleset import Ruleset


@pytest.fixture(scope="session")
def rook() -> Ruleset:
    return ruleset("rook")
