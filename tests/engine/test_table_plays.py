"""Table combinations: an entry of one type per position is read straight off the hand.

``enumerate_plays`` takes the pieces of such an entry directly (``TableEntry.picks``) instead of
searching; every entry with alternatives is still searched. Over random hands of the bundled tables
the plays must be the ones a search of every entry finds, in the same order, with the same values.
"""

from __future__ import annotations

import random

import pytest

from rulecraft.engine.combos import _by_type, _pick_types, _type_key, enumerate_plays
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
    assert any(e.picks is None for spec in tables for e in spec.entries)
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
