"""A PettingZoo loop on a rulecraft game: the standard AEC iteration with masked random actions.

Every observation is a dict with ``observation`` (a float vector from what that seat may see) and
``action_mask`` (the legal action ids). A move of several pieces is taken one piece per step, so the
same agent may act several times in a row. Replace ``policy`` with your learner's.

    python examples/pettingzoo_loop.py --ruleset tien-gow --episodes 3
"""

from __future__ import annotations

import argparse

import numpy as np

from rulecraft.rl.pettingzoo import env


def policy(observation: dict[str, np.ndarray], rng: np.random.Generator) -> int:
    legal = np.flatnonzero(observation["action_mask"])
    return int(rng.choice(legal))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="tien-gow")
    parser.add_argument("--episodes", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = env(args.ruleset, max_hands=1)  # one hand per episode; keyword options choose variants
    rng = np.random.default_rng(args.seed)
    print(f"{args.ruleset}: {len(game.possible_agents)} agents, {game.action_space('seat_0').n} actions, "
          f"observations of {game.observation_space('seat_0')['observation'].shape[0]} numbers")
    for episode in range(args.episodes):
        game.reset(seed=args.seed + episode)  # the same seed deals the same game
        totals = dict.fromkeys(game.possible_agents, 0.0)
        steps = 0
        for agent in game.agent_iter():
            observation, reward, terminated, truncated, _info = game.last()
            totals[agent] += reward
            if terminated or truncated:
                game.step(None)  # the AEC protocol: a finished agent steps with None
                continue
            action = policy(observation, rng)
            if steps < 3 and episode == 0:
                print(f"  {agent}: {game.action_string(action)}")
            game.step(action)
            steps += 1
        print(f"episode {episode}: {steps} actions, rewards {totals}")
    game.close()


if __name__ == "__main__":
    main()
