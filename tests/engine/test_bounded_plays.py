"""The stores of face-down and free plays a ruleset reuses across games are bounded, and starting them
again changes no game.

A trick phase keeps each play of pieces it makes (``combos.FaceDownPlays``): Sheng Ji's free follows and
Luk Fu's face-down plays meet new sets in every game, so a long simulation grew the stores without end.
Plays are compared by identity, so a store starts again only as a game begins (``combos.between_games``).
With the bound made tiny the same seeded games are played move for move, the generated and generic
decisions still agree, and every store is within its bound when a game begins.
"""

from __future__ import annotations

import random

import pytest
from support import random_move_texts

from rulecraft.engine import combos
from rulecraft.engine.game import Game
from rulecraft.engine.phases.tricks import Tricks
from rulecraft.engine.ruleset import Ruleset
from rulecraft.load import load_ruleset


def _stores(rs: Ruleset) -> list[combos.FaceDownPlays]:
    """The trick phases' stores of plays (face-down plays, free follows), as far as they are made."""
    out = []
    for phase in rs.phases:
        if isinstance(phase, Tricks):
            out += [s for s in (phase._down, phase._free.made if phase._free else None) if s is not None]
    return out


def _games(rs: Ruleset, seeds: range, begun: list[int]) -> list[list[str]]:
    """Seeded random games, move texts and result; ``begun``: the largest store as each game began."""
    played = []
    for seed in seeds:
        st = Game(rs, seed, max_hands=1).new_state()
        begun.append(max((len(s._made) for s in _stores(rs)), default=0))
        played.append([*random_move_texts(st, random.Random(seed), 600), repr(st.result)])
    return played


@pytest.mark.parametrize("ref", ["sheng-ji", "luk-fu"])
def test_the_stores_of_plays_start_again_between_games_and_every_game_is_the_same(
        ref: str, monkeypatch: pytest.MonkeyPatch) -> None:
    rs = load_ruleset(ref)
    roomy = _games(rs, range(4), [])
    grown = max(len(s._made) for s in _stores(rs))
    assert grown > 20  # (games make more plays than the bound below)
    monkeypatch.setattr(combos, "PLAYS_KEPT", 10)
    begun: list[int] = []
    assert _games(rs, range(4), begun) == roomy
    assert all(n <= 10 for n in begun)  # each store started again as each game began


def test_generated_and_generic_decisions_agree_with_a_store_that_starts_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(combos, "PLAYS_KEPT", 10)
    rs = load_ruleset("luk-fu")
    phase = next(p for p in rs.phases if isinstance(p, Tricks))
    rng = random.Random(5)
    compared = 0
    for seed in range(5):
        st = Game(rs, seed, max_hands=1).new_state()
        while not st.is_over:
            legal = st.legal_moves()
            if st.rs.phases[st.pidx] is phase:
                generic = st.clone()
                generic.pdata.options = None
                want = phase._options(generic)
                assert list(want.each_play()) == list(st.pdata.options.each_play())  # the same objects
                compared += 1
            st.apply(legal[rng.randrange(len(legal))])
    assert compared > 50
