"""What taking a piece is worth, learnt by play (agents/piece_values.py), and the default agent's trick play
by it: in Hearts it played to win every trick and lost to random (4 of 40 games, an even share being 10)."""

from __future__ import annotations

from pathlib import Path

from support import ruleset

from rulecraft.agents.default import DefaultAgent
from rulecraft.agents.piece_values import piece_values
from rulecraft.engine.game import Game
from rulecraft.engine.state import State
from rulecraft.load import load_ruleset
from rulecraft.runs.scenario import start_arranged

BLACK_MARIA = Path(__file__).parents[2] / "variants" / "black-maria" / "base.rules"
SUITS = {f"hand[{seat}]": [f"{suit}{rank}" for rank in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q",
                                                        "K", "A")]
         for seat, suit in enumerate("hcds")}


def test_penalty_cards_are_learnt_from_the_scoring_and_nothing_else() -> None:
    # Black Maria: a heart costs 1, the queen of spades 13, the king 10, the ace 7; nothing else counts.
    rs = load_ruleset(str(BLACK_MARIA))
    values = piece_values(Game(rs, 1).new_state())
    ids = rs.pieces.columns["id"]
    worth = {ids[p]: values.worth[p] for p in range(len(ids))}
    hearts = [worth[pid] for pid in ids if pid.startswith("h")]
    assert all(v < 0 for v in hearts)
    assert worth["sQ"] < worth["sK"] < worth["sA"] < min(hearts)
    assert all(v == 0 for pid, v in worth.items() if pid[0] in "cd" or pid in ("s3", "s4", "sJ"))


def test_counters_scored_at_the_hands_end_are_learnt_through_the_contracts_noise() -> None:
    # Rook: the 5s count 5, the 10s and 14s 10, the Bird 20, nothing else; random bidding's contracts swing
    # the scores by far more (a fit of the outcome on the pieces taken found nothing clear): moving a piece
    # taken to the other side's tricks and finishing the hand as it went says what taking it was worth.
    rs = ruleset("rook")
    values = piece_values(Game(rs, 1).new_state())
    ids = rs.pieces.columns["id"]
    worth = {ids[p]: values.worth[p] for p in range(len(ids))}
    counters = [pid for pid in ids if pid.endswith(("-5", "-10", "-14"))]
    assert all(worth[pid] > 0 for pid in counters)
    assert worth["rook-bird"] > max(worth[pid] for pid in counters)
    assert all(v == 0 for pid, v in worth.items() if pid not in counters and pid != "rook-bird")


def _play(st: State, move: str) -> None:
    st.apply(next(m for m in st.legal_moves() if str(m) == move))


def _second_trick() -> State:
    """Hearts without passing, each seat dealt one suit: seat 1 leads clubs and takes every trick."""
    st = start_arranged(ruleset("hearts", passing="none"), {"deal": SUITS})
    for move in ("play c2", "play d2", "play s2", "play h2", "play c3", "play d3"):
        _play(st, move)
    return st


def test_hearts_a_seat_that_cannot_win_gives_away_the_queen_of_spades() -> None:
    st = _second_trick()
    assert st.to_act == 3
    assert str(DefaultAgent(5, 3).choose(st, 3)) == "play sQ"  # it gave its weakest spade before


def test_hearts_a_seat_of_penalty_cards_gives_away_its_strongest() -> None:
    st = _second_trick()
    _play(st, "play s4")
    assert st.to_act == 0
    assert str(DefaultAgent(5, 0).choose(st, 0)) == "play hA"  # it will never win a trick with it




def test_rounds_that_score_nothing_are_learnt_idle_and_the_scoring_ones_not() -> None:
    # German Whist: the first thirteen tricks only decide who draws which card of the stock; the last
    # thirteen score a point each. Random hands show it: winning an early trick is worth little.
    values = piece_values(Game(load_ruleset("german-whist"), 1).new_state())
    early = [values.idle(k) for k in range(1, 14)]
    late = [values.idle(k) for k in range(14, 27)]
    assert sum(early) >= 10
    assert not any(late)
    assert not piece_values(Game(ruleset("rook"), 1).new_state()).idle_rounds  # Rook's tricks are alike
