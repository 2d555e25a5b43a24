"""One seat as a gymnasium environment, the others played by bundled agents; N games as a vector env."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from rulecraft.agents.base import make_agent
from rulecraft.engine.game import Game
from rulecraft.errors import UsageError
from rulecraft.load import load_ruleset
from rulecraft.rl.gymnasium import single_agent_env, vector_env


@pytest.mark.parametrize(("ref", "seat", "kwargs"), [
    ("hearts", 1, {}),
    ("luk-fu", 0, {"observation": "structured"}),
    ("doubt", 2, {"opponents": "random", "max_moves": 400, "reward": "step"}),
])
def test_gymnasium_check_env(ref: str, seat: int, kwargs: dict) -> None:
    e = single_agent_env(ref, seat=seat, max_hands=1, **kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (it cannot test other render modes outside gymnasium.make)
        check_env(e, skip_render_check=True)


def _play(e, seed: int, rng_seed: int = 0) -> tuple[list[int], float, dict]:
    obs, info = e.reset(seed=seed)
    rng = random.Random(rng_seed)
    taken, total = [], 0.0
    while True:
        assert np.array_equal(obs["action_mask"], e.action_masks().astype(np.int8))
        assert e.episode.to_act == e.seat  # asked only on the seat's own turns
        action = rng.choice(list(np.flatnonzero(obs["action_mask"])))
        taken.append(int(action))
        obs, reward, terminated, truncated, info = e.step(action)
        total += reward
        if terminated or truncated:
            return taken, total, info


def test_the_seat_plays_its_turns_and_gets_its_reward_at_the_end() -> None:
    e = single_agent_env("hearts", seat=2, max_hands=1)
    taken, total, info = _play(e, 7)
    assert len(taken) == 3 + 13  # three cards passed, thirteen played: every other move was the agents'
    winners = info["result"]["winners"]
    assert total == (4 / len(winners) - 1 if 2 in winners else -1.0)
    assert (taken, total) == _play(e, 7)[:2]  # the same seed and actions: the same game


def test_the_opponents_are_the_agents_named_seeded_as_simulate_seeds_them() -> None:
    # Seat 0 taking the actions of the 'default' agent: the whole game is the one 'rulecraft simulate'
    # plays with four 'default' seats and the same seed (each agent seeded from the game's seed and its seat).
    rs = load_ruleset("hearts")
    e = single_agent_env(rs, seat=0, opponents="default", max_hands=1)
    e.reset(seed=5)
    mine = make_agent("default", 5, 0)
    done = False
    while not done:
        for action in e.episode.move_actions(mine.choose(e.episode.st, 0)):
            _, _, terminated, truncated, info = e.step(action)
            done = terminated or truncated
    st = Game(rs, 5, max_hands=1).new_state()
    agents = [make_agent("default", 5, s) for s in range(4)]
    while not st.is_over:
        st.apply(agents[st.to_act].choose(st, st.to_act))
    assert info["result"] == st.result
    assert list(e.episode.st.history) == list(st.history)
    with pytest.raises(UsageError, match="unknown agent 'nobody'"):
        single_agent_env("hearts", opponents="nobody")
    with pytest.raises(ValueError, match="one agent name for all, or one per seat"):
        single_agent_env("hearts", opponents=["random", "random"])
    e = single_agent_env("hearts", seat=0, opponents=["random", "default", "random"], max_hands=1)
    e.reset(seed=3)
    assert [a.name if a else None for a in e.agents] == [None, "random", "default", "random"]


def test_an_illegal_action_ends_the_episode_or_is_refused() -> None:
    e = single_agent_env("hearts", max_hands=1)
    obs, _ = e.reset(seed=1)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs, reward, terminated, truncated, info = e.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    assert not obs["action_mask"].any()
    strict = single_agent_env("hearts", max_hands=1, illegal="raise")
    obs, _ = strict.reset(seed=1)
    with pytest.raises(ValueError, match="is not legal here"):
        strict.step(illegal)
    legal = int(np.flatnonzero(obs["action_mask"])[0])
    strict.step(legal)  # refused, nothing changed: the game goes on


def test_the_vector_env_plays_n_games_and_deals_again_when_one_ends() -> None:
    envs = vector_env("hearts", 3, seat=1, max_hands=1)
    obs, infos = envs.reset(seed=10)
    assert obs["observation"].shape == (3, envs.single_observation_space["observation"].shape[0])
    assert list(infos["seed"]) == [10, 11, 12]  # game i dealt with seed + i
    single = single_agent_env("hearts", seat=1, max_hands=1)
    first, _ = single.reset(seed=11)
    assert np.array_equal(obs["observation"][1], first["observation"])
    rng = np.random.default_rng(0)
    ended = np.zeros(3, int)
    rewards = []
    for _ in range(60):
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in obs["action_mask"]])
        obs, reward, terminated, truncated, infos = envs.step(actions)
        ended += terminated
        rewards += list(reward[terminated])
        assert not truncated.any()
    assert (ended >= 2).all()  # 16 actions a hand: every game ended and was dealt again at least twice
    assert set(rewards) <= {-1.0, 3.0, 1.0, 1 / 3, 0.0}  # n / w - 1 for a winner, -1 otherwise


def test_a_vector_env_takes_the_rulesets_options() -> None:
    envs = vector_env("hearts", 2, passing="none", max_hands=1)
    assert all(e.rs.chosen["passing"] == "none" for e in envs.envs)
    envs.reset(seed=1)
    assert envs.envs[0].rs is envs.envs[1].rs  # loaded once


def test_a_game_that_ends_before_the_seats_decision_is_passed_over_and_the_next_one_dealt() -> None:
    """Rook, one hand, random opponents: with seed 66 seat 1 bids and seat 2 calls for a redeal before
    seat 0 has a decision, so that hand ends with nothing for seat 0 to do. ``reset`` must not hand the
    learner a finished game (its step would raise, crashing a vector env): it deals the next game."""
    env = single_agent_env("rook", seat=0, opponents="random", max_hands=1)
    obs, info = env.reset(seed=66)
    assert info["skipped_games"] == [66]
    assert info["seed"] != 66 and obs["action_mask"].any() and not env.episode.over
    assert env.episode.to_act == 0
    again, info2 = env.reset(seed=66)  # the same seed, the same episode
    assert info2 == info and np.array_equal(again["observation"], obs["observation"])
    _, info3 = env.reset(seed=67)
    assert "skipped_games" not in info3 and info3["seed"] == 67
    envs = vector_env("rook", 2, opponents="random", max_hands=1)  # (it raised at seed 66 before)
    vobs, _ = envs.reset(seed=65)
    rng = np.random.default_rng(0)
    for _ in range(400):
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in vobs["action_mask"]])
        vobs, *_ = envs.step(actions)


def test_pettingzoo_ends_at_once_a_game_over_as_it_is_dealt(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game over before anyone's decision: every agent is terminated at reset, not left with no action."""
    from rulecraft.rl import pettingzoo

    def finished(rs, seed, max_hands):  # (a game whose deal ended it: here one played to its end)
        st = Game(rs, seed, max_hands).new_state()
        rng = random.Random(seed)
        while not st.is_over:
            legal = st.legal_moves()
            st.apply(legal[rng.randrange(len(legal))])
        return st

    monkeypatch.setattr(pettingzoo, "new_state", finished)
    e = pettingzoo.env("hearts", max_hands=1)
    e.reset(seed=1)
    assert all(e.terminations.values()) and "result" in e.infos["seat_0"]
    for _agent in e.agent_iter():
        assert e.last()[2]  # terminated
        e.step(None)
    assert e.agents == []


def test_a_seat_that_never_decides_is_refused_with_the_reason() -> None:
    """Dummy Whist's dummy (seat 2) never decides: its partner plays its cards. No episode can be dealt."""
    env = single_agent_env("dummy-whist", seat=2, opponents="random", max_hands=1)
    with pytest.raises(RuntimeError, match=r"seat 2 had no decision in 100 games.*another seat decide for it"):
        env.reset(seed=0)
