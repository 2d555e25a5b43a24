"""Rewards at the end of the match, at the end of each hand, or as scores change, in both adapters.

Hearts ranks seats by minus their penalty points (``match.score: -score[seat]``), all 0 at the start:
so rewards by hand and by step must add up, seat by seat, to the match's final scores, and arrive
only when a hand ends (by hand) or when a rule changed a score (by step: Hearts scores at the end of
each hand, so those are the same moments).
"""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest

from rulecraft.rl.openspiel import load_game
from rulecraft.rl.pettingzoo import env


def _pettingzoo_rewards(reward: str, seed: int = 2) -> tuple[list[list[float]], list[float], int]:
    """(every reward handed out, per step: [seat 0 .. 3]; the final scores; hands played)."""
    e = env("hearts", max_hands=3, reward=reward)
    e.reset(seed=seed)
    rng = random.Random(seed)
    given: list[list[float]] = []
    for _agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        e.step(None if term or trunc else rng.choice(list(np.flatnonzero(obs["action_mask"]))))
        if any(e.rewards.values()):
            given.append([e.rewards[a] for a in e.possible_agents])
    result = e.episode.st.result
    return given, [float(x) for x in result["scores"]], result["hands"]


@pytest.mark.parametrize("reward", ["hand", "step"])
def test_pettingzoo_rewards_by_hand_or_step_add_up_to_the_match_scores(reward: str) -> None:
    given, scores, hands = _pettingzoo_rewards(reward)
    assert hands == 3
    assert [sum(r[s] for r in given) for s in range(4)] == scores
    assert 1 < len(given) <= hands  # each hand's points, given when the hand is scored (no seat took none in all)
    assert all(sum(r) == -26 or sorted(r).count(-26.0) == 3 for r in given)  # 26 points a hand (or the moon)


def test_pettingzoo_rewards_at_the_end_only() -> None:
    given, scores, _ = _pettingzoo_rewards("score")
    assert given == [scores]
    wins, scores, _ = _pettingzoo_rewards("win")
    winners = scores.count(max(scores))  # each winner n / w - 1, the others -1
    assert wins == [[4 / winners - 1 if x == max(scores) else -1.0 for x in scores]]


def test_by_step_a_score_that_changes_within_a_hand_is_rewarded_when_it_changes() -> None:
    # Doubt places a seat when it goes out (match.score: seats - place): mid-hand, long before the hand ends.
    mid_hand = {}
    for reward in ("step", "hand"):
        e = env("doubt", reward=reward, max_moves=3000)
        e.reset(seed=3)
        rng = random.Random(3)
        mid_hand[reward] = []
        for _agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            e.step(None if term or trunc else rng.choice(list(np.flatnonzero(obs["action_mask"]))))
            if any(e.rewards.values()) and not e.episode.st.hand_results:
                mid_hand[reward].append(dict(e.rewards))
    assert len(mid_hand["step"]) == 1 and mid_hand["hand"] == []
    (given,) = mid_hand["step"]
    assert sorted(given.values()) == [-1.0, 0.0, 0.0, 0.0]  # the first out: place 0 (not out) becomes 1


@pytest.mark.parametrize("reward", ["hand", "step", "score"])
def test_openspiel_rewards_along_the_way_add_up_to_its_returns(reward: str) -> None:
    game = load_game("hearts", max_hands=2, reward=reward)
    assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert game.get_type().reward_model == (pyspiel.GameType.RewardModel.TERMINAL if reward == "score"
                                            else pyspiel.GameType.RewardModel.REWARDS)
    state = game.new_initial_state()
    rng = random.Random(4)
    total = np.zeros(4)
    rewarded = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([o for o, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        total += state.rewards()
        rewarded += any(state.rewards())
    scores = state._t.st.result["scores"]
    assert list(total) == list(state.returns()) == [float(x) for x in scores]
    assert rewarded == (1 if reward == "score" else 2)  # at the end, or once per hand
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_openspiel_win_is_zero_sum_at_the_end() -> None:
    game = load_game("hearts", max_hands=1)
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    state = game.new_initial_state()
    rng = random.Random(5)
    while not state.is_terminal():
        outcomes = [o for o, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
        state.apply_action(rng.choice(outcomes))
        if not state.is_terminal():
            assert state.returns() == [0.0] * 4
    assert sum(state.returns()) == 0 and max(state.returns()) > 0


def test_a_reward_nobody_knows_is_refused() -> None:
    with pytest.raises(ValueError, match="reward must be one of win, score, hand, step"):
        env("hearts", reward="points")
    with pytest.raises(ValueError, match="reward must be one of win, score, hand, step"):
        load_game("hearts", reward="points")
