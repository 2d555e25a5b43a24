"""One seat as a gymnasium environment, the others played by the bundled bots.

``single_agent_env`` passes gymnasium's ``check_env``: any gymnasium learner can train on any ruleset.
The observation is a dict of ``observation`` (flat, or with ``observation="structured"`` named arrays:
piece planes per zone and seat, scalars, the record) and ``action_mask``; ``action_masks()`` is what
sb3-contrib's MaskablePPO asks for. Replace ``policy`` with your learner's.

    python examples/gymnasium_single_agent.py --ruleset hearts --seat 0 --episodes 20
"""

from __future__ import annotations

import argparse

import numpy as np

from rulecraft.rl.gymnasium import single_agent_env


def policy(observation: dict[str, np.ndarray], rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(observation["action_mask"])))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="hearts")
    parser.add_argument("--seat", type=int, default=0)
    parser.add_argument("--opponents", default="default", help="the bots in the other seats (default, random, mc:50)")
    parser.add_argument("--episodes", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    env = single_agent_env(args.ruleset, seat=args.seat, opponents=args.opponents, max_hands=1,
                           reward="win", observation="structured")
    pieces = env.observation_space["observation"]["pieces"].shape
    print(f"{args.ruleset}, seat {args.seat} against {args.opponents}: piece planes {pieces}, "
          f"{env.action_space.n} actions")
    rng = np.random.default_rng(args.seed)
    total, wins = 0.0, 0
    for episode in range(args.episodes):
        obs, _info = env.reset(seed=args.seed + episode)
        done = False
        while not done:
            obs, reward, terminated, truncated, info = env.step(policy(obs, rng))
            total += reward
            done = terminated or truncated
        wins += args.seat in info["result"]["winners"]
    print(f"a random policy: {wins} wins in {args.episodes} episodes, mean reward {total / args.episodes:+.2f}")


if __name__ == "__main__":
    main()
