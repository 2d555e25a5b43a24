"""Comma lists on the command line (``--agents``, ``--seats``): an empty item is refused, not dropped.

Dropping it changed the meaning silently: ``--agents random,`` for two seats gave both seats random (one
name is every seat's), ``--agents ,,`` and ``--seats ''`` gave the defaults.
"""

from __future__ import annotations

import pytest
from cli_support import Cli, error_lines


@pytest.mark.parametrize(("args", "message"), [
    (["simulate", "tiny.yaml", "-n", "1", "--agents", "random,"],
     "error: --agents random,: item 2 of 2 is empty (one name per seat, separated by commas)"),
    (["simulate", "tiny.yaml", "-n", "1", "--agents", ",,"],
     "error: --agents is empty: give a name, or one per seat separated by commas"),
    (["compare", "tiny.yaml", "tiny.yaml", "-n", "1", "--agents", "random,,default"],
     "error: --agents random,,default: item 2 of 3 is empty (one name per seat, separated by commas)"),
    (["play", "tiny.yaml", "--seats", ""],
     "error: --seats is empty: give a name, or one per seat separated by commas"),
    (["play", "tiny.yaml", "--seats", " ,random"],
     "error: --seats  ,random: item 1 of 2 is empty (one name per seat, separated by commas)"),
], ids=["trailing-comma", "only-commas", "compare", "seats-empty", "seats-leading-comma"])
def test_an_empty_item_is_a_usage_error(cli: Cli, args: list[str], message: str) -> None:
    cli.tiny()
    r = cli(*args)
    assert (r.code, error_lines(r.err)) == (2, [message])


def test_spaces_around_items_are_still_fine(cli: Cli) -> None:
    cli.tiny()
    r = cli("simulate", "tiny.yaml", "-n", "2", "--agents", " random , first ", "--no-timings")
    assert r.code == 0
    assert "agents random,first" in r.out
