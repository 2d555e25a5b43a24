"""``-o NAME=CHOICE`` and ``--preset`` with odd values: each a usage error (exit 2) naming the value, clipped.

A 5,000-character choice, option name or preset was echoed whole in its message (5 KB on one line).
"""

from __future__ import annotations

import pytest
from cli_support import Cli, error_lines

LONG = "9" * 5000


@pytest.mark.parametrize(("args", "start"), [
    (("-o", f"players={LONG}"), "error: option 'players' has no choice '999"),
    (("-o", f"p{LONG}=4"), "error: unknown option 'p999"),
    (("--preset", f"p{LONG}"), "error: unknown preset 'p999"),
    (("-o", f"players={LONG}", "-o", "players=4"), "error: option 'players' is given twice, as '999"),
    (("-o", f"p l{LONG}=4"), "error: 'p l999"),
    (("-o", f"=4{LONG}"), "error: an option is written NAME=CHOICE (e.g. -o bird_rank=lowest), not '=4999"),
])
def test_a_long_option_text_is_clipped(cli: Cli, args: tuple[str, ...], start: str) -> None:
    r = cli("explain", "doubt", *args)
    assert r.code == 2
    [line] = error_lines(r.err)
    assert line.startswith(start) and "characters)" in line and len(line) < 400, line[:500]


@pytest.mark.parametrize(("value", "problem"), [
    ("4.0", "option 'players' has no choice '4.0'; choices: 3, 4, 5, 6"),
    ("04", "option 'players' has no choice '04' (did you mean '4'?); choices: 3, 4, 5, 6"),
    ("true", "option 'players' has no choice 'true'; choices: 3, 4, 5, 6"),
    ("[4]", "option 'players' has no choice '[4]'; choices: 3, 4, 5, 6"),
    ("4=5", "option 'players' has no choice '4=5'; choices: 3, 4, 5, 6"),
])
def test_a_choice_is_its_text_and_nothing_else(cli: Cli, value: str, problem: str) -> None:
    r = cli("explain", "doubt", "-o", f"players={value}")
    assert (r.code, error_lines(r.err)) == (2, [f"error: {problem}"])


def test_an_extends_path_too_long_to_exist_is_clipped(cli: Cli) -> None:
    # found by fuzz_commands' 'echo' check: a line made 2 MB long was echoed twice in one 4 MB error line
    cli.write("overlay.yaml", "extends: tiny.yaml" + "x" * 100_000 + "\nname: o\n")
    r = cli("validate", "overlay.yaml")
    assert r.code == 1
    [line] = error_lines(r.out)
    assert line.startswith("overlay.yaml:1:10: error: cannot find 'tiny.yamlxxx") and len(line) < 1000, line[:300]
