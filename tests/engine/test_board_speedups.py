"""The board's faster forms of chance and dealing give exactly what the plain forms give.

A seeded game must be the same game byte for byte, so the inline shuffle must draw what
``random.Random.shuffle`` draws, and a deal moved by destination groups must leave every piece
where moving them one by one leaves it.
"""

from __future__ import annotations

import random

import pytest
from support import ruleset

from rulecraft.engine import board
from rulecraft.engine.board import grouped_targets, shuffle
from rulecraft.engine.game import Game


@pytest.mark.parametrize("size", [0, 1, 2, 3, 7, 41, 52, 136, 300])
@pytest.mark.parametrize("how", ["shuffle", "inline loop"])
def test_the_shuffle_draws_what_random_shuffle_draws(size: int, how: str) -> None:
    if how == "inline loop" and not board._INLINE_OK:
        pytest.skip("this Python's Random.shuffle is not the one the inline loop copies (shuffle uses it)")
    ours_shuffle = shuffle if how == "shuffle" else board._shuffle_inline
    for seed in range(40):
        ours, theirs = random.Random(seed), random.Random(seed)
        a, b = list(range(size)), list(range(size))
        ours_shuffle(ours, a)
        theirs.shuffle(b)
        assert a == b
        assert ours.getstate() == theirs.getstate()  # what is drawn afterwards is the same too


def test_a_generator_of_another_class_is_shuffled_by_its_own_method() -> None:
    class Reversing(random.Random):
        def shuffle(self, x: list[int]) -> None:  # type: ignore[override]
            x.reverse()

    x = [1, 2, 3]
    shuffle(Reversing(1), x)
    assert x == [3, 2, 1]


def _one_by_one(st: board.Board, src: int, targets: list[tuple[int, bool]]) -> None:
    for zi, down in targets:
        st.put(st.zones[src][0], zi, face_down=down)


def test_a_grouped_deal_puts_every_piece_where_one_by_one_puts_it() -> None:
    rs = ruleset("rook")
    grouped, single = Game(rs, 4).new_state(), Game(rs, 4).new_state()
    deck = rs.zone_by_name["deck"].instance(None)
    trick = rs.zone_by_name["trick"].instance(None)  # public: face-up pieces there are seen by all
    for st in (grouped, single):  # every piece back on the deck, in one order, face down, unseen
        for z in st.zones:
            z.clear()
        st.zones[deck].extend(range(rs.pieces.count))
        st.loc = [deck] * rs.pieces.count
        st.face_down = bytearray([1]) * rs.pieces.count
        st.seen_public = bytearray(rs.pieces.count)
    hands = [rs.hand_base + s for s in range(4)]
    targets = [(hands[i % 4], False) for i in range(12)] + [(trick, False), (trick, True), (hands[1], True)]
    grouped.put_from_top(deck, targets)
    _one_by_one(single, deck, targets)
    assert grouped.zones == single.zones
    assert grouped.loc == single.loc
    assert grouped.face_down == single.face_down
    assert grouped.seen_public == single.seen_public
    assert grouped_targets([(5, False), (6, True), (5, False)]) == [(5, False, (0, 2)), (6, True, (1,))]
