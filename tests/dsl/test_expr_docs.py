"""docs/expressions.md keeps up with the language: every builtin, and every name the engine offers."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from rulecraft.dsl import Scope
from rulecraft.dsl.builtins import BUILTINS

DOC = Path(__file__).resolve().parents[2] / "docs" / "expressions.md"


@pytest.fixture(scope="module")
def doc() -> str:
    return DOC.read_text(encoding="utf-8")


def test_every_builtin_is_documented_with_an_example(doc: str) -> None:
    missing = [name for name in BUILTINS if not re.search(rf"`{name}\(", doc)]
    assert not missing, f"builtins missing from docs/expressions.md: {missing}"


def _documented(doc: str, name: str, is_function: bool) -> bool:
    return bool(re.search(rf"`{name}\(" if is_function else rf"`{name}`", doc))


def test_every_engine_name_is_documented(doc: str) -> None:
    """Adding a name to a scope of the engine means adding a row to the tables of the doc."""
    context = pytest.importorskip("rulecraft.engine.context")
    tricks = pytest.importorskip("rulecraft.engine.phases.tricks")
    rs = SimpleNamespace(variables=(), seats=None, combinations={}, chosen={}, pieces=None)
    game = context.base_scope(rs, Scope(name="constants"))
    trick = tricks.trick_scope(game)
    missing = []
    for scope in (game, trick):
        missing += [f"{f.name}()" for f in scope._functions.values() if not _documented(doc, f.name, True)]
        missing += [n.name for n in scope._names.values() if not _documented(doc, n.name, False)]
    assert not missing, f"names the engine offers but docs/expressions.md does not list: {missing}"


def test_ruleset_wide_functions_are_documented(doc: str) -> None:
    context = pytest.importorskip("rulecraft.engine.context")
    pieces = SimpleNamespace(by_type_id={}, instances=[], count=0, type_of=[], columns={}, attr_names=[])
    root = Scope(name="constants")
    context.add_piece_constants(root, pieces)
    missing = [f.name for f in root._functions.values() if not _documented(doc, f.name, True)]
    assert not missing
