"""Which moves a search considers when a decision has too many to try them all.

A claims round offers every subset of the hand with every allowed value: thousands of moves, almost
all of them lies of random size. Searching a uniform sample would almost never try the plays that
matter, so the sample is completed by the *plain* plays of the decision: for a phase whose public view
names the piece attribute that moves claim (the claims kind does), the plays claiming a value with
only pieces that have it (the fewest and the most allowed), and passing. Everything else comes from a
uniform sample of the legal moves, drawn from the agent's RNG, so the choice is reproducible.
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
    for m in plain_claims(st, seat, legal):
        if len(chosen) >= cap // 2:
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


def plain_claims(st: State, seat: int, legal: Sequence[Move]) -> list[Move]:
    """Passing, and claims made only of pieces that have the claimed value (see the module docstring)."""
    find = getattr(legal, "find", None)
    if find is None or st.is_over:
        return []
    public: dict[str, Any] = st.rs.phases[st.pidx].public_view(st) or {}
    attribute, values, counts = public.get("attribute"), public.get("may_claim"), public.get("counts")
    if not attribute or not values or not counts or attribute not in st.rs.pieces.columns:
        return []
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
