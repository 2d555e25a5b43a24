"""A new game is a clone of its ruleset's template (``engine.state.started``): the same game, move for move,
as one built and started the long way, and no game played from it changes the next."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rulecraft.engine.game import Game
from rulecraft.engine.ruleset import Ruleset
from rulecraft.engine.state import State, start
from rulecraft.load import load_ruleset

REFS = ["rook", "hearts", "spades", "big-two", "doubt", "luk-fu", "tien-gow", "yukushi", "euchre", "fan-tan"]


def _built(rs: Ruleset, seed: int, max_hands: int) -> State:
    st = State(rs, seed)
    st.hand_limit = min(st.hand_limit, max_hands)
    start(st)
    return st


def _picture(st: State) -> tuple[object, ...]:
    return ([list(z) for z in st.zones], list(st.loc), bytes(st.face_down), bytes(st.seen_public),
            list(st.downed_by), list(st.dealt_owner), st.vars, st.tricks, st.active, st.hand_no, st.hand_limit,
            st.pidx, st.to_act, st.signal, st.is_over, st.result, list(st.history), st.fired, st.hand_fired,
            st.payments, st.hand_results, st.marks, st.known, st.cells, st.seed, st.rng.getstate(),
            [m.text for m in st.legal_moves()])


@pytest.mark.parametrize("ref", REFS, ids=lambda r: Path(r).stem)
def test_a_game_from_the_template_is_the_game_built_the_long_way(ref: str) -> None:
    rs = load_ruleset(ref)
    for seed in range(4):
        ours, theirs = Game(rs, seed, 2).new_state(), _built(rs, seed, 2)
        assert _picture(ours) == _picture(theirs)
        rng = random.Random(seed)
        for _ in range(400):  # the same moves: the same game (chance after the first hand included)
            if ours.is_over:
                break
            legal = ours.legal_moves()
            move = legal[rng.randrange(len(legal))]
            ours.apply(move)
            theirs.apply(move.text)
        assert _picture(ours) == _picture(theirs)


def test_a_game_played_leaves_the_next_game_as_it_would_be() -> None:
    rs = load_ruleset("rook")
    first = _picture(Game(rs, 7, 3).new_state())
    st = Game(rs, 7, 3).new_state()
    rng = random.Random(1)
    while not st.is_over:  # changes every list the template's clone was given
        legal = st.legal_moves()
        st.apply(legal[rng.randrange(len(legal))])
    assert _picture(Game(rs, 7, 3).new_state()) == first
