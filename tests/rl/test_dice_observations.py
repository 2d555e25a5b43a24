"""The research adapters keep another seat's dice hidden: each die is a chance node, and a seat's
observation tensor and information-state string show its own dice (as counts per face) and only how
many the others rolled."""

from __future__ import annotations

import numpy as np
import pytest
from support import DICE_TABLE, rules_from_text

from rulecraft.rl.openspiel import load_game

CUPS = """
name: cups
title: dice in cups
seats: {count: 2, direction: clockwise}
""" + DICE_TABLE + """variables:
  cup: {scope: hand, per: seat, type: list, initial: [], visibility: owner}
  guess: {scope: hand, initial: 0}
hand:
  phases:
    - {id: roll, kind: dice, for: "s in seats()", dice: 2, sides: 6, set: "cup[s]"}
    - {id: guess, kind: choose, seat: "1", from: "[1, 2]", set: guess}
match:
  end_when: "true"
  max_hands: 1
  score: "guess if seat == 1 else 0"
"""


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> object:
    folder = tmp_path_factory.mktemp("cups")
    rules_from_text(folder, CUPS)  # (written, and checked to load)
    return load_game(str(folder / "rules.yaml"))


def _rolled(game: object, faces: list[int]) -> object:
    state = game.new_initial_state()  # type: ignore[attr-defined]
    for face in faces:  # four chance nodes: seat 0's two dice, then seat 1's
        assert state.is_chance_node()
        assert [o for o, _ in state.chance_outcomes()] == list(range(6))
        state.apply_action(face - 1)
    assert not state.is_chance_node() and state.current_player() == 1
    return state


def test_a_seat_sees_its_own_dice_and_not_the_other_seat_s(game: object) -> None:
    a, b = _rolled(game, [1, 2, 5, 5]), _rolled(game, [6, 6, 5, 5])  # seat 0's dice differ, seat 1's do not
    assert a.information_state_string(1) == b.information_state_string(1)  # type: ignore[attr-defined]
    assert a.observation_string(1) == b.observation_string(1)  # type: ignore[attr-defined]
    assert np.array_equal(a.observation_tensor(1), b.observation_tensor(1))  # type: ignore[attr-defined]
    assert a.information_state_string(0) != b.information_state_string(0)  # type: ignore[attr-defined]
    assert "[5, 5]" in a.information_state_string(1)  # type: ignore[attr-defined]
    assert "[1, 2]" not in a.information_state_string(1)  # type: ignore[attr-defined]


def test_the_observation_tensor_counts_the_seat_s_own_faces(game: object) -> None:
    state = _rolled(game, [1, 2, 5, 5])
    enc = game.enc  # type: ignore[attr-defined]
    section = next(s for s in enc.sections if s.name == "variables")
    cup = enc.rs.var_index["cup"]
    at = section.start + sum(enc._var_width(i) for i in range(cup))
    tensor = np.asarray(state.observation_tensor(1))  # type: ignore[attr-defined]
    seen = tensor[at:at + enc._var_width(cup)]
    assert seen[0] == 1  # the seat may see (part of) it
    assert list(seen[1:7]) == [0] * 6  # seat 0's cup: nothing
    assert list(seen[7:13]) == [0, 0, 0, 0, 2, 0]  # its own: two fives

