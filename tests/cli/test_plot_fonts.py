"""compare --plot draws the games' own scripts: a CJK name comes out in the shipped font, not as empty boxes
(matplotlib warns "Glyph ... missing from font(s)" for each character it cannot draw)."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import pytest

from rulecraft.cli.plot import plot_comparison

NAME = "天九"  # Tien Gow's own name (tien-gow's rule file writes it, so the shipped font has it)


def side(name: str) -> dict[str, Any]:
    return {"win_rate": [{"rate": 0.5, "ci95": [0.4, 0.6]}, {"rate": 0.5, "ci95": [0.4, 0.6]}],
            "ruleset": {"name": name, "options": {}}, "agents": ["random", "random"]}


def test_a_cjk_name_is_drawn_without_a_missing_glyph(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib", reason="matplotlib is not installed (extra 'plot')")
    report = {"a": side(NAME), "b": side(f"{NAME} 2"), "games": 2}
    records = [[{"scores": [1, -1], "moves": 10 + k, "fired": {f"{NAME}-rule": k}} for k in range(2)]] * 2
    out = tmp_path / "cmp.png"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        plot_comparison(str(out), report, records)
    missing = [str(w.message) for w in caught if "missing from font" in str(w.message)]
    assert not missing, missing
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # Only while plotting: the family a caller had is left as it was.
    import matplotlib

    assert not any("CJK" in f for f in matplotlib.rcParams["font.family"])
