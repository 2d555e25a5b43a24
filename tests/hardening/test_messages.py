"""Messages that point at the mistake: the overlay's value or id, the deletion a patch still needs, the one
attribute that cannot be computed, the default nobody wrote; in the rule author's words (str, not LStr)."""

from __future__ import annotations

import pytest
from cli_support import Cli

BASE2 = """\
extends: tiny.yaml
name: base2
options:
  - id: lead
    description: "Who leads."
    default: left
    choices:
      - {id: left, description: "left of the dealer", patch: {}}
      - {id: dealer, description: "the dealer", patch: {hand: {phases: [{id: play, first: dealer}]}}}
"""


@pytest.mark.parametrize(("overlay", "message"), [
    ("constants: {bonus: ten}\n",
     'overlay.yaml:3:20: error: constant \'bonus\' is a number (10, at tiny.yaml:8:10); this makes it a string '
     '("ten"), which the rules using it do not expect'),
    ("constants: {bonus: [10]}\n",
     "overlay.yaml:3:20: error: constant 'bonus' is a number (10, at tiny.yaml:8:10); this makes it a list ([10]), "
     "which the rules using it do not expect"),
    ('hand:\n  phases:\n    - {id: plya, first: "dealer"}\n',
     "overlay.yaml:5:7: error: no phase 'plya' to change (did you mean 'play'?); as a new phase it would need 'kind'"),
    ('pieces:\n  - id: "{suit}-{rank}"\n    derive:\n      weight: "10 // (rank - rank)"\n',
     'overlay.yaml:6:16: error: cannot compute this attribute for the piece with suit="a", rank=1: '
     "ZeroDivisionError: integer division or modulo by zero"),
    ('pieces:\n  - id: "{suit}-{rank}"\n    derive:\n      weight: "suit // 2"\n',
     'overlay.yaml:6:16: error: cannot compute this attribute for the piece with suit="a", rank=1: '
     "TypeError: unsupported operand type(s) for //: 'str' and 'int'"),
    ("pieces:\n  - id: joker\n    attributes: {suit: a, rank: high}\n",
     "overlay.yaml:4:5: error: attribute 'rank' is a number on piece 'a-1' (1) but a string on piece 'joker' "
     '("high"): each attribute is one kind of value'),
    ("zones:\n  - {id: won, $delete: true}\nhand:\n  phases:\n    - {id: play, capture: {$delete: true}}\n",
     "tiny.yaml:28:7: error: unknown zone 'won' (the default, as none is written here); known: deck, hand, trick"),
    ("constants: {bonsu: 20}\n",
     "overlay.yaml:3:13: error: no rule reads the new constant 'bonsu' (did you mean 'bonus'?); to change a "
     "constant, write its name as the base does"),
], ids=["constant-string", "constant-list", "near-miss-id", "derive-division", "derive-types", "attribute-kinds",
        "default-zone", "constant-typo"])
def test_validate_and_simulate_blame_the_overlay(cli: Cli, overlay: str, message: str) -> None:
    cli.tiny()
    cli.write("overlay.yaml", "extends: tiny.yaml\nname: overlay\n" + overlay)
    r = cli("validate", "overlay.yaml")
    assert r.code == 1
    assert [line for line in r.out.splitlines() if ": error: " in line] == [message]  # one message, no knock-ons
    r = cli("simulate", "overlay.yaml", "-n", "1")
    assert (r.code, r.err.splitlines()[0]) == (1, message)


def test_a_new_constant_that_a_rule_reads_is_welcome(cli: Cli) -> None:
    # 'bonus2' is close to 'bonus', but the overlay's own rule reads it: a new constant, not a typo.
    cli.tiny()
    cli.write("overlay.yaml", "extends: tiny.yaml\nname: overlay\nconstants: {bonus2: 5}\n"
                              "match:\n  end_when: \"bonus2 > 0\"\n")
    r = cli("validate", "overlay.yaml")
    assert r.code == 0, r.out


def test_a_deletion_that_an_option_still_changes(cli: Cli) -> None:
    cli.tiny()
    cli.write("base2.yaml", BASE2)
    cli.write("overlay.yaml", "extends: base2.yaml\nname: overlay\nhand:\n  phases:\n    - {id: play, $delete: true}\n")
    r = cli("validate", "overlay.yaml")
    assert r.code == 1
    assert r.out.splitlines()[0] == ("overlay.yaml:5:12: error: with option lead=dealer: this deletes phase 'play', "
                                     "but option lead=dealer still changes it (at base2.yaml:9:78); delete or change "
                                     "that too")


