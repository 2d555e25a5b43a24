"""OpenSpiel's CFR on a rule file: the average strategy's exploitability falls towards a Nash equilibrium.

``mini-tricks.yaml`` (beside this file) is a two-player trick game of six cards, small enough for
exact methods: its whole tree (shuffle included, as chance nodes) has 111 information sets. OpenSpiel's
counterfactual regret minimization walks that tree through the rulecraft adapter; its exploitability
(how much a best response gains against the average strategy, in the game's rewards: +1 a win,
-1 a loss) falls from 0.29 for the uniform strategy towards 0. With ``--plot`` the curve is saved.

    python examples/openspiel_cfr.py --iterations 200 --plot docs/research-cfr.png
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from open_spiel.python.algorithms import cfr, exploitability

from rulecraft.rl.openspiel import load_game

RULES = Path(__file__).resolve().parent / "mini-tricks.yaml"


def checkpoints(iterations: int) -> list[int]:
    """Iterations after which exploitability is measured: 1, 2, 5, 10, 20, 50 ... and the last."""
    out, k = [], 1
    while k < iterations:
        out += [x for x in (k, 2 * k, 5 * k) if x < iterations]
        k *= 10
    return [*out, iterations]


def solve(iterations: int) -> list[tuple[int, float]]:
    """(iteration, exploitability of the average strategy) at each checkpoint, starting from uniform (0)."""
    game = load_game(str(RULES))
    solver = cfr.CFRSolver(game)
    curve = [(0, exploitability.exploitability(game, solver.average_policy()))]
    marks = set(checkpoints(iterations))
    for i in range(1, iterations + 1):
        solver.evaluate_and_update_policy()
        if i in marks:
            curve.append((i, exploitability.exploitability(game, solver.average_policy())))
            print(f"  iteration {i:4}: exploitability {curve[-1][1]:.4f}", flush=True)
    return curve


def plot(curve: list[tuple[int, float]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.6))
    xs, ys = zip(*[(i, e) for i, e in curve if i > 0], strict=True)
    ax.loglog(xs, ys, marker="o")
    ax.set_xlabel("CFR iterations (the average strategy after one is the uniform one)")
    ax.set_ylabel("exploitability")
    ax.set_title("OpenSpiel CFR on examples/mini-tricks.yaml")
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=100)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--plot", type=Path, help="save the exploitability curve as this image")
    args = parser.parse_args()
    start = time.process_time()
    print(f"CFR on {RULES.name}, {args.iterations} iterations")
    curve = solve(args.iterations)
    print(f"exploitability {curve[0][1]:.4f} (uniform) -> {curve[-1][1]:.4f} "
          f"after {args.iterations} iterations, {time.process_time() - start:.0f} s of CPU")
    if args.plot:
        plot(curve, args.plot)
        print(f"curve saved: {args.plot}")


if __name__ == "__main__":
    main()
