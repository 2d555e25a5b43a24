"""What taking each piece is worth is kept between runs (agents/piece_values.py, in the user's cache directory):
a second process reads it instead of learning it again, a changed rule or option is learnt afresh, a damaged
entry is learnt again (never an error), and ``RULECRAFT_NO_CACHE=1`` learns every time."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from rulecraft import disk_cache
from rulecraft.agents import learnt as learning
from rulecraft.agents import piece_values as pv
from rulecraft.agents.policy import PieceValues
from rulecraft.engine.game import Game
from rulecraft.engine.state import State
from rulecraft.load import load_ruleset

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import json, sys
from rulecraft.agents import piece_values as pv
from rulecraft.engine.game import Game
from rulecraft.load import load_ruleset

if sys.argv[1] == "read-only":
    def refuse(st):
        raise SystemExit("learnt again: the kept values were not read")
    pv._learn = refuse
values = pv.piece_values(Game(load_ruleset("hearts"), 1).new_state())
print(json.dumps([values.worth, values.own]))
"""


def _in_a_process(cache_home: Path, mode: str) -> list[list[float]]:
    env = {k: v for k, v in os.environ.items() if k != disk_cache.NO_CACHE_ENV}
    env["XDG_CACHE_HOME"] = str(cache_home)
    r = subprocess.run([sys.executable, "-c", SCRIPT, mode], cwd=ROOT, env=env, capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)  # type: ignore[no-any-return]


def test_a_second_process_reads_the_values_the_first_learnt(tmp_path: Path) -> None:
    first = _in_a_process(tmp_path, "learn")
    assert any(first[0])  # Hearts' penalty cards: something was learnt
    assert list((tmp_path / "rulecraft").glob("piece-values-*/*.pickle"))
    assert _in_a_process(tmp_path, "read-only") == first


@pytest.fixture
def learnt(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[list[str]]:
    """A fresh cache directory; the names of the rulesets learnt (not read) from now on."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv(disk_cache.NO_CACHE_ENV, raising=False)
    names: list[str] = []
    learn: Callable[[State], PieceValues] = pv._learn

    def counting(st: State) -> PieceValues:
        names.append(f"{st.rs.name} {sorted(st.rs.chosen.items())}")
        return learn(st)

    monkeypatch.setattr(pv, "_learn", counting)
    pv._LEARNT.clear()
    yield names
    pv._LEARNT.clear()


def _values(game: str, **options: str) -> PieceValues:
    pv._LEARNT.clear()  # as in a new process
    return pv.piece_values(Game(load_ruleset(game, options), 1).new_state())


def test_a_changed_option_is_learnt_again(learnt: list[str]) -> None:
    plain = _values("hearts")
    assert _values("hearts") == plain
    assert len(learnt) == 1
    _values("hearts", passing="none")
    assert len(learnt) == 2
    assert _values("hearts") == plain and len(learnt) == 2  # each kept apart


@pytest.mark.parametrize("damage", ["garbage", "truncated", "another-ruleset's-size"])
def test_a_damaged_entry_is_learnt_again_and_kept_again(learnt: list[str], tmp_path: Path, damage: str) -> None:
    plain = _values("hearts")
    files = list((tmp_path / "cache" / "rulecraft").glob("piece-values-*/*.pickle"))
    assert len(files) == 1
    blob = files[0].read_bytes()
    if damage == "garbage":
        files[0].write_bytes(b"\x00not a cache file")
    elif damage == "truncated":
        files[0].write_bytes(blob[: len(blob) // 2])
    else:  # whole and of this version, but not values for this ruleset's pieces
        learning.shelf("piece-values").put(learning.ruleset_key(load_ruleset("hearts")), ((0.5,) * 3, (0.0,) * 3))
    assert _values("hearts") == plain
    assert len(learnt) == 2
    assert _values("hearts") == plain and len(learnt) == 2  # written again: read this time


def test_no_cache_learns_every_time(learnt: list[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(disk_cache.NO_CACHE_ENV, "1")
    assert _values("hearts") == _values("hearts")
    assert len(learnt) == 2
    assert not (tmp_path / "cache").exists()