def test_a_runtime_failure_names_the_rule_and_where(cli: Cli) -> None:
    cli.tiny()
    cli.write("overlay.yaml", "extends: tiny.yaml\nname: overlay\nhand:\n  phases:\n    - id: scoring\n      effects:\n"
                              '        - {id: half, add: {"score[0]": "10 // (score[1] - score[1])"}}\n')
    r = cli("simulate", "overlay.yaml", "-n", "1")
    assert (r.code, r.err) == (1, "overlay.yaml:7:41: error: phase 'scoring' effect half: ZeroDivisionError: integer "
                                  "division or modulo by zero (in '10 // (score[1] - score[1])')\n")


def test_an_effect_that_cannot_use_its_values_says_so_at_the_effect(cli: Cli) -> None:
    # A score is a located number underneath (LInt): the message says int, as Python's own types read.
    # first(...) hides the list's type from the loader, so the failure can only show during play.
    cli.tiny()
    cli.write("overlay.yaml", "extends: tiny.yaml\nname: overlay\nhand:\n  phases:\n    - id: scoring\n      effects:\n"
                              '        - {id: bad, add: {"score[0]": "first([[1]])"}}\n')
    r = cli("simulate", "overlay.yaml", "-n", "1")
    assert (r.code, r.err) == (1, "overlay.yaml:7:11: error: effect 'bad' cannot be done with the values its "
                                  "expressions gave: TypeError: unsupported operand type(s) for +: 'int' and 'list'\n")


def test_moving_the_first_of_an_empty_zone_says_it_is_not_a_piece(cli: Cli) -> None:
    # After the play the deck is empty: first() gives none, which the move names in the rules' words
    # (it was Python's "list indices must be integers or slices, not NoneType").
    cli.tiny()
    cli.write("overlay.yaml", "extends: tiny.yaml\nname: overlay\nhand:\n  phases:\n    - id: scoring\n      effects:\n"
                              "        - {id: turn, move: {from: deck, to: trick,\n"
                              "                            pieces: \"[first(zone('deck'))]\"}}\n")
    r = cli("simulate", "overlay.yaml", "-n", "1")
    assert (r.code, r.err) == (1, "overlay.yaml:7:11: error: effect 'turn' cannot be done with the values its "
                                  "expressions gave: the pieces to move include none, which is not a piece "
                                  "(first() of an empty list is none)\n")


def test_a_value_a_variable_cannot_hold_is_refused_where_it_is_written(cli: Cli) -> None:
    # A value whose type the loader knows (a list) is refused at load, before any game is played.
    cli.tiny()
    cli.write("overlay.yaml", "extends: tiny.yaml\nname: overlay\nhand:\n  phases:\n    - id: scoring\n      effects:\n"
                              '        - {id: bad, add: {"score[0]": "[1]"}}\n')
    r = cli("simulate", "overlay.yaml", "-n", "1")
    assert (r.code, r.err.splitlines()[0]) == (1, "overlay.yaml:7:40: error: each entry of 'score' holds a number, "
                                                  "but this value is a list; it cannot be added here")



PICKUP = "extends: tien-gow\nname: pickup\nhand:\n  phases:\n    - id: pickup\n"


@pytest.mark.parametrize(("change", "message"), [
    ('      method: "\'nosuch\'"\n',
     "overlay.yaml:6:16: error: pickup 'pickup': the method is 'nosuch', which is none of its patterns "
     "(two-columns, tiers-from-top, tiers-from-bottom, single-columns, alternate-columns, middle-out, outside-in)"),
    ('      end: "3"\n',
     "overlay.yaml:6:13: error: pickup 'pickup': the end is 3; it is 1 (the near end) or 2 (the far end)"),
], ids=["method", "end"])
def test_a_pickup_given_what_it_cannot_do_names_the_rule(cli: Cli, change: str, message: str) -> None:
    # Values are only known when a hand is played: the game stops at the rule that gave them (was a ValueError).
    cli.write("overlay.yaml", PICKUP + change)
    r = cli("simulate", "overlay.yaml", "-n", "1")
    assert (r.code, r.err.splitlines()[0]) == (1, message)


def test_a_pickup_pattern_taking_a_cell_twice_is_refused_at_load(cli: Cli) -> None:
    cli.write("overlay.yaml", PICKUP + "      patterns:\n        - {id: two-columns, takes: [{columns: [1, 2]}, "
                                       "{columns: [2, 3]}, {columns: [5, 6]}, {columns: [7, 8]}]}\n")
    r = cli("validate", "overlay.yaml")
    assert (r.code, r.out.splitlines()[0]) == (1, "overlay.yaml:7:56: error: pattern 'two-columns' takes column 2, "
                                                  "tier 1 twice (in takes 1 and 2)")
