"""docs/research-api.md says what the code does: its sizes table is generated from the code (and must
match it), its speeds tables by the benchmark (each ruleset measured, and how)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import bench_rl_tables as tables  # noqa: E402


def test_the_sizes_table_is_the_codes() -> None:
    doc = tables.DOC.read_text(encoding="utf-8")
    assert tables.written(doc, "sizes") == tables.sizes_table(), (
        "docs/research-api.md disagrees with the code: run python benchmarks/bench_rl_tables.py")


@pytest.mark.parametrize(("table", "columns"), [("speeds", 6), ("where", 8)])
def test_the_speeds_tables_were_measured_by_the_benchmark(table: str, columns: int) -> None:
    speeds = tables.written(tables.DOC.read_text(encoding="utf-8"), table)
    rows = [line for line in speeds.splitlines() if line.startswith("| `")]
    assert [r.split("`")[1] for r in rows] == list(tables.SPEED_RULESETS)
    assert all(len(r.split("|")) == columns + 2 for r in rows)  # every column filled
    assert "by `python benchmarks/bench_rl_tables.py --speeds`" in speeds


def test_a_stale_table_is_told_apart() -> None:
    doc = tables.DOC.read_text(encoding="utf-8")
    stale = doc.replace("| `rook` | 4 | 185 | 1,070 |", "| `rook` | 4 | 185 | 1,067 |")
    assert stale != doc and tables.written(stale, "sizes") != tables.sizes_table()
