"""The default agent's learnt decision values (``agents.decision_values.fit``): what a move is worth by the hand
and by the auction as it stands, from samples of its playouts."""

from __future__ import annotations

import random

from rulecraft.agents.decision_values import Sample, Search, fit
from rulecraft.engine.moves import Move

PASS, BID, DOUBLE = Move("pass"), Move("bid", value="1"), Move("double")


def _decision(hand: tuple[int, ...], level: int, outcomes: dict[str, float]) -> list[Sample]:
    mean = sum(outcomes.values()) / len(outcomes)
    return [Sample(hand, name, level, 0, y, y - mean) for name, y in outcomes.items()]


def test_a_bid_is_made_with_the_hands_that_made_it_pay_and_passed_with_the_others() -> None:
    # Piece 0 is the strong one: with it the contract makes 30 more than passing, without it 30 less. The
    # other pieces say nothing. Whatever the hand, its own worth is the same to both moves (+100 or 0).
    rng = random.Random(1)
    samples: list[Sample] = []
    for _ in range(200):
        hand = tuple(sorted(rng.sample(range(8), 3)))
        worth = 100.0 if 0 in hand else 0.0
        bid = worth + (30.0 if 0 in hand else -30.0) + rng.gauss(0, 5)
        samples += _decision(hand, 0, {"pass": worth + rng.gauss(0, 5), "bid": bid})
    values = fit(samples, 8)
    search = Search([PASS, BID], ["pass", "bid"])
    assert values.best(search, (0, 3, 5)) is BID
    assert values.best(search, (1, 3, 5)) is PASS
    assert values.hand_strength((0, 3, 5)) > values.hand_strength((1, 3, 5))


def test_passing_a_low_contract_and_a_high_one_are_learnt_apart() -> None:
    # Doubling pays against a high contract (level 8: it fails) and costs against a low one (level 1: it is
    # made); every hand alike. Pooled over levels the double would be worth about as much as the pass.
    rng = random.Random(2)
    samples: list[Sample] = []
    for _ in range(300):
        hand = tuple(sorted(rng.sample(range(8), 3)))
        level = rng.choice([1, 8])
        gain = 40.0 if level == 8 else -40.0
        samples += _decision(hand, level, {"pass": rng.gauss(0, 5), "double": gain + rng.gauss(0, 5)})
    values = fit(samples, 8)
    search = Search([PASS, DOUBLE], ["pass", "double"])
    assert values.best(search, (1, 2, 3), (8, 0)) is DOUBLE
    assert values.best(search, (1, 2, 3), (1, 0)) is PASS


def test_a_label_seen_too_rarely_is_unknown() -> None:
    samples = _decision((0, 1), 0, {"pass": 0.0, "bid": 1.0}) * 3  # 3 samples of each label: fewer than needed
    values = fit(samples, 4)
    assert values.best(Search([PASS, BID], ["pass", "bid"]), (0, 1)) is None


def test_naming_a_value_is_learnt_by_the_pieces_that_make_it_pay() -> None:
    # Two values to name: naming "a" pays with piece 0 in hand, naming "b" with piece 1 (each the same worth
    # otherwise). Every hand holds one of them: a strength of the hand alike for both names cannot tell.
    rng = random.Random(3)
    samples: list[Sample] = []
    for _ in range(300):
        hand = (rng.choice([0, 1]), *rng.sample(range(2, 8), 2))
        a = (20.0 if 0 in hand else -20.0) + rng.gauss(0, 5)
        b = (20.0 if 1 in hand else -20.0) + rng.gauss(0, 5)
        samples += _decision(hand, 0, {"name a": a, "name b": b})
    values = fit(samples, 8)
    name_a, name_b = Move("name", value="a"), Move("name", value="b")
    search = Search([name_a, name_b], ["name a", "name b"])
    assert values.best(search, (0, 4, 5)) is name_a
    assert values.best(search, (1, 4, 5)) is name_b


def test_a_plane_is_not_stretched_past_the_highest_level_it_was_learnt_at() -> None:
    # Doubling was learnt at levels 1 and 2 only: at level 9 the decision is unknown (it is searched), however
    # the plane would read there.
    rng = random.Random(4)
    samples: list[Sample] = []
    for _ in range(200):
        hand = tuple(sorted(rng.sample(range(8), 3)))
        level = rng.choice([1, 2])
        samples += _decision(hand, level, {"pass": rng.gauss(0, 5), "double": 10.0 * level + rng.gauss(0, 5)})
    values = fit(samples, 8)
    search = Search([PASS, DOUBLE], ["pass", "double"])
    assert values.best(search, (1, 2, 3), (2, 0)) is DOUBLE
    assert values.best(search, (1, 2, 3), (9, 0)) is None
