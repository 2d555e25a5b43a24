"""A whole number written with a point or an exponent (``3.0``, ``1e3``) is a number wherever a count is
wanted, in a scenario as in a rule file (found by tests/hardening/fuzz_commands.py: a scenario expecting
a zone to hold ``1e308`` pieces passed validate, then ``test`` failed with a TypeError, exit 3)."""

from __future__ import annotations

import pytest
from cli_support import Cli

SCENARIO = """name: counts
rule: "Each seat is dealt three pieces."
ruleset: tiny.yaml
deal:
  "hand[0]": [a-1, b-2, b-3]
  "hand[1]": [a-2, a-3, b-1]
expect: {{zones: {{"hand[0]": {count}}}}}
"""


@pytest.mark.parametrize(("count", "code", "line"), [
    ("3.0", 0, "1 passed, 0 failed"),
    ("3e0", 0, "1 passed, 0 failed"),
    ("1e308", 1, "1 passed, 0 failed"),
])
def test_a_whole_number_of_pieces_in_an_expected_zone(cli: Cli, count: str, code: int, line: str) -> None:
    cli.tiny()
    cli.write("counts.yaml", SCENARIO.format(count=count))
    assert cli("validate", "counts.yaml").code == 0
    r = cli("test", "counts.yaml")
    assert r.code == code
    if code == 0:
        assert line in r.out
    else:
        assert "number of pieces in hand[0]: expected 1000000000000000" in r.out and r.out.count(", got 3\n") == 1
