"""each_seat: per-seat decisions in turn, with conditions on earlier seats' choices (issue 18)."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from support import ruleset

from rulecraft.engine.build import build_from_data
from rulecraft.engine.game import Game
from rulecraft.engine.ruleset import Ruleset
from rulecraft.errors import IllegalMoveError, RuleFileError


def _spades_with(**choose: Any) -> Ruleset:
    """Spades whose bidding phase has extra `choose` keys (an `allow`, a message)."""
    data = copy.deepcopy(ruleset("spades").composed.data)  # type: ignore[union-attr]
    bidding = next(p for p in data["hand"]["phases"] if p["id"] == "bidding")
    bidding["choose"].update(choose)
    return build_from_data(data, name="spades", chosen={}, content_hash="test")


LAST_MAY_NOT_MAKE_13 = {"allow": "not (is_last and sum(bid) + value == 13)",
                        "message": "the last bid may not make the bids add up to 13"}


def test_the_last_seat_may_not_make_the_total_equal_the_tricks() -> None:
    rs = _spades_with(**LAST_MAY_NOT_MAKE_13)
    st = Game(rs, 1).new_state()
    for text in ("bid 3", "bid 3", "bid 3"):
        assert "bid 4" in [m.text for m in st.legal_moves()]  # not the last seat: anything goes
        st.apply(text)
    legal = [m.text for m in st.legal_moves()]
    assert "bid 4" not in legal and "bid 3" in legal and "bid 5" in legal
    with pytest.raises(IllegalMoveError, match="the last bid may not make the bids add up to 13"):
        st.apply("bid 4")
    st.apply("bid 5")
    assert st.var("bid") == [5, 3, 3, 3]


def test_turn_and_decided_describe_the_seats_before() -> None:
    # Each seat must bid its place in the order (1, 2 ...), and only after the seats before it.
    rs = _spades_with(allow="value == turn and count(decided) == turn - 1")
    st = Game(rs, 1).new_state()
    for expected in (1, 2, 3, 4):
        assert [m.text for m in st.legal_moves()] == [f"bid {expected}"]
        st.apply(f"bid {expected}")
    assert st.var("bid") == [4, 1, 2, 3]  # seat 1 bid first (dealer 0)


def test_a_condition_no_value_meets_lapses_rather_than_leave_no_move() -> None:
    rs = _spades_with(allow="value > 20")
    st = Game(rs, 1).new_state()
    assert len(st.legal_moves()) == 14


def test_allow_must_be_a_condition_on_a_value_of_the_variables_type() -> None:
    with pytest.raises(RuleFileError, match="cannot compare a number with a string"):
        _spades_with(allow="value != 'nil'")


def test_giving_a_piece_not_held_says_so() -> None:
    st = Game(ruleset("hearts"), 1).new_state()  # the first hand passes three cards left
    seat = st.to_act
    assert seat is not None
    ids = {st.rs.pieces.type_id(p) for p in st.hand(seat)}
    held = sorted(ids)
    other = next(st.rs.pieces.type_id(p) for p in range(st.rs.pieces.count) if st.rs.pieces.type_id(p) not in ids)
    with pytest.raises(IllegalMoveError, match=f"you do not hold {other}: pass 3 more piece"):
        st.apply(f"give {other}")
    with pytest.raises(IllegalMoveError, match="give one piece at a time: pass 3 more piece"):
        st.apply(f"give {held[0]} {held[1]}")


def test_pieces_given_without_a_receiver_stay_laid_aside(tmp_path: Any) -> None:
    """give without `to`: each seat's pieces stay in its own zone (bid-cards laid aside), seen by it alone."""
    from rulecraft.load import load_ruleset

    overlay = tmp_path / "laid-aside.yaml"
    overlay.write_text("extends: hearts\nname: laid-aside\nhand:\n  phases:\n"
                       "    - {id: pass, give: {to: {$delete: true}}}\n    - {id: show-lead, $delete: true}\n"
                       "    - {id: play, first: 'left_of(dealer)',"
                       " lead: {restrictions: [{id: two-of-clubs-leads, $delete: true}]}}\n", encoding="utf-8")
    rs = load_ruleset(str(overlay))  # the schema, too, takes a give without a receiver
    st = Game(rs, 1).new_state()  # the first hand of Hearts passes
    laid: dict[int, set[int]] = {}
    while st.legal_moves()[0].verb == "give":
        seat = st.to_act
        assert seat is not None
        move = st.legal_moves()[0]
        laid.setdefault(seat, set()).add(move.pieces[0])
        st.apply(move)
    assert sorted(laid) == [0, 1, 2, 3]
    for seat, pieces in laid.items():
        assert set(st.zones[st.zone_instance("passing", seat)]) == pieces  # still where the seat put them
        assert len(st.hand(seat)) == 10 and not pieces & set(st.hand(seat))


def test_a_giver_still_knows_where_the_pieces_it_passed_lie() -> None:
    """After the pass each seat sees its passed pieces in the receiver's hand (it handed them over), and
    a search agent's determinization leaves them there; the others do not; once played they are public anyway."""
    from rulecraft.engine.board import SHOWN
    from rulecraft.engine.determinize import hidden_pieces
    from rulecraft.engine.views import visible

    st = Game(ruleset("hearts"), 1).new_state()  # the first hand passes three cards left
    passed: dict[int, list[int]] = {}
    while st.legal_moves()[0].verb == "give":
        seat = st.to_act
        assert seat is not None
        move = st.legal_moves()[0]
        passed.setdefault(seat, []).append(move.pieces[0])
        st.apply(move)
    assert sorted(passed) == [0, 1, 2, 3]
    for giver, pieces in passed.items():
        receiver = (giver + 1) % 4  # Hearts passes to the left first: clockwise, the next seat
        for p in pieces:
            assert st.holds(receiver, p)
            assert visible(st, p, giver) and visible(st, p, receiver)
            if p not in st.marks.get(SHOWN, ()):  # the 2 of clubs is shown to the table: it must lead
                assert not any(visible(st, p, s) for s in range(4) if s not in (giver, receiver))
            assert p not in hidden_pieces(st, giver)
        view = st.view(giver)["zones"][f"hand[{receiver}]"]
        assert set(view.get("pieces", [])) == {st.rs.pieces.type_id(p) for p in pieces}
