"""The generated trick decision (engine/phases/trick_code.py) offers exactly what the generic path offers.

Seeded random games of every Rook option choice are played on the generated path; at every trick
decision the generic path is asked too, on a clone, and the two move lists must be equal, in order.
"""

from __future__ import annotations

import random

import pytest
from support import ruleset

from rulecraft.engine.game import Game
from rulecraft.engine.phases.tricks import Tricks
from rulecraft.errors import IllegalMoveError
from rulecraft.rules.model import load_ruleset

ROOK_CHOICES = [{}, {"bird_rank": "lowest"}, {"bird_rank": "between-10-11"}, {"first_lead": "left-of-bidder"},
                {"nest_to": "bidder"}, {"ones": "kept"}, {"redeal": "not-allowed"}, {"bird_forced": "only-trump"}]


def _trick_phase(rs: object) -> Tricks:
    return next(p for p in rs.phases if isinstance(p, Tricks))  # type: ignore[attr-defined]


@pytest.mark.parametrize("options", ROOK_CHOICES,
                         ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "defaults")
def test_generated_and_generic_decisions_agree(options: dict[str, str]) -> None:
    rs = ruleset("rook", **options)
    phase = _trick_phase(rs)
    rng = random.Random(5)
    decisions = 0
    for seed in range(3):
        st = Game(rs, seed, max_hands=4).new_state()
        while not st.is_over:
            legal = st.legal_moves()
            if st.rs.phases[st.pidx] is phase:
                assert phase._generated, "Rook's trick phase has the shape the generated decision covers"
                generic = st.clone()
                generic.pdata.options = None
                assert phase._options(generic).moves == legal
                decisions += 1
            st.apply(legal[rng.randrange(len(legal))])
    assert decisions > 300


def test_a_refusal_is_still_explained_in_the_rule_s_words() -> None:
    rs = ruleset("rook")
    rng = random.Random(1)
    st = Game(rs, 3, max_hands=2).new_state()
    while True:  # find a follow where the seat holds a card it may not play
        legal = st.legal_moves()
        phase = st.rs.phases[st.pidx]
        if isinstance(phase, Tricks) and st.pdata.plays:
            hand = st.hand(st.to_act)  # type: ignore[arg-type]
            refused = [p for p in hand if all(m.pieces != (p,) for m in legal)]
            if refused:
                break
        st.apply(legal[rng.randrange(len(legal))])
    with pytest.raises(IllegalMoveError, match=r"follow the led suit|must play it"):
        st.apply(f"play {rs.pieces.type_id(refused[0])}")


@pytest.mark.parametrize("ref", ["luk-fu", "tien-gow"])
def test_phases_of_other_shapes_keep_the_generic_path(ref: str) -> None:
    rs = load_ruleset(ref)
    st = Game(rs, 1, max_hands=1).new_state()
    rng = random.Random(1)
    while not st.is_over and not isinstance(st.rs.phases[st.pidx], Tricks):
        legal = st.legal_moves()
        st.apply(legal[rng.randrange(len(legal))])
    st.legal_moves()
    assert _trick_phase(rs)._generated is False
