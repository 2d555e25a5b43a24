"""Every program in examples/ runs (kept short by its arguments) and prints what it promises."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
RUNS = {
    "play_your_own_agent.py": (["--games", "4"], "seat 0 greedy"),
    "compare_variants.py": (["--games", "3"], "B - A: moves per game"),
    "pettingzoo_loop.py": (["--episodes", "1"], "episode 0:"),
    "openspiel_ismcts.py": (["--games", "1", "--simulations", "5"], "total returns by seat"),
    "openspiel_cfr.py": (["--iterations", "3", "--plot", "{tmp}/cfr.png"], "curve saved"),
    "gymnasium_single_agent.py": (["--episodes", "2"], "mean reward"),
    "gymnasium_vector.py": (["--games", "2", "--steps", "60"], "games finished"),
    "trajectories.py": (["--episodes", "1", "--out", "{tmp}/run.npz"], "actions of 1 episodes saved"),
}


def test_every_example_is_run_here() -> None:
    assert sorted(p.name for p in EXAMPLES.glob("*.py")) == sorted(RUNS)


@pytest.mark.parametrize("name", sorted(RUNS))
def test_example_runs(name: str, tmp_path: Path) -> None:
    args, expected = RUNS[name]
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]  # (files an example writes go to a fresh folder)
    done = subprocess.run([sys.executable, str(EXAMPLES / name), *args], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert expected in done.stdout
