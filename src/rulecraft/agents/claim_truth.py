"""How a searching agent expects an open claim to have been made: truthfully when the claimant could, as
often as that claimant's claims turned out true when challenged.

A determinization deals the pieces under another seat's claim at random from the pieces the searching
seat cannot see, so in almost every sampled world the claim is a lie, and a search then challenges
nearly every claim: it loses to anyone who tells the truth, and a table of such searchers passes the
pile back and forth for thousands of moves. Seats that can tell the truth usually do. So, in each
sampled world, the open claim (the one a seat may still challenge, ``challengeable`` in the phase's
public view) is made true with probability ``truth`` when the claimant could have made it: the pieces
under it that do not have the claimed value are exchanged with pieces of that value from the
claimant's hand in that world (both hidden from the searching seat, so nothing it knows moves).
``truth`` is learnt from the public record of the hand: (true + 1) / (revealed + 2) over the
claimant's challenged claims, so it falls towards zero against a seat that claims at random and rises
against an honest one.

Everything read is public (the phase's public view) or the sampled world itself: nothing hidden in
the real state is consulted.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rulecraft.engine.determinize import exchange, hidden_pieces

if TYPE_CHECKING:
    from rulecraft.agents.inference import Fits
    from rulecraft.engine.state import State


@dataclass(frozen=True, slots=True)
class OpenClaim:
    claimant: int
    value: str
    column: list[Any]  # the claimed attribute, by piece
    truth: float  # how likely the claimant told the truth when it could
    hidden: frozenset[int]  # the pieces the searching seat cannot account for


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
    return OpenClaim(claimant, str(claim["value"]), state.rs.pieces.columns[attribute],
                     (true + 1) / (len(revealed) + 2), frozenset(hidden_pieces(state, seat)))


def make_plausible(world: State, claim: OpenClaim, rng: random.Random, fits: Fits | None = None) -> None:
    """Make the open claim true in ``world`` with probability ``claim.truth``, if the claimant could have."""
    if rng.random() >= claim.truth:
        return
    column, value, hidden = claim.column, claim.value, claim.hidden
    under = [p for p in getattr(world.pdata, "last_pieces", ()) if p in hidden]
    wrong = [p for p in under if str(column[p]) != value]
    if not wrong:
        return
    hand_zone = world.hand_instance(claim.claimant)
    spare = [p for p in world.hand(claim.claimant) if p in hidden and str(column[p]) == value]
    if len(spare) < len(wrong):
        return  # the claimant could not have told the truth: the claim stays the lie it was drawn as
    if fits is not None and not all(fits(hand_zone, p) for p in wrong):
        return
    for a, b in zip(wrong, spare, strict=False):
        exchange(world, a, b)
