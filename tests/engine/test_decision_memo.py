"""Rule functions remembered while a trick decision's options are built, and never after.

Luk Fu's lead rules ask ``old(p)`` of each card several times per lead (the compiler remembers it,
``dsl.compiler.remembered``); what is old changes as cards are seen and discarded. Seeded random
hands are played twice in lockstep, once as the engine plays them and once with remembering turned
off: at every decision the moves must be the same, in order. A memo kept past a move (into the next
decision) would answer with what was true before the move, and the moves would differ.
"""

from __future__ import annotations

import random

import pytest

from rulecraft.dsl import compiler
from rulecraft.engine.game import Game
from rulecraft.load import load_ruleset


@pytest.mark.parametrize("options", [{}, {"old_cards": "public-plus-original-run"}, {"established_by_failure": "on"}])
def test_remembering_never_changes_a_decision(options: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    rs = load_ruleset("luk-fu", options)
    rng = random.Random(5)
    decisions = 0
    for seed in range(12):
        remembered, computed = Game(rs, seed, 3).new_state(), Game(rs, seed, 3).new_state()
        while not remembered.is_over:
            moves = remembered.legal_moves()
            assert remembered.ctx.memo is None  # dropped once the options are built
            with monkeypatch.context() as m:
                m.setattr(compiler, "MEMO", "no_memo_here")  # remembered() finds no memo: computes
                plain = computed.legal_moves()
            assert [str(x) for x in moves] == [str(x) for x in plain]
            move = moves[rng.randrange(len(moves))]
            remembered.apply(move)
            computed.apply(plain[moves.index(move)])
            decisions += 1
    assert decisions > 500
