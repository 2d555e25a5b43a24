"""The trajectory runner: every action of seeded episodes as arrays, saved and read back."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from rulecraft.rl.pettingzoo import env
from rulecraft.rl.trajectories import Trajectories, random_policy, run


@pytest.fixture(scope="module")
def hearts() -> Trajectories:
    return run("hearts", ["default", random_policy(1), "random", "default"], episodes=3, seed=4, max_hands=1)


def test_every_action_is_recorded_with_what_its_seat_saw(hearts: Trajectories) -> None:
    t = hearts
    assert len(t) == 3 * 64  # a hand of Hearts: 12 cards passed, 52 played, one action each
    assert all(t.action_mask[i, t.action[i]] == 1 for i in range(len(t)))  # each action was legal
    assert t.observation.shape == (len(t), env("hearts").enc.size)
    seat_at = env("hearts").enc.at["seat"]
    assert all(t.observation[i, seat_at + t.seat[i]] == 1 for i in range(len(t)))  # its own observation


def test_the_actions_replayed_deal_and_play_the_same_games(hearts: Trajectories) -> None:
    # Bundled agents' moves are recorded as the tokens that make them: replayed through the AEC env,
    # they give each game's result again.
    for i in range(3):
        e = env("hearts", max_hands=1)
        e.reset(seed=int(hearts.seeds[i]))
        for action in hearts.action[hearts.episode == i]:
            e.step(int(action))
        assert e.episode.over
        assert list(e.episode.rewards()) == list(hearts.payoffs[i])


def test_rewards_land_on_the_seats_last_actions_and_add_up_to_the_payoffs(hearts: Trajectories) -> None:
    t = hearts
    for i in range(3):
        rows = t.episode == i
        for seat in range(4):
            mine = rows & (t.seat == seat)
            assert t.reward[mine].sum() == t.payoffs[i, seat]
            assert t.done[mine].sum() == 1 and t.done[mine][-1]  # its last action, and only that one
    assert set(np.unique(t.payoffs)) <= {-1.0, 1.0, 1 / 3, 3.0, 0.0}


def test_rewards_by_hand_are_recorded_where_they_are_given() -> None:
    t = run("hearts", ["random"] * 4, episodes=1, seed=2, max_hands=2, reward="hand")
    e = env("hearts", max_hands=2)
    e.reset(seed=2)
    for action in t.action:
        e.step(int(action))
    scores = [float(x) for x in e.episode.st.result["scores"]]  # minus each seat's penalty points
    assert list(t.payoffs[0]) == scores
    assert [t.reward[t.seat == s].sum() for s in range(4)] == scores
    assert 4 < (t.reward != 0).sum() <= 8  # each seat's points, at the end of each of the two hands


@pytest.mark.parametrize("suffix", [".npz", ".parquet"])
def test_saved_and_read_back(hearts: Trajectories, tmp_path, suffix: str) -> None:
    if suffix == ".parquet":
        pytest.importorskip("pyarrow")
    again = Trajectories.load(hearts.save(tmp_path / f"run{suffix}"))
    for f in dataclasses.fields(Trajectories):
        assert np.array_equal(getattr(again, f.name), getattr(hearts, f.name)), f.name
        assert getattr(again, f.name).dtype == getattr(hearts, f.name).dtype


def test_bad_requests_are_refused(tmp_path) -> None:
    with pytest.raises(ValueError, match="hearts has 4 seats: give 4 players, not 2"):
        run("hearts", ["random", "random"])
    with pytest.raises(ValueError, match=r"saved as \.npz or \.parquet, not '\.csv'"):
        run("hearts", ["random"] * 4, max_hands=1).save(tmp_path / "run.csv")
