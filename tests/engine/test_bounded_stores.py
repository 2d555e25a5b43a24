"""The stores that reuse moves and plays across games are bounded, and starting them again changes no game.

A ruleset keeps each distinct move (``MoveBook``) and each face-down or free play of a set of pieces
(``FaceDownPlays``) for reuse. A game of a double pack meets new sets in every game, so a long
simulation or a server grew them without end. With the bounds made tiny, the same seeded games are
played move for move as with room for everything, and the stores stay within their bounds.
"""

from __future__ import annotations

import random

import pytest

from rulecraft.engine import combos, moves
from rulecraft.engine.game import Game
from rulecraft.engine.ruleset import Ruleset
from rulecraft.load import load_ruleset


def _games(ref: str, seeds: range) -> tuple[list[list[str]], Ruleset]:
    rs = load_ruleset(ref)
    rs.moves._cache.clear()  # (the ruleset is loaded once per process: its stores start empty here)
    for store in _play_stores(rs):
        store._made.clear()
    played = []
    for seed in seeds:
        st = Game(rs, seed, max_hands=1).new_state()
        rng = random.Random(seed)
        texts = []
        while not st.is_over and len(texts) < 400:
            legal = st.legal_moves()
            move = legal[rng.randrange(len(legal))]
            texts.append(move.text)
            st.apply(move)
        played.append([*texts, repr(st.result)])
    return played, rs


def _play_stores(rs: Ruleset) -> list[combos.FaceDownPlays]:
    """The phases' stores of face-down and free plays (made at first use)."""
    stores = [getattr(p, "_down", None) for p in rs.phases]
    stores += [free._sets for free in (getattr(p, "_free", None) for p in rs.phases) if free is not None]
    return [s for s in stores if isinstance(s, combos.FaceDownPlays)]


@pytest.mark.parametrize("ref", ["luk-fu", "sheng-ji"])
def test_stores_start_again_at_their_bound_and_every_game_is_the_same(ref: str,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    roomy, rs = _games(ref, range(3))
    grown = len(rs.moves._cache), max((len(s._made) for s in _play_stores(rs)), default=0)
    monkeypatch.setattr(moves, "MOVES_KEPT", 10)
    monkeypatch.setattr(combos, "PLAYS_KEPT", 10)
    tight, rs = _games(ref, range(3))
    assert tight == roomy
    assert grown[0] > 11 and grown[1] > 11, grown  # (with room, both stores outgrew the tight bound)
    assert len(rs.moves._cache) <= 11
    assert all(len(s._made) <= 11 for s in _play_stores(rs))
