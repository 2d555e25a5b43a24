"""``last_round`` read as code, inline and per candidate, agrees with what it means.

The trick scope gives ``last_round`` as Python over ``ctx`` (read inline by generated code) and over
the candidate ``_it`` (read per candidate by a restriction judged over many). Both must be what the
rule means, at every trick decision of seeded games: after the lead, whether the lead emptied the
leader's hand; before it, whether the play considered would empty the hand of the seat asked about
(else the leader's).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from rulecraft.dsl import T
from rulecraft.engine.builder import Builder
from rulecraft.engine.game import Game
from rulecraft.engine.phases.tricks import Tricks
from rulecraft.load import load_ruleset


def _meant(ctx: Any) -> bool:
    d = ctx.st.pdata
    if d.plays:
        return bool(d.last)
    seat = ctx.seat if ctx.seat is not None else d.leader
    return ctx.combo is not None and len(ctx.st.hand(seat)) == len(ctx.combo.pieces)


@pytest.mark.parametrize("ref", ["tien-gow", "luk-fu", "rook", "hearts"])
def test_last_round_code_and_item_code_agree_with_the_meaning(ref: str) -> None:
    rs = load_ruleset(ref)
    scope = rs.trick_scope
    assert scope is not None
    binding = scope.lookup_name("last_round")
    assert binding is not None and binding.getter is not None and binding.item_code is not None
    # the name judged over many candidates at once, as a restriction is (its per-candidate code)
    selecting = Builder().expr("last_round", scope, T.BOOL, "test", select=True)
    rng = random.Random(5)
    compared = truths = 0
    for seed in range(8):
        st = Game(rs, seed, 1).new_state()
        while not st.is_over:
            moves = st.legal_moves()
            phase = st.rs.phases[st.pidx] if st.pidx < len(st.rs.phases) else None
            if isinstance(phase, Tricks) and st.pdata.options is not None:
                ctx = st.ctx
                plays = [p for _m, p in st.pdata.options.each_play() if p is not None]
                for seat in (st.to_act, None, *range(rs.seats.count)):
                    ctx.seat = seat
                    ctx.combo = None
                    assert binding.getter(ctx) == _meant(ctx)
                    chosen = selecting.select(ctx, plays)
                    for play in plays:
                        ctx.combo = play
                        meant = _meant(ctx)
                        assert binding.getter(ctx) == meant, (seat, play)
                        assert (play in chosen) == meant, (seat, play)
                        compared += 1
                        truths += meant
            st.apply(moves[rng.randrange(len(moves))])
    assert compared > 300 and truths > 0
