"""How often each piece can be played is kept between runs (agents/playability.py, in the user's cache
directory) as the piece values are: a second process reads it instead of learning it again, and a damaged
entry is learnt again, never an error."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rulecraft import disk_cache
from rulecraft.agents import playability as pl
from rulecraft.load import load_ruleset

ROOT = Path(__file__).resolve().parents[2]
CRAZY_EIGHTS = "crazy-eights"

SCRIPT = """
import json, sys
from rulecraft.agents import playability as pl
from rulecraft.engine.game import Game
from rulecraft.load import load_ruleset

if sys.argv[1] == "read-only":
    def refuse(rs):
        raise SystemExit("learnt again: the kept values were not read")
    pl.learn = refuse
print(json.dumps(pl.playability(Game(load_ruleset(sys.argv[2]), 1).new_state())))
"""


def _in_a_process(cache_home: Path, mode: str) -> list[float]:
    env = {k: v for k, v in os.environ.items() if k != disk_cache.NO_CACHE_ENV}
    env["XDG_CACHE_HOME"] = str(cache_home)
    r = subprocess.run([sys.executable, "-c", SCRIPT, mode, CRAZY_EIGHTS], cwd=ROOT, env=env, capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)  # type: ignore[no-any-return]


def test_a_second_process_reads_what_the_first_learnt(tmp_path: Path) -> None:
    first = _in_a_process(tmp_path, "learn")
    assert max(first) > 0.9 > 0.3 > min(first)  # the eights, and the rest
    assert list((tmp_path / "rulecraft").glob("playability-*/*.pickle"))
    assert _in_a_process(tmp_path, "read-only") == first


def test_a_damaged_entry_is_learnt_again(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv(disk_cache.NO_CACHE_ENV, raising=False)
    rs = load_ruleset(CRAZY_EIGHTS)
    learnt = pl._kept_or_learnt(rs)
    for entry in (tmp_path / "rulecraft").glob("playability-*/*.pickle"):
        entry.write_bytes(b"not a pickle")
    calls: list[int] = []
    real = pl.learn

    def counting(r: object) -> tuple[float, ...]:
        calls.append(1)
        return real(r)  # type: ignore[arg-type]

    monkeypatch.setattr(pl, "learn", counting)
    assert pl._kept_or_learnt(rs) == learnt and calls == [1]
    assert pl._kept_or_learnt(rs) == learnt and calls == [1]  # written again, and read
