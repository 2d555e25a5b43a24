"""Paths and addresses: a plain message naming the argument, exit 2, before anything is played, and no
directory made anywhere but the one --log-dir names."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import Cli

ONLY_LAST = "(only the last directory of the path is created)"


@pytest.mark.parametrize(("args", "message"), [
    (["simulate", "tiny.yaml", "--log-dir", "/proc/nope"],
     "error: --log-dir /proc/nope: cannot create the directory: No such file or directory"),
    (["simulate", "tiny.yaml", "--log-dir", "afile/sub"],
     f"error: --log-dir afile/sub: cannot create it: afile is not a directory {ONLY_LAST}"),
    (["simulate", "tiny.yaml", "--log-dir", "new1/new2"],
     f"error: --log-dir new1/new2: cannot create it: there is no directory new1 {ONLY_LAST}"),
    (["play", "tiny.yaml", "--log", "nodir/x.jsonl"], "error: --log nodir/x.jsonl: there is no directory nodir"),
    (["compare", "tiny.yaml", "tiny.yaml", "--plot", "/nonexistent/dir/x.png"],
     "error: --plot /nonexistent/dir/x.png: there is no directory /nonexistent/dir"),
    (["simulate", "tiny.yaml", "--dask", "notaurl"],
     "error: --dask notaurl: not a scheduler address: it needs a host and a port; write tcp://HOST:PORT, "
     "e.g. tcp://10.0.0.5:8786"),
    (["simulate", "tiny.yaml", "--dask", "tcp://:abc"],
     "error: --dask tcp://:abc: not a scheduler address: 'abc' is not a port number (1-65535); write "
     "tcp://HOST:PORT, e.g. tcp://10.0.0.5:8786"),
    (["compare", "tiny.yaml", "tiny.yaml", "--dask", "http://host:80"],
     "error: --dask http://host:80: not a scheduler address: unknown protocol 'http' (one of tcp, tls, ws, wss, "
     "ucx); write tcp://HOST:PORT, e.g. tcp://10.0.0.5:8786"),
])
def test_a_bad_path_or_address_is_a_usage_error(cli: Cli, args: list[str], message: str) -> None:
    cli.tiny()
    cli.write("afile", "")
    before = sorted(p.name for p in cli.cwd.iterdir())
    r = cli(*args, "-n", "1") if args[0] != "play" else cli(*args)
    assert (r.code, r.out, r.err) == (2, "", message + "\n")
    assert sorted(p.name for p in cli.cwd.iterdir()) == before  # nothing made, no game played or saved
    assert not Path("/nonexistent").exists()


def test_log_dir_is_made_when_its_parent_exists(cli: Cli) -> None:
    cli.tiny()
    r = cli("simulate", "tiny.yaml", "-n", "2", "--log-dir", "logs", "--no-timings")
    assert r.code == 0
    assert sorted(p.name for p in (cli.cwd / "logs").iterdir()) == ["game-000000.jsonl", "game-000001.jsonl"]


def test_an_unreachable_scheduler_is_exit_1_in_seconds(cli: Cli) -> None:
    pytest.importorskip("distributed", reason="dask.distributed is not installed (extra 'dask')")
    cli.tiny()
    r = cli("simulate", "tiny.yaml", "-n", "1", "--dask", "tcp://127.0.0.1:1")
    assert (r.code, r.out) == (1, "")
    assert r.err == ("error: cannot reach the dask scheduler at tcp://127.0.0.1:1: Timed out trying to connect to "
                     "tcp://127.0.0.1:1 after 5 s\n")
    assert r.wall < 15  # a wait for a connection spends no CPU: the wall clock is what the user sees


LONG = "a" * 300
CLIPPED = "a" * 60 + "… (300 characters)"


@pytest.mark.parametrize(("args", "message"), [
    (["simulate", LONG], f"error: unknown ruleset '{CLIPPED}'; bundled rulesets: "),
    (["simulate", "tiny.yaml", "--log-dir", LONG], f"error: --log-dir {CLIPPED}: File name too long"),
    (["play", "tiny.yaml", "--log", LONG], f"error: --log {CLIPPED}: File name too long"),
])
def test_a_name_too_long_for_the_system_is_a_usage_error_not_an_oserror(cli: Cli, args: list[str],
                                                                          message: str) -> None:
    cli.tiny()
    r = cli(*args)
    assert (r.code, r.out) == (2, "")
    assert r.err.startswith(message)
