"""The default agent's play in climbing rounds (agents/policy.py ``climb_move``): rule-agnostic heuristics in
place of a one-ply search by random playouts, which cost ~40 ms of CPU a decision in Big Two."""

from __future__ import annotations

import math

from support import ruleset
from test_default_ismcts import _team_wins
from test_mc import binomial_tail

from rulecraft.agents.default import DefaultAgent
from rulecraft.engine.state import State
from rulecraft.runs.scenario import start_arranged

LEADER = ["d3", "c3", "d4", "c5", "h6", "d7", "c8", "h9", "d10", "cJ", "hQ", "dK", "s2"]
# h3 s3 a pair (s3 in a spade flush too), c4 in no larger play: answering a single, c4 breaks nothing
NEXT = ["h3", "s3", "c4", "s6", "h7", "d9", "s10", "dJ", "sQ", "cK", "hA", "sA", "d2"]


def _big_two() -> State:
    return start_arranged(ruleset("big-two"), {"deal": {"hand[0]": LEADER, "hand[3]": NEXT}})


def test_it_leads_its_largest_play_of_low_pieces() -> None:
    st = _big_two()
    assert st.to_act == 0
    offered = {str(m) for m in st.legal_moves()}
    assert {"play d3", "play d3 c3", "play d3 d4 c5 h6 d7", "play d3 d4 d7 d10 dK"} <= offered
    # not the single or the pair (fewer pieces), nor the flush (it spends the king)
    assert str(DefaultAgent(5, 0).choose(st, 0)) == "play d3 d4 c5 h6 d7"


def test_it_beats_a_single_with_a_piece_that_breaks_no_larger_play() -> None:
    st = _big_two()
    st.apply(st.parse_move("play d3"))
    assert st.to_act == 3
    assert str(DefaultAgent(5, 3).choose(st, 3)) == "play c4"  # h3, the lowest, would break the pair of 3s


def test_it_keeps_its_strongest_pieces_rather_than_spend_them_on_a_low_play() -> None:
    # Its only pair is of aces, among its three strongest pieces: it passes on a pair of 3s.
    only_aces = ["hA", "sA", "s4", "h5", "d6", "c7", "s8", "d9", "h10", "dJ", "cQ", "hK", "c2"]
    st = start_arranged(ruleset("big-two"), {"deal": {"hand[0]": LEADER, "hand[3]": only_aces}})
    st.apply(st.parse_move("play d3 c3"))
    assert st.to_act == 3
    assert {str(m) for m in st.legal_moves()} == {"pass", "play hA sA"}
    assert str(DefaultAgent(5, 3).choose(st, 3)) == "pass"


def test_default_beats_random_at_big_two() -> None:
    # As test_default_ismcts.test_default_beats_random: random would pass it with probability under 1%.
    wins = _team_wins("big-two", 20, "default", "random", None)
    p_value = binomial_tail(20, math.floor(wins), 1 / 4)
    assert p_value < 0.01, f"default won {wins:g} of 20 games of Big Two (p = {p_value:.4f} against random)"
