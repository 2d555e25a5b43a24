"""A phase, or a group of phases, that repeats until a condition holds: written once (no copied rounds,
no forced end in a last copy), the same in YAML and in the text form."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rulecraft.engine.game import Game
from rulecraft.errors import ExpressionRuntimeError, RuleFileError
from rulecraft.load import load_ruleset
from rulecraft.rules.convert import read_annotated, render

# Two seats each pick 1 or 2 in turn, then the picks are added up; the picking and the adding repeat
# (the deal does not) until the total reaches 6.
YAML = """\
name: repeat-test
seats: {count: 2}
pieces:
  - {id: "c{rank}", generate: {rank: [1, 2, 3, 4]}}
zones:
  - {id: deck, visibility: nobody}
  - {id: hand, per: seat, visibility: owner}
variables:
  pick: {scope: hand, per: seat, type: number, initial: 0}
  total: {scope: hand, type: number, initial: 0}
  rounds: {scope: hand, type: number, initial: 0}
  deals: {scope: hand, type: number, initial: 0}
hand:
  phases:
    - id: deal
      kind: deal
      from: deck
      to: hand
      count: 1
    - {id: dealt, kind: effects, effects: [{add: {deals: 1}}]}
    - id: ask
      kind: each_seat
      first: 0
      choose: {from: "[1, 2]", set: "pick[seat]", verb: pick}
    - id: tally
      kind: effects
      effects: [{add: {total: "sum(pick)", rounds: 1}}]
      repeat: {from: ask, until: "total >= 6"}
match: {end_when: "true"}
"""


def _write(tmp_path: Path, text: str, name: str = "repeat.yaml") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def _play(ref: str, picks: list[str]) -> Any:
    st = Game(load_ruleset(ref), 1).new_state()
    seats = []
    for text in picks:
        seats.append(st.to_act)
        st.apply(text)
    assert st.is_over
    return seats, st.hand_results[-1]["vars"]


def test_a_group_repeats_until_its_condition_holds(tmp_path: Path) -> None:
    seats, got = _play(_write(tmp_path, YAML), ["pick 1", "pick 2", "pick 2", "pick 2"])
    assert seats == [0, 1, 0, 1]  # two rounds of asking: 3 after the first, 7 after the second
    assert got["total"] == 7 and got["rounds"] == 2 and got["deals"] == 1  # the deal is not repeated


def test_the_group_runs_at_least_once(tmp_path: Path) -> None:
    seats, got = _play(_write(tmp_path, YAML.replace("total >= 6", "true")), ["pick 2", "pick 2"])
    assert seats == [0, 1] and got["rounds"] == 1


def test_one_phase_repeats_itself_by_default(tmp_path: Path) -> None:
    text = YAML.replace("      repeat: {from: ask, until: \"total >= 6\"}\n", "").replace(
        "      choose: {from: \"[1, 2]\", set: \"pick[seat]\", verb: pick}\n",
        "      choose: {from: \"[1, 2]\", set: \"pick[seat]\", verb: pick}\n"
        "      on_end: [{add: {total: \"sum(pick)\"}}]\n"
        "      repeat: {until: \"total >= 5\"}\n")
    seats, got = _play(_write(tmp_path, text), ["pick 1", "pick 1", "pick 2", "pick 1"])
    assert seats == [0, 1, 0, 1] and got["total"] == 5 + 3 and got["rounds"] == 1  # 2, then 5; then the tally


def test_the_text_form_says_the_same(tmp_path: Path) -> None:
    yaml_path = _write(tmp_path, YAML)
    text = render(read_annotated(Path(yaml_path)), to_text=True)
    assert "repeat {from ask, until total >= 6}" in text
    rules_path = _write(tmp_path, text, "repeat.rules")
    a = load_ruleset(yaml_path).composed
    b = load_ruleset(rules_path).composed
    assert a is not None and b is not None
    assert json.dumps(a.data, sort_keys=True) == json.dumps(b.data, sort_keys=True)
    assert _play(rules_path, ["pick 1", "pick 2", "pick 2", "pick 2"])[1]["rounds"] == 2


def test_a_repeat_no_decision_can_end_stops_with_an_error_at_until(tmp_path: Path) -> None:
    text = YAML.replace("repeat: {from: ask, until: \"total >= 6\"}", "repeat: {from: dealt, until: \"deals < 0\"}") \
        .replace("      first: 0\n", "      first: 0\n      when: \"false\"\n")
    with pytest.raises(ExpressionRuntimeError, match=r"repeat.yaml:\d+:\d+: error: phase 'tally' repeated 10,000 "
                                                     r"times with no decision in between"):
        Game(load_ruleset(_write(tmp_path, text)), 1).new_state()


@pytest.mark.parametrize(("repeat", "message"), [
    ("{from: later, until: \"true\"}", "phase 'tally' repeats from 'later', which is not a phase before it"),
    ("{from: ask}", "a repeat needs 'until'"),
    ("{until: \"total\"}", "a condition is expected here, but this expression gives a number"),
])
def test_bad_repeats_are_refused_at_load(tmp_path: Path, repeat: str, message: str) -> None:
    text = YAML.replace("{from: ask, until: \"total >= 6\"}", repeat)
    with pytest.raises(RuleFileError, match=message):
        load_ruleset(_write(tmp_path, text))
