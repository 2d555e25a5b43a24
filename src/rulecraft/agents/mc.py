"""The Monte Carlo agent: determinized random playouts, for any ruleset, with no game knowledge.

``mc`` plays a decision by trying its moves in sampled worlds. Each *round* samples one
determinization of the state from the seat's own knowledge (``engine.determinize``: the pieces it
cannot see dealt again at random into their places), then, for every move still in the running,
applies the move to a copy of that world and plays on with uniformly random moves for every seat to
the end of the *hand* (the match is cut there, so no later deal is simulated). Every move of a
round sees the same world (common random numbers), which makes their comparison far less noisy.
Budget is spread by *sequential halving*: all candidates get a few playouts, the worse half is
dropped, and so on, so the budget goes to the moves that are close. The budget is a total: N
playouts per decision at most (a move in the running gets at least one per halving round, so a
decision considers at most N/2 moves), and the cost of a decision grows with N.

Playouts are scored as ``agents.rollout.outcome`` says: the seat's match score change over the
hand, minus its opponents'.

Spec: ``mc`` or ``mc:ARG[:ARG...]`` where an ARG is ``N`` (playouts per decision, default 40),
``Xs`` (seconds per decision at most; playouts stop at whichever limit comes first — a time limit
makes play depend on the machine, so reproducible runs use playouts alone), ``dN`` (moves per
playout before it is cut; by default 60, and in a claims phase one per seat: ``agents.rollout.playout_depth``),
``kN`` (moves considered at most per decision, default 16) or ``h`` (playouts by the default agent's
rule-agnostic heuristics, ``agents.policy``, instead of random moves: slower playouts that judge a bid
or a lead as plausible play would; from a claims turn playouts follow them always, ``rollout.playout_policy``).
The agent's RNG is seeded from the game seed and its seat, so a game replays identically.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rulecraft.agents.base import agent_rng, register
from rulecraft.agents.candidates import candidate_moves
from rulecraft.agents.claim_truth import open_claim, spread_draws
from rulecraft.agents.inference import Learner
from rulecraft.agents.rollout import Policy, outcome, play_out, playout_depth, playout_policy, sample_world
from rulecraft.engine.standings import match_scores
from rulecraft.errors import UsageError, clip

if TYPE_CHECKING:
    from rulecraft.engine.moves import Move
    from rulecraft.engine.state import State


@dataclass(frozen=True, slots=True)
class Budget:
    playouts: int = 40
    seconds: float | None = None
    depth: int | None = None  # None: as the phase kind asks (agents.rollout.playout_depth)
    candidates: int = 16
    heuristic: bool = False  # playouts by the default agent's heuristics (agents.policy) instead of at random


class MCAgent:
    name = "mc"

    def __init__(self, seed: int, seat: int, budget: Budget | None = None) -> None:
        self.rng = agent_rng(seed, seat, "mc")
        self.budget = budget or Budget()
        self.playouts = 0  # playouts made so far (for tests and benchmarks: counted, not timed)
        self.learner = Learner()

    def choose(self, state: State, seat: int) -> Move:
        legal = state.legal_moves()
        if len(legal) == 1:
            return legal[0]
        # Fewer moves than the budget can try twice each would leave some untried: consider at most
        # half as many moves as there are playouts, so the cost grows with the budget.
        cap = min(self.budget.candidates, max(2, self.budget.playouts // 2))
        cands = candidate_moves(state, seat, legal, self.rng, cap)
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
        used = 0
        depth = playout_depth(state, b.depth)
        policy = playout_policy(state, b.heuristic)
        fits = self.learner.fits(state, seat, self.rng)
        claim = open_claim(state, seat)
        draws = spread_draws(self.rng) if claim is not None else None
        for phase in range(phases):
            # This phase's share of what is left of the budget, spread over the moves still in the
            # running; a move that is still in gets at least one more playout.
            rounds = max(1, (b.playouts - used) // (len(alive) * (phases - phase)))
            for _ in range(rounds):
                world = sample_world(state, seat, self.rng, fits, claim, None if draws is None else next(draws))
                for i in alive:
                    totals[i] += self._playout(world, cands[i], seat, base, depth, policy)
                    counts[i] += 1
                used += len(alive)
                if deadline is not None and time.perf_counter() > deadline:
                    break
            if deadline is not None and time.perf_counter() > deadline:
                break
            if phase < phases - 1:
                alive.sort(key=lambda i: (-totals[i] / counts[i], i))
                alive = sorted(alive[:max(1, (len(alive) + 1) // 2)])
        self.playouts += used
        best = max(alive, key=lambda i: (totals[i] / counts[i], -i))
        return cands[best]

    def _playout(self, world: State, move: Move, seat: int, base: list[float], depth: int, policy: Policy) -> float:
        st = world.clone()
        st.apply(move)
        play_out(st, self.rng, depth, policy)
        return outcome(st, seat, base)


# Bounds of a budget: a spec past them is refused (a usage error naming the spec and the bound) rather than
# accepted and played until stopped. Each is far beyond what a decision needs (the bundled benchmarks use
# mc:10 to mc:200) and keeps one decision to minutes at most.
MAX_PLAYOUTS = 100_000  # playouts (ismcts: iterations) per decision
MAX_SECONDS = 3600.0  # seconds per decision
MAX_DEPTH = 10_000  # moves per playout
MAX_CANDIDATES = 1_000  # moves considered per decision


def parse_budget(arg: str, agent: str = "mc") -> Budget:
    """``"200"``, ``"200:0.5s"``, ``"0.5s"``, ``"100:d40:k24"`` → a Budget (UsageError when malformed or past
    a bound, naming ``agent``, the agent whose argument it is)."""
    fields: dict[str, float | int | None] = {}
    count = "iterations" if agent == "ismcts" else "playouts"
    for raw in (a.strip() for a in arg.split(":")):
        if not raw:
            continue
        if raw == "h":
            fields["heuristic"] = True
            continue
        try:
            if raw.endswith("s"):
                key, value, bound, what = "seconds", float(raw[:-1]), MAX_SECONDS, "seconds per decision"
            elif raw[0] in "dk":
                key = "depth" if raw[0] == "d" else "candidates"
                value = int(raw[1:])
                bound, what = ((MAX_DEPTH, "moves per playout") if key == "depth" else
                               (MAX_CANDIDATES, "moves considered per decision"))
            else:
                key, value, bound, what = "playouts", int(raw), MAX_PLAYOUTS, f"{count} per decision"
            ok = value > 0  # (false for NaN)
        except ValueError:
            ok = False
        if not ok:
            a = agent
            raise UsageError(f"bad {a} argument '{clip(raw)}': use {count} ({a}:200), seconds ({a}:0.5s), "
                             f"playout depth ({a}:d80), moves considered ({a}:k16) or heuristic playouts ({a}:h), "
                             "joined by ':'")
        if not value <= bound:  # (true for infinity)
            spec, amount = clip(f"{agent}:{arg}"), clip(_amount(value))
            raise UsageError(f"agent '{spec}': '{clip(raw)}' asks for {amount} {what}; the limit is {_amount(bound)}")
        fields[key] = value
    return Budget(**fields)  # type: ignore[arg-type]


def _amount(value: float) -> str:
    return f"{value:,}" if isinstance(value, int) else f"{value:g}"


@register("mc")
def _mc(seed: int, seat: int, arg: str) -> MCAgent:
    return MCAgent(seed, seat, parse_budget(arg))
