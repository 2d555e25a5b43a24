"""The book of moves a ruleset reuses across games is bounded, and starting it again changes no game.

A ruleset keeps each distinct move (``MoveBook``) for reuse. A game of a double pack meets new sets of
pieces in every game (Sheng Ji: some 250 new moves a hand), so a long simulation or a server grew the
book without end. With the bound made tiny, the same seeded games are played move for move as with
room for everything, and the book stays within its bound.
"""

from __future__ import annotations

import random

import pytest
from support import random_move_texts

from rulecraft.engine import moves
from rulecraft.engine.game import Game
from rulecraft.engine.ruleset import Ruleset
from rulecraft.load import load_ruleset


def _games(rs: Ruleset, seeds: range) -> list[list[str]]:
    played = []
    for seed in seeds:
        st = Game(rs, seed, max_hands=1).new_state()
        played.append([*random_move_texts(st, random.Random(seed), 400), repr(st.result)])
    return played


def test_the_book_of_moves_starts_again_at_its_bound_and_every_game_is_the_same(
        monkeypatch: pytest.MonkeyPatch) -> None:
    rs = load_ruleset("sheng-ji")
    roomy = _games(rs, range(3))
    made = 0
    make = moves.make_move

    def counted(*args: object) -> moves.Move:
        nonlocal made
        made += 1
        return make(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(moves, "make_move", counted)
    monkeypatch.setattr(moves, "MOVES_KEPT", 10)
    rs.moves._cache.clear()  # (the ruleset is loaded once per process: its book starts empty here)
    tight = _games(rs, range(3))
    assert tight == roomy
    assert made > 100  # (the book was filled and started again many times)
    assert len(rs.moves._cache) <= 11
