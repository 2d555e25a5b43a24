"""An action the research adapters cannot take is refused with a clear ValueError and changes nothing.

PettingZoo's ``step`` took ``int(action)``: 1.5 and True were action 1, -1 was the last action of the
table (Python's negative index: a legal one was taken, an illegal one was refused under the last action's
name), and an id past the table was an IndexError; the seat's reward so far was cleared before the
action was refused. OpenSpiel's ``apply_action`` recorded the action before taking it, so a refused one
stayed in the state's record (its clone and pickle replayed it).
"""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from rulecraft.rl.openspiel import load_game
from rulecraft.rl.pettingzoo import env

BAD = [-1, 10**9, 2**70, 1.5, float("nan"), True, "3", None]


def _illegal(legal: list[int], size: int) -> int:
    return next(a for a in range(size) if a not in legal)


@pytest.mark.parametrize("action", [*BAD, "illegal"])
def test_pettingzoo_step_refuses_and_changes_nothing(action: object) -> None:
    e, twin = env("doubt"), env("doubt")
    for x in (e, twin):
        x.reset(seed=4)
    agent = e.agent_selection
    mask = e.observe(agent)["action_mask"]
    if action == "illegal":
        action = _illegal(list(np.flatnonzero(mask)), len(mask))
    e._cumulative_rewards[agent] = 7.0  # a reward not yet collected
    with pytest.raises(ValueError) as info:
        e.step(action)  # type: ignore[arg-type]
    message = str(info.value)
    if action is None:
        assert "step(None)" in message
    elif isinstance(action, int) and not isinstance(action, bool) and 0 <= action < len(mask):
        assert message.startswith(f"action {action} (") and message.endswith("is not legal here")
    elif isinstance(action, int) and not isinstance(action, bool):
        assert message == f"action {action} is out of range: ids are 0 to {len(mask) - 1}"
    else:
        assert message.startswith(f"an action is a whole number, an id from 0 to {len(mask) - 1}, not ")
    assert e._cumulative_rewards[agent] == 7.0
    assert e.agent_selection == agent
    # the game goes on exactly as one that was never sent the bad action
    for _ in range(60):
        a = e.agent_selection
        legal = list(np.flatnonzero(e.observe(a)["action_mask"]))
        assert legal == list(np.flatnonzero(twin.observe(a)["action_mask"]))
        assert np.array_equal(e.observe(a)["observation"], twin.observe(a)["observation"])
        e.step(int(legal[0]))
        twin.step(int(legal[0]))


def test_pettingzoo_takes_numpy_whole_numbers() -> None:
    e = env("doubt")
    e.reset(seed=4)
    legal = np.flatnonzero(e.observe(e.agent_selection)["action_mask"])
    e.step(np.int64(legal[0]))  # type: ignore[arg-type]
    legal = np.flatnonzero(e.observe(e.agent_selection)["action_mask"])
    e.step(np.array(legal[0]))  # type: ignore[arg-type]


@pytest.mark.parametrize("action", [10**9, "illegal"])
def test_openspiel_apply_action_refuses_and_leaves_the_record_as_it_was(action: object) -> None:
    game = load_game("doubt")
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    before = (state.history(), str(state), state.legal_actions())
    if action == "illegal":
        action = _illegal(state.legal_actions(), game.num_distinct_actions())
    with pytest.raises(ValueError, match=r"is out of range|is not legal here"):
        state.apply_action(action)
    assert (state.history(), str(state), state.legal_actions()) == before
    assert pickle.loads(pickle.dumps(state)).history() == before[0]  # (a clone replays the record)
    assert state.clone().legal_actions() == before[2]
