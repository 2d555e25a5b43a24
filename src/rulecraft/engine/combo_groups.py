"""The ``groups`` combination kind: pieces in groups that each share a value, of given sizes.

``shape: [3, 2]`` with ``by: rank`` is three pieces of one rank and two of another (a full house);
``[4, 1]`` four of a kind and any other piece; ``[2, 2]`` two pairs. Each group has a different
value of ``by``. A play's ``top`` is the first group's value (the three of a full house), ``bottom``
the second's. (``same`` is the one-group case.)
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Iterator, Sequence
from typing import Any

from rulecraft.engine.pieces import PieceTable


def group_plays(by: str, shape: Sequence[int], hand: Sequence[int],
                pieces: PieceTable) -> Iterator[tuple[tuple[int, ...], Any, Any]]:
    """(pieces, first group's value, second group's value) for each way to make ``shape`` from ``hand``."""
    col = pieces.columns.get(by, [])
    groups: dict[Any, list[int]] = defaultdict(list)
    for p in hand:
        if col[p] is not None:
            groups[col[p]].append(p)
    values = sorted(groups, key=repr)

    # The recursion goes through an argument: a closure naming itself would be a reference cycle,
    # left (with the hand's groups) for the cyclic garbage collector after every call.
    def rec(i: int, used: tuple[Any, ...], rec: Any) -> Iterator[tuple[tuple[Any, ...], tuple[int, ...]]]:
        if i == len(shape):
            yield used, ()
            return
        for v in values:
            if v in used or len(groups[v]) < shape[i]:
                continue
            # Two groups of the same size are one play whichever is taken first: keep their values in order.
            if i > 0 and shape[i] == shape[i - 1] and repr(v) < repr(used[-1]):
                continue
            for ps in itertools.combinations(groups[v], shape[i]):
                for vals, rest in rec(i + 1, (*used, v), rec):
                    yield vals, tuple(ps) + rest

    for vals, ps in rec(0, (), rec):
        yield ps, vals[0], vals[1] if len(vals) > 1 else None
