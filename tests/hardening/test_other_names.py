"""A choice's ``other_names``: each can be asked for, and asked for as it is written.

``other_names: [3.0]`` passed the schema (3.0 is the whole number 3 to JSON Schema) but named the choice
'3.0', so ``-o bonus=3`` was refused and ``3.0`` and ``"3"`` did not clash; an empty name, or one with
spaces around it, was accepted and could never be asked for from the command line.
"""

from __future__ import annotations

import pytest
from cli_support import Cli, error_lines


def overlay(cli: Cli, names: str) -> None:
    cli.tiny()
    cli.write("overlay.yaml", "extends: tiny.yaml\noptions:\n  - id: bonus\n    choices:\n"
                              f"      - {{id: twenty, other_names: {names}}}\n")


def test_a_whole_number_written_with_a_point_is_asked_for_as_the_number(cli: Cli) -> None:
    overlay(cli, "[2.0]")
    r = cli("simulate", "overlay.yaml", "-n", "1", "-o", "bonus=2", "--format", "json", "--no-timings")
    assert r.code == 0, r.err
    assert '"bonus": "twenty"' in r.out


def test_it_clashes_with_the_same_number_as_text(cli: Cli) -> None:
    overlay(cli, '[2.0, "2"]')
    r = cli("validate", "overlay.yaml")
    assert r.code == 1
    assert error_lines(r.out) == ["overlay.yaml:5:42: error: option 'bonus': '2' already names a choice (at line 5); "
                                  "each name picks one choice"]


@pytest.mark.parametrize(("names", "col", "text"), [('[""]', 37, ""), ('[" 2 "]', 37, " 2 ")],
                         ids=["empty", "spaces"])
def test_a_name_that_cannot_be_asked_for_is_refused(cli: Cli, names: str, col: int, text: str) -> None:
    overlay(cli, names)
    r = cli("validate", "overlay.yaml")
    assert r.code == 1
    assert error_lines(r.out) == [f"overlay.yaml:5:{col}: error: option 'bonus': '{text}' cannot be asked for (a "
                                  "name is some text without spaces around it)"]
