"""A game's history reads as the list of event dicts the log writes, moves included."""

from __future__ import annotations

import random

from support import ruleset

from rulecraft.engine.game import Game
from rulecraft.engine.history import History
from rulecraft.engine.moves import MoveBook

BOOK = MoveBook(["red-5", "red-6", "rook-bird"])


def _history() -> History:
    h = History([{"type": "hand", "number": 1}])
    h.add_move(2, BOOK.get("play", (0,)))
    h.append({"type": "round", "winner": 2, "value": 1})
    h.add_move(3, BOOK.get("bid", (), "85"))
    return h


def test_moves_read_as_move_events_in_order_with_the_other_events() -> None:
    h = _history()
    assert len(h) == 4
    assert list(h) == [{"type": "hand", "number": 1}, {"type": "move", "seat": 2, "move": "play red-5"},
                       {"type": "round", "winner": 2, "value": 1}, {"type": "move", "seat": 3, "move": "bid 85"}]
    assert h[1] == {"type": "move", "seat": 2, "move": "play red-5"}
    assert h[-1]["move"] == "bid 85"
    assert h[1:3] == [{"type": "move", "seat": 2, "move": "play red-5"}, {"type": "round", "winner": 2, "value": 1}]
    assert [e["type"] for e in reversed(h)] == ["move", "round", "move", "hand"]
    assert h == list(h) and h != list(h)[:-1]


def test_a_copy_and_a_read_event_are_independent_of_the_record() -> None:
    h = _history()
    c = h.copy()
    c.add_move(0, BOOK.get("pass"))
    assert len(h) == 4 and len(c) == 5 and h != c
    h[1]["move"] = "changed"  # a move's event is made when read: changing it changes nothing recorded
    assert h[1]["move"] == "play red-5"


def test_a_played_game_records_every_move_it_made() -> None:
    st = Game(ruleset("rook"), 4, max_hands=1).new_state()
    rng = random.Random(4)
    made = []
    while not st.is_over:
        legal = st.legal_moves()
        move = legal[rng.randrange(len(legal))]
        made.append((st.to_act, move.text))
        st.apply(move)
    assert [(e["seat"], e["move"]) for e in st.history if e["type"] == "move"] == made


def test_a_pickled_or_deep_copied_history_records_into_its_own_list() -> None:
    # (``append`` is the record's own list.append: a copy made any way must append to the copy's list)
    import copy
    import pickle

    for made in (pickle.loads(pickle.dumps(_history())), copy.deepcopy(_history())):
        original = _history()
        made.append({"type": "round", "winner": 0, "value": 1})
        made.add_move(1, BOOK.get("pass"))
        assert len(made) == 6 and list(made)[:4] == list(original)
    h = _history()
    c = copy.deepcopy(h)
    c.append({"type": "round", "winner": 0, "value": 1})
    assert len(h) == 4 and len(c) == 5
