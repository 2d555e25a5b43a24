"""Scenarios that name what does not exist: the zone instance a deal or an expectation names, the steps
it lacks, dice the game cannot roll. An error at the scenario's own line, never an IndexError."""

from __future__ import annotations

import pytest
from cli_support import Cli

HEAD = "name: refs\nrule: a rule\nruleset: tiny.yaml\n"


@pytest.mark.parametrize(("body", "validate", "test"), [
    ('deal:\n  "hand[9]": [a-1]\nsteps: [play a-1]\n',
     "scenario.yaml:5:4: error: hand[9]: zone 'hand' has 2 instances (one per seat), numbered 0 to 1",
     "scenario.yaml:5:4: error: hand[9]: zone 'hand' has 2 instances (one per seat), numbered 0 to 1"),
    ("steps:\n  - {expect: {zones: {hand: [a-1]}}}\n",
     "scenario.yaml:5:23: error: zone 'hand' has one instance per seat: write hand[0] to hand[1]",
     "      scenario.yaml:5:5: step 1 (scenario.yaml:5:5): zone 'hand' has one instance per seat: write hand[0] to "
     "hand[1]"),
    ("", "scenario.yaml:1:1: error: a scenario needs 'steps' or 'expect'",
     "scenario.yaml:1:1: error: a scenario needs 'steps' or 'expect'"),
])
def test_validate_and_test_say_where(cli: Cli, body: str, validate: str, test: str) -> None:
    cli.tiny()
    cli.write("scenario.yaml", HEAD + body)
    r = cli("validate", "scenario.yaml")
    assert (r.code, r.out.splitlines()[0]) == (1, validate)
    r = cli("test", "scenario.yaml")
    assert r.code == 1 and test in r.out.splitlines()


def test_dice_the_game_cannot_roll(cli: Cli) -> None:
    # Tien Gow rolls two dice for the first dealer, then two for the pickup: the second roll is refused.
    cli.write("dice.yaml", "name: dice\nrule: a rule\nruleset: tien-gow\noptions: {pickup: two-columns}\n"
                           "dice: [[3, 4], [9, 9]]\nsteps: [pass]\n")
    message = "dice.yaml:5:16: error: the dice given, [9, 9], cannot be a roll of 2 dice of 6 sides"
    r = cli("test", "dice.yaml")
    assert (r.code, r.out.splitlines()[1]) == (1, message)
    r = cli("validate", "dice.yaml")
    assert (r.code, r.out) == (1, message + "\n1 problem in 1 of 1 file\n")


def test_a_scenario_or_mutants_file_named_as_a_ruleset_is_said_to_be_one(cli: Cli) -> None:
    """Read as a ruleset, another scenario gave a dozen schema errors about keys a ruleset needs."""
    cli.tiny()
    cli.write("other.yaml", HEAD + "steps: [pass]\n")
    cli.write("m.yaml", "equivalent: []\n")
    cli.write("scenario.yaml", HEAD.replace("tiny.yaml", "other.yaml") + "steps: [pass]\n")
    message = ("scenario.yaml:3:10: error: 'other.yaml' is a scenario (it plays the ruleset 'tiny.yaml'), "
               "not a rule file")
    for command in ("validate", "test"):
        r = cli(command, "scenario.yaml")
        assert r.code == 1 and message in r.out.splitlines(), r.out
    r = cli("simulate", "other.yaml", "-n", "1")
    assert (r.code, r.err.strip()) == (2, "error: 'other.yaml' is a scenario (it plays the ruleset 'tiny.yaml'), "
                                          "not a rule file")
    r = cli("simulate", "m.yaml", "-n", "1")
    assert (r.code, r.err.strip()) == (2, "error: 'm.yaml' is a mutants file (it lists the equivalent mutants of a "
                                          "rule file), not a rule file")
    cli.write("overlay.yaml", "extends: other.yaml\n")
    r = cli("validate", "overlay.yaml")
    assert r.code == 1 and r.out.splitlines()[0] == (
        "overlay.yaml:1:10: error: 'other.yaml' is a scenario (it plays the ruleset 'tiny.yaml'), not a rule file "
        "to extend")
