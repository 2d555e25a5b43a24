"""The default agent: plausible play in any ruleset, cheaply, from rule-agnostic heuristics and short playouts.

``default`` (or ``default:N``) plays each decision by the kind of the phase that asks it:

* a trick round: the heuristic of ``agents.policy`` (win cheaply when it counts, give the weakest play
  otherwise), knowing which pieces are worth taking or giving away (``agents.piece_values``: learnt
  from the rules by random play, once per ruleset); whether to *stop* play, where the rules allow it,
  by a one-ply search;
* an auction: a one-ply search over passing, the lowest bid allowed and the named calls. Each is
  tried in N sampled worlds (determinizations from the seat's own knowledge) and played to the end of
  the hand by the heuristics, everyone else passing: a bid is made only when the hand, played out,
  is expected to do better with it than without — the seat does not bid beyond what its hand supports,
  and raises one step at a time. Beside what its pieces are worth one by one, a bid is weighed by what the
  rules count about the hand before play (``agents.preplay``: a meld, say), as learnt from the same playouts;
* a climbing round: the heuristic of ``agents.policy`` (``climb_move``), no search;
* a shedding round: the heuristic of ``agents.policy`` (``shed_move``: never draw while able to play, shed
  first the pieces least often playable, learnt by ``agents.playability``, and keep open the most of the
  hand), no search; a value a play makes its player name: the one it holds most of;
* naming a value (trump): the value of a piece attribute it holds most of, else a one-ply search;
* an exchange: its weakest piece of its shortest group, of the weaker half of its hand by what each piece is
  worth to a hand (learnt by ``agents.decision_values``: the best pieces are kept, whatever void giving them
  would make);
* passing pieces on (``give``) before a climbing round: the piece least worth holding there (``give_move``:
  the lowest by the round's own strengths, breaking no larger play where it can), no search;
* a claims round: the bluffer's play (true claims of the value it holds most of, honestly sized;
  challenges of claims that cannot be true);
* anything else: a one-ply search over at most 8 candidate moves.

N (default 6) is the number of sampled worlds per searched decision. The agent's RNG is seeded from the
game seed and its seat, so a game replays identically.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from rulecraft.agents.base import agent_rng, register
from rulecraft.agents.bluffer import Bluffer
from rulecraft.agents.candidates import candidate_moves
from rulecraft.agents.decision_values import Search, decision_values, label, sensible, standing
from rulecraft.agents.inference import Learner
from rulecraft.agents.piece_values import piece_values
from rulecraft.agents.playability import playability
from rulecraft.agents.policy import (
    KIND_MOVES,
    SHED_VERBS,
    choose_by_holding,
    exchange_move,
    give_move,
    kind_move,
    phase_kind,
    playout_move,
    shed_move,
    trick_move,
    weighed_moves,
)
from rulecraft.agents.preplay import preplay
from rulecraft.agents.rollout import one_ply
from rulecraft.errors import UsageError, clip

if TYPE_CHECKING:
    from rulecraft.engine.moves import Move
    from rulecraft.engine.state import State

WORLDS = 6
MAX_WORLDS = 1_000  # a bound on default:N, far past what a decision needs, so a huge N is refused, not played
DEPTH = 400  # moves per playout before it is cut (a hand of most games ends well before)
OTHER_CANDIDATES = 8  # candidates searched by playouts, at most
LEARNT_CANDIDATES = 24  # candidates weighed by learnt values, at most (a sample of the legal moves beyond)
SEARCH_MOVES = 1_000  # moves played out per searched decision, at most (past the first sampled world)
PLAY = "<play>"  # the label of the heuristics' play set against stopping


class DefaultAgent:
    name = "default"

    def __init__(self, seed: int, seat: int, worlds: int = WORLDS) -> None:
        self.rng = agent_rng(seed, seat, "default")
        self.counting_rng = agent_rng(seed, seat, "preplay")  # its own stream: play elsewhere is not moved by it
        self.worlds = worlds
        self.bluffer = Bluffer(seed, seat)
        self.playouts = 0  # playouts made so far (for tests and benchmarks: counted, not timed)
        self.learner = Learner()

    def choose(self, state: State, seat: int) -> Move:
        legal = state.legal_moves()
        if len(legal) == 1:
            return legal[0]
        if phase_kind(state) == "claims":
            return self.bluffer.choose(state, seat)
        if phase_kind(state) == "exchange":
            return exchange_move(state, seat, legal, self.rng, decision_values(state, plan).strength)
        chosen = plan(state, seat, legal, self.rng)
        if not isinstance(chosen, Search):
            return chosen
        if len(chosen.cands) == 1:
            return chosen.cands[0]
        values = decision_values(state, plan)
        pre = preplay(state, seat, chosen.cands, self.counting_rng, sensible(plan, values)) \
            if values.weighs_counts else ()
        known = values.best(chosen, state.hand(seat), standing(state), pre)
        if known is not None:
            return known
        return self._search(state, seat, chosen.cands)

    def _search(self, state: State, seat: int, cands: list[Move]) -> Move:
        """The best of ``cands`` by playouts, within a budget of ``SEARCH_MOVES`` moves played out."""
        if len(cands) > OTHER_CANDIDATES:
            cands = candidate_moves(state, seat, cands, self.rng, OTHER_CANDIDATES)
        if len(cands) == 1:
            return cands[0]
        move, made = one_ply(state, seat, cands, self.rng, self.worlds, DEPTH, learner=self.learner,
                             budget=SEARCH_MOVES)
        self.playouts += made
        return move


def plan(state: State, seat: int, legal: Sequence[Move], rng: random.Random) -> Move | Search:
    """The default's move by its heuristics, or the decision to search (see the module docstring). The
    learning of ``agents.decision_values`` plays its hands by this too."""
    kind = phase_kind(state)
    if kind == "claims":  # (the agent's bluffer plays these; in learning hands, the playouts' claims)
        return playout_move(state, rng)
    if kind == "tricks":
        weighed = weighed_moves(state, seat, legal, rng)  # (all, unless they are thousands)
        plays = [m for m in weighed if m.verb != "stop"]
        turn = state.playing_for if state.playing_for is not None else seat  # (a dummy's hand: its pieces)
        best = trick_move(state, turn, plays, rng, piece_values(state))
        if len(plays) == len(weighed):
            return best
        stops = [m for m in weighed if m.verb == "stop"]
        return Search([best, *stops], [label(state, seat, best, PLAY), *(label(state, seat, m) for m in stops)])
    if kind == "auction":
        # The pass, the lowest bid (an auction lists its bids in their order: a bid is the move with a
        # value that is not a named call) and every other call (named calls, holds, doubles).
        bids = [m for m in legal if m.value and m.verb != "call"]
        cands = [m for m in legal if m.verb == "pass"]
        if bids:
            cands.append(bids[0])
        cands.extend(m for m in legal if m.verb != "pass" and not (m.value and m.verb != "call"))
        return _searched(state, seat, cands)
    if kind in KIND_MOVES:
        chosen = kind_move(state, seat, legal, rng, kind)
        if chosen is not None:
            return chosen
    elif kind == "each_seat":
        given = give_move(state, seat, legal, rng)
        if given is not None:
            return given
    elif kind == "shed":
        if any(m.verb in SHED_VERBS for m in legal):
            return shed_move(state, seat, legal, rng, playability(state))
        chosen = choose_by_holding(state, seat, legal)  # a play that asks its player to name a value
        if chosen is not None:
            return chosen
    if len(legal) > LEARNT_CANDIDATES:
        return _searched(state, seat, candidate_moves(state, seat, legal, rng, LEARNT_CANDIDATES))
    return _searched(state, seat, list(legal))


def _searched(state: State, seat: int, cands: list[Move]) -> Search:
    return Search(cands, [label(state, seat, m) for m in cands])


@register("default")
def _default(seed: int, seat: int, arg: str) -> DefaultAgent:
    if not arg:
        return DefaultAgent(seed, seat)
    try:
        worlds = int(arg)
    except ValueError:
        worlds = 0
    if worlds < 1:
        raise UsageError(f"the default agent's argument is the number of sampled worlds per searched decision "
                         f"(a whole number, 1 or more), not '{clip(arg)}'")
    if worlds > MAX_WORLDS:
        raise UsageError(f"agent 'default:{clip(arg)}' asks for {worlds:,} sampled worlds per searched decision; "
                         f"the limit is {MAX_WORLDS:,}")
    return DefaultAgent(seed, seat, worlds)
