"""The bad-input corpus of issue 15 (each file one class of bad input, each case the exact message and exit code):
the command line as its cases run it.

Cases run the real command line: ``run_cli`` (what the ``rulecraft`` command calls: argument parsing,
error lines, exit codes) in this process, in a scratch directory so paths print as the user typed
them; ``rulecraft`` as a separate process where the process itself matters (a FIFO that would block,
a signal, the umask, memory). Each also holds rulecraft to its time bound.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from click.testing import CliRunner

ROOT = Path(__file__).resolve().parents[2]
TINY = ROOT / "tests" / "runs" / "tiny" / "rules.yaml"
# Every refusal here takes well under FEW_SECONDS of CPU. The bound is on the CPU time this process spends
# (a loop that never ends spends it), so a machine loaded by other work does not fail it; the wall clock
# has a wider backstop for a wait that spends nothing.
FEW_SECONDS = 20.0
WALL_BACKSTOP = 120.0


@dataclass(frozen=True)
class Outcome:
    code: int
    out: str
    err: str
    seconds: float  # CPU time
    wall: float  # wall-clock time


class Cli:
    """``rulecraft ARGS`` in the scratch directory ``cwd``."""

    def __init__(self, cwd: Path) -> None:
        self.cwd = cwd

    def __call__(self, *args: str, stdin: str = "") -> Outcome:
        from rulecraft.cli.errors import run_cli
        from rulecraft.cli.main import cli

        old, argv = Path.cwd(), sys.argv
        os.chdir(self.cwd)
        sys.argv = ["rulecraft", *args]  # as the installed command sees them
        try:
            runner = CliRunner()
            start, cpu_start = time.monotonic(), time.process_time()
            with runner.isolation(input=stdin) as (out, err, _):
                code = run_cli(cli)
                seconds, wall = time.process_time() - cpu_start, time.monotonic() - start
                outcome = Outcome(code, out.getvalue().decode(), err.getvalue().decode(), seconds, wall)
        finally:
            os.chdir(old)
            sys.argv = argv
        assert "Traceback" not in outcome.out + outcome.err
        assert outcome.seconds < FEW_SECONDS, f"{args} took {outcome.seconds:.1f} s of CPU"
        assert outcome.wall < WALL_BACKSTOP, f"{args} took {outcome.wall:.1f} s"
        return outcome

    def process(self, *args: str, timeout: float = 60.0, **kwargs: object) -> subprocess.CompletedProcess[str]:
        """``rulecraft ARGS`` as its own process (``kwargs`` go to subprocess.run)."""
        return subprocess.run([sys.executable, "-m", "rulecraft.cli.main", *args], cwd=self.cwd, capture_output=True,
                              text=True, timeout=timeout, **kwargs)  # type: ignore[call-overload]

    def write(self, name: str, text: str) -> Path:
        path = self.cwd / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return path

    def tiny(self, name: str = "tiny.yaml") -> Path:
        """The small two-seat game of tests/runs/tiny, copied here (overlays extend it by this name)."""
        return self.write(name, TINY.read_text(encoding="utf-8"))


def error_lines(text: str) -> list[str]:
    """The ``file:line:col: error:`` lines of an output (without the source excerpts under them)."""
    return [line for line in text.splitlines() if ": error: " in line or line.startswith("error: ")]


def lines_of(text: str) -> Sequence[str]:
    return text.rstrip("\n").split("\n")


def ctrl_c_as_at_a_terminal() -> None:
    """For a child that a test interrupts with SIGINT (``preexec_fn``): SIGINT handled and not blocked, as
    a terminal's foreground job has it. A child inherits an ignored or blocked SIGINT from the test run
    (a run started in the background from a script ignores it), and Python keeps an inherited ignore:
    the test would wait on a child that Ctrl-C cannot reach."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
