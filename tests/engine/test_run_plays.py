"""Runs: a hand with no run of the length asked is turned away by a bit mask, and only such a hand.

``enumerate_plays`` of a ``run`` combination first ORs one bit per piece (its group and value,
``ComboSpec.run_bits``) and looks for as many consecutive bits as the shortest run has; none, and
there is no play. Over random hands of every bundled ruleset with runs, the plays must be
the ones the grouping finds without the mask, in the same order, with the same values.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from rulecraft.engine.combos import enumerate_plays
from rulecraft.load import load_ruleset

RULESETS = ["luk-fu", "big-two", "daifugo", "zheng-shangyou"]


def _values(plays):  # type: ignore[no-untyped-def]
    return [(p.combo, p.pieces, p.key, p.low, p.group) for p in plays]


@pytest.mark.parametrize("ref", RULESETS)
def test_the_mask_turns_away_only_hands_without_a_run(ref: str) -> None:
    rs = load_ruleset(ref)
    runs = [spec for spec in rs.combinations.values() if spec.kind == "run"]
    assert runs
    rng = random.Random(4)
    found = turned_away = 0
    for spec in runs:
        plain = replace(spec, run_bits=[-1], made={})  # the grouping alone, no mask
        for _ in range(600):
            hand = rng.sample(range(rs.pieces.count), rng.randint(1, min(16, rs.pieces.count)))
            for size in (None, spec.min_len, spec.min_len + 1, spec.max_len):
                got = enumerate_plays(spec, hand, rs.pieces, size)
                assert _values(got) == _values(enumerate_plays(plain, hand, rs.pieces, size)), (spec.id, hand, size)
                found += len(got)
                turned_away += not got
        assert spec.run_bits[0] >= 0  # the mask was made: the values are small whole numbers
    assert found > 300 and turned_away > 300
