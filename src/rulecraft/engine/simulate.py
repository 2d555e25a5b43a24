"""Playing many seeded games and summarising them; the same arguments always give the same numbers."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rulecraft.agents.base import make_agent
from rulecraft.engine.game import Game
from rulecraft.engine.state import State
from rulecraft.errors import UsageError
from rulecraft.rules.model import Ruleset

MAX_MOVES = 100_000


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run: independent of how the run is split into chunks."""
    return (seed * 1_000_003 + index * 7_919 + 17) % (2**31)


def resolve_agents(rs: Ruleset, agents: Sequence[str] | None) -> list[str]:
    n = rs.seats.count
    names = list(agents or ["random"])
    if len(names) == 1:
        names = names * n
    if len(names) != n:
        raise UsageError(f"{rs.name} has {n} seats: give one agent, or {n} separated by commas (got {len(names)})")
    return names


def play_game(rs: Ruleset, seed: int, agent_names: Sequence[str],
              on_state: Callable[[State], None] | None = None, max_hands: int | None = None) -> tuple[State, int]:
    """Play one game to the end; returns the final state and the number of moves made."""
    st = Game(rs, seed, max_hands).new_state()
    agents = [make_agent(a, seed, s) for s, a in enumerate(agent_names)]
    moves = 0
    while not st.is_over:
        if on_state is not None:
            on_state(st)
        seat = st.to_act
        if seat is None:
            raise RuntimeError("no seat to act in an unfinished game")  # an engine bug, not a user error
        st.apply(agents[seat].choose(st, seat))
        moves += 1
        if moves > MAX_MOVES:
            raise RuntimeError(f"game with seed {seed} did not end within {MAX_MOVES} moves")
    if on_state is not None:
        on_state(st)
    return st, moves


@dataclass
class Summary:
    ruleset: dict[str, Any]
    games: int
    seed: int
    agents: list[str]
    wins: list[float] = field(default_factory=list)
    score_sum: list[float] = field(default_factory=list)
    moves: int = 0
    hands: int = 0
    truncated: int = 0
    fired: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    per_game: list[dict[str, Any]] = field(default_factory=list)

    def add(self, st: State, moves: int) -> None:
        assert st.result is not None
        n = len(st.result["scores"])
        if not self.wins:
            self.wins = [0.0] * n
            self.score_sum = [0.0] * n
        winners = st.result["winners"]
        for w in winners:
            self.wins[w] += 1 / len(winners)
        for s, v in enumerate(st.result["scores"]):
            self.score_sum[s] += v
        self.moves += moves
        self.hands += st.result["hands"]
        self.truncated += bool(st.result["truncated"])
        for k, v in st.fired.items():
            self.fired[k] = self.fired.get(k, 0) + v
        self.per_game.append({"scores": list(st.result["scores"]), "winners": list(winners), "moves": moves,
                              "hands": st.result["hands"]})

    def as_json(self, timings: bool = True) -> dict[str, Any]:
        g = max(self.games, 1)
        out: dict[str, Any] = {
            "ruleset": self.ruleset,
            "games": self.games,
            "seed": self.seed,
            "agents": self.agents,
            "wins": [round(w, 6) for w in self.wins],
            "win_rate": [round(w / g, 6) for w in self.wins],
            "mean_score": [round(s / g, 6) for s in self.score_sum],
            "mean_moves": round(self.moves / g, 3),
            "mean_hands": round(self.hands / g, 3),
            "truncated": self.truncated,
            "rules_fired": dict(sorted(self.fired.items())),
        }
        if timings:
            out["seconds"] = round(self.seconds, 3)
            out["moves_per_second"] = round(self.moves / self.seconds, 1) if self.seconds > 0 else None
        return out


def simulate(rs: Ruleset, n: int, seed: int, agents: Sequence[str] | None = None,
             progress: Callable[[int], None] | None = None,
             on_game: Callable[[int, State], None] | None = None) -> Summary:
    names = resolve_agents(rs, agents)
    summary = Summary(rs.identity, n, seed, names)
    start = time.perf_counter()
    for i in range(n):
        st, moves = play_game(rs, game_seed(seed, i), names)
        summary.add(st, moves)
        if on_game is not None:
            on_game(i, st)
        if progress is not None:
            progress(1)
    summary.seconds = time.perf_counter() - start
    return summary
