"""PettingZoo's and OpenSpiel's own API checks pass on every bundled ruleset (listed when the tests run,
so a ruleset bundled later is checked too), and the adapters behave as documented."""

from __future__ import annotations

import random
import subprocess
import sys
import warnings

import numpy as np
import pyspiel
import pytest
from pettingzoo.test import api_test

from rulecraft.rl.encoding import DONE
from rulecraft.rl.openspiel import load_game
from rulecraft.rl.pettingzoo import env
from rulecraft.rules.registry import list_bundled

BUNDLED = list_bundled()
# a shed phase's moves: 'draw' and the value a play makes its player name ('name h')
CRAZY_EIGHTS = "crazy-eights"
# a seat whose decisions its partner makes: the partner is the current player for the dummy's turns
DUMMY_WHIST = "dummy-whist"


def test_the_bundled_games_are_all_found() -> None:
    assert {"rook", "luk-fu", "tien-gow", "yukushi", "doubt"} <= set(BUNDLED)


@pytest.mark.parametrize("ref", [*BUNDLED, CRAZY_EIGHTS, DUMMY_WHIST])
def test_pettingzoo_api_test(ref: str) -> None:
    e = env(ref, max_hands=1, max_moves=3000)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # api_test warns about observations it merely finds unusual
        api_test(e, num_cycles=1000)


@pytest.mark.parametrize("ref", [*BUNDLED, CRAZY_EIGHTS, DUMMY_WHIST])
def test_openspiel_random_sim_test(ref: str) -> None:
    # A claims game played at random goes on for thousands of actions; 250 keep the test short (the
    # cap itself is then checked: such a game ends truncated, within max_game_length).
    game = load_game(ref, max_hands=1, max_moves=250)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_the_core_imports_none_of_the_rl_extra() -> None:
    code = ("import sys, rulecraft.cli.main, rulecraft.load, rulecraft.runs.simulate, rulecraft.rl; "
            "print(sorted(m for m in ('numpy', 'pettingzoo', 'pyspiel', 'gymnasium') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def _play(e, seed: int, rng_seed: int = 0) -> list[tuple[str, bytes]]:
    """Every (agent, observation bytes) of a game played at random with a seeded generator."""
    e.reset(seed=seed)
    rng = random.Random(rng_seed)
    seen = []
    for agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        seen.append((agent, obs["observation"].tobytes()))
        e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return seen


def test_reset_with_a_seed_deals_the_same_game() -> None:
    e = env("tien-gow", max_hands=1)
    assert _play(e, 7) == _play(e, 7)
    assert _play(e, 7) != _play(e, 8)  # another seed, another deal


def test_rewards_come_from_the_match_result() -> None:
    e = env("rook", max_hands=2)
    _play(e, 3)
    result = e.episode.st.result
    winners = set(result["winners"])
    # n / w - 1 for each winner, -1 for the others: the two partners of the winning side get +1
    assert len(winners) == 2
    assert e.episode.rewards() == [1.0 if s in winners else -1.0 for s in range(4)]
    score = env("rook", max_hands=2, reward="score")
    _play(score, 3)
    assert score.episode.rewards() == [float(x) for x in result["scores"]]


def test_a_game_stopped_by_max_moves_is_truncated_with_no_reward() -> None:
    e = env("doubt", max_moves=10)
    e.reset(seed=1)
    rng = random.Random(0)
    steps = 0
    final = None
    for _agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        if term or trunc:
            final = (term, trunc, reward)
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    assert steps == 10
    assert final == (False, True, 0.0)


def _mask(e) -> list[int]:
    return [int(a) for a in np.flatnonzero(e.observe(e.agent_selection)["action_mask"])]


def test_a_claim_of_several_cards_is_taken_one_card_at_a_time() -> None:
    e = env("doubt", per_play="up-to-four")
    e.reset(seed=2)
    enc, seat = e.enc, e.episode.to_act
    assert [enc.action_string(a) for a in _mask(e)] == ["claim A:"]  # rising from A: only the value
    e.step(_mask(e)[0])
    assert e.agent_selection == f"seat_{seat}"  # the same seat chooses the cards
    hand = sorted(e.rs.pieces.type_id(p) for p in e.episode.st.hand(seat))
    assert sorted(enc.action_string(a).split()[1] for a in _mask(e)) == hand  # any card of the hand
    first_card = _mask(e)[0]
    e.step(first_card)
    assert e.agent_selection == f"seat_{seat}"  # still choosing: up to three more, or done
    assert DONE in _mask(e) and first_card not in _mask(e)
    before = len(e.episode.st.history)
    e.step(DONE)
    made = [ev for ev in e.episode.st.history[before:] if ev.get("type") == "move"]
    assert made[0] == {"type": "move", "seat": seat, "move": f"claim A: {enc.action_string(first_card).split()[1]}"}


def test_options_travel_with_the_game_and_its_serialized_states() -> None:
    game = load_game("tien-gow", pickup="two-columns", bunmu_son="on", max_hands=1, max_moves=250)
    again = pyspiel.load_game(str(game))
    assert again.rs.chosen["pickup"] == "two-columns" and again.rs.chosen["bunmu_son"] == "on"
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_a_shuffle_is_a_chance_node_per_piece_with_identical_copies_weighted() -> None:
    game = load_game("tien-gow", max_hands=1)
    state = game.new_initial_state()
    while not state.action_to_string(pyspiel.PlayerId.CHANCE, state.chance_outcomes()[0][0]).startswith("draw"):
        state.apply_action(state.chance_outcomes()[0][0])  # the dice for the first dealer
    rs = game.rs
    outcomes = dict(state.chance_outcomes())
    assert len(outcomes) == len(rs.pieces.types) == 21  # 32 tiles, 21 kinds
    copies = {t: len(rs.pieces.instances[t]) for t in range(21)}
    assert all(outcomes[t] == pytest.approx(copies[t] / 32) for t in range(21))
    pair = next(t for t in range(21) if copies[t] == 2)
    state.apply_action(pair)
    assert dict(state.chance_outcomes())[pair] == pytest.approx(1 / 31)
    for _ in range(31):  # the rest of the shuffle, always the first kind left
        state.apply_action(state.chance_outcomes()[0][0])
    order = next(e for e in state._t.st.history if e.get("kind") == "shuffle")["order"]
    assert order[0] == rs.pieces.types[pair].id and len(order) == 32


def test_the_cards_being_chosen_show_only_to_the_seat_choosing_them() -> None:
    e = env("doubt", per_play="up-to-four")
    e.reset(seed=4)
    seat = e.episode.to_act
    others = [a for a in e.possible_agents if a != f"seat_{seat}"]
    before = {a: e.observe(a)["observation"].copy() for a in others}
    mine = e.observe(f"seat_{seat}")["observation"].copy()
    e.step(_mask(e)[0])  # the claim's value
    e.step(_mask(e)[0])  # a first card: the claim is not made yet
    assert e.episode.prefix and e.agent_selection == f"seat_{seat}"
    assert all(np.array_equal(e.observe(a)["observation"], before[a]) for a in others)
    assert not np.array_equal(e.observe(f"seat_{seat}")["observation"], mine)  # the chooser sees its choice
