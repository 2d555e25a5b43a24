"""N games at once through gymnasium's vector API, dealt again as each ends (auto-reset).

``vector_env(ruleset, n)`` is a ``SyncVectorEnv`` of ``single_agent_env``: observations and masks come
batched, one row per game, and a game that ends is dealt again at the next step (gymnasium's
next-step auto-reset: that step's action for it is not used).

    python examples/gymnasium_vector.py --ruleset big-two --games 8 --steps 400
"""

from __future__ import annotations

import argparse

import numpy as np

from rulecraft.rl.gymnasium import vector_env


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="big-two")
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--steps", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    envs = vector_env(args.ruleset, args.games, opponents="random", max_hands=1)
    obs, _infos = envs.reset(seed=args.seed)
    print(f"{args.ruleset}: {args.games} games, observations {obs['observation'].shape}, "
          f"masks {obs['action_mask'].shape}")
    rng = np.random.default_rng(args.seed)
    finished, returns = 0, []
    for _ in range(args.steps):
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in obs["action_mask"]])
        obs, rewards, terminated, truncated, _infos = envs.step(actions)
        done = terminated | truncated
        finished += int(done.sum())
        returns += list(rewards[done])
    print(f"{finished} games finished in {args.steps} steps, mean reward {np.mean(returns) if returns else 0:+.2f}")
    envs.close()


if __name__ == "__main__":
    main()
