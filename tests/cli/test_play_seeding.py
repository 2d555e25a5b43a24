"""``rulecraft play``'s chance: where several people sit, no seed anyone typed or saw decides the deal.

With several people a typed seed is mixed with 256 secret bits (the log keeps the seed played, so
replay and resume stay exact); with none typed the secret bits are the seed; one person against bots
keeps a typed seed, a reproducible game. The seed is a secret of the log alone: not printed, not in
the file's name, and the log is readable by its owner only.
"""

from __future__ import annotations

import json
import stat
import subprocess
import sys
from pathlib import Path

import pytest

SEATS = "human,human,random,random"


def play(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``rulecraft play`` with no input: it saves the game at once (Ctrl-D) and stops."""
    return subprocess.run([sys.executable, "-m", "rulecraft.cli.main", "play", *args], cwd=cwd, capture_output=True,
                          text=True, stdin=subprocess.DEVNULL, timeout=120)


def saved(cwd: Path) -> tuple[Path, dict[str, object]]:
    (log,) = cwd.glob("rulecraft-*.jsonl")
    return log, json.loads(log.read_text(encoding="utf-8").splitlines()[0])


@pytest.mark.parametrize("typed", [["--seed", "7"], []])
def test_several_people_play_a_deal_nobody_can_work_out(tmp_path: Path, typed: list[str]) -> None:
    seeds = []
    for run in ("a", "b"):
        (tmp_path / run).mkdir()
        r = play(tmp_path / run, "rook", "--seats", SEATS, *typed)
        assert r.returncode == 0, r.stderr
        log, header = saved(tmp_path / run)
        seed = header["seed"]
        assert isinstance(seed, int) and seed >= 2**128  # (a 256-bit draw below 2^128: one chance in 2^128)
        assert str(seed) not in r.stdout + r.stderr and str(seed) not in log.name
        assert stat.S_IMODE(log.stat().st_mode) == 0o600
        seeds.append(seed)
    assert seeds[0] != seeds[1]  # the same seed typed twice: two different deals
    if typed:
        assert "seed 7 mixed with secret bits" in r.stdout


def test_the_logged_seed_replays_and_resumes_exactly(tmp_path: Path) -> None:
    assert play(tmp_path, "rook", "--seats", SEATS).returncode == 0
    log, header = saved(tmp_path)
    from rulecraft.load import load_ruleset
    from rulecraft.runs.log import replay

    st, _ = replay(log, load_ruleset("rook"))
    from rulecraft.engine.game import Game

    assert header["hands_keyed"] is True  # a secret seed: each hand its own generator (engine.state.hand_generator)
    again = Game(load_ruleset("rook"), int(header["seed"]), hands_keyed=True).new_state()
    assert st.history[:] == again.history[:]  # type: ignore[call-overload]
    r = subprocess.run([sys.executable, "-m", "rulecraft.cli.main", "replay", str(log), "--seat", "0"], cwd=tmp_path,
                       capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=120)
    assert r.returncode == 0, r.stderr
    r = play(tmp_path, "--resume", str(log))
    assert r.returncode == 0 and "resumed" in r.stdout, r.stderr


def test_one_person_against_bots_keeps_a_typed_seed_and_without_one_gets_a_secret(tmp_path: Path) -> None:
    (tmp_path / "typed").mkdir()
    r = play(tmp_path / "typed", "rook", "--seed", "7")
    assert r.returncode == 0 and "seed 7," in r.stdout, r.stderr
    log, header = saved(tmp_path / "typed")
    assert header["seed"] == 7 and log.name == "rulecraft-rook-7.jsonl"
    (tmp_path / "secret").mkdir()
    r = play(tmp_path / "secret", "rook")
    assert r.returncode == 0 and "a secret seed" in r.stdout, r.stderr
    _, header = saved(tmp_path / "secret")
    assert int(header["seed"]) >= 2**128  # type: ignore[call-overload]


def test_a_log_with_a_256_bit_seed_is_read_and_one_past_it_refused() -> None:
    from rulecraft.errors import LogError
    from rulecraft.runs.log import parse_log

    def header(seed: int) -> str:
        return json.dumps({"type": "header", "format": "rulecraft-log/1", "seed": seed, "agents": [],
                           "ruleset": {"name": "rook", "options": {}, "hash": "x"}})

    assert parse_log([header(2**256 - 1)])[0]["seed"] == 2**256 - 1
    with pytest.raises(LogError, match="not a seed rulecraft writes"):
        parse_log([header(2**256)])
