"""An OpenSpiel bot on a rulecraft game: OpenSpiel's own ISMCTS against uniform random bots.

``load_game`` returns a registered pyspiel game: chance nodes deal and roll, the bots see only
information-state strings, and ISMCTS samples the worlds a seat cannot tell apart through the state's
``resample_from_infostate`` (the engine's determinization). Python games are slow for search, so the
defaults are small: raise ``--simulations`` for a stronger bot.

    python examples/openspiel_ismcts.py --ruleset luk-fu --games 2 --simulations 20
"""

from __future__ import annotations

import argparse

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from rulecraft.rl.openspiel import load_game, resampler


def play(game: pyspiel.Game, bots: list[pyspiel.Bot], rng: np.random.RandomState) -> list[float]:
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    return list(state.returns())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="luk-fu")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--simulations", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = load_game(args.ruleset, max_hands=1)
    rng = np.random.RandomState(args.seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(args.seed))
    search = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=args.simulations,
                              random_state=np.random.RandomState(args.seed))
    search.set_resampler(resampler(args.seed))  # seeded worlds: the same games every run
    randoms = [pyspiel.make_uniform_random_bot(seat, args.seed + seat) for seat in range(game.num_players())]
    totals = np.zeros(game.num_players())
    for _ in range(args.games):
        search.reset()
        totals += play(game, [search, *randoms[1:]], rng)
    print(f"{args.ruleset}: ISMCTS ({args.simulations} simulations) in seat 0 against random bots, "
          f"{args.games} one-hand games")
    print(f"  total returns by seat: {', '.join(f'{x:+.0f}' for x in totals)}")


if __name__ == "__main__":
    main()
