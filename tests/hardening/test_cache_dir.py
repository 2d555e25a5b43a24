"""The cache directory: wherever XDG_CACHE_HOME points, rulecraft answers, and it never makes folders the user
did not ask for.

A relative XDG_CACHE_HOME (which the XDG spec says to ignore) made ``relative/rulecraft/...`` in whatever
folder a command ran in; a cache home that is a file, or holds damaged entries, is ignored as before.
"""

from __future__ import annotations

import os

import pytest
from cli_support import Cli


def _env(**changes: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "RULECRAFT_NO_CACHE"}
    env.update(changes)
    return env


def test_a_relative_cache_home_is_ignored_not_made_here(cli: Cli, tmp_path_factory: pytest.TempPathFactory) -> None:
    cli.tiny()
    home = tmp_path_factory.mktemp("home")
    r = cli.process("validate", "tiny.yaml", env=_env(XDG_CACHE_HOME="cache-here", HOME=str(home)))
    assert (r.returncode, r.stdout) == (0, "ok: 1 file valid (2 configurations checked)\n")
    assert sorted(p.name for p in cli.cwd.iterdir()) == ["tiny.yaml"]
    assert (home / ".cache" / "rulecraft").is_dir()  # the default place instead


def test_a_cache_home_that_is_a_file_or_holds_garbage_changes_nothing(cli: Cli) -> None:
    cli.tiny()
    cli.write("a-file", "not a folder\n")
    r = cli.process("validate", "tiny.yaml", env=_env(XDG_CACHE_HOME=str(cli.cwd / "a-file")))
    assert (r.returncode, r.stdout, r.stderr) == (0, "ok: 1 file valid (2 configurations checked)\n", "")
    good = cli.cwd / "good"
    assert cli.process("validate", "tiny.yaml", env=_env(XDG_CACHE_HOME=str(good))).returncode == 0
    entries = [p for p in good.rglob("*") if p.is_file()]
    assert entries
    for entry in entries:
        entry.write_bytes(entry.read_bytes()[:7] + b"garbage")
    r = cli.process("validate", "tiny.yaml", env=_env(XDG_CACHE_HOME=str(good)))
    assert (r.returncode, r.stdout, r.stderr) == (0, "ok: 1 file valid (2 configurations checked)\n", "")
