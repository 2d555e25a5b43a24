"""How a searching agent expects an open claim to have been made: truthfully as often as that claimant's
claims turned out true when challenged.

A determinization deals the pieces under another seat's claim at random from the pieces the searching
seat cannot see, so in almost every sampled world the claim is a lie, and a search then challenges
nearly every claim: it loses to anyone who tells the truth, and a table of such searchers passes the
pile back and forth for thousands of moves. So, in each sampled world, the open claim (the one a seat
may still challenge, ``challengeable`` in the phase's public view) is made true with probability
``truth``: the pieces under it that do not have the claimed value are exchanged with hidden pieces of
that value drawn at random from wherever hidden pieces lie in that world (another hand, the claimant's
own, a face-down pile), each only where what the seat has learnt allows it (``fits``). Both pieces of
an exchange are hidden from the searching seat, so nothing it knows moves; when too few hidden pieces
of the value exist, the claim could not be true and stays the lie it was drawn as. (Drawing the true
pieces only from the claimant's sampled hand, as before, made a claim of several pieces true in few
worlds whatever the claimant's record: its sampled hand rarely held that many more of the value.)
``truth`` is learnt from the public record of the hand: (true + 1) / (revealed + 2) over the
claimant's challenged claims, so it falls towards zero against a seat that claims at random and rises
against an honest one. A search draws whether the claim is true in each of its worlds from
``spread_draws``: one random start, then steps of the golden ratio, so over a decision's few worlds the
share in which the claim is true stays close to ``truth`` (independent draws over five worlds, an mc:10
answer's, made a claim believed true six times in ten a lie in three or more of them a third of the time,
and the answer followed that luck).

Everything read is public (the phase's public view) or the sampled world itself: nothing hidden in
the real state is consulted.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rulecraft.engine.determinize import exchange, hidden_pieces

if TYPE_CHECKING:
    from rulecraft.agents.inference import Fits
    from rulecraft.engine.state import State


GOLDEN = (math.sqrt(5) - 1) / 2


def spread_draws(rng: random.Random) -> Iterator[float]:
    """Evenly spread draws in [0, 1) for ``make_plausible`` over one decision's worlds (module docstring)."""
    start = rng.random()
    k = 0
    while True:
        yield (start + k * GOLDEN) % 1.0
        k += 1


@dataclass(frozen=True, slots=True)
class OpenClaim:
    claimant: int
    value: str
    column: list[Any]  # the claimed attribute, by piece
    truth: float  # how likely the claimant told the truth when it could
    hidden: frozenset[int]  # the pieces the searching seat cannot account for
    of_value: tuple[int, ...] = ()  # those of them with the claimed value, in piece order


def open_claim(state: State, seat: int) -> OpenClaim | None:
    """The claim another seat made that ``seat`` may still challenge, with what is expected of it (or None)."""
    if state.is_over or state.pidx >= len(state.rs.phases):
        return None
    public: dict[str, Any] = state.rs.phases[state.pidx].public_view(state) or {}
    claim, attribute = public.get("challengeable"), public.get("attribute")
    if not isinstance(claim, dict) or attribute not in state.rs.pieces.columns or claim.get("seat") in (None, seat):
        return None
    claimant = int(claim["seat"])
    revealed = [r for r in public.get("reveals", ()) if r.get("claimant") == claimant]
    true = sum(1 for r in revealed if not r.get("lie"))
    column, value = state.rs.pieces.columns[attribute], str(claim["value"])
    hidden = hidden_pieces(state, seat)
    return OpenClaim(claimant, value, column, (true + 1) / (len(revealed) + 2), frozenset(hidden),
                     tuple(p for p in hidden if str(column[p]) == value))


def make_plausible(world: State, claim: OpenClaim, rng: random.Random, fits: Fits | None = None,
                   draw: float | None = None) -> None:
    """Make the open claim true in ``world`` with probability ``claim.truth``, if it can be (module docstring).

    ``draw``: the world's draw from ``spread_draws`` (default: a fresh one from ``rng``)."""
    if (rng.random() if draw is None else draw) >= claim.truth:
        return
    column, value, hidden = claim.column, claim.value, claim.hidden
    under = [p for p in getattr(world.pdata, "last_pieces", ()) if p in hidden]
    wrong = [p for p in under if str(column[p]) != value]
    if not wrong:
        return
    spare = [p for p in claim.of_value if p not in under]
    if len(spare) < len(wrong):
        return  # too few pieces of the value hidden: the claim cannot be true
    rng.shuffle(spare)
    pairs: list[tuple[int, int]] = []
    for a in wrong:
        for i, b in enumerate(spare):
            if fits is None or (fits(world.loc[b], a) and fits(world.loc[a], b)):
                pairs.append((a, spare.pop(i)))
                break
        else:
            return  # what the seat has learnt leaves no place for it: the claim stays as drawn
    for a, b in pairs:
        exchange(world, a, b)
