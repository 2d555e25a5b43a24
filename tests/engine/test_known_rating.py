"""A play's class and strength kept on the play when they depend on the play alone.

A trick phase asks the class (and, in the best play's class, the strength) of every candidate of every
follow, and of every play made. When a combination's expression reads nothing but the play
(``kind(piece)``, ``['set', size]``), its value is worked out once and kept on the play
(``Play.known_cls`` / ``known_strength``); an expression that reads the position (``is_lead``, the
seat, what a seat has seen) is asked every time. Kept values must be what asking gives, at every
decision of seeded games.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from rulecraft.engine.combos import NOT_KNOWN
from rulecraft.engine.game import Game
from rulecraft.engine.phases.tricks import Tricks, play_alone
from rulecraft.load import load_ruleset


def _asked(st, phase, play):  # type: ignore[no-untyped-def]
    """The class and strength of ``play`` asked of the expressions themselves, nothing kept."""
    ctx = st.ctx
    ctx.combo = play
    spec = phase.combo_by_id[play.combo]
    cls = spec.cls(ctx) if spec.cls is not None else (
        play.entry_cls if play.entry is not None else (play.combo, len(play.pieces)))
    strength = spec.strength(ctx) if spec.strength is not None else play.entry_strength
    return cls, strength


@pytest.mark.parametrize("ref", ["luk-fu", "tien-gow"])
def test_kept_ratings_are_what_the_expressions_give(ref: str) -> None:
    rs = load_ruleset(ref)
    rng = random.Random(7)
    compared = kept = 0
    for seed in range(10):
        st = Game(rs, seed, 2).new_state()
        while not st.is_over:
            moves = st.legal_moves()
            phase = st.rs.phases[st.pidx] if st.pidx < len(st.rs.phases) else None
            if isinstance(phase, Tricks) and st.pdata.options is not None:
                st.ctx.seat = st.to_act
                for _move, play in st.pdata.options.each_play():
                    if play is None or not play.face_up:
                        continue
                    st.ctx.memo = None
                    got = phase._rate(st, play)
                    assert got == _asked(st, phase, play), (play, got)
                    compared += 1
                    kept += play.known_cls is not NOT_KNOWN
            st.apply(moves[rng.randrange(len(moves))])
    assert compared > 500 and kept > 100


def test_only_expressions_of_the_play_alone_are_kept() -> None:
    rs = load_ruleset("luk-fu")
    combos = rs.combinations
    assert play_alone(combos["single"].cls)  # suit(piece)
    assert play_alone(combos["sequence"].strength)  # suit_rank(piece) * 10 + top
    assert not play_alone(combos["single"].strength)  # reads is_lead
    assert not play_alone(combos["set"].strength)  # reads is_lead
    rook = load_ruleset("rook").combinations["single"]
    assert not play_alone(rook.strength)  # reads trump and the lead


def test_a_copy_with_other_pieces_rates_itself_again() -> None:
    # Determinization remaps hidden pieces with dataclasses.replace: a kept rating must not follow.
    rs = load_ruleset("tien-gow")
    phase = next(p for p in rs.phases if isinstance(p, Tricks))
    st = Game(rs, 1, 1).new_state()
    singles = rs.combinations["single"].singles
    first = singles[0]
    other = next(p for p in singles if phase._rate(st, p) != phase._rate(st, first))
    assert first.known_cls is not NOT_KNOWN and first.known_strength is not NOT_KNOWN
    copy = dataclasses.replace(first, pieces=other.pieces)
    assert copy.known_cls is NOT_KNOWN and copy.known_strength is NOT_KNOWN
    assert phase._rate(st, copy) == phase._rate(st, other)
