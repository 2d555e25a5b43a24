"""A scenario's `given: {hand_number: N}` makes the first hand the match's N-th *before* it begins, so
the hand's own rules read it: a deal whose size depends on the hand, a phase only the first hand runs."""

from __future__ import annotations

from pathlib import Path

from rulecraft.runs.scenario import run_scenario_file

# Hand n deals n cards to each seat; only the first hand turns a card up.
RULES = """\
name: growing
seats: {count: 2}
pieces:
  - {id: "c{rank}", generate: {rank: [1, 2, 3, 4, 5, 6, 7, 8]}}
zones:
  - {id: deck, visibility: nobody}
  - {id: hand, per: seat, visibility: owner}
  - {id: shown, visibility: all}
  - {id: trick, visibility: all}
  - {id: won, per: seat, visibility: nobody}
variables:
  dealer: {scope: match, type: seat, initial: 0}
hand:
  phases:
    - {id: shuffle, kind: shuffle, zone: deck}
    - {id: deal, kind: deal, from: deck, to: hand, first: "left_of(dealer)", count: "hand_number"}
    - id: first-hand-only
      kind: effects
      when: "hand_number == 1"
      effects: [{move: {from: deck, to: shown, pieces: "[first(zone('deck'))]", face: up}}]
    - {id: play, kind: tricks, first: "left_of(dealer)"}
combinations:
  - {id: single, kind: single, strength: "rank(piece)"}
match:
  end_when: "hand_number >= 3"
"""


def test_the_given_hand_number_is_read_by_the_hands_own_deal(tmp_path: Path) -> None:
    (tmp_path / "rules.yaml").write_text(RULES, encoding="utf-8")
    scenario = tmp_path / "third.yaml"
    scenario.write_text("""\
ruleset: rules.yaml
given: {hand_number: 3}
deal: {"hand[0]": [c1, c2, c3], "hand[1]": [c6, c7, c8]}
steps:
  - {expect: {zones: {"hand[0]": [c1, c2, c3], "hand[1]": [c6, c7, c8], shown: 0}}}
  - [play c6, play c1, play c7, play c2, play c8, play c3]
expect: {over: true}
""", encoding="utf-8")
    result = run_scenario_file(scenario)
    assert result.passed, result.failures
