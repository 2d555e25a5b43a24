"""The random agent (uniform over legal moves) and the scripted agent (moves from a list)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulecraft.agents.base import agent_rng, register
from rulecraft.errors import UsageError

if TYPE_CHECKING:
    from rulecraft.engine.moves import Move
    from rulecraft.engine.state import State


class RandomAgent:
    name = "random"

    def __init__(self, seed: int, seat: int) -> None:
        self.rng = agent_rng(seed, seat, "random")

    def choose(self, state: State, seat: int) -> Move:
        moves = state.legal_moves()
        return moves[self.rng.randrange(len(moves))]


class ScriptedAgent:
    """Plays the given move texts in order; then falls back to the first legal move."""

    name = "scripted"

    def __init__(self, moves: list[str]) -> None:
        self.moves = list(moves)

    def choose(self, state: State, seat: int) -> Move:
        if self.moves:
            return state.parse_move(self.moves.pop(0))
        return state.legal_moves()[0]


@register("random")
def _random(seed: int, seat: int, arg: str) -> RandomAgent:
    if arg:
        raise UsageError("the random agent takes no argument")
    return RandomAgent(seed, seat)


@register("first")
def _first(seed: int, seat: int, arg: str) -> ScriptedAgent:
    return ScriptedAgent([])


@register("scripted")
def _scripted(seed: int, seat: int, arg: str) -> ScriptedAgent:
    return ScriptedAgent([m.strip() for m in arg.split(";") if m.strip()])
