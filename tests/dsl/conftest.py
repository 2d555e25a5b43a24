"""Fixtures for the expression-language tests (helpers live in expr_helpers.py)."""

from __future__ import annotations

import pytest
from expr_helpers import make_scope

from rulecraft.dsl import Scope


@pytest.fixture
def scope() -> Scope:
    return make_scope()
