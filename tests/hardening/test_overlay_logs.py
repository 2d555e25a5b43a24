"""A log of a bundled overlay replays and resumes by itself (found checking the command fuzzer's logs:
the log records the overlay's name, ``luk-fu-four-players``, which is not the name it is bundled under,
``luk-fu/four-players``, so ``replay`` and ``play --resume`` of a log rulecraft had just written were
refused: "cannot load the ruleset this log was played under")."""

from __future__ import annotations

import pytest
from cli_support import Cli


@pytest.mark.parametrize("overlay", ["luk-fu/four-players", "tien-gow/bunmu-son"])
def test_a_log_of_a_bundled_overlay_replays_and_resumes(cli: Cli, overlay: str) -> None:
    r = cli("simulate", overlay, "-n", "1", "--seed", "3", "--agents", "random", "--no-timings", "--log-dir", "logs")
    assert r.code == 0
    r = cli("replay", "logs/game-000000.jsonl")
    assert (r.code, r.err) == (0, "")
    assert "hands played: " in r.out
    r = cli("play", "--resume", "logs/game-000000.jsonl", stdin="quit\n")
    assert (r.code, r.err) == (0, "")
    assert "game over; log saved to logs/game-000000.jsonl" in r.out
