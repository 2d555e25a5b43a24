"""A revoke (a play that broke a follow restriction) recorded from a table: accepted only where the trick
phase says what follows from it, never offered, hidden from the other seats until its round ends, and
kept by logs (the Rook scenarios renege-by-* check who pays and scores what)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support import ruleset

from rulecraft.engine.state import State
from rulecraft.engine.views import redact_event
from rulecraft.errors import IllegalMoveError
from rulecraft.runs.log import replay, write_log
from rulecraft.runs.scenario import start_arranged

DEAL = {
    "hand[0]": ["red-5", "red-6", "red-7", "red-8", "red-9", "yellow-5", "yellow-6", "yellow-7", "rook-bird"],
    "hand[1]": ["red-10", "red-11", "red-12", "red-13", "red-14", "yellow-8", "yellow-9", "yellow-10", "yellow-11"],
    "hand[2]": ["green-5", "green-6", "green-7", "green-8", "green-9", "green-10", "green-11", "green-12",
                "green-13"],
    "hand[3]": ["black-5", "black-6", "black-7", "black-8", "black-9", "black-10", "black-11", "black-12",
                "black-13"],
    "nest": ["green-14", "black-14", "yellow-12", "yellow-13", "yellow-14"],
}
# seat 1 bids 70 and names red; trick 1 goes to seat 0's Bird; seat 0 leads a trump
TO_TRICK_2 = ["bid 70", "pass", "pass", "pass", "give yellow-8", "give yellow-9", "give yellow-10",
              "give yellow-11", "give black-14", "name red", "play yellow-14", "play green-5", "play black-5",
              "play rook-bird", "play red-5"]


def _rook_at_trick_2() -> State:
    st = start_arranged(ruleset("rook"), {"deal": DEAL})
    for move in TO_TRICK_2:
        st.apply(move)
    return st


def _seen_moves(st: State, seat: int) -> list[str]:
    return [e["move"] for e in (redact_event(x, seat) for x in st.history) if e and e["type"] == "move"]


def test_a_revoke_is_never_offered_but_is_accepted_as_recorded() -> None:
    st = _rook_at_trick_2()
    assert st.to_act == 1
    legal = [m.text for m in st.legal_moves()]
    assert all(not t.startswith("revoke") for t in legal)
    assert "play yellow-13" not in legal  # seat 1 holds trumps: it must follow
    st.apply("revoke yellow-13")
    assert st.to_act == 2


def test_the_other_seats_see_a_plain_play_until_the_round_ends() -> None:
    st = _rook_at_trick_2()
    st.apply("revoke yellow-13")
    assert _seen_moves(st, 2)[-1] == "play yellow-13"
    assert _seen_moves(st, 1)[-1] == "revoke yellow-13"  # the seat that made it knows
    assert _seen_moves(st, None)[-1] == "revoke yellow-13"  # hypothetical full record
    assert not any(e["type"] == "revoke" for e in st.history)
    view = st.view(2)
    assert "revoke" not in json.dumps(view)
    assert view["variables"]["reneged"] == [False, False]
    st.apply("play green-6")
    st.apply("play black-6")
    found = [redact_event(e, 2) for e in st.history if e["type"] == "revoke"]
    assert found == [{"type": "revoke", "seat": 1, "rule": "follow-suit", "pieces": ["yellow-13"]}]


def test_a_revoke_where_none_is_declared_is_refused_with_the_reason() -> None:
    st = start_arranged(ruleset("hearts"), {"seed": 3})
    suit = st.rs.pieces.columns["suit"]
    for _ in range(200):  # the first follow where the seat holds the led suit and another
        if st.rs.phases[st.pidx].kind == "tricks" and st.pdata.plays:
            led = suit[st.pdata.plays[0].pieces[0]]
            off = [p for p in st.hand(st.to_act) if suit[p] != led]
            if off and any(suit[p] == led for p in st.hand(st.to_act)):
                break
        st.apply(st.legal_moves()[0])
    else:
        pytest.fail("no follow with a card to revoke with")
    with pytest.raises(IllegalMoveError, match="only where the trick phase says what follows"):
        st.apply(f"revoke {st.rs.pieces.type_id(off[0])}")


def test_a_lead_is_no_revoke() -> None:
    st = start_arranged(ruleset("rook"), {"deal": DEAL})
    for move in TO_TRICK_2[:-1]:
        st.apply(move)
    with pytest.raises(IllegalMoveError, match="a lead is not one"):
        st.apply("revoke red-5")


def test_a_log_with_a_revoke_replays(tmp_path: Path) -> None:
    st = _rook_at_trick_2()
    st.apply("revoke yellow-13")
    st.apply("play green-6")
    st.apply("play black-6")
    path = tmp_path / "table.jsonl"
    write_log(path, st)
    again, _ = replay(path, ruleset("rook"))
    assert again.view(None) == st.view(None)
    assert again.hand_results[-1]["vars"]["reneged"] == [False, True]


def test_a_person_recording_a_table_game_may_type_one() -> None:
    from rulecraft.cli.move_input import resolve_move

    st = _rook_at_trick_2()
    move = resolve_move(st, "revoke yellow-13")  # what 'rulecraft play' reads a typed move with
    assert move.text == "revoke yellow-13"
    st.apply(move)
    assert st.to_act == 2
