"""The default agent's play in shedding rounds (agents/policy.py ``shed_move``, agents/playability.py):
rule-agnostic heuristics in place of a one-ply search by playouts to the hand's end (~10 ms of CPU a decision
in Crazy Eights and Fan Tan)."""

from __future__ import annotations

import random
from collections.abc import Iterator

from support import ruleset

from rulecraft.agents.default import DefaultAgent
from rulecraft.agents.playability import learn
from rulecraft.agents.policy import phase_kind
from rulecraft.engine.game import Game
from rulecraft.engine.ruleset import Ruleset
from rulecraft.engine.state import State

CRAZY_EIGHTS = "crazy-eights"
FAN_TAN = "fan-tan"


def _shed_decisions(rs: Ruleset, games: int, seed: int = 1, by_default: bool = False) -> Iterator[State]:
    """Shedding decisions with a choice, from random games (one hand each), or games of default seats."""
    rng = random.Random(seed)
    for g in range(games):
        st = Game(rs, seed + g, max_hands=1).new_state()
        agents = [DefaultAgent(seed + g, s) for s in range(rs.seats.count)]
        while not st.is_over:
            legal = st.legal_moves()
            if phase_kind(st) == "shed" and len(legal) > 1:
                yield st
            seat = st.to_act
            assert seat is not None
            st.apply(agents[seat].choose(st, seat) if by_default else legal[rng.randrange(len(legal))])


def _rank(rs: Ruleset, piece: str) -> int:
    return int(rs.pieces.columns["rank"][rs.pieces.columns["id"].index(piece)])


def test_playability_is_learnt_from_the_restrictions() -> None:
    rs = ruleset(CRAZY_EIGHTS)
    ids = rs.pieces.columns["id"]
    v = learn(rs)
    eights = [v[p] for p in range(len(ids)) if _rank(rs, ids[p]) == 8]
    others = [v[p] for p in range(len(ids)) if _rank(rs, ids[p]) != 8]
    assert len(eights) == 4 and min(eights) > 0.9 > 0.3 > max(others)  # an eight goes on anything
    fan = ruleset(FAN_TAN)
    w = learn(fan)
    fan_ids = fan.pieces.columns["id"]
    by_rank = {r: [w[p] for p in range(len(fan_ids)) if _rank(fan, fan_ids[p]) == r] for r in range(1, 14)}
    # built from the sevens out: the farther from 7, the rarer the chance to shed it
    assert min(by_rank[7]) > max(by_rank[6] + by_rank[8]) - 0.1
    assert min(by_rank[6] + by_rank[8]) > max(by_rank[1] + by_rank[13])


def test_it_never_draws_while_it_can_play() -> None:
    rs = ruleset(CRAZY_EIGHTS, draw_when="any-time")  # a seat may draw instead of playing
    seen = 0
    for st in _shed_decisions(rs, 6):
        seat = st.to_act
        assert seat is not None
        verbs = {m.verb for m in st.legal_moves()}
        if "play" in verbs and "draw" in verbs:
            seen += 1
            assert DefaultAgent(3, seat).choose(st.clone(), seat).verb == "play"
    assert seen > 20


def test_it_keeps_what_plays_anywhere_while_it_has_another_play() -> None:
    rs = ruleset(CRAZY_EIGHTS)
    seen = 0
    for st in _shed_decisions(rs, 10):
        seat = st.to_act
        assert seat is not None
        plays = [m for m in st.legal_moves() if m.verb == "play"]
        eights = [m for m in plays if _rank(rs, str(m).split()[1]) == 8]
        if eights and len(plays) > len(eights) and len(st.hand(seat)) > 1:
            seen += 1
            chosen = DefaultAgent(3, seat).choose(st.clone(), seat)
            assert chosen not in eights, f"played {chosen} holding {[str(m) for m in plays]}"
    assert seen > 5


def test_it_goes_out_when_a_play_empties_its_hand() -> None:
    rs = ruleset(CRAZY_EIGHTS, draw_when="any-time")  # (else a last piece that can be played is the only move)
    out = 0
    for st in _shed_decisions(rs, 12, by_default=True):  # (random seats draw their hands long)
        seat = st.to_act
        assert seat is not None
        if len(st.hand(seat)) == 1 and any(m.verb == "play" for m in st.legal_moves()):
            out += 1
            assert DefaultAgent(3, seat).choose(st.clone(), seat).verb == "play"
    assert out > 3


def test_it_names_the_suit_it_holds_most() -> None:
    rs = ruleset(CRAZY_EIGHTS)
    suits = rs.pieces.columns["suit"]
    named = 0
    for st in _shed_decisions(rs, 12):
        seat = st.to_act
        assert seat is not None
        legal = st.legal_moves()
        if all(m.verb == "name" for m in legal):
            named += 1
            held = [suits[p] for p in st.hand(seat)]
            chosen = DefaultAgent(3, seat).choose(st.clone(), seat)
            assert held.count(chosen.value) == max(held.count(m.value) for m in legal)
    assert named > 3


def test_fan_tan_keeps_its_sevens_while_it_can_shed_a_piece_far_from_them() -> None:
    rs = ruleset(FAN_TAN)
    seen = 0
    for st in _shed_decisions(rs, 4):
        seat = st.to_act
        assert seat is not None
        plays = [m for m in st.legal_moves() if m.verb == "play"]
        sevens = [m for m in plays if _rank(rs, str(m).split()[1]) == 7]
        if sevens and any(abs(_rank(rs, str(m).split()[1]) - 7) > 1 for m in plays):
            seen += 1
            assert DefaultAgent(3, seat).choose(st.clone(), seat) not in sevens
    assert seen > 5


# ---------------------------------------------------------------------- passing pieces on before a climb
PRESIDENT = "president"


def _card_returns(rs: Ruleset, games: int, seed: int = 1) -> Iterator[State]:
    """The second hand's card returns (``give``, before the climbing round), reached by random play."""
    rng = random.Random(seed)
    for g in range(games):
        st = Game(rs, seed + g, max_hands=2).new_state()
        while not st.is_over:
            legal = st.legal_moves()
            if st.hand_no == 2 and phase_kind(st) == "each_seat" and len(legal) > 1:
                yield st
            st.apply(legal[rng.randrange(len(legal))])


def test_a_card_return_gives_the_lowest_pieces_breaking_no_set_it_can_keep() -> None:
    rs = ruleset(PRESIDENT)
    order = rs.pieces.columns["order"]
    seen = lone_lowest = 0
    for st in _card_returns(rs, 8):
        seat = st.to_act
        assert seat is not None
        moves = st.legal_moves()
        assert all(m.verb == "give" for m in moves)
        given = DefaultAgent(3, seat).choose(st.clone(), seat).pieces[0]
        held = sorted(order[p] for p in st.hand(seat))
        seen += 1
        assert order[given] <= held[len(held) // 3], f"gave {order[given]} from {held}"  # among its lowest third
        if held.count(held[0]) == 1:  # its lowest piece is in no set: that is the one to give
            lone_lowest += 1
            assert order[given] == held[0]
        else:  # of a set of its lowest: a lone piece a little higher goes first, if it has one
            lone = [o for o in held if held.count(o) == 1]
            if lone and lone[0] <= held[2]:
                assert order[given] == lone[0], f"gave {order[given]} from {held}"
    assert seen > 8 and lone_lowest > 2
