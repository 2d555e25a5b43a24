"""``rulecraft test --coverage``: which rules with an id no scenario exercises (tests/runs/tiny).

In the tiny game's one scenario seat 1 takes two tricks of three: `most-tricks` fires, `sweep`
(all three tricks) never does; seat 0 is refused off-suit plays, so `follow-suit` refuses
candidates; the option `bonus` is left at its default `ten`, so `bonus=twenty` is never taken.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulecraft.cli.main import cli
from rulecraft.runs.coverage import rule_coverage

ROOT = Path(__file__).resolve().parents[2]
TINY = "tests/runs/tiny"
RULES = f"{TINY}/rules.yaml"


def line_col(path: Path, text: str, needle: str) -> tuple[int, int]:
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if text in line:
            return n, line.index(needle) + 1
    raise AssertionError(text)


def test_lists_the_rules_no_scenario_exercises(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    report = rule_coverage([f"{TINY}/scenarios"])
    missing = [(r.kind, r.id) for r in report.unexercised()]
    assert missing == [("effect", "sweep"), ("option choice", "bonus=twenty")]
    declared = {(r.kind, r.id) for r in report.rules}
    assert {("restriction", "follow-suit"), ("effect", "most-tricks"), ("option choice", "bonus=ten")} <= declared
    assert not report.failing


def test_text_and_json(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    line, col = line_col(ROOT / RULES, "- id: sweep", "sweep")
    r = CliRunner().invoke(cli, ["test", "--coverage", f"{TINY}/scenarios"])
    assert r.exit_code == 0, r.output
    assert f"{RULES}:{line}:{col}: rule 'sweep' (effect) is never exercised" in r.output.splitlines()
    assert r.output.splitlines()[-1] == "3 of 5 rules exercised by 1 scenario"
    r = CliRunner().invoke(cli, ["test", "--coverage", f"{TINY}/scenarios", "--format", "json"])
    out = json.loads(r.output)
    assert (out["rules"], out["exercised"], out["scenarios"]) == (5, 3, 1)
    assert out["unexercised"][0] == {"at": f"{RULES}:{line}:{col}", "file": RULES, "line": line, "col": col,
                                     "id": "sweep", "kind": "effect"}


def test_a_restriction_that_never_refuses_a_play_is_not_exercised(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copytree(ROOT / TINY, tmp_path / "tiny")
    rules = tmp_path / "tiny" / "rules.yaml"
    text = rules.read_text(encoding="utf-8")
    rules.write_text(text.replace('allow: "suit(piece) == suit(led)"', 'allow: "true"'), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    report = rule_coverage(["tiny/scenarios"])
    assert ("restriction", "follow-suit") in {(r.kind, r.id) for r in report.unexercised()}
    # The scenario expects the refusal, so it fails now; coverage says so.
    assert report.failing and "should be refused" in report.failing[0]


def test_a_climbing_rounds_on_play_ids_are_rules_exercised_when_they_fire(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tichu's play effects: the wish is named and met in wish-must-be-led; the Dog is never led there."""
    monkeypatch.chdir(ROOT)
    wish = "tests/scenarios/tichu/wish-must-be-led.yaml"
    report = rule_coverage([wish])
    declared = {(r.kind, r.id) for r in report.rules}
    assert {("play effect", "wish-named"), ("play effect", "wish-met"), ("play effect", "dog-to-partner")} <= declared
    missing = {(r.kind, r.id) for r in report.unexercised()}
    assert ("play effect", "dog-to-partner") in missing
    assert not {("play effect", "wish-named"), ("play effect", "wish-met")} & missing
    report = rule_coverage([wish, "tests/scenarios/tichu/bombs-out-of-turn-and-dog.yaml"])
    assert ("play effect", "dog-to-partner") not in {(r.kind, r.id) for r in report.unexercised()}
