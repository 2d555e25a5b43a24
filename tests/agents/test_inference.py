"""What a seat has learnt (a suit it saw another seat fail to follow, piles it saw picked up) shapes its samples."""

from __future__ import annotations

import random

from support import ruleset

from rulecraft.agents.inference import learnt_fits
from rulecraft.agents.rollout import sample_world
from rulecraft.engine.determinize import hidden_pieces
from rulecraft.engine.game import Game
from rulecraft.engine.state import State


def _after_a_void(seed: int) -> tuple[State, int, str] | None:
    """A Rook state in the trick phase, after some seat failed to follow a non-trump suit led (random play)."""
    st = Game(ruleset("rook"), seed).new_state()
    rng = random.Random(seed)
    suit = st.rs.pieces.columns["suit"]
    while not st.is_over:
        phase = st.rs.phases[st.pidx]
        if phase.kind == "tricks" and st.pdata.plays and len(st.pdata.plays) < 4:
            led = st.pdata.plays[0].pieces[0]
            seat = st.to_act
            trump = st.vars[st.rs.var_index["trump"]]
            legal = st.legal_moves()
            off = [m for m in legal if suit[m.pieces[0]] not in (suit[led], "bird")]
            if off and suit[led] not in (trump, "bird"):
                st.apply(off[0])
                if st.to_act is not None and st.to_act != seat and st.rs.phases[st.pidx].kind == "tricks":
                    return st, seat, str(suit[led])
                return None
        legal = st.legal_moves()
        st.apply(legal[rng.randrange(len(legal))])
    return None


def test_a_seat_that_could_not_follow_is_dealt_none_of_the_suit() -> None:
    found = [x for x in (_after_a_void(s) for s in range(40)) if x is not None]
    assert len(found) >= 3
    suit_col = ruleset("rook").pieces.columns["suit"]
    for st, void_seat, suit in found[:5]:
        seat = st.to_act
        assert seat is not None
        hand = st.hand_instance(void_seat)
        # The truth agrees with what was learnt: the seat really holds none of the suit.
        assert not [p for p in st.hand(void_seat) if suit_col[p] == suit]
        hidden_of_suit = [p for p in hidden_pieces(st, seat) if suit_col[p] == suit]
        fits = learnt_fits(st, seat, random.Random(1))
        assert fits is not None
        assert all(not fits(hand, p) for p in hidden_of_suit)
        rng = random.Random(2)
        plain = informed = 0
        for _ in range(30):
            plain += sum(1 for p in sample_world(st, seat, rng).hand(void_seat) if suit_col[p] == suit)
            informed += sum(1 for p in sample_world(st, seat, rng, fits).hand(void_seat) if suit_col[p] == suit)
        assert informed == 0
        if hidden_of_suit and len(st.hand(void_seat)) > 2:
            assert plain > 0  # without the inference the samples would give it some


def test_revealed_pieces_stay_with_the_seat_that_picked_them_up() -> None:
    rs = ruleset("yukushi")
    checked = 0
    for seed in range(30):
        st = Game(rs, seed).new_state()
        rng = random.Random(seed)
        while not st.is_over and checked < 4:
            legal = st.legal_moves()
            challenge = [m for m in legal if m.verb == "challenge"]
            st.apply(challenge[0] if challenge and rng.random() < 0.5 else legal[rng.randrange(len(legal))])
            last = st.history[len(st.history) - 1] if len(st.history) else {}
            if last.get("type") != "reveal" or st.is_over or st.to_act is None:
                continue
            picker, seat = int(last["picker"]), st.to_act
            if picker == seat:
                continue
            shown = [p for p in range(rs.pieces.count) if rs.pieces.type_id(p) in last["pieces"]]
            fits = learnt_fits(st, seat, random.Random(3))
            assert fits is not None
            for _ in range(10):
                world = sample_world(st, seat, rng, fits)
                assert all(world.loc[p] == st.hand_instance(picker) for p in shown)
            checked += 1
        if checked >= 4:
            break
    assert checked >= 2
