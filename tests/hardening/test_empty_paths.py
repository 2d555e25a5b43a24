"""An empty path given for an output is a usage error: ``Path("")`` is the current folder.

``simulate --log-dir ''`` wrote its game logs into the current folder, ``compare --plot ''`` drew nothing and
said nothing, and ``play --log ''`` blamed a directory called '.'.
"""

from __future__ import annotations

import pytest
from cli_support import Cli, error_lines


@pytest.mark.parametrize(("args", "message"), [
    (["simulate", "tiny.yaml", "-n", "1", "--log-dir", ""], "error: --log-dir is empty: name a path"),
    (["compare", "tiny.yaml", "tiny.yaml", "-n", "1", "--plot", ""], "error: --plot is empty: name a path"),
    (["play", "tiny.yaml", "--seed", "1", "--log", ""], "error: --log is empty: name a path"),
], ids=["log-dir", "plot", "log"])
def test_an_empty_output_path_is_refused(cli: Cli, args: list[str], message: str) -> None:
    cli.tiny()
    r = cli(*args)
    assert (r.code, error_lines(r.err)) == (2, [message])
    assert sorted(p.name for p in cli.cwd.iterdir()) == ["tiny.yaml"]
