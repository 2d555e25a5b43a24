"""Exact methods on a rule file: OpenSpiel's CFR lowers the exploitability of a small trick game.

examples/mini-tricks.yaml: two players, six cards (1-3, two of each), two each; a trick a point, the
last two. Its whole tree, the shuffle as chance nodes, is small enough for CFR to walk every iteration.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from open_spiel.python.algorithms import cfr, exploitability

from rulecraft.rl.openspiel import load_game

RULES = Path(__file__).resolve().parents[2] / "examples" / "mini-tricks.yaml"


def test_cfr_lowers_the_exploitability_of_the_average_strategy() -> None:
    game = load_game(str(RULES))
    solver = cfr.CFRSolver(game)
    assert len(solver.current_policy().state_lookup) == 111  # information sets of both players
    uniform = exploitability.exploitability(game, solver.average_policy())
    assert uniform == pytest.approx(0.2889, abs=1e-4)
    for _ in range(3):
        solver.evaluate_and_update_policy()
    after = exploitability.exploitability(game, solver.average_policy())
    assert after < uniform / 2 and after == pytest.approx(0.0963, abs=1e-3)
