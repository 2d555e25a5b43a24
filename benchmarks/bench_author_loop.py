"""The rule author's loop: each command as a fresh process, as a ratio to a bare
``python -c "import yaml, jsonschema"`` measured in the same run.

    python benchmarks/bench_author_loop.py            # 5 rounds
    python benchmarks/bench_author_loop.py --rounds 9

Rounds alternate the yardstick and the commands, and the median of each is reported, with the CPU
time (user + system of the child) beside the wall time: on a shared 2-core machine the wall time
of one process swings with its neighbours, its CPU time much less. Targets (issue 16): validate of
the bundled files <= 8x, --help <= 1.5x, eval / list / explain close to --help. Figures, before and
after: benchmarks/README.md.

rulecraft keeps what it derives purely from content in the user's cache directory (``disk_cache``,
and lark's parser tables), so each command is measured as it runs against a cache dir of its own:
"cold" runs each get a new, empty one (nothing kept, the parser tables made again); "warm" runs share
one filled by the uncounted warm-up; the pre-commit run validates, against the warm cache, a copy of
a bundled file whose description is changed before every run (a file edited since the last run).
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
RULECRAFT = str(BIN / "rulecraft")

WORK = Path(tempfile.mkdtemp(prefix="bench-author-loop-"))
WARM = WORK / "warm-cache"
EDITED = WORK / "edited" / "base.yaml"  # a copy of rook's base, its description changed before each run
SOURCE = ROOT / "variants" / "rook" / "base.yaml"

# name: (command, cache) where cache is "warm" (the shared, filled cache dir) or "cold" (a new empty one)
COMMANDS: dict[str, tuple[list[str], str]] = {
    "yardstick: import yaml, jsonschema": ([sys.executable, "-c", "import yaml, jsonschema"], "warm"),
    "rulecraft --help": ([RULECRAFT, "--help"], "warm"),
    "rulecraft list": ([RULECRAFT, "list"], "warm"),
    "rulecraft eval 'max(0, 9 - 5)'": ([RULECRAFT, "eval", "max(0, 9 - 5)"], "warm"),
    "rulecraft explain rook": ([RULECRAFT, "explain", "rook"], "warm"),
    "validate variants/rook/base.yaml, warm": ([RULECRAFT, "validate", "variants/rook/base.yaml"], "warm"),
    "validate rook/base.yaml edited, warm (pre-commit)": ([RULECRAFT, "validate", str(EDITED)], "warm"),
    "validate variants/rook/base.yaml, cold": ([RULECRAFT, "validate", "variants/rook/base.yaml"], "cold"),
    "validate variants/, warm": ([RULECRAFT, "validate", "variants/"], "warm"),
    "validate variants/, cold": ([RULECRAFT, "validate", "variants/"], "cold"),
}
_edits = [0]


def _edit() -> None:
    """Change the copy's description (a new text each time: the last run cannot have kept this one)."""
    _edits[0] += 1
    EDITED.parent.mkdir(parents=True, exist_ok=True)
    text = SOURCE.read_text(encoding="utf-8")
    edited = re.sub(r"(\ndescription: >\n\s+)", rf"\g<1>(edit {_edits[0]}) ", text, count=1)
    assert edited != text, "the description of rook's base is written 'description: >' on a line of its own"
    EDITED.write_text(edited, encoding="utf-8")


def _run(cmd: list[str], cache: str, warm: bool = False) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one run of ``cmd`` as a child process.

    The warm-up run (``warm``) writes the bytecode of what it imports, as an installed package has
    it; the measured runs write nothing, so none of them pays for compiling a changed module."""
    if str(EDITED) in cmd:
        _edit()
    cache_home = WARM if cache == "warm" else Path(tempfile.mkdtemp(dir=WORK, prefix="cold-"))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    # The warm-up must write bytecode even where the caller's environment says not to (a CI image or
    # a sandbox often sets PYTHONDONTWRITEBYTECODE): otherwise every measured run compiles the package.
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "RULECRAFT_NO_CACHE")}
    env["XDG_CACHE_HOME"] = str(cache_home)
    if not warm:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=5, help="rounds of every command (default 5)")
    args = ap.parse_args()
    try:
        _measure(args.rounds)
    finally:
        shutil.rmtree(WORK, ignore_errors=True)


def _measure(rounds: int) -> None:
    walls: dict[str, list[float]] = {name: [] for name in COMMANDS}
    cpus: dict[str, list[float]] = {name: [] for name in COMMANDS}
    for cmd, cache in COMMANDS.values():  # warm the file cache (and write bytecode) once, uncounted
        _run(cmd, cache, warm=True)
    for _ in range(rounds):
        for name, (cmd, cache) in COMMANDS.items():
            wall, cpu = _run(cmd, cache)
            walls[name].append(wall)
            cpus[name].append(cpu)
    base_wall = statistics.median(walls[next(iter(COMMANDS))])
    base_cpu = statistics.median(cpus[next(iter(COMMANDS))])
    print(f"{'command':52} {'wall s':>8} {'x wall':>7} {'cpu s':>7} {'x cpu':>6}")
    for name in COMMANDS:
        wall, cpu = statistics.median(walls[name]), statistics.median(cpus[name])
        print(f"{name:52} {wall:8.3f} {wall / base_wall:7.1f} {cpu:7.3f} {cpu / base_cpu:6.1f}")
    print(f"(medians of {rounds} rounds; ratios to the yardstick's median in this run)")


if __name__ == "__main__":
    main()
