"""What a player types at ``play`` is refused with a message of a line, however long the text (found by
tests/hardening/fuzz_commands.py: a 2 MB word was echoed back whole, by whichever rule refused it)."""

from __future__ import annotations

import pytest
from cli_support import Cli


@pytest.mark.parametrize(("ruleset", "typed", "refusal"), [
    ("hearts", "give " + "x" * 2_000_000,
     "there is no piece called '" + "x" * 60 + "… (2,000,000 characters)'"),
    ("rook", "bid " + "9" * 100_000, "a bid is a number, not '" + "9" * 60 + "… (100,000 characters)'"),
    ("rook", "é" * 300_000, "unknown move '" + "é" * 60 + "… (300,000 characters)': here a move starts with bid or "
                            "pass"),
])
def test_a_huge_word_typed_is_refused_in_a_line(cli: Cli, ruleset: str, typed: str, refusal: str) -> None:
    r = cli("play", ruleset, "--seed", "1", stdin=f"{typed}\nquit\n")
    assert r.code == 0
    refused = [line for line in r.out.splitlines() if "refused: " in line]
    assert [line.split("refused: ", 1)[1] for line in refused] == [refusal]


def test_a_word_as_long_as_a_rule_may_need_is_quoted_whole(cli: Cli) -> None:
    r = cli("play", "hearts", "--seed", "1", stdin="give " + "x" * 200 + "\nquit\n")
    assert f"refused: there is no piece called '{'x' * 200}'" in r.out
