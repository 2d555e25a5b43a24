"""Table combinations: an entry of one type per position is read straight off the hand.

``enumerate_plays`` takes the pieces of such an entry directly (``TableEntry.picks``) instead of
searching; an entry with alternatives is read off the hand once per way of choosing them
(``TableEntry.ways``, in the search's order). Over random hands of the bundled tables the plays must
be the ones a search of every entry finds, in the same order, with the same values.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from rulecraft.engine.combos import (
    TableEntry,
    _by_type,
    _held,
    _held_of,
    _pick_types,
    _type_key,
    enumerate_all,
    enumerate_plays,
)
from rulecraft.load import load_ruleset


def _searched(spec, hand, pieces, size):  # type: ignore[no-untyped-def]
    by_type = _by_type(hand, pieces)
    out, seen = [], set()
    for entry in spec.entries:
        if not any(t in by_type for t in entry.pattern[0]) or (size is not None and len(entry.pattern) != size):
            continue
        for ps in _pick_types(by_type, entry.pattern):
            key = _type_key(pieces, ps)
            if key not in seen:
                seen.add(key)
                out.append((ps, entry.id, entry.cls, entry.strength))
    return out


@pytest.mark.parametrize("ref", ["tien-gow", "tien-gow/bunmu-son"])
def test_table_plays_are_what_a_search_of_every_entry_finds(ref: str) -> None:
    rs = load_ruleset(ref)
    tables = [spec for spec in rs.combinations.values() if spec.kind == "table"]
    assert any(e.picks is not None for spec in tables for e in spec.entries)
    assert any(e.picks is None and e.ways is not None for spec in tables for e in spec.entries)
    rng = random.Random(2)
    found = 0
    for _ in range(400):
        hand = rng.sample(range(rs.pieces.count), rng.randint(1, 12))
        for spec in tables:
            for size in (None, 2, 3, 4):
                got = [(p.pieces, p.entry, p.entry_cls, p.entry_strength)
                       for p in enumerate_plays(spec, hand, rs.pieces, size)]
                assert got == _searched(spec, hand, rs.pieces, size), (spec.id, hand, size)
                found += len(got)
    assert found > 500  # the hands did make plays


def test_entries_that_make_the_same_pieces_offer_them_once() -> None:
    # Three entries over the same tiles: 'x' (a, b), 'y' (b, a) and 'z' (a, b or c). Read straight
    # off the hand, 'y' is the same set of types as 'x' and must not be offered again, nor must 'z''s
    # (a, b); 'z''s (a, c) is new. Every size asked, over random hands with copies.
    rs = load_ruleset("tien-gow")
    pieces = rs.pieces
    a, b, c = (pieces.by_type_id[t] for t in ("6-6", "3-6", "4-5"))
    entries = (TableEntry("x", ((a,), (b,)), "k1", 1.0), TableEntry("y", ((b,), (a,)), "k2", 2.0),
               TableEntry("z", ((a,), (b, c)), "k3", 3.0), TableEntry("w", ((b,), (a,), (a,)), "k4", 4.0))
    spec = replace(rs.combinations["pair"], id="t", entries=entries, sizes=(2, 3), made={}, of_size={})
    rng = random.Random(3)
    offered: set[str | None] = set()
    for _ in range(300):
        hand = rng.sample(range(pieces.count), rng.randint(1, 12))
        for size in (None, 2, 3):
            got = [(p.pieces, p.entry, p.entry_cls, p.entry_strength)
                   for p in enumerate_plays(spec, hand, pieces, size)]
            assert got == _searched(spec, hand, pieces, size), (hand, size)
            offered.update(entry for _, entry, _, _ in got)
    assert offered == {"x", "z", "w"}  # 'y' never: whenever the hand makes it, 'x' came first


def test_a_fixed_combination_is_offered_exactly_when_the_hand_holds_its_pieces() -> None:
    # Luk Fu's five (the four 1s and the special card): the hand is checked against the pieces'
    # types before any search; a hand missing any one of them makes no play, a hand with all makes one.
    rs = load_ruleset("luk-fu")
    five = rs.combinations["five"]
    wanted = sorted(rs.pieces.instances[t][0] for t in five.fixed)
    rng = random.Random(4)
    made = 0
    for _ in range(400):
        others = [p for p in range(rs.pieces.count) if p not in wanted]
        hand = rng.sample(others, rng.randint(0, 8)) + rng.sample(wanted, rng.choice([3, 4, 5, 5]))
        rng.shuffle(hand)
        plays = enumerate_plays(five, hand, rs.pieces, None)
        holds_all = all(p in hand for p in wanted)
        assert [sorted(p.pieces) for p in plays] == ([wanted] if holds_all else []), hand
        made += len(plays)
    assert 100 < made < 400


@pytest.mark.parametrize("ref", ["luk-fu", "tien-gow"])
def test_all_combinations_at_once_are_each_combination_s_plays(ref: str) -> None:
    # enumerate_all rules out a fixed combination by the hand's type masks before grouping the hand by
    # type: the plays, in order, must be each combination's own, and the masks those of the grouping.
    rs = load_ruleset(ref)
    specs = [s for s in rs.combinations.values() if s.chain is None and s.where is None]
    fixed = [s for s in specs if s.kind == "fixed"]
    wanted = sorted({rs.pieces.instances[t][0] for s in fixed for t in s.fixed})
    rng = random.Random(6)
    made = 0
    for _ in range(300):
        hand = rng.sample(range(rs.pieces.count), rng.randint(0, 12))
        if wanted and rng.random() < 0.5:  # often all of a fixed combination's pieces, or all but one
            hand = list(dict.fromkeys(hand + wanted[rng.randint(0, 1):]))
        rng.shuffle(hand)
        assert _held_of(hand, rs.pieces.type_of) == _held(_by_type(hand, rs.pieces))
        for size in (None, 1, 2, 3, 4, 5):
            together = enumerate_all(specs, hand, rs.pieces, size)
            one_by_one = [p for s in specs for p in enumerate_plays(s, hand, rs.pieces, size)]
            assert together == one_by_one, (hand, size)
            made += sum(1 for p in together if p.combo in {s.id for s in fixed})
    assert made > 50 or not fixed
