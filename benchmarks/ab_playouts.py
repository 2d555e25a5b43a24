"""Compare the playout speed of two versions of the engine, interleaved in one process.

    python benchmarks/ab_playouts.py                      # HEAD against the working tree
    python benchmarks/ab_playouts.py 37a33a2 HEAD --rounds 100 --ruleset rook

These machines drift by ±20% from second to second, and by more between two runs of a script, so
timing two versions one after the other cannot see a change of a few percent. Here both versions
are loaded side by side (each version's ``src/rulecraft`` is copied under its own package name) and
play the same seeded matches in alternating short slices, A B A, round after round; each round gives
B's speed divided by the mean of the A slices around it, and the median over the rounds is reported
with its quartiles. A version against itself gives medians of 0.95-1.01 at 30-60 rounds here: a
change smaller than about 5% needs 60 rounds or more, and repeating, to be told from noise.
"""

from __future__ import annotations

import argparse
import importlib
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
WORKTREE = "worktree"


def _source(rev: str, into: Path) -> Path:
    """The ``src`` directory of a git revision (or of the working tree for ``worktree``)."""
    if rev == WORKTREE:
        return ROOT / "src"
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "src"], check=True, capture_output=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    return into / "src"


def _load(src: Path, name: str, work: Path) -> tuple[Any, Any]:
    """(Game, load_ruleset) of the package in ``src`` imported as ``name`` (imports rewritten)."""
    root = work / name
    package = root / "src" / name
    shutil.copytree(src / "rulecraft", package)
    for shared in ("variants", "schemas"):  # found beside src/, as in a checkout
        (root / shared).symlink_to(ROOT / shared)
    for path in package.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        text = re.sub(r"\brulecraft\.(?!dev)", f"{name}.", text)
        text = re.sub(r"\b(from|import) rulecraft\b", rf"\1 {name}", text)
        path.write_text(text, encoding="utf-8")
    sys.path.insert(0, str(root / "src"))
    game = importlib.import_module(f"{name}.engine.game")
    # The public loading entry moved from rules.model to the top-level load module; take either.
    try:
        loader = importlib.import_module(f"{name}.load")
    except ModuleNotFoundError:
        loader = importlib.import_module(f"{name}.rules.model")
    return game.Game, loader.load_ruleset


CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}
clock = time.perf_counter


def _rate(game: Any, rs: Any, first_seed: int, matches: int, max_hands: int) -> float:
    rng = random.Random(first_seed)
    moves = 0
    start = clock()
    for seed in range(first_seed, first_seed + matches):
        st = game(rs, seed, max_hands).new_state()
        while not st.is_over:
            legal = st.legal_moves()
            st.apply(legal[rng.randrange(len(legal))])
            moves += 1
    return moves / (clock() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("a", nargs="?", default="HEAD", help="git revision of version A (default HEAD)")
    ap.add_argument("b", nargs="?", default=WORKTREE, help=f"git revision of version B (default: the {WORKTREE})")
    ap.add_argument("--ruleset", default="rook", help="bundled ruleset to play (default rook)")
    ap.add_argument("--rounds", type=int, default=60, help="A B A rounds (default 60)")
    ap.add_argument("--matches", type=int, default=3, help="matches per slice (default 3)")
    ap.add_argument("--max-hands", type=int, default=20, help="hands per match (default 20)")
    ap.add_argument("--clock", choices=list(CLOCKS), default="wall",
                    help="time slices by the wall clock, or by this process's CPU time (steadier on a machine "
                         "shared with other work: time spent waiting for a core is not counted)")
    args = ap.parse_args()
    global clock
    clock = CLOCKS[args.clock]
    with tempfile.TemporaryDirectory(prefix="rulecraft-ab-") as tmp:
        work = Path(tmp)
        versions = []
        for name, rev in (("rulecraft_a", args.a), ("rulecraft_b", args.b)):
            (work / rev.replace("/", "_")).mkdir(exist_ok=True)
            game, load = _load(_source(rev, work / rev.replace("/", "_")), name, work)
            versions.append((game, load(args.ruleset)))
        (game_a, rs_a), (game_b, rs_b) = versions
        _rate(game_a, rs_a, 0, 1, args.max_hands)  # warm up: first-use caches, generated code
        _rate(game_b, rs_b, 0, 1, args.max_hands)
        ratios = []
        for r in range(args.rounds):
            seed = r * args.matches
            a1 = _rate(game_a, rs_a, seed, args.matches, args.max_hands)
            b = _rate(game_b, rs_b, seed, args.matches, args.max_hands)
            a2 = _rate(game_a, rs_a, seed, args.matches, args.max_hands)
            ratios.append(b / ((a1 + a2) / 2))
    q1, median, q3 = statistics.quantiles(ratios, n=4)
    print(f"{args.ruleset}: B ({args.b}) / A ({args.a}) speed, median of {args.rounds} rounds: {median:.3f}"
          f"  (quartiles {q1:.3f} .. {q3:.3f})")


if __name__ == "__main__":
    main()
