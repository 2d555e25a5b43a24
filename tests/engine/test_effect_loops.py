"""A looped effect whose ``when`` reads none of its loop's names is asked once before the loop
(``effects._holds_before``); these pin that the loop still behaves as one asked at every pass."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import yaml

from rulecraft.engine.game import Game
from rulecraft.errors import RulecraftError
from rulecraft.load import load_ruleset

TINY = Path(__file__).resolve().parents[1] / "runs" / "tiny" / "rules.yaml"


def _play(tmp_path: Path, effects: list[dict[str, Any]]) -> Any:
    """The tiny trick game with ``effects`` run after its scoring; the finished state of one seeded game."""
    raw = yaml.safe_load(TINY.read_text())
    raw["variables"]["given"] = {"scope": "match", "initial": 0}
    raw["hand"]["phases"][-1]["effects"] += effects
    path = tmp_path / "rules.yaml"
    path.write_text(yaml.safe_dump(raw, allow_unicode=True))
    rs = load_ruleset(str(path))
    st = Game(rs, 3).new_state()
    rng = random.Random(3)
    while not st.is_over:
        legal = st.legal_moves()
        st.apply(legal[rng.randrange(len(legal))])
    return st


def _var(st: Any, name: str) -> Any:
    return st.vars[st.rs.var_index[name]]


def test_a_loop_stops_firing_when_its_own_effect_turns_the_condition_false(tmp_path: Path) -> None:
    # True before the loop, false after the first pass: only the first seat is given anything.
    st = _play(tmp_path, [{"id": "once", "for": "s in seats()", "when": "given < 1",
                           "add": {"given": 1}}])
    assert _var(st, "given") == 1
    assert st.hand_results[-1]["fired"].get("once") == 1


def test_a_condition_false_before_the_loop_fires_nothing(tmp_path: Path) -> None:
    st = _play(tmp_path, [{"id": "never", "for": "s in seats()", "when": "given > 0", "add": {"given": 1}}])
    assert _var(st, "given") == 0
    assert "never" not in st.hand_results[-1]["fired"]


def test_a_condition_that_holds_fires_at_every_pass(tmp_path: Path) -> None:
    st = _play(tmp_path, [{"id": "each", "for": ["s in seats()", "t in seats()"], "when": "given >= 0",
                           "add": {"given": 1}}])
    assert _var(st, "given") == 4


def test_a_failing_condition_of_an_empty_loop_is_never_asked(tmp_path: Path) -> None:
    # The loop's list is empty: the condition, which would fail, is never reached.
    failing = "[dealer][dealer + 5] == 1"
    st = _play(tmp_path, [{"for": "s in [x for x in seats() if x > 5]", "when": failing, "add": {"given": 1}}])
    assert _var(st, "given") == 0
    with pytest.raises(RulecraftError, match="index"):  # and with a list to loop over it fails, as it always did
        _play(tmp_path, [{"for": "s in seats()", "when": failing, "add": {"given": 1}}])
