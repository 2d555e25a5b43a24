"""Record games as arrays (RLCard's ``run``): every action with what its seat saw, for imitation or offline RL.

Each seat is a bundled bot (its moves recorded as the tokens that make them) or a policy function;
``save`` writes ``.npz``, or ``.parquet`` when pyarrow is installed.

    python examples/trajectories.py --ruleset rook --episodes 10 --out rook.npz
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from rulecraft.rl.trajectories import Trajectories, random_policy, run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="hearts")
    parser.add_argument("--episodes", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path("trajectories.npz"))
    args = parser.parse_args()
    players = ["default", random_policy(args.seed), "default", "random"]  # (a four-seat ruleset)
    data = run(args.ruleset, players, episodes=args.episodes, seed=args.seed, max_hands=1, reward="hand")
    data.save(args.out)
    again = Trajectories.load(args.out)
    print(f"{len(again)} actions of {args.episodes} episodes saved to {args.out}: observations "
          f"{again.observation.shape}, masks {again.action_mask.shape}")
    for seat in range(again.payoffs.shape[1]):
        mine = again.seat == seat
        print(f"  seat {seat} ({players[seat] if isinstance(players[seat], str) else 'policy'}): "
              f"{int(mine.sum())} actions, reward {float(again.reward[mine].sum()):+.0f}, "
              f"mean legal actions {float(again.action_mask[mine].sum(axis=1).mean()):.1f}")
    assert np.array_equal(again.payoffs.sum(axis=0), [again.reward[again.seat == s].sum() for s in range(4)])


if __name__ == "__main__":
    main()
