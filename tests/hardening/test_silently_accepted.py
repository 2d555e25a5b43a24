"""Logs that used to be accepted and fail confusingly later (or never): refused at the line that is wrong.

The log is one hand of Tien Gow, written by the engine: line 1 the header, line 3 the first dealer's
two dice, and 49 lines in all.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from cli_support import Cli

from rulecraft.load import load_ruleset
from rulecraft.runs.log import log_lines
from rulecraft.runs.simulate import play_game


def tien_gow_log() -> list[str]:
    rs = load_ruleset("tien-gow")
    st, _ = play_game(rs, 5, ["random"] * 4, max_hands=1)
    lines = log_lines(st, ["random"] * 4)
    assert len(lines) == 49 and json.loads(lines[2]) == {"dice": [5, 3], "kind": "dice", "type": "chance"}
    return lines


def header(**changes: object) -> Callable[[list[str]], None]:
    def edit(lines: list[str]) -> None:
        lines[0] = json.dumps({**json.loads(lines[0]), **changes})
    return edit


def first_dice(lines: list[str]) -> None:
    lines[2] = json.dumps({"dice": [9, 9], "kind": "dice", "type": "chance"})


@pytest.mark.parametrize(("edit", "message"), [
    (lambda lines: lines.append('{"type": "bogus"}'),
     "game.jsonl:50:1: error: unknown event type 'bogus' (a game writes chance, composite, flush, hand, hand_end, "
     "header, move, out, result, reveal, revoke, round, show)"),
    (lambda lines: lines.append(lines[0]),
     "game.jsonl:50:1: error: a second header (the first is at line 1): a log holds one game"),
    (header(max_hands=-1),
     "game.jsonl:1:1: error: max_hands is the most hands the match may last (a whole number, at least 1), not -1"),
    (header(agents=["random"]), "game.jsonl:1:1: error: the log names 1 agent for 4 seats"),
    (header(hands_keyed="yes"),
     "game.jsonl:1:1: error: hands_keyed says whether each hand drew from a generator of its own (true or false), "
     "not \"yes\""),
    (first_dice,
     "game.jsonl:3:1: error: this chance outcome does not fit the ruleset: the dice given, [9, 9], cannot be a roll "
     "of 2 dice of 6 sides"),
    (lambda lines: lines.append('{"dice": [1, 2], "kind": "dice", "type": "chance"}'),
     "game.jsonl:50:1: error: the game never drew this chance outcome (a shuffle or roll the moves before it do not "
     "lead to)"),
    (lambda lines: lines.insert(1, '{"type": "chance", "kind": ["dice"]}'),
     "game.jsonl:2:1: error: a chance event is a 'shuffle' or 'dice', not [\"dice\"]"),
], ids=["unknown-event", "second-header", "max-hands", "one-agent", "hands-keyed", "dice-9-9", "never-drawn",
        "kind-not-text"])
def test_replay_and_resume_refuse_at_the_line(cli: Cli, edit: Callable[[list[str]], None], message: str) -> None:
    lines = tien_gow_log()
    edit(lines)
    cli.write("game.jsonl", "\n".join(lines) + "\n")
    for args in (("replay", "game.jsonl"), ("play", "--resume", "game.jsonl")):
        r = cli(*args)
        assert (r.code, r.out, r.err) == (1, "", message + "\n"), args


def test_the_untouched_log_replays(cli: Cli) -> None:
    cli.write("game.jsonl", "\n".join(tien_gow_log()) + "\n")
    r = cli("replay", "game.jsonl")
    assert r.code == 0 and "result: " in r.out
