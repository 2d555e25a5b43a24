"""An auction's passes are final by default; with ``pass_final: false`` a pass holds only until the next
bid, and a seat that passed may bid again when its turn comes round (the key was read but ignored)."""

from __future__ import annotations

import copy

from support import ruleset

from rulecraft.engine.build import build_from_data
from rulecraft.engine.game import Game
from rulecraft.engine.ruleset import Ruleset


def _rook(pass_final: bool | None) -> Ruleset:
    data = copy.deepcopy(ruleset("rook").composed.data)  # type: ignore[union-attr]
    bidding = next(p for p in data["hand"]["phases"] if p["id"] == "bidding")
    bidding["extra_calls"] = []  # no redeal call in the way
    if pass_final is not None:
        bidding["pass_final"] = pass_final
    bidding["passes"] = "passed"
    data["variables"]["passed"] = {"scope": "hand", "per": "seat", "type": "bool", "initial": False}
    return build_from_data(data, name="rook", chosen={}, content_hash="test")


def _bid(rs: Ruleset) -> tuple[list[int | None], object]:
    st = Game(rs, 1).new_state()
    seats = []
    for text in ("pass", "bid 70", "pass", "pass"):  # seat 1 passes, seat 2 bids, seats 3 and 0 pass
        seats.append(st.to_act)
        st.apply(text)
    return seats, st


def test_passing_is_final_by_default() -> None:
    seats, st = _bid(_rook(None))
    assert seats == [1, 2, 3, 0]
    assert st.var("declarer") == 2 and st.var("bid") == 70  # seat 1 is not asked again: the auction is over


def test_with_pass_final_false_a_bid_brings_the_passers_back() -> None:
    seats, st = _bid(_rook(False))
    assert seats == [1, 2, 3, 0]
    assert st.to_act == 1 and st.var("passed") == [True, False, False, True]  # seat 1's pass held until the bid
    st.apply("bid 75")  # seat 1 passed before, and bids now
    assert st.var("passed") == [False, False, False, False]
    for seat in (2, 3, 0):
        assert st.to_act == seat
        st.apply("pass")
    assert st.var("declarer") == 1 and st.var("bid") == 75
