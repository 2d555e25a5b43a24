"""Extra calls any seat may make (``by: any_seat``): who is asked tells nobody anything about a hand,
and a game with them stays deterministic (the Rook scenarios redeal-any-time* pin the rule itself)."""

from __future__ import annotations

from support import ruleset

from rulecraft.engine.state import State
from rulecraft.runs.log import log_lines
from rulecraft.runs.scenario import start_arranged
from rulecraft.runs.simulate import play_game

OTHERS = {
    "hand[0]": ["red-10", "red-14", "yellow-5", "yellow-7", "yellow-8", "yellow-9", "yellow-10", "yellow-11",
                "rook-bird"],
    "hand[1]": ["red-5", "red-6", "red-7", "red-8", "red-9", "red-11", "red-12", "red-13", "yellow-6"],
    "nest": ["yellow-12", "yellow-13", "yellow-14", "green-10", "green-14"],
}
# seat 2 holds no counter; the same deal with seat 2's green-6 and seat 3's green-5 (a counter) swapped
NO_COUNTER = {"hand[2]": ["green-6", "green-7", "green-8", "green-9", "green-11", "green-12", "green-13", "black-6",
                          "black-7"],
              "hand[3]": ["black-5", "black-8", "black-9", "black-10", "black-11", "black-12", "black-13",
                          "black-14", "green-5"]}
A_COUNTER = {"hand[2]": ["green-5", "green-7", "green-8", "green-9", "green-11", "green-12", "green-13", "black-6",
                         "black-7"],
             "hand[3]": ["black-5", "black-8", "black-9", "black-10", "black-11", "black-12", "black-13",
                         "black-14", "green-6"]}


def _start(hands: dict[str, list[str]]) -> State:
    return start_arranged(ruleset("rook", redeal="any-time"), {"deal": {**OTHERS, **hands}})


def test_being_asked_shows_nothing_of_a_hand() -> None:
    # Seats 0 and 1 cannot see hands 2 and 3: whether seat 2 holds a counter must not change what they
    # see, nor who is asked (a window asking only the seats that may call would ask seat 2 in one deal
    # and not in the other).
    a, b = _start(NO_COUNTER), _start(A_COUNTER)
    assert [m.text for m in a.legal_moves()] == ["pass", "call redeal"]
    assert [m.text for m in b.legal_moves()] == ["pass"]
    for _ in range(4):  # seats 2, 3 and 0 asked, then seat 1's bid
        for seat in (0, 1):
            assert a.view(seat) == b.view(seat)
            assert log_lines(a, viewer=seat) == log_lines(b, viewer=seat)
        move = "pass" if a.to_act != 1 else "bid 70"
        a.apply(move)
        b.apply(move)
    assert a.to_act == b.to_act == 3  # the next turn is seat 2's: seats 3, 0, 1 asked first


def test_the_asked_seat_and_the_turn_are_public() -> None:
    st = _start(NO_COUNTER)
    assert st.view(0)["public"] == {"asking": 2, "before_turn_of": 1, "calls_any_seat": ["redeal"]}
    for move in ("pass", "pass", "pass"):
        st.apply(move)
    assert "public" not in st.view(0)  # seat 1's own turn: no one is asked now


def test_seeded_games_with_any_time_calls_repeat() -> None:
    rs = ruleset("rook", redeal="any-time")
    one, _ = play_game(rs, 5, ["random"] * 4, max_hands=3)
    two, _ = play_game(rs, 5, ["random"] * 4, max_hands=3)
    assert list(one.history) == list(two.history)
    # dealer 0: before seat 1's first turn seats 2, 3 and 0 were asked, in that order
    assert [e["seat"] for e in one.history if e["type"] == "move"][:4] == [2, 3, 0, 1]
