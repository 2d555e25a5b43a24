"""Auctions over an ordered set of bids the rule file gives (a table, tuples), holds, duels between two
seats by seniority, doubles that bring the passers back in, the record of every call, what an extra
call's condition sees, and verbs named by the rule file."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from rulecraft.engine.build import build_from_data
from rulecraft.engine.game import Game
from rulecraft.engine.ruleset import Ruleset
from rulecraft.engine.state import State
from rulecraft.errors import IllegalMoveError, RuleFileError

BASE: dict[str, Any] = {
    "name": "auction-test",
    "seats": {"count": 4, "teams": [[0, 2], [1, 3]]},
    "constants": {"strains": ["C", "D", "H", "S", "NT"], "table": [18, 20, 22, 23, 24, 27]},
    "pieces": [{"id": "c{rank}", "generate": {"rank": [1, 2, 3, 4, 5, 6, 7, 8]}}],
    "zones": [{"id": "deck", "visibility": "nobody"}, {"id": "hand", "per": "seat", "visibility": "owner"}],
    "variables": {
        "high": {"scope": "hand", "type": "seat"},
        "amount": {"scope": "hand", "type": "any"},
        "doubled": {"scope": "hand", "type": "number", "initial": 0},
        "calls": {"scope": "hand", "type": "list", "initial": []},
        "declarer": {"scope": "hand", "type": "seat"},
        "asked": {"scope": "hand", "type": "list", "initial": []},
    },
    "hand": {"phases": [{"id": "deal", "kind": "deal", "from": "deck", "to": "hand", "count": 2}]},
    "match": {"end_when": "true"},
}


def _rules(auction: dict[str, Any], seats: int = 4, **top: Any) -> Ruleset:
    data = copy.deepcopy(BASE)
    if seats != 4:
        data["seats"] = {"count": seats}
    data["hand"]["phases"].append({"id": "auction", "kind": "auction", "winner": "high", "amount": "amount",
                                   "record": "calls", **auction})
    data.update(top)
    return build_from_data(data, name="auction-test", chosen={}, content_hash="test")


def _play(rs: Ruleset, moves: list[str]) -> tuple[list[int | None], State]:
    st = Game(rs, 1).new_state()
    seats = []
    for text in moves:
        seats.append(st.to_act)
        st.apply(text)
    return seats, st


BRIDGE = {"first": 0, "pass_final": False, "doubles": {"calls": ["double", "redouble"], "set": "doubled"},
          "bids": {"product": {"level": [1, 2, 3, 4, 5, 6, 7], "strain": "strains"}, "text": "{level}{strain}"},
          "on_end": [{"set": {"declarer": "first(c[0] for c in calls if c[1] == 'bid' and team_of(c[0]) == "
                                          "team_of(high) and c[2][1] == amount[1])"}}]}


def test_tuple_bids_rise_level_then_strain() -> None:
    rs = _rules(BRIDGE)
    st = Game(rs, 1).new_state()
    texts = [m.text for m in st.legal_moves()]
    assert texts[:7] == ["pass", "bid 1C", "bid 1D", "bid 1H", "bid 1S", "bid 1NT", "bid 2C"]
    assert texts[-1] == "bid 7NT" and len(texts) == 36  # no double before a bid
    st.apply("bid 1NT")
    legal = [m.text for m in st.legal_moves()]
    assert "bid 1S" not in legal and "bid 2C" in legal and "double" in legal
    with pytest.raises(IllegalMoveError, match=r"at least 2C \(the high bid is 1NT\)"):
        st.apply("bid 1S")


def test_a_double_brings_the_passers_back_and_three_passes_end_it() -> None:
    # 1H by N, two passes, E... : W doubles after two passes; three more passes are needed.
    seats, st = _play(_rules(BRIDGE), ["bid 1H", "pass", "pass", "double", "pass", "pass", "pass"])
    assert seats == [0, 1, 2, 3, 0, 1, 2]
    assert st.is_over
    result = st.hand_results[-1]["vars"]
    assert result["amount"] == [1, "H"] and result["high"] == 0 and result["doubled"] == 1


def test_redouble_only_by_the_doubled_side_and_a_new_bid_clears_both() -> None:
    rs = _rules(BRIDGE)
    _, st = _play(rs, ["bid 1H", "double"])
    assert st.to_act == 2 and "redouble" in [m.text for m in st.legal_moves()]
    with pytest.raises(IllegalMoveError, match="'double' is called by an opponent of the high bidder, on a bid not"):
        st.apply("double")
    st.apply("pass")  # South passes; West (an opponent) may not redouble
    assert st.to_act == 3 and "redouble" not in [m.text for m in st.legal_moves()]
    with pytest.raises(IllegalMoveError, match="'redouble' is called by the high bidder's side, after 'double'"):
        st.apply("redouble")
    st.apply("bid 2C")
    assert st.var("doubled") == 0 and "double" in [m.text for m in st.legal_moves()]


def test_the_declarer_is_the_first_of_the_side_to_name_the_strain() -> None:
    # N 1H, E pass, S 2H (South raises partner's hearts), then three passes: North named hearts first.
    _, st = _play(_rules(BRIDGE), ["bid 1H", "pass", "bid 2H", "pass", "pass", "pass"])
    result = st.hand_results[-1]["vars"]
    assert result["high"] == 2 and result["declarer"] == 0
    assert result["calls"][:3] == [[0, "bid", [1, "H"]], [1, "pass", None], [2, "bid", [2, "H"]]]


def test_four_passes_pass_the_deal_out() -> None:
    _, st = _play(_rules(BRIDGE), ["pass", "pass", "pass", "pass"])
    assert st.is_over and st.hand_results[-1]["voided"] is True


SKAT = {"duels": "[1, 2, 0]", "bids": {"values": "table"}, "holds": True}


def test_duels_middlehand_speaks_forehand_holds_then_rearhand() -> None:
    seats, st = _play(_rules(SKAT, seats=3), ["bid 18", "hold", "bid 20", "pass", "bid 22", "hold", "pass"])
    # middlehand (2) bids to forehand (1), who holds, then passes at 20; rearhand (0) speaks to the survivor 2
    assert seats == [2, 1, 2, 1, 0, 2, 0]
    assert st.is_over and st.hand_results[-1]["vars"]["high"] == 2 and st.hand_results[-1]["vars"]["amount"] == 22


def test_in_a_duel_the_senior_only_holds_or_passes_and_the_junior_must_rise() -> None:
    rs = _rules(SKAT, seats=3)
    _, st = _play(rs, ["bid 18"])
    assert [m.text for m in st.legal_moves()] == ["pass", "hold"]
    with pytest.raises(IllegalMoveError, match="you answer the bid: 'hold' or 'pass'"):
        st.apply("bid 20")
    st.apply("hold")
    assert "hold" not in [m.text for m in st.legal_moves()] and "bid 18" not in [m.text for m in st.legal_moves()]


def test_the_rearhand_first_bid_is_above_every_bid_so_far() -> None:
    _, st = _play(_rules(SKAT, seats=3), ["bid 23", "pass"])
    assert st.to_act == 0 and [m.text for m in st.legal_moves()][:2] == ["pass", "bid 24"]


def test_a_survivor_with_no_bid_may_still_bid_or_pass() -> None:
    seats, st = _play(_rules(SKAT, seats=3), ["pass", "pass"])
    assert seats == [2, 0] and st.to_act == 1
    assert [m.text for m in st.legal_moves()][:2] == ["pass", "bid 18"]
    st.apply("bid 18")
    assert st.is_over and st.hand_results[-1]["vars"]["high"] == 1
    _, st = _play(_rules(SKAT, seats=3), ["pass", "pass", "pass"])
    assert st.is_over and st.hand_results[-1]["voided"] is True


def test_holds_round_the_table_belong_to_seniors() -> None:
    rs = _rules({"first": 0, "bids": {"values": "table"}, "holds": {"verb": "yes"}}, seats=3)
    _, st = _play(rs, ["pass", "bid 18"])  # seat 0 passes; seat 1 bids
    assert st.to_act == 2 and "yes" not in [m.text for m in st.legal_moves()]  # seat 2 is junior to seat 1
    _, st = _play(rs, ["bid 18", "bid 20"])
    assert st.to_act == 2 and "yes" not in [m.text for m in st.legal_moves()]
    st.apply("pass")
    assert st.to_act == 0 and "yes" in [m.text for m in st.legal_moves()]  # seat 0 bids before seat 1
    st.apply("yes")
    assert st.to_act == 1 and [m.text for m in st.legal_moves()][:2] == ["pass", "bid 22"]
    st.apply("pass")
    assert st.is_over and st.hand_results[-1]["vars"]["high"] == 0 and st.hand_results[-1]["vars"]["calls"][3] == \
        [0, "hold", 20]


def test_an_extra_call_sees_the_bidding_so_far() -> None:
    rs = _rules({"first": 0, "bids": {"min": 1, "max": 9}, "extra_calls": [
        {"id": "outbid", "when": "high_bid != none and high_bid >= 3 and high_bidder != seat and count(passed) == 1",
         "effects": [{"set": {"asked": "[seat, high_bid, high_bidder, doubling]"}}, {"void_hand": True}]}]})
    _, st = _play(rs, ["bid 3"])
    assert "call outbid" not in [m.text for m in st.legal_moves()]  # nobody has passed yet
    st.apply("pass")
    assert st.to_act == 2 and "call outbid" in [m.text for m in st.legal_moves()]
    st.apply("call outbid")
    assert st.hand_results[-1]["vars"]["asked"] == [2, 3, 0, 0]


@pytest.mark.parametrize(("auction", "message"), [
    ({"first": 0, "bids": {"values": [18, 20, 18]}}, "'18' is written twice"),
    ({"first": 0, "bids": {"values": [18, 20], "min": 1, "max": 3}}, "give exactly one of"),
    ({"first": 0, "bids": {"product": {"level": [1, 2], "strain": "nope"}}}, "unknown constant 'nope'"),
    ({"first": 0, "bids": {"product": {"level": [1, 2]}, "text": "{lvl}"}}, "unknown component 'lvl'"),
    ({"first": 0, "bids": {"values": [1, 2]}, "doubles": {"calls": ["play"]}}, "'play' is the engine's verb"),
    ({"first": 0, "bids": {"values": [1, 2]}, "holds": {"verb": "Hold it"}}, "a verb is one lower-case word"),
    ({"first": 0, "bids": {"values": [1, 2]}, "holds": {"verb": "bid"}}, "'bid' already takes a value"),
    ({"duels": "[0, 1]", "bids": {"values": [1, 2]}, "pass_final": False}, "in duels a seat that passed is out"),
    ({"first": 0, "calls": ["play"], "holds": True}, "holds and doubles are calls on a bid"),
])
def test_bad_auctions_are_refused_at_load(auction: dict[str, Any], message: str) -> None:
    with pytest.raises(RuleFileError, match=message):
        _rules(auction)


def test_the_amount_variable_must_hold_the_bids() -> None:
    data = copy.deepcopy(BASE)
    data["variables"]["amount"] = {"scope": "hand", "type": "number"}
    data["hand"]["phases"].append({"id": "auction", "kind": "auction", "first": 0, "amount": "amount",
                                   "bids": {"values": ["low", "high"]}})
    with pytest.raises(RuleFileError, match="the auction writes a string into 'amount', which holds a number"):
        build_from_data(data, name="x", chosen={}, content_hash="test")


def test_a_verb_with_two_shapes_in_one_ruleset_is_refused() -> None:
    data = copy.deepcopy(BASE)
    data["hand"]["phases"] += [
        {"id": "auction", "kind": "auction", "first": 0, "bids": {"values": [1, 2]}, "doubles": {"calls": ["raise"]}},
        {"id": "pick", "kind": "choose", "seat": 0, "from": "['a', 'b']", "verb": "raise"}]
    with pytest.raises(RuleFileError, match="phase 'pick': 'raise' already takes nothing after it"):
        build_from_data(data, name="x", chosen={}, content_hash="test")


def test_verbs_named_by_the_rule_file_parse_and_name_moves() -> None:
    data = copy.deepcopy(BASE)
    data["variables"]["game"] = {"scope": "hand", "type": "string", "initial": ""}
    data["hand"]["phases"].append({"id": "declare", "kind": "choose", "seat": 0, "from": "['grand', 'null']",
                                   "set": "game", "verb": "declare"})
    rs = build_from_data(data, name="x", chosen={}, content_hash="test")
    st = Game(rs, 1).new_state()
    assert [m.text for m in st.legal_moves()] == ["declare grand", "declare null"]
    with pytest.raises(IllegalMoveError, match="declare one of: grand, null"):
        st.apply("name grand")
    with pytest.raises(IllegalMoveError, match="unknown move 'announce': here a move starts with declare"):
        st.apply("announce grand")
    st.apply("DECLARE null")
    assert st.hand_results[-1]["vars"]["game"] == "null"


def test_an_ordered_set_of_tuples_defaults_to_components_joined_by_a_dash() -> None:
    from rulecraft.engine.builder import Builder
    from rulecraft.engine.phases.ordered_values import ordered_values

    got = ordered_values(Builder(), {"product": {"quantity": [1, 2], "face": "faces"}}, {"faces": [2, 6]}, "claims")
    assert got is not None
    assert got.texts == ("1-2", "1-6", "2-2", "2-6") and got.value(2) == [2, 2] and got.position("2-6") == 3
    steps = ordered_values(Builder(), {"min": 70, "max": 80, "step": 5}, {}, "bids")
    assert steps is not None and steps.texts == ("70", "75", "80") and steps.steps == (70, 80, 5)
