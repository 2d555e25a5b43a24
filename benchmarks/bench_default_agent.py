"""What one decision of the ``default`` agent costs, per game: every bundled game and every game in tests/dogfood/.

    python benchmarks/bench_default_agent.py                          # every game, this tree
    python benchmarks/bench_default_agent.py --before d2e2705         # and the revision before, same run
    python benchmarks/bench_default_agent.py --games rook,hearts --decisions 2000

For each game, ``default`` plays every seat of seeded matches (seeds 1, 2, ...; at most ``--max-hands``
hands each) until ``--decisions`` decisions were timed. A decision is a call of the agent's ``choose``
with two or more legal moves (a forced move costs nothing and would only thin the mean); each is timed by
the thread's CPU clock, so that time spent waiting for a core on a shared machine is not counted. The
table gives the mean, the 99th percentile and the largest, and beside them what the agent learnt before
its first decision ("learn": one untimed hand played first, with an empty cache directory, so whatever
the agent works out once per ruleset and keeps on disk is worked out there; seconds of CPU).

Each game runs in a child process of its own (``--child``), with the engine of this tree or, with
``--before REV``, the ``src`` of that git revision on its path (the revision extracted to a temporary directory,
removed at the end); the two alternate game by game. A game the revision cannot load reads ``n/a``.
The targets (issue 37): mean <= 5 ms and p99 <= 50 ms in every game. Measured here, never asserted in
tests.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def games() -> list[tuple[str, str]]:
    """(name, rule file) of every bundled game (its base file) and every game in tests/dogfood/."""
    out: list[tuple[str, str]] = []
    for folder in sorted(p for p in (ROOT / "variants").iterdir() if p.is_dir()):
        base = next((folder / b for b in ("base.yaml", "base.rules") if (folder / b).is_file()), None)
        if base is not None:
            out.append((folder.name, str(base)))
    for folder in sorted(p for p in (ROOT / "tests" / "dogfood").iterdir() if p.is_dir()):
        rule = _dogfood_rule_file(folder)
        if rule is not None:
            out.append((f"{folder.name} (dogfood)", str(rule)))
    return out


def _dogfood_rule_file(folder: Path) -> Path | None:
    from rulecraft.rules.yamlload import load_yaml_file
    from rulecraft.runs.scenario import is_rule_file

    for f in sorted(folder.iterdir()):
        if f.suffix == ".rules":
            return f
        if f.suffix == ".yaml" and f.name != "mutants.yaml" and is_rule_file(load_yaml_file(f)):
            return f
    return None


def child(path: str, decisions: int, max_hands: int) -> dict[str, Any]:
    """Measure one game in this process (see the module docstring)."""
    from rulecraft.agents.base import make_agent
    from rulecraft.engine.game import Game
    from rulecraft.load import load_ruleset

    clock = time.thread_time
    rs = load_ruleset(path)
    seats = rs.seats.count

    def play(seed: int, hands: int, times: list[float] | None) -> None:
        st = Game(rs, seed, hands).new_state()
        agents = [make_agent("default", seed, s) for s in range(seats)]
        moves = 0
        while not st.is_over and moves < 20_000:
            seat = st.to_act
            assert seat is not None
            many = len(st.legal_moves()) > 1
            start = clock()
            move = agents[seat].choose(st, seat)
            spent = clock() - start
            if many and times is not None:
                times.append(spent)
                if len(times) >= decisions:
                    return
            st.apply(move)
            moves += 1

    start = clock()
    play(0, 1, None)  # learning, and first-use caches
    learn = clock() - start
    times: list[float] = []
    seed = 1
    while len(times) < decisions and seed < 500:
        play(seed, max_hands, times)
        seed += 1
    times.sort()
    return {"learn": learn, "n": len(times), "mean": sum(times) / len(times),
            "p99": times[min(len(times) - 1, math.ceil(0.99 * len(times)) - 1)], "max": times[-1],
            "total": sum(times)}


def run_child(src: Path, path: str, decisions: int, max_hands: int, timeout: float) -> dict[str, Any] | str:
    env = dict(os.environ, PYTHONPATH=str(src))
    with tempfile.TemporaryDirectory() as cache:
        env["XDG_CACHE_HOME"] = cache  # an empty cache: the learning is measured, not read back
        try:
            done = subprocess.run([sys.executable, __file__, "--child", path, "--decisions", str(decisions),
                                   "--max-hands", str(max_hands)], env=env, capture_output=True, text=True,
                                  timeout=timeout)
        except subprocess.TimeoutExpired:
            return f"timed out after {timeout:.0f} s"
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["failed"])[-1]
        return f"n/a ({last[:60]})"
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def revision_src(rev: str, into: Path) -> Path:
    # The whole tree, not src alone: the package reads files beside it (the schemas).
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], check=True, capture_output=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    return into / "src"


def _cell(r: dict[str, Any] | str) -> str:
    if isinstance(r, str):
        return f"{r:>36}"
    return (f"{1000 * r['mean']:7.2f} {1000 * r['p99']:7.1f} {1000 * r['max']:7.0f} {r['learn']:6.1f} "
            f"{r['n']:5}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", help="names (as listed) separated by commas; default every game")
    ap.add_argument("--decisions", type=int, default=1000, help="decisions timed per game (default 1000)")
    ap.add_argument("--max-hands", type=int, default=2, help="hands per match (default 2)")
    ap.add_argument("--before", help="a git revision measured beside this tree, game by game")
    ap.add_argument("--timeout", type=float, default=900, help="seconds a game may take before it reads timed out")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(child(args.child, args.decisions, args.max_hands)))
        return
    chosen = games()
    if args.games:
        wanted = args.games.split(",")
        chosen = [g for g in chosen if g[0] in wanted or g[0].removesuffix(" (dogfood)") in wanted]
    head = f"{'mean ms':>7} {'p99 ms':>7} {'max ms':>7} {'learn':>6} {'n':>5}"
    with tempfile.TemporaryDirectory() as work:
        before = revision_src(args.before, Path(work)) if args.before else None
        print(f"{'game':<28} {head}" + (f"   before ({args.before}): {head}" if before else ""))
        for name, path in chosen:
            after = run_child(ROOT / "src", path, args.decisions, args.max_hands, args.timeout)
            line = f"{name:<28} {_cell(after)}"
            if before is not None:
                line += f"   {_cell(run_child(before, path, args.decisions, args.max_hands, args.timeout))}"
            print(line, flush=True)


if __name__ == "__main__":
    main()
