"""A ``show`` reaches every seat's view and copy of the log, also when it comes as a hand ends.

Before, a show only marked pieces for views while the hand lasted: one made as a hand ended (the
tricks a seat took, turned up for the table to count) reached no view, since the next hand began
before anyone was asked again, and no log, since the show was never recorded.
"""

from __future__ import annotations

import json
from pathlib import Path

from rulecraft.engine.game import Game
from rulecraft.load import load_ruleset
from rulecraft.runs.log import log_lines
from rulecraft.wording import Seats, event_text

COUNTED = """
extends: hearts
name: hearts-counted
source: "a test: the queen of spades shown where it lies when each hand ends"
match:
  after_hand:
    - {id: queen-shown, show: {pieces: "[piece('sQ')]"}}
"""


def test_the_card_that_must_lead_is_shown_in_every_seat_s_log_with_its_holder() -> None:
    st = Game(load_ruleset("hearts"), 2).new_state()
    while not any(e.get("type") == "show" for e in st.history):  # after the cards are passed
        st.apply(st.legal_moves()[0])
    rs = st.rs
    two = rs.pieces.instances[rs.pieces.by_type_id["c2"]][0]
    holder = next(s for s in range(4) if st.holds(s, two))
    for seat in range(4):
        shows = [json.loads(x) for x in log_lines(st, viewer=seat) if '"show"' in x]
        assert shows == [{"type": "show", "pieces": [["c2", f"hand[{holder}]"]]}]
        assert st.view(seat)["shown"] == shows
    assert event_text(shows[0], Seats(("a",) * 4), rs) == f"shown to all: c2 in hand (seat {holder})"


def test_a_show_as_the_hand_ends_is_in_the_next_hand_s_views_and_every_log(tmp_path: Path) -> None:
    path = tmp_path / "counted.yaml"
    path.write_text(COUNTED, encoding="utf-8")
    st = Game(load_ruleset(str(path)), 3).new_state()
    while st.hand_no == 1:
        st.apply(st.legal_moves()[0])
    won = next(e for e in reversed(st.history[:]) if e.get("type") == "show" and e["pieces"][0][0] == "sQ")
    place = won["pieces"][0][1]
    assert place.startswith("won[")  # where the queen lay as the hand ended: in a seat's taken tricks
    for seat in range(4):
        assert st.view(seat)["shown_last_hand"]["shown"][-1] == won
        assert json.dumps(won, sort_keys=True) in log_lines(st, viewer=seat)
