"""Play a game with your own agent: a few lines of Python that choose moves, against the bundled bots.

An agent is anything with a ``name`` and a ``choose(state, seat)`` method returning one of
``state.legal_moves()``. This one plays greedily: of its legal moves it prefers those with the most
pieces (sets and runs before singles), then the lowest-ranked pieces (keeping its strong ones), and it
never passes when it could do something else. It works on any ruleset, since it only reads moves.

    python examples/play_your_own_agent.py --ruleset luk-fu --games 20
"""

from __future__ import annotations

import argparse

from rulecraft.agents.base import make_agent
from rulecraft.engine.game import Game
from rulecraft.engine.moves import Move
from rulecraft.engine.state import State
from rulecraft.load import load_ruleset


class Greedy:
    name = "greedy"

    def choose(self, state: State, seat: int) -> Move:
        legal = state.legal_moves()
        order = state.rs.pieces.sort_key  # the rule file's own order of pieces (its display sort)

        def preference(move: Move) -> tuple[int, int, list[object]]:
            # More pieces first; a move that is not 'pass' before one that is; then the weakest pieces.
            return (-len(move.pieces), move.verb == "pass", sorted(order(p) for p in move.pieces))

        # A claim game's legal moves can be thousands of subsets: look at the first 500 only.
        candidates = [legal[i] for i in range(min(len(legal), 500))]
        return min(candidates, key=preference)


def play(ruleset: str, games: int, seed: int) -> list[float]:
    rs = load_ruleset(ruleset)
    wins = [0.0] * rs.seats.count
    for g in range(games):
        # Seat 0 is ours; the other seats are the bundled random bot, each seeded from the game seed.
        agents = [Greedy()] + [make_agent("random", seed + g, s) for s in range(1, rs.seats.count)]
        st = Game(rs, seed + g, max_hands=1).new_state()
        while not st.is_over:
            seat = st.to_act
            assert seat is not None
            st.apply(agents[seat].choose(st, seat))
        assert st.result is not None
        for w in st.result["winners"]:
            wins[w] += 1 / len(st.result["winners"])
    return [w / games for w in wins]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="luk-fu")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rates = play(args.ruleset, args.games, args.seed)
    print(f"{args.ruleset}, {args.games} one-hand games, seat 0 greedy, the others random")
    for seat, rate in enumerate(rates):
        print(f"  seat {seat}: wins {rate:.0%}")


if __name__ == "__main__":
    main()
