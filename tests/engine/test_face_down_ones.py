"""One-piece face-down plays made directly (``FaceDownPlays.ones``) are the sets a follow offers.

``ones`` takes the lowest copy of each type, in order, as ``sets(hand, 1)`` does; where the copies of
a type are consecutive pieces (every bundled deck) it tells types apart by the one before, else it
remembers the types it has met. Both ways must give the plays of ``sets``, the same objects in the
same order, for any hand.
"""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from rulecraft.engine.combos import FaceDownPlays


@pytest.mark.parametrize("together", [True, False])
def test_ones_are_the_plays_of_the_one_piece_sets(together: bool) -> None:
    rng = random.Random(11)
    type_of = [t for t in range(12) for _ in range(rng.randint(1, 3))]
    if not together:
        rng.shuffle(type_of)
    down = FaceDownPlays(SimpleNamespace(type_of=type_of))  # type: ignore[arg-type]
    assert down._runs is together
    compared = 0
    for _ in range(300):
        hand = rng.sample(range(len(type_of)), rng.randint(0, len(type_of)))
        expected = down.plays(down.sets(hand, 1))
        got = down.ones(hand)
        assert [p.pieces for p in got] == [p.pieces for p in expected]
        assert all(a is b for a, b in zip(got, expected, strict=True))
        compared += len(got)
    assert compared > 1000
