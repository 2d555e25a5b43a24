"""Decision windows during a deal (deal.window): the deal pauses after each packet for the seat that
received it, deals the same pieces to the same places as without the window, and a show is seen by
every seat and kept by logs (Sheng Ji's declaring; the scenarios in tests/scenarios/sheng-ji say who
declares)."""

from __future__ import annotations

from support import ruleset

from rulecraft.engine.game import Game
from rulecraft.engine.state import State
from rulecraft.runs.log import replay, write_log


def _after_deal(st: State, show: bool) -> tuple[State, list[int]]:
    """Answer every window (the first allowed show when ``show``, else pass); the seats asked, in order."""
    asked = []
    while st.rs.phases[st.pidx].id == "deal":
        assert st.to_act is not None
        asked.append(st.to_act)
        legal = st.legal_moves()
        shows = [m for m in legal if m.verb == "play"]
        st.apply(shows[0] if show and shows else legal[0])
    return st, asked


def test_every_seat_is_asked_after_each_of_its_cards_whatever_it_holds() -> None:
    st, asked = _after_deal(Game(ruleset("sheng-ji"), 5).new_state(), show=False)
    assert len(asked) == 100  # 25 cards to each of 4 seats, one at a time
    assert asked[:8] == [0, 3, 2, 1, 0, 3, 2, 1]  # counter-clockwise from the starter
    assert st.vars[st.rs.var_index["declared"]] == 0


def test_a_window_deals_the_same_cards_to_the_same_hands() -> None:
    plain = Game(ruleset("sheng-ji", trump="hearts"), 7).new_state()
    paused, _ = _after_deal(Game(ruleset("sheng-ji"), 7).new_state(), show=False)
    for seat in range(4):
        assert sorted(paused.hand(seat)) == sorted(plain.hand(seat)) != []


def test_a_show_is_seen_by_every_seat_and_sets_the_trump_suit() -> None:
    st = Game(ruleset("sheng-ji"), 11).new_state()
    while not any(m.verb == "play" for m in st.legal_moves()):
        st.apply("pass")
    seat = st.to_act
    assert seat is not None
    move = next(m for m in st.legal_moves() if m.verb == "play")
    card = st.rs.pieces.type_id(move.pieces[0])
    st.apply(move)
    assert st.vars[st.rs.var_index["trump"]] == card[0]  # the suit of the 2 shown
    assert st.vars[st.rs.var_index["declarer"]] == seat
    other = (seat + 1) % 4
    assert st.view(other)["zones"][f"hand[{seat}]"]["pieces"] == [card]  # the rest of the hand unseen
    assert [m.text for m in st.legal_moves()] == ["pass"]  # asked again; one declaration only


def test_a_game_with_shows_replays_from_its_log(tmp_path: object) -> None:
    st, _ = _after_deal(Game(ruleset("sheng-ji"), 13).new_state(), show=True)
    assert st.vars[st.rs.var_index["declared"]] > 0
    path = f"{tmp_path}/game.jsonl"
    write_log(path, st)
    again, _ = replay(path, ruleset("sheng-ji"))
    ids = st.rs.pieces.type_id  # (a log names pieces by type: which of two identical copies is not kept)
    for seat in range(4):
        assert sorted(map(ids, again.hand(seat))) == sorted(map(ids, st.hand(seat)))
    assert again.vars == st.vars and again.to_act == st.to_act
