"""The rule author's loop, cold: each command as a fresh process, as a ratio to a bare
``python -c "import yaml, jsonschema"`` measured in the same run.

    python benchmarks/bench_author_loop.py            # 5 rounds
    python benchmarks/bench_author_loop.py --rounds 9

Rounds alternate the yardstick and the commands, and the median of each is reported, with the CPU
time (user + system of the child) beside the wall time: on a shared 2-core machine the wall time
of one process swings with its neighbours, its CPU time much less. Targets (issue 16): validate of
the bundled files <= 8x, --help <= 1.5x, eval / list / explain close to --help. Figures, before and
after: benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
RULECRAFT = str(BIN / "rulecraft")

COMMANDS: dict[str, list[str]] = {
    "yardstick: import yaml, jsonschema": [sys.executable, "-c", "import yaml, jsonschema"],
    "rulecraft --help": [RULECRAFT, "--help"],
    "rulecraft list": [RULECRAFT, "list"],
    "rulecraft eval 'max(0, 9 - 5)'": [RULECRAFT, "eval", "max(0, 9 - 5)"],
    "rulecraft explain rook": [RULECRAFT, "explain", "rook"],
    "rulecraft validate variants/rook/base.yaml": [RULECRAFT, "validate", "variants/rook/base.yaml"],
    "rulecraft validate variants/": [RULECRAFT, "validate", "variants/"],
}


def _run(cmd: list[str], warm: bool = False) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one run of ``cmd`` as a child process.

    The warm-up run (``warm``) writes the bytecode of what it imports, as an installed package has
    it; the measured runs write nothing, so none of them pays for compiling a changed module."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    # The warm-up must write bytecode even where the caller's environment says not to (a CI image or
    # a sandbox often sets PYTHONDONTWRITEBYTECODE): otherwise every measured run compiles the package.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
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
    walls: dict[str, list[float]] = {name: [] for name in COMMANDS}
    cpus: dict[str, list[float]] = {name: [] for name in COMMANDS}
    for cmd in COMMANDS.values():  # warm the file cache (and write bytecode) once, uncounted
        _run(cmd, warm=True)
    for _ in range(args.rounds):
        for name, cmd in COMMANDS.items():
            wall, cpu = _run(cmd)
            walls[name].append(wall)
            cpus[name].append(cpu)
    base_wall = statistics.median(walls[next(iter(COMMANDS))])
    base_cpu = statistics.median(cpus[next(iter(COMMANDS))])
    print(f"{'command':48} {'wall s':>8} {'x wall':>7} {'cpu s':>7} {'x cpu':>6}")
    for name in COMMANDS:
        wall, cpu = statistics.median(walls[name]), statistics.median(cpus[name])
        print(f"{name:48} {wall:8.3f} {wall / base_wall:7.1f} {cpu:7.3f} {cpu / base_cpu:6.1f}")
    print(f"(medians of {args.rounds} rounds; ratios to the yardstick's median in this run)")


if __name__ == "__main__":
    main()
