"""A generator's `where`: only the combinations of its product that the condition holds for are pieces."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulecraft.errors import RulecraftError
from rulecraft.load import load_ruleset

DOMINOES = """\
name: my-game
seats: {count: 2}
constants: {top: 6}
zones: [{id: boneyard, visibility: nobody}, {id: hand, per: seat, visibility: owner}]
pieces:
  - id: "{high}-{low}"
    generate: {high: [0, 1, 2, 3, 4, 5, 6], low: [0, 1, 2, 3, 4, 5, 6]}
    derive: {pips: "high + low"}
    where: "WHERE"
hand:
  phases:
    - {id: shuffle, kind: shuffle, zone: boneyard}
    - {id: deal, kind: deal, from: boneyard, to: hand, count: 7}
"""


def _load(tmp_path: Path, where: str) -> list[str]:
    path = tmp_path / "my-game.yaml"
    path.write_text(DOMINOES.replace("WHERE", where), encoding="utf-8")
    rs = load_ruleset(str(path))
    return [t.id for t in rs.pieces.types]


def test_where_keeps_the_pairs_of_a_double_six_set(tmp_path: Path) -> None:
    ids = _load(tmp_path, "high >= low and high <= top")  # reads a constant too
    assert len(ids) == 28
    assert "6-6" in ids and "6-0" in ids and "0-6" not in ids and "3-5" not in ids


def test_where_sees_derived_attributes(tmp_path: Path) -> None:
    assert sorted(_load(tmp_path, "high >= low and pips == 10")) == ["5-5", "6-4"]


def test_where_that_is_not_a_condition_is_an_error_at_it(tmp_path: Path) -> None:
    with pytest.raises(RulecraftError) as info:
        _load(tmp_path, "high + low")
    assert "my-game.yaml:9:" in str(info.value)
    assert "where must be a condition" in str(info.value)
