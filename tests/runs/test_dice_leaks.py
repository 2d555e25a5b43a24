"""``rulecraft validate --simulate`` finds a rule file, or an engine, that lets a seat learn another seat's dice.

Before dice followed the visibility of where they land, a roll into a ``visibility: owner`` cup printed
every die in every seat's log, and the leak check (which looked only at pieces in views) passed it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from support import DICE_TABLE, rules_from_text

from rulecraft.cli.main import cli
from rulecraft.load import load_ruleset
from rulecraft.runs.invariants import check_behaviour, state_problems

CUPS = """
name: cups
title: dice in cups
seats: {count: 2, direction: clockwise}
""" + DICE_TABLE + """variables:
  cup: {scope: hand, per: seat, type: list, initial: [], visibility: owner}
  total: {scope: hand, initial: 0}
  guess: {scope: hand, initial: 0}
hand:
  phases:
    - {id: roll, kind: dice, for: "s in seats()", dice: 2, sides: 6, set: "cup[s]"}
    - {id: add, kind: effects, effects: [{set: {total: "TOTAL"}}]}
    - {id: guess, kind: choose, seat: "1", from: "[1, 2]", set: guess}
match:
  end_when: "true"
  max_hands: 1
  score: "0"
"""


def _write(tmp_path: Path, total: str) -> str:
    rules_from_text(tmp_path, CUPS.replace("TOTAL", total), "cups.yaml")
    return str(tmp_path / "cups.yaml")


def test_validate_finds_a_public_total_of_another_seat_s_hidden_dice(tmp_path: Path) -> None:
    path = _write(tmp_path, "sum(cup[0])")
    result = CliRunner().invoke(cli, ["validate", "--simulate", "2", path])
    assert result.exit_code == 1
    # At the variable that tells it (where it is declared), naming what it shows and where the dice went.
    assert "cups.yaml:11:10: error: cannot be played: what seat 1 is shown depends on dice it may not see " \
           "(rolled into cup): its view at variables.total, before the first move" in result.output


def test_validate_passes_the_same_game_when_nothing_tells_the_dice(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["validate", "--simulate", "2", _write(tmp_path, "1")])
    assert result.exit_code == 0, result.output


def test_the_leak_check_finds_a_log_that_prints_another_seat_s_dice(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    import rulecraft.runs.hidden_chance as hidden_chance

    rs = load_ruleset(_write(tmp_path, "1"))
    assert check_behaviour(rs, 2) == []
    honest = hidden_chance.redact_event

    def leaky(event: dict[str, Any], viewer: int | None) -> dict[str, Any] | None:
        return event if event.get("kind") == "dice" else honest(event, viewer)  # as before dice were redacted

    monkeypatch.setattr(hidden_chance, "redact_event", leaky)
    problems = check_behaviour(rs, 2)
    assert problems and "depends on dice it may not see (rolled into cup): its copy of the log" in problems[0].message


def test_the_state_check_finds_a_view_that_shows_another_seat_s_entry(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    import rulecraft.engine.views as views
    from rulecraft.engine.game import Game

    st = Game(load_ruleset(_write(tmp_path, "1")), 1).new_state()
    assert state_problems(st) == []
    monkeypatch.setattr(views, "sees_variable", lambda st, vi, entry, viewer: True)
    assert "seat 0 is shown cup[1], which it may not see" in state_problems(st)
