"""Helpers shared by the tests (importable as ``support``: pytest puts tests/ on the path)."""

from __future__ import annotations

from functools import cache

from rulecraft.engine.ruleset import Ruleset
from rulecraft.load import load_ruleset


@cache
def ruleset(ref: str, **options: str) -> Ruleset:
    """A bundled ruleset, loaded once per test session (loading compiles every expression)."""
    return load_ruleset(ref, dict(options))
