"""A log's header edited by hand is the log's problem, said at the header (exit 1), for replay and resume.

A header naming a bundled ruleset with options it does not have (a log of one game with another game's
name), or an option choice that does not exist, was a usage error (exit 2) with no place, as if typed
on the command line; so was an agent the header names that does not exist or asks for more than its
bound (``play --resume``). The moves, seats and chance outcomes of a log were already checked line by
line; those cases are pinned here too.
"""

from __future__ import annotations

import json

import pytest
from cli_support import Cli, error_lines


@pytest.fixture
def log(cli: Cli) -> list[str]:
    r = cli("play", "doubt", "--seed", "5", "--seats", "random,random,random,random", "--log", "game.jsonl")
    assert r.code == 0
    return (cli.cwd / "game.jsonl").read_text(encoding="utf-8").splitlines()


def edited(cli: Cli, lines: list[str], at: int, change: dict[str, object]) -> None:
    event = json.loads(lines[at])
    for key, value in change.items():
        target = event
        *path, last = key.split(".")
        for step in path:
            target = target[step]
        target[last] = value
    cli.write("game.jsonl", "\n".join([*lines[:at], json.dumps(event), *lines[at + 1:]]) + "\n")


HEADER_CASES = [
    ({"ruleset.name": "rook"}, "game.jsonl:1:1: error: cannot load the ruleset this log was played under: unknown "
                               "option 'packs' for ruleset 'rook'; options: bird_rank, first_lead, nest_to, ones, "
                               "redeal, bird_forced"),
    ({"ruleset.options.players": "9"}, "game.jsonl:1:1: error: cannot load the ruleset this log was played under: "
                                       "option 'players' has no choice '9'; choices: 3, 4, 5, 6"),
]


@pytest.mark.parametrize(("change", "message"), HEADER_CASES)
@pytest.mark.parametrize("command", [("replay", "game.jsonl"), ("play", "--resume", "game.jsonl")])
def test_a_header_with_options_the_ruleset_does_not_have(cli: Cli, log: list[str], change: dict[str, object],
                                                         message: str, command: tuple[str, ...]) -> None:
    edited(cli, log, 0, change)
    before = (cli.cwd / "game.jsonl").read_bytes()
    r = cli(*command)
    assert r.code == 1
    assert error_lines(r.err) == [message]
    assert (cli.cwd / "game.jsonl").read_bytes() == before


@pytest.mark.parametrize(("agent", "problem"), [
    ("nope", "unknown agent 'nope'; known agents: "),
    ("mc:99999999999", "agent 'mc:99999999999': '99999999999' asks for 99,999,999,999 playouts per decision; the "
                       "limit is 100,000"),
])
def test_a_header_naming_an_agent_that_cannot_play(cli: Cli, log: list[str], agent: str, problem: str) -> None:
    edited(cli, log, 0, {"agents": ["random", agent, "random", "random"]})
    r = cli("play", "--resume", "game.jsonl")
    assert r.code == 1
    [line] = error_lines(r.err)
    assert line.startswith(f"game.jsonl:1:1: error: the log's agent for seat 1: {problem}")


def test_seats_given_on_the_command_line_replace_the_logs_agents(cli: Cli, log: list[str]) -> None:
    edited(cli, log, 0, {"agents": ["random", "nope", "random", "random"]})
    r = cli("play", "--resume", "game.jsonl", "--seats", "random,random,random,random")
    assert r.code == 0, r.err


def test_moves_seats_and_chance_edited_by_hand(cli: Cli, log: list[str]) -> None:
    moves = [i for i, line in enumerate(log) if json.loads(line)["type"] == "move"]
    cases = []
    swapped = list(log)
    swapped[moves[3]], swapped[moves[4]] = swapped[moves[4]], swapped[moves[3]]
    cases.append((swapped, f"game.jsonl:{moves[3] + 1}:1: error: the log has seat 0 moving, but it is seat 3's turn"))
    chance = next(i for i, line in enumerate(log) if json.loads(line)["type"] == "chance")
    shuffle = json.loads(log[chance])
    shuffle["order"][-1] = "zz"
    cases.append(([*log[:chance], json.dumps(shuffle), *log[chance + 1:]],
                  f"game.jsonl:{chance + 1}:1: error: this chance outcome does not fit the ruleset: the shuffle given "
                  "cannot be dealt: there is no piece 'zz'"))
    cases.append(([*log[:200], log[200][:25]], "game.jsonl:201:26: error: not valid JSON: Expecting ':' delimiter"))
    for lines, message in cases:
        cli.write("game.jsonl", "\n".join(lines) + "\n")
        for command in (("replay", "game.jsonl"), ("play", "--resume", "game.jsonl")):
            r = cli(*command)
            assert (r.code, error_lines(r.err)) == (1, [message]), command
