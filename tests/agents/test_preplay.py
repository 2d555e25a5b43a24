"""What the rules count about a hand before play (``agents.preplay``): the default agent bids on a hand's
combinations, which no strength of its pieces one by one can see."""

from __future__ import annotations

import random

from support import ruleset

from rulecraft.agents.base import make_agent
from rulecraft.agents.decision_values import Sample, Search, decision_values, fit, sensible
from rulecraft.agents.default import plan
from rulecraft.agents.preplay import preplay
from rulecraft.engine.moves import Move
from rulecraft.runs.scenario import start_arranged

PASS, BID = Move("pass"), Move("bid", value="1")


def test_a_bid_is_learnt_to_pay_on_a_combination_that_no_single_piece_makes() -> None:
    # Eight pieces in two rows of four: piece p and piece p + 4 are a pair, worth a count of 40 before play;
    # the bid pays with a pair in hand and costs without. Every piece is in a pair as often as any other, so
    # what each is worth alone says nothing: only the count (and its square) can.
    rng = random.Random(3)
    samples: list[Sample] = []
    for _ in range(400):
        hand = tuple(sorted(rng.sample(range(8), 3)))
        count = 40.0 * sum(1 for p in hand if p < 4 and p + 4 in hand)
        gain = (30.0 if count else -30.0) + rng.gauss(0, 5)
        mean = gain / 2
        samples += [Sample(hand, "pass", 0, 0, 0.0, -mean, (count,)),
                    Sample(hand, "bid", 0, 0, gain, gain - mean, (count,))]
    values = fit(samples, 8)
    search = Search([PASS, BID], ["pass", "bid"])
    assert values.best(search, (1, 5, 6), pre=(40.0,)) is BID  # the pair 1-5
    assert values.best(search, (1, 2, 6), pre=(0.0,)) is PASS  # the same strengths, no pair


# Auction Pinochle: seat 1 bids first. Each hand holds the same pieces but for six, so that what its pieces are
# worth one by one is alike; the strong one's six complete a run in spades, a pinochle and the aces around
# (about 300 of meld), the weak one's break every combination (no meld worth naming).
COMMON = ["sA", "s10", "sK", "sJ", "cA", "dA", "c9", "d9", "h9"]
STRONG = [*COMMON, "sQ", "hA", "dJ", "cK", "cQ", "s9"]
WEAK = [*COMMON, "cJ", "hJ", "h10", "dK", "hQ", "c10"]


def _first_bid(hand: list[str]) -> str:
    rs = ruleset("auction-pinochle")
    st = start_arranged(rs, {"seed": 5, "deal": {"hand[1]": hand}})
    while st.rs.phases[st.pidx].kind != "auction":
        st.apply(st.legal_moves()[0])
    assert st.to_act == 1
    return make_agent("default", 5, 1).choose(st, 1).text


def test_the_default_bids_a_hand_with_a_strong_meld_and_passes_one_without() -> None:
    assert _first_bid(STRONG) == "bid 300"
    assert _first_bid(WEAK) == "pass"


def test_the_counts_are_the_rules_own_meld_of_the_hand() -> None:
    rs = ruleset("auction-pinochle")
    st = start_arranged(rs, {"seed": 5, "deal": {"hand[1]": STRONG}})
    while st.rs.phases[st.pidx].kind != "auction":
        st.apply(st.legal_moves()[0])
    names = [v.name for v in rs.variables if v.scope == "hand" and str(v.value_type) == "number"]
    counts = dict(zip(names, preplay(st, 1, st.legal_moves(), random.Random(1),
                                     sensible(plan, decision_values(st, plan))), strict=True))
    assert counts["bid"] == 300
    assert counts["meld"] >= 250  # a run (150), the aces around (100), a pinochle (40), whatever the widow
