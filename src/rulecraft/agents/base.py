"""Agents choose moves for a seat. Each gets its own RNG, seeded from the game seed and its seat,
so a game is reproducible from ruleset + options + seed + agent names."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from rulecraft.errors import UsageError

if TYPE_CHECKING:
    from rulecraft.engine.moves import Move
    from rulecraft.engine.state import State


class Agent(Protocol):
    name: str

    def choose(self, state: State, seat: int) -> Move: ...


AgentFactory = Callable[[int, int, str], Agent]  # (game seed, seat, argument) -> agent
_REGISTRY: dict[str, AgentFactory] = {}


def register(name: str) -> Callable[[AgentFactory], AgentFactory]:
    def deco(factory: AgentFactory) -> AgentFactory:
        _REGISTRY[name] = factory
        return factory

    return deco


def agent_rng(seed: int, seat: int, salt: str) -> random.Random:
    return random.Random(f"{salt}:{seed}:{seat}")


def make_agent(spec: str, seed: int, seat: int) -> Agent:
    """``spec`` is a registered name, optionally with an argument: ``random``, ``mc:200``, ``bluffer:0.3``."""
    _load_builtin_agents()
    name, _, arg = spec.partition(":")
    factory = _REGISTRY.get(name)
    if factory is None:
        raise UsageError(f"unknown agent '{name}'; known agents: {', '.join(sorted(_REGISTRY))}")
    return factory(seed, seat, arg)


def known_agents() -> list[str]:
    _load_builtin_agents()
    return sorted(_REGISTRY)


def _load_builtin_agents() -> None:
    import importlib

    for module in ("rulecraft.agents.simple", "rulecraft.agents.bluffer", "rulecraft.agents.mc",
                   "rulecraft.agents.default", "rulecraft.agents.ismcts"):
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise
