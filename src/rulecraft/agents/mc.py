"""The Monte Carlo agent: determinized random playouts, for any ruleset, with no game knowledge.

``mc`` plays a decision by trying its moves in sampled worlds. Each *round* samples one
determinization of the state from the seat's own knowledge (``engine.determinize``: the pieces it
cannot see dealt again at random into their places), then, for every move still in the running,
applies the move to a copy of that world and plays on with uniformly random moves for every seat to
the end of the *hand* (the match is cut there, so no later deal is simulated). Every move of a
round sees the same world (common random numbers), which makes their comparison far less noisy.
Budget is spread by *sequential halving*: all candidates get a few playouts, the worse half is
dropped, and so on, so the budget goes to the moves that are close.

A playout is scored for the seat as its match score change minus the mean change of the seats not
on its team (the match ``score`` expression at the end of the hand, relative to the decision): that
is the hand's points for trick games, its chips for payment games and its finishing place for
shedding games, with nothing game-specific. A playout cut short by the depth limit before its hand
ends (shedding games can run for thousands of moves) is scored by the one generic signal left: how
many fewer pieces the seat holds than its opponents.

Spec: ``mc`` or ``mc:ARG[:ARG...]`` where an ARG is ``N`` (playouts per decision, default 40),
``Xs`` (seconds per decision at most; playouts stop at whichever limit comes first — a time limit
makes play depend on the machine, so reproducible runs use playouts alone), ``dN`` (moves per
playout before it is cut, default 60) or ``kN`` (moves considered at most per decision, default 16).
The agent's RNG is seeded from the game seed and its seat, so a game replays identically.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rulecraft.agents.base import agent_rng, register
from rulecraft.agents.candidates import candidate_moves
from rulecraft.engine.determinize import determinize
from rulecraft.engine.standings import match_scores
from rulecraft.errors import UsageError

if TYPE_CHECKING:
    from rulecraft.engine.moves import Move
    from rulecraft.engine.state import State


@dataclass(frozen=True, slots=True)
class Budget:
    playouts: int = 40
    seconds: float | None = None
    depth: int = 60
    candidates: int = 16


class MCAgent:
    name = "mc"

    def __init__(self, seed: int, seat: int, budget: Budget | None = None) -> None:
        self.rng = agent_rng(seed, seat, "mc")
        self.budget = budget or Budget()

    def choose(self, state: State, seat: int) -> Move:
        legal = state.legal_moves()
        if len(legal) == 1:
            return legal[0]
        cands = candidate_moves(state, seat, legal, self.rng, self.budget.candidates)
        if len(cands) == 1:
            return cands[0]
        return self._search(state, seat, cands)

    # ------------------------------------------------------------------ search
    def _search(self, state: State, seat: int, cands: list[Move]) -> Move:
        b = self.budget
        deadline = None if b.seconds is None else time.perf_counter() + b.seconds
        base = match_scores(state)
        totals = [0.0] * len(cands)
        counts = [0] * len(cands)
        alive = list(range(len(cands)))
        phases = max(1, math.ceil(math.log2(len(cands))))
        for phase in range(phases):
            rounds = max(1, b.playouts // (len(alive) * phases))
            for _ in range(rounds):
                world = determinize(state, seat, self.rng)
                world.hand_limit = world.hand_no  # the playout ends with this hand
                world.legal_moves()  # computed once, shared by every copy
                for i in alive:
                    totals[i] += self._playout(world, cands[i], seat, base)
                    counts[i] += 1
                if deadline is not None and time.perf_counter() > deadline:
                    break
            if deadline is not None and time.perf_counter() > deadline:
                break
            if phase < phases - 1:
                alive.sort(key=lambda i: (-totals[i] / counts[i], i))
                alive = sorted(alive[:max(1, (len(alive) + 1) // 2)])
        best = max(alive, key=lambda i: (totals[i] / counts[i], -i))
        return cands[best]

    def _playout(self, world: State, move: Move, seat: int, base: list[float]) -> float:
        st = world.clone()
        st.apply(move)
        rng = self.rng
        for _ in range(self.budget.depth):
            if st.is_over:
                break
            moves = st.legal_moves()
            if not moves:  # rules that leave a seat nothing to do: the game loop reports it, not the search
                break
            st.apply(moves[rng.randrange(len(moves))])
        return outcome(st, seat, base)


def opponents(st: State, seat: int) -> list[int]:
    team = st.rs.seats.team_of
    return [s for s in range(st.rs.seats.count) if team[s] != team[seat]]


def outcome(st: State, seat: int, base: list[float]) -> float:
    """How well the playout went for ``seat`` (see the module docstring)."""
    opp = opponents(st, seat)
    if not opp:
        return 0.0
    if st.is_over:
        final = match_scores(st)
        delta = [f - b for f, b in zip(final, base, strict=True)]
        return delta[seat] - sum(delta[s] for s in opp) / len(opp)
    held = [len(st.hand(s)) for s in range(st.rs.seats.count)]
    return sum(held[s] for s in opp) / len(opp) - held[seat]


def parse_budget(arg: str) -> Budget:
    """``"200"``, ``"200:0.5s"``, ``"0.5s"``, ``"100:d40:k24"`` → a Budget (UsageError when malformed)."""
    fields: dict[str, float | int | None] = {}
    for raw in (a.strip() for a in arg.split(":")):
        if not raw:
            continue
        try:
            if raw.endswith("s"):
                fields["seconds"] = float(raw[:-1])
                ok = fields["seconds"] > 0  # type: ignore[operator]
            elif raw[0] in "dk":
                key = "depth" if raw[0] == "d" else "candidates"
                fields[key] = int(raw[1:])
                ok = fields[key] >= 1  # type: ignore[operator]
            else:
                fields["playouts"] = int(raw)
                ok = fields["playouts"] >= 1  # type: ignore[operator]
        except ValueError:
            ok = False
        if not ok:
            raise UsageError(f"bad mc argument '{raw}': use playouts (mc:200), seconds (mc:0.5s), "
                             f"playout depth (mc:d80) or moves considered (mc:k16), joined by ':'")
    return Budget(**fields)  # type: ignore[arg-type]


@register("mc")
def _mc(seed: int, seat: int, arg: str) -> MCAgent:
    return MCAgent(seed, seat, parse_budget(arg))
