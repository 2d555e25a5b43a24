"""Face-down sets offered lazily (``WithFaceDown``) are exactly the moves a listed decision offers.

A follow that may go face down offers every distinct set of as many pieces as were led; past a few
sets the decision hands them out through a sequence that makes each set's move only when read. Seeded
random games of the bundled rulesets with face-down follows are played; at every such decision the
same decision is made again on a clone with every set listed outright: the two must be the same
moves in the same order, with the same answers to ``in`` and ``index``, and the same state after the
chosen move. (The order is what keeps seeded games the same game.)
"""

from __future__ import annotations

import itertools
import random
from types import SimpleNamespace

import pytest

from rulecraft.engine.combos import FaceDownPlays, _distinct_sets
from rulecraft.engine.game import Game
from rulecraft.engine.moves import Move
from rulecraft.engine.phases import tricks
from rulecraft.engine.phases.tricks import TrickData, WithFaceDown
from rulecraft.load import load_ruleset


def _listed(st: object, monkeypatch: pytest.MonkeyPatch) -> list[Move]:
    """The decision's moves made again on a clone, every face-down set listed outright."""
    twin = st.clone()  # type: ignore[attr-defined]
    twin.pdata.options = None
    twin._legal_cache = None
    with monkeypatch.context() as m:
        m.setattr(tricks, "FEW_SETS", 10**9)
        moves = twin.legal_moves()
    assert isinstance(moves, list)
    return moves


@pytest.mark.parametrize("ref", ["luk-fu", "tien-gow", "tien-gow/bunmu-son"])
def test_lazy_face_down_sets_are_the_listed_moves(ref: str, monkeypatch: pytest.MonkeyPatch) -> None:
    rs = load_ruleset(ref)
    rng = random.Random(11)
    lazy_seen = 0
    for seed in range(12):
        st = Game(rs, seed, 2).new_state()
        while not st.is_over:
            legal = st.legal_moves()
            if isinstance(legal, WithFaceDown):
                lazy_seen += 1
                listed = _listed(st, monkeypatch)
                assert len(legal) == len(listed)
                assert list(legal) == listed and legal == listed
                for i, move in enumerate(listed):
                    assert legal[i] == move and legal[i - len(listed)] == move
                    assert move in legal and legal.index(move) == i
                # sets that are not offered: other pieces, or one piece fewer than led
                d: TrickData = st.pdata
                k = len(d.plays[0].pieces)
                others = sorted(p for s in range(rs.seats.count) if s != st.to_act for p in st.hand(s))
                for ps in itertools.islice(itertools.combinations(others, k), 5):
                    assert rs.moves.get("down", ps) not in legal
                if k > 1:
                    assert rs.moves.get("down", legal[-1].pieces[1:]) not in legal
                with pytest.raises(IndexError):
                    legal[len(legal)]
            st.apply(legal[rng.randrange(len(legal))])
    assert lazy_seen > 20  # the games did reach decisions with many face-down sets


def _first_of_each(ordered: list[int], type_of: list[int], size: int) -> list[tuple[int, ...]]:
    seen: set[tuple[int, ...]] = set()
    out = []
    for ps in itertools.combinations(ordered, size):
        key = tuple(sorted(type_of[p] for p in ps))
        if key not in seen:
            seen.add(key)
            out.append(ps)
    return out


def test_distinct_sets_are_the_first_of_each_set_of_types_in_order() -> None:
    rng = random.Random(5)
    for _ in range(400):
        kinds = rng.randint(1, 10)
        type_of = [rng.randrange(kinds) for _ in range(rng.randint(1, 24))]
        hand = sorted(rng.sample(range(len(type_of)), rng.randint(0, min(10, len(type_of)))))
        for size in range(len(hand) + 2):
            assert _distinct_sets(hand, type_of, size) == _first_of_each(hand, type_of, size), (hand, size)


def test_face_down_sets_of_a_hand_in_any_order_are_the_first_of_each_set_of_types() -> None:
    # FaceDownPlays.sets takes single pieces (the most common follow) without building combinations.
    rng = random.Random(6)
    for _ in range(300):
        kinds = rng.randint(1, 10)
        type_of = [rng.randrange(kinds) for _ in range(rng.randint(1, 24))]
        down = FaceDownPlays(SimpleNamespace(type_of=type_of))  # type: ignore[arg-type]
        hand = rng.sample(range(len(type_of)), rng.randint(0, min(10, len(type_of))))
        for size in range(1, len(hand) + 1):
            assert down.sets(hand, size) == _first_of_each(sorted(hand), type_of, size), (hand, size)
