"""Playing a claim about hidden state (Perudo's "seven 4s"): weigh each claim by the worlds a seat cannot
tell apart.

Where a claims phase judges a claim by an expression (``claim.truth``) rather than by the pieces put down,
nothing a seat holds says at once whether a claim is true; how likely it is depends on what the seat
cannot see. So the seat samples worlds it cannot tell from the real one (``engine.determinize``: other
seats' dice rolled again, hidden pieces dealt again) and counts in how many a claim would hold
(``Claims.would_hold``). Then, on its turn, it

* makes a named call (an exact count) that is right in most of its worlds;
* challenges the last claim when it holds in fewer than ``DOUBT`` of them, or when no claim it could
  make holds in as many worlds as the last claim fails in;
* otherwise claims the lowest value that holds in at least half its worlds (a bluffer, at its lying
  rate, one a step or two higher), or failing that the value most likely to hold.

Asked in a response window, it challenges a claim that holds in fewer than half its worlds. It reads
only what its seat may know: the sampled worlds are drawn from its own information.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from rulecraft.engine.determinize import determinize

if TYPE_CHECKING:
    from rulecraft.engine.moves import Move
    from rulecraft.engine.state import State

WORLDS = 16  # worlds sampled per decision
DOUBT = 0.35  # a claim holding in fewer of the worlds than this is challenged


def judged_by_expression(state: State) -> Any:
    """The claims phase in progress when its claims are judged by an expression, else None."""
    if state.is_over:
        return None
    phase = state.rs.phases[state.pidx]
    return phase if getattr(phase, "truth", None) is not None and phase.kind == "claims" else None


def choose(state: State, seat: int, rng: random.Random, lie_rate: float = 0.0) -> Move:
    """A move for ``seat`` in a claims phase whose claims are judged by an expression (module docstring)."""
    phase = judged_by_expression(state)
    assert phase is not None
    legal = list(state.legal_moves())
    worlds = [determinize(state, seat, rng) for _ in range(WORLDS)]
    d = state.pdata
    last, claimant = d.last_value, d.last_player

    def odds(value: str, who: int, call: str = "challenge") -> float:
        return float(sum(bool(phase.would_hold(w, value, who, call)) for w in worlds)) / len(worlds)

    by_text = {m.text: m for m in legal}
    for m in legal:
        if m.verb == "call" and last is not None and claimant is not None and odds(last, claimant, m.value) > 0.5:
            return m
    standing = odds(last, claimant) if last is not None and claimant is not None else 1.0
    challenge = by_text.get("challenge")
    claims = [m for m in legal if m.verb == "claim"]
    if challenge is not None and (standing < DOUBT or not claims):
        return challenge
    if not claims:
        return by_text.get("accept") or legal[rng.randrange(len(legal))]
    seen: dict[str, float] = {}
    likely = None
    for m in claims:
        if m.value not in seen:
            seen[m.value] = odds(m.value, seat)
            if seen[m.value] >= 0.5:
                likely = m
                break
    if likely is not None:
        if lie_rate and rng.random() < lie_rate:  # a bluff: a step or two beyond what it believes
            at = claims.index(likely)
            return claims[min(len(claims) - 1, at + rng.randint(1, 2))]
        return likely
    best = max(seen, key=lambda v: seen[v])
    if challenge is not None and 1.0 - standing >= seen[best]:
        return challenge
    return next(m for m in claims if m.value == best)


def respond(state: State, seat: int, rng: random.Random) -> Move:
    """In a response window: challenge a claim that holds in fewer than half the seat's worlds."""
    phase = judged_by_expression(state)
    assert phase is not None
    d = state.pdata
    worlds = [determinize(state, seat, rng) for _ in range(WORLDS)]
    held = sum(phase.would_hold(w, d.last_value, d.last_player) for w in worlds) / len(worlds)
    return state.parse_move("challenge" if held < 0.5 and any(m.verb == "challenge" for m in state.legal_moves())
                            else "accept")
