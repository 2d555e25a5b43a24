"""Information-set Monte Carlo tree search (single observer), for any ruleset, with no game knowledge.

``ismcts`` builds one tree over the moves of every seat, seen from the seat to act (Cowling, Powley
& Whitehouse 2012, SO-ISMCTS). Each *iteration* samples a determinization of the state from the
seat's own knowledge (``engine.determinize``), walks the tree from the root choosing, among the moves
legal *in that world*, by UCB1 with availability counts (a move's exploration term counts the
iterations in which it could have been chosen, not all of its parent's), adds one new node, plays on
to the end of the hand with uniformly random moves and credits the result to every node on the path,
each from the point of view of the seat that made that node's move. Moves are told apart by their
text, so a move that exists in many sampled worlds is one node. The decision is the root's most
visited move. Rewards are ``agents.rollout.outcome`` (match score change over the hand minus the
opponents'), scaled by the largest magnitude seen in the search so UCB's constant fits every game.

It reads the real state only to sample worlds (``determinize``, which depends on what the seat may
know and on the agent's RNG alone) and for the seat's own legal moves; everything else is read in a
sampled world.

Spec as for ``mc``: ``ismcts`` or ``ismcts:ARG[:ARG...]``, ARG ``N`` (iterations per decision, default
100), ``Xs`` (seconds per decision at most), ``dN`` (moves per playout, default as for ``mc``), ``kN`` (moves
considered at most at a node, default 16; a claims turn offers thousands), ``h`` (heuristic playouts).
"""

from __future__ import annotations

import math
import time
from typing import TYPE_CHECKING

from rulecraft.agents.base import agent_rng, register
from rulecraft.agents.candidates import candidate_moves
from rulecraft.agents.claim_truth import OpenClaim, open_claim, spread_draws
from rulecraft.agents.inference import Fits, Learner
from rulecraft.agents.mc import Budget, parse_budget
from rulecraft.agents.rollout import (
    Policy,
    opponents,
    play_out,
    playout_depth,
    playout_policy,
    random_move,
    sample_world,
)
from rulecraft.engine.standings import match_scores

if TYPE_CHECKING:
    from rulecraft.engine.moves import Move
    from rulecraft.engine.state import State

EXPLORE = 0.7  # UCB1's exploration constant, for rewards scaled to [-1, 1]
DEFAULT_ITERATIONS = 100


class Node:
    __slots__ = ("actor", "avail", "children", "total", "visits")

    def __init__(self, actor: int) -> None:
        self.actor = actor  # the seat whose move led here (the root's is the searching seat)
        self.children: dict[str, Node] = {}
        self.visits = 0
        self.avail = 0
        self.total = 0.0


class ISMCTSAgent:
    name = "ismcts"

    def __init__(self, seed: int, seat: int, budget: Budget | None = None) -> None:
        self.rng = agent_rng(seed, seat, "ismcts")
        self.budget = budget or Budget(playouts=DEFAULT_ITERATIONS)
        self.playouts = 0  # iterations (one playout each) made so far: counted, not timed
        self._policy: Policy = random_move  # the decision's playout policy (``rollout.playout_policy``)
        self.learner = Learner()

    def choose(self, state: State, seat: int) -> Move:
        legal = state.legal_moves()
        if len(legal) == 1:
            return legal[0]
        b = self.budget
        deadline = None if b.seconds is None else time.perf_counter() + b.seconds
        base = match_scores(state)
        root = Node(seat)
        scale = [1.0]
        fits = self.learner.fits(state, seat, self.rng)
        claim = open_claim(state, seat)
        depth = playout_depth(state, b.depth)
        self._policy = playout_policy(state, b.heuristic)
        draws = spread_draws(self.rng) if claim is not None else None
        for _ in range(b.playouts):
            self._iterate(state, seat, root, base, scale, fits, claim, depth, None if draws is None else next(draws))
            self.playouts += 1
            if deadline is not None and time.perf_counter() > deadline:
                break
        by_text = {m.text: m for m in candidate_moves(state, seat, legal, self.rng, b.candidates)}
        ranked = sorted(((c.visits, c.total / c.visits if c.visits else 0.0, text)
                         for text, c in root.children.items() if text in by_text), reverse=True)
        if ranked:
            return by_text[ranked[0][2]]
        return next(iter(by_text.values()))

    def _iterate(self, state: State, seat: int, root: Node, base: list[float], scale: list[float],
                 fits: Fits | None, claim: OpenClaim | None, depth: int, draw: float | None) -> None:
        rng = self.rng
        st = sample_world(state, seat, rng, fits, claim, draw)
        node = root
        path: list[Node] = []
        cap = self.budget.candidates
        while not st.is_over:
            moves = st.legal_moves()
            if not moves:
                break
            actor = st.to_act
            assert actor is not None
            cands = candidate_moves(st, actor, moves, rng, cap) if len(moves) > cap else moves
            children = node.children
            untried = []
            for m in cands:
                child = children.get(m.text)
                if child is None:
                    untried.append(m)
                else:
                    child.avail += 1
            if untried:
                move = untried[rng.randrange(len(untried))]
                child = children[move.text] = Node(actor)
                child.avail = 1
                st.apply(move)
                path.append(child)
                break
            s = scale[0]
            best_move, best_value = cands[0], -math.inf
            for m in cands:
                child = children[m.text]
                value = child.total / (child.visits * s) + EXPLORE * math.sqrt(math.log(child.avail) / child.visits)
                if value > best_value:
                    best_move, best_value = m, value
            st.apply(best_move)
            node = children[best_move.text]
            path.append(node)
        play_out(st, rng, depth, self._policy)
        rewards = outcomes(st, base)
        top = max(abs(r) for r in rewards)
        if top > scale[0]:
            scale[0] = top
        for n in path:
            n.visits += 1
            n.total += rewards[n.actor]


def outcomes(st: State, seat_count_base: list[float]) -> list[float]:
    """``agents.rollout.outcome`` for every seat at once (one evaluation of the match score)."""
    n = st.rs.seats.count
    if st.is_over:
        final = match_scores(st)
        delta = [f - b for f, b in zip(final, seat_count_base, strict=True)]
    else:
        delta = [-float(len(st.hand(s))) for s in range(n)]
    out = []
    for s in range(n):
        opp = opponents(st, s)
        out.append(delta[s] - sum(delta[o] for o in opp) / len(opp) if opp else 0.0)
    return out


@register("ismcts")
def _ismcts(seed: int, seat: int, arg: str) -> ISMCTSAgent:
    budget = parse_budget(arg, "ismcts")
    if not any(part.strip() and part.strip()[0].isdigit() and not part.strip().endswith("s")
               for part in arg.split(":")):
        budget = Budget(DEFAULT_ITERATIONS, budget.seconds, budget.depth, budget.candidates, budget.heuristic)
    return ISMCTSAgent(seed, seat, budget)
