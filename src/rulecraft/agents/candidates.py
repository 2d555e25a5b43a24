"""Which moves a search considers when a decision has too many to try them all.

A claims round offers every subset of the hand with every allowed value: thousands of moves, almost
all of them lies of random size. Searching a uniform sample would almost never try the plays that
matter, so for a phase whose public view names the piece attribute that moves claim (the claims kind
does) the candidates are the plays a person would weigh (``claim_candidates``): passing, the true
claims (every piece held of a value, the values held most first, and the fewest pieces a play may
have), a small lie (the fewest pieces, from the values held least), a true claim with one such piece
added, and then other small lies (a piece or two larger, or of other pieces). Only what is left of the
cap comes from a uniform sample of the legal moves, drawn from the agent's RNG, so the choice is
reproducible. ``plain_claims`` (passing and the claims made only of pieces that have the claimed value)
is what heuristic playouts claim.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rulecraft.engine.moves import Move
    from rulecraft.engine.state import State


def candidate_moves(st: State, seat: int, legal: Sequence[Move], rng: random.Random, cap: int) -> list[Move]:
    """At most ``cap`` distinct legal moves (all of them when there are no more than ``cap``)."""
    n = len(legal)
    if n <= cap:
        return list(legal)
    chosen: dict[str, Move] = {}
    for m in claim_candidates(st, seat, legal, rng):
        if len(chosen) >= cap:
            break
        chosen.setdefault(m.text, m)
    want = cap - len(chosen)
    for i in sorted(rng.sample(range(n), min(n, 2 * cap))):
        if want <= 0:
            break
        m = legal[i]
        if m.text not in chosen:
            chosen[m.text] = m
            want -= 1
    return list(chosen.values())


def claim_candidates(st: State, seat: int, legal: Sequence[Move], rng: random.Random) -> list[Move]:
    """The claims a person would weigh on a claims turn, most telling first (see the module docstring);
    [] for any other decision."""
    turn = _claims_turn(st, legal)
    if turn is None:
        return []
    find, public, attribute, values, counts = turn
    pieces = st.rs.pieces
    column = pieces.columns[attribute]
    lo, hi = max(1, int(counts[0])), int(counts[1])
    totals: dict[str, int] = public.get("totals") or {}
    over = bool(public.get("over_claims", True))
    hand = sorted(st.hand(seat), key=pieces.sort_key)
    by_value: dict[str, list[int]] = {}
    for p in hand:
        by_value.setdefault(str(column[p]), []).append(p)

    def most(value: str) -> int:  # the most pieces a claim of this value may have
        return hi if over else min(hi, int(totals.get(value, hi)))

    def claim(value: str, chosen: Sequence[int]) -> Move | None:
        if not lo <= len(chosen) <= most(value):
            return None
        return find("claim", str(value), [pieces.type_id(p) for p in chosen])  # type: ignore[no-any-return]

    allowed = [str(v) for v in values]
    held = sorted((v for v in allowed if by_value.get(v)), key=lambda v: -len(by_value[v]))
    # Filler for a lie: pieces of the values held least (the ones least likely to make a true claim later).
    spread = {v: len(ps) for v, ps in by_value.items()}
    filler = sorted(hand, key=lambda p: (spread[str(column[p])], rng.random()))
    lie_value = rng.choice([v for v in allowed if v not in by_value] or allowed)
    out: list[Move | None] = []
    if public.get("may_pass"):
        out.append(find("pass", "", []))
    top = held[0] if held else None
    if top is not None:
        out.append(claim(top, by_value[top][:most(top)]))
    lie = [p for p in filler if str(column[p]) != lie_value]
    out.append(claim(lie_value, lie[:lo]))
    if len(held) > 1:
        out.append(claim(held[1], by_value[held[1]][:most(held[1])]))
    if top is not None:
        extra = [p for p in filler if str(column[p]) != top][:1]
        out.append(claim(top, by_value[top][:most(top) - 1] + extra))
        out.append(claim(top, by_value[top][:lo]))
    out.extend(claim(v, by_value[v][:most(v)]) for v in held[2:])
    out.append(claim(lie_value, lie[:lo + 1]))
    out.append(claim(lie_value, lie[lo:2 * lo]))  # another small lie, of other pieces
    out.append(claim(lie_value, lie[:lo + 2]))
    return [m for m in out if m is not None]


def plain_claims(st: State, seat: int, legal: Sequence[Move]) -> list[Move]:
    """Passing, and claims made only of pieces that have the claimed value (see the module docstring)."""
    turn = _claims_turn(st, legal)
    if turn is None:
        return []
    find, _public, attribute, values, counts = turn
    out: list[Move] = []
    passing = find("pass", "", [])
    if passing is not None:
        out.append(passing)
    pieces = st.rs.pieces
    column = pieces.columns[attribute]
    hand = sorted(st.hand(seat), key=pieces.sort_key)
    lo, hi = int(counts[0]), int(counts[1])
    for value in values:
        mine = [p for p in hand if str(column[p]) == str(value)]
        for k in sorted({lo, min(hi, len(mine))}):
            if 1 <= k <= len(mine):
                m = find("claim", str(value), [pieces.type_id(p) for p in mine[:k]])
                if m is not None:
                    out.append(m)
    return out


def _claims_turn(st: State, legal: Sequence[Move]) -> tuple[Any, dict[str, Any], str, list[Any], list[Any]] | None:
    """On a claims turn: the move list's ``find``, the phase's public view, the claimed attribute, the values
    that may be claimed and the claim's size bounds; None for any other decision."""
    find = getattr(legal, "find", None)
    if find is None or st.is_over:
        return None
    public: dict[str, Any] = st.rs.phases[st.pidx].public_view(st) or {}
    attribute, values, counts = public.get("attribute"), public.get("may_claim"), public.get("counts")
    if not attribute or not values or not counts or attribute not in st.rs.pieces.columns:
        return None
    return find, public, str(attribute), list(values), list(counts)
