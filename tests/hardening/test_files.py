"""Files: a FIFO is refused, not read forever; new files honour the umask; an interruption leaves no
temporary file behind (every log, save and plot is written through runs.files)."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_support import Cli, ctrl_c_as_at_a_terminal


def test_a_fifo_is_refused_at_once(cli: Cli) -> None:
    os.mkfifo(cli.cwd / "rules.yaml")
    os.mkfifo(cli.cwd / "game.jsonl")
    r = cli.process("validate", "rules.yaml", timeout=30)  # reading it would block: the timeout would fail the test
    assert (r.returncode, r.stdout) == (1, "rules.yaml:1:1: error: not a regular file (a FIFO): a rule file is a file "
                                           "of text\n1 problem in 1 of 1 file\n")
    for args in (("replay", "game.jsonl"), ("play", "--resume", "game.jsonl")):
        r = cli.process(*args, timeout=30)
        assert (r.returncode, r.stderr) == (1, "game.jsonl: error: cannot read the log: not a regular file\n")


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_new_files_honour_the_umask_and_a_replaced_save_keeps_its_mode(cli: Cli) -> None:
    cli.tiny()

    def umask() -> None:
        os.umask(0o027)

    assert cli.process("simulate", "tiny.yaml", "-n", "2", "--log-dir", "logs", preexec_fn=umask).returncode == 0
    assert mode(cli.cwd / "logs") == 0o750
    assert {mode(p) for p in (cli.cwd / "logs").iterdir()} == {0o640}
    assert cli.process("play", "tiny.yaml", "--seed", "1", "--log", "g.jsonl", preexec_fn=umask).returncode == 0
    assert mode(cli.cwd / "g.jsonl") == 0o600  # (a game people play: its log holds every hand, for its owner only)
    os.chmod(cli.cwd / "g.jsonl", 0o600)
    assert cli.process("play", "tiny.yaml", "--resume", "g.jsonl", preexec_fn=umask).returncode == 0
    assert mode(cli.cwd / "g.jsonl") == 0o600


def test_a_plot_honours_the_umask(cli: Cli) -> None:
    pytest.importorskip("matplotlib", reason="matplotlib is not installed (extra 'plot')")
    cli.tiny()
    r = cli.process("compare", "tiny.yaml", "tiny.yaml", "-n", "2", "--plot", "p.png",
                    preexec_fn=lambda: os.umask(0o077))
    assert r.returncode == 0, r.stderr
    assert mode(cli.cwd / "p.png") == 0o600
    r = cli.process("compare", "tiny.yaml", "tiny.yaml", "-n", "2", "--plot", "q.png",
                    preexec_fn=lambda: os.umask(0o022))
    assert mode(cli.cwd / "q.png") == 0o644


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_an_interrupted_run_leaves_no_temporary_file(cli: Cli, sig: signal.Signals) -> None:
    # Rook's logs are about 600 kB: each takes long enough to write that a signal may well land mid-write.
    proc = subprocess.Popen([sys.executable, "-m", "rulecraft.cli.main", "simulate", "rook", "-n", "100000",
                             "--log-dir", "logs"], cwd=cli.cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, preexec_fn=ctrl_c_as_at_a_terminal)
    logs = cli.cwd / "logs"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and (not logs.is_dir() or len(list(logs.iterdir())) < 3):
        time.sleep(0.05)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == (130 if sig == signal.SIGINT else -signal.SIGTERM)
    if sig == signal.SIGINT:
        assert err == "\ninterrupted\n"  # (click ends the line a progress bar may have left open)
    names = [p.name for p in logs.iterdir()]
    assert names and not [n for n in names if n.startswith(".")]
    assert all(n.startswith("game-") and n.endswith(".jsonl") for n in names)


def test_a_signal_in_the_middle_of_a_write_waits_for_the_rename(cli: Cli) -> None:
    # Deterministic: the signal is sent by the writer itself, half-way through writing the file.
    script = (
        "import os, signal\n"
        "from rulecraft.runs.files import write_file\n"
        "def produce(tmp):\n"
        "    with open(tmp, 'w') as fh:\n"
        "        fh.write('first half\\n')\n"
        "        os.kill(os.getpid(), signal.SIGTERM)\n"
        "        fh.write('second half\\n')\n"
        "write_file('out.txt', produce)\n"
        "print('not reached: SIGTERM is delivered once the file is in place')\n"
    )
    r = subprocess.run([sys.executable, "-c", script], cwd=cli.cwd, capture_output=True, text=True, timeout=60)
    assert (r.returncode, r.stdout) == (-signal.SIGTERM, "")
    assert [p.name for p in cli.cwd.iterdir()] == ["out.txt"]
    assert (cli.cwd / "out.txt").read_text() == "first half\nsecond half\n"
