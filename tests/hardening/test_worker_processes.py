"""Counts and worker processes: ``-n 10**12`` and ``--workers 10000`` are bounded by the work done and the
machine, and Ctrl-C stops a run with workers at once, its workers with it.

``simulate -n 1000000000000`` used to list every chunk of the run before playing a game (an internal
MemoryError); ``--workers 10000`` started ten thousand processes for two games; and Ctrl-C at a terminal,
which reaches the workers too, left ``simulate``, ``validate --simulate`` and ``test --mutate`` with
workers playing on (each worker took the interruption as the result of its task and went on to the
next; the pool waited for every queued task).
"""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from cli_support import Cli, ctrl_c_as_at_a_terminal

from rulecraft.runs.pool import local_workers


def test_a_worker_count_is_bounded_by_the_work_and_the_cpus() -> None:
    assert local_workers(10_000, 2) == 2
    assert local_workers(10_000, 10**6) <= max(2, os.cpu_count() or 1)
    assert local_workers(3, 10**6) <= 3
    assert local_workers(1, 10**6) == 1


def test_ten_thousand_workers_for_two_games_start_two_processes(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    cli.tiny()
    started: list[int] = []
    real_init = ProcessPoolExecutor.__init__

    def init(self: ProcessPoolExecutor, max_workers: int | None = None, *args: Any, **kwargs: Any) -> None:
        assert max_workers is not None and max_workers <= 2, f"a pool of {max_workers} processes for two games"
        started.append(max_workers)
        real_init(self, max_workers, *args, **kwargs)

    monkeypatch.setattr(ProcessPoolExecutor, "__init__", init)
    one = cli("simulate", "tiny.yaml", "-n", "2", "--no-timings")
    many = cli("simulate", "tiny.yaml", "-n", "2", "--no-timings", "--workers", "10000")
    assert (many.code, many.out) == (0, one.out)
    assert started == [2]


def _limited_memory() -> None:
    os.setsid()  # a group of its own, as a terminal's foreground job: Ctrl-C reaches every process in it
    ctrl_c_as_at_a_terminal()
    limit = 2 * 1024**3
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _session(pid: int) -> list[str]:
    out = subprocess.run(["ps", "-eo", "pid=,sid="], capture_output=True, text=True).stdout
    return [p for p, s in (line.split() for line in out.splitlines()) if s == str(pid) and p != str(pid)]


def _interrupt_when(proc: subprocess.Popen[str], ready: Path, count: int) -> tuple[int, str, list[str]]:
    """Ctrl-C to the whole group once ``ready`` holds ``count`` files; the exit status, stderr and what is left."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None and (
            not ready.is_dir() or len(list(ready.iterdir())) < count):
        time.sleep(0.05)
    if proc.poll() is not None:
        raise AssertionError(f"it ended before Ctrl-C (exit {proc.returncode}): {proc.communicate()[1][-500:]}")
    os.killpg(proc.pid, signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=30)  # before the fix: still playing after 30 s
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise
    left = _session(proc.pid)
    for pid in left:  # (none, when it works)
        os.kill(int(pid), signal.SIGKILL)
    return proc.returncode, err, left


@pytest.mark.skipif(not hasattr(os, "killpg"), reason="process groups")
def test_a_trillion_games_with_workers_start_at_once_and_stop_at_ctrl_c(cli: Cli) -> None:
    cli.tiny()
    proc = subprocess.Popen([sys.executable, "-m", "rulecraft.cli.main", "simulate", "tiny.yaml", "-n", str(10**12),
                             "--workers", "2", "--log-dir", "logs"], cwd=cli.cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, preexec_fn=_limited_memory)
    code, err, left = _interrupt_when(proc, cli.cwd / "logs", 5)
    assert (code, left) == (130, [])
    assert err.endswith("interrupted\n")
    names = [p.name for p in (cli.cwd / "logs").iterdir()]
    assert len(names) >= 5 and all(n.startswith("game-") and n.endswith(".jsonl") for n in names)


@pytest.mark.skipif(not hasattr(os, "killpg"), reason="process groups")
def test_ctrl_c_stops_the_workers_of_validate(cli: Cli) -> None:
    # Ready once a worker process is there (it shares the group) and has had a moment to start playing.
    # (test --mutate uses the same pool; interrupted this early, its workers used to die in their set-up.)
    command = ["validate", "--simulate", "1000", "rook", "--workers", "2"]
    proc = subprocess.Popen([sys.executable, "-m", "rulecraft.cli.main", *command], cwd=cli.cwd,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=_limited_memory)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None and len(_session(proc.pid)) < 2:
        time.sleep(0.1)
    time.sleep(2)
    code, err, left = _interrupt_when(proc, cli.cwd, 0)
    assert (code, left) == (130, [])
    assert err.endswith("interrupted\n")
