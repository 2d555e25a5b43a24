"""A claim turn's r-th move is the same set whether the hand has identical copies or not.

Without copies ``ClaimMoves`` counts and unranks with binomial coefficients inline; with copies it
reads a table of multiset counts. A hand of distinct pieces read both ways must give every set in the
same order (the order is what keeps seeded games the same game), and each set exactly once.
"""

from __future__ import annotations

import math

from rulecraft.engine.phases.claims import ClaimMoves, multiset_table


def test_unranking_without_copies_matches_themultiset_table() -> None:
    moves = ClaimMoves.__new__(ClaimMoves)
    for m in range(13):
        moves._groups = [[100 + t] for t in range(m)]
        for k in range(m + 1):
            moves._ways = None
            inline = [moves._unrank(k, r) for r in range(math.comb(m, k))]
            moves._ways = multiset_table([1] * m, m)
            table = [moves._unrank(k, r) for r in range(math.comb(m, k))]
            assert inline == table, (m, k)
            assert len(set(inline)) == len(inline) and all(len(s) == k for s in inline)
