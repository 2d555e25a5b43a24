"""Whole numbers longer than Python reads from text (4,300 digits: ``int('9' * 5000)`` raises ValueError).

Every place a user's text becomes a number says so where the number is, never as an internal error.
"""

from __future__ import annotations

import json

from cli_support import Cli, error_lines

LONG = "9" * 5000


def test_an_expression_with_a_number_too_long_to_read(cli: Cli) -> None:
    r = cli("eval", f"1 + {LONG}")
    assert r.code == 1
    assert error_lines(r.err) == ["<expression>:1:5: error: this number is too long (5,000 digits)"]


def test_one_digit_within_the_limit_is_read(cli: Cli) -> None:
    r = cli("eval", f"{'9' * 4300} - {'9' * 4299}0")
    assert (r.code, r.out) == (0, "9\n")


def test_a_rule_file_with_such_a_number_in_a_formula(cli: Cli) -> None:
    cli.tiny()
    cli.write("overlay.yaml", f'extends: tiny.yaml\nmatch:\n  score: "score[seat] + {LONG}"\n')
    r = cli("validate", "overlay.yaml")
    assert r.code == 1
    assert error_lines(r.out)[0] == "overlay.yaml:3:25: error: this number is too long (5,000 digits)"


def test_a_log_line_with_such_a_number(cli: Cli) -> None:
    cli.tiny()
    assert cli("play", "tiny.yaml", "--seed", "2", "--seats", "random,random", "--log", "game.jsonl").code == 0
    lines = (cli.cwd / "game.jsonl").read_text(encoding="utf-8").splitlines()
    moves = [i for i, line in enumerate(lines) if json.loads(line)["type"] == "move"]
    lines[moves[0]] = '{"move": "play a-1", "seat": ' + LONG + ', "type": "move"}'
    cli.write("game.jsonl", "\n".join(lines) + "\n")
    for args in (("replay", "game.jsonl", "--ruleset", "tiny.yaml"), ("play", "--resume", "game.jsonl")):
        r = cli(*args)
        assert r.code == 1
        assert error_lines(r.err) == [f"game.jsonl:{moves[0] + 1}:30: error: a number too long to be one rulecraft "
                                      "writes"]
