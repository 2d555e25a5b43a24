"""The incremental observation (``rl.seatview``) is exactly the reference rebuilt whole (tests/rl/rl_reference.py).

Along seeded random games of every bundled ruleset (among them a stock drawn from, Crazy Eights, and
a dummy whose partner decides for it, Dummy Whist), views of every seat, of everything and of no seat, with and
without the information-state section, are asked at irregular intervals (so each catches up over a
different number of moves) and compared with the reference, byte for byte. A view handed a state
that does not continue the one it saw last (another world dealt from the same table, another game)
must start again, not patch.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
import rl_reference as reference

from rulecraft.engine.determinize import determinize
from rulecraft.engine.game import Game
from rulecraft.engine.ruleset import Ruleset
from rulecraft.load import load_ruleset
from rulecraft.rl.encoding import PUBLIC, Encoding
from rulecraft.rl.pettingzoo import env
from rulecraft.rl.seatview import SeatView
from rulecraft.rules.registry import bundled_path, list_bundled

REFS = list_bundled()


@pytest.mark.parametrize("ref", REFS)
def test_views_kept_up_to_date_are_the_reference(ref: str) -> None:
    _agree(load_ruleset(ref))


def test_a_variable_shown_to_the_seat_a_rule_names_follows_that_seat(tmp_path: Path) -> None:
    """Luk Fu's ``elder_big`` shows only to the seat its ``owner`` names; here a seat that changes as
    親's hand shrinks, while no variable changes: a view must move what it shows with that seat."""
    text = bundled_path("luk-fu").read_text(encoding="utf-8")
    moved = text.replace('owner: "elder"', 'owner: "(elder + len(hand(elder))) % 4"')
    assert moved != text
    path = tmp_path / "luk-fu-owner.yaml"
    path.write_text(moved, encoding="utf-8")
    _agree(load_ruleset(str(path)))


def _agree(rs: Ruleset) -> None:
    enc = Encoding(rs)
    viewers = [*range(rs.seats.count), None, PUBLIC]
    checked = 0
    seeds = 0
    while seeds < 2 or checked < 200:  # at least two games, and more where games are short (Liar's Dice)
        assert seeds < 40, f"only {checked} comparisons in {seeds} games"
        st = Game(rs, seeds, max_hands=2).new_state()
        rng = random.Random(seeds)
        seeds += 1
        views = {(v, r): SeatView(enc, v, r) for v in viewers for r in (False, True)}
        for _ in range(400):
            if st.is_over:
                break
            for (v, r), view in views.items():
                if rng.random() < 0.3:  # each view catches up over its own number of moves
                    got = view.update(st)
                    assert np.array_equal(got, reference.observe(enc, st, v, recall=r)), (v, r, len(st.history))
                    checked += 1
            legal = st.legal_moves()
            st.apply(legal[rng.randrange(len(legal))])
        for (v, r), view in views.items():  # the end of the game (or of the walk)
            assert np.array_equal(view.update(st), reference.observe(enc, st, v, recall=r))


@pytest.mark.parametrize("ref", ["doubt", "tien-gow", "hearts"])
def test_a_view_handed_another_world_or_game_starts_again(ref: str) -> None:
    rs = load_ruleset(ref)
    enc = Encoding(rs)
    st = Game(rs, 3, max_hands=2).new_state()
    rng = random.Random(3)
    for _ in range(12):
        legal = st.legal_moves()
        st.apply(legal[rng.randrange(len(legal))])
    seat = st.to_act
    other = next(s for s in range(rs.seats.count) if s != seat)
    view = SeatView(enc, other)
    view.update(st)
    world = determinize(st, seat, random.Random(1), light=False)  # other seats' pieces dealt again
    assert np.array_equal(view.update(world), reference.observe(enc, world, other))
    elsewhere = Game(rs, 4, max_hands=1).new_state()  # a game with a record of its own
    assert np.array_equal(view.update(elsewhere), reference.observe(enc, elsewhere, other))
    assert np.array_equal(view.update(st), reference.observe(enc, st, other))


@pytest.mark.parametrize("ref", ["doubt", "luk-fu", "big-two"])
def test_pettingzoo_observations_with_a_move_half_chosen_are_the_reference(ref: str) -> None:
    e = env(ref, max_hands=1, **({"per_play": "up-to-four"} if ref == "doubt" else {}))
    halfway = 0
    for seed in (5, 6):  # (the second game's views are the first's, read again from what differs)
        e.reset(seed=seed)
        rng = random.Random(seed)
        for _ in range(300):
            if e.episode.over:
                break
            for agent in e.possible_agents:
                seat = e.possible_agents.index(agent)
                selection = e.episode.prefix if seat == e.episode.to_act else ()
                halfway += bool(selection)
                want = reference.observe(e.enc, e.episode.st, seat, selection)
                assert np.array_equal(e.observe(agent)["observation"], want), (seed, seat)
            e.step(rng.choice(list(np.flatnonzero(e.observe(e.agent_selection)["action_mask"]))))
    assert halfway > 0, "no move of several tokens was met: the selection was never checked"
