"""``validate --simulate N --workers W``: the games of the configurations are played in W processes,
and the report is the one playing them here gives, in the same order.

The tiny game (tests/runs/tiny) has two configurations (option bonus=ten, bonus=twenty) and a
preset-free overlay can add a third option; each game is a few moves.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from rulecraft.runs.validate import PlayCheck, validate_file

TINY = Path(__file__).parent / "tiny" / "rules.yaml"

# Options whose 'never' and 'b' choices make the match never end: a game of the first of those
# configurations does not end, and no configuration after it is played (so 'b' is not reported).
NO_END = """\
extends: tiny.yaml
name: tiny-maybe
options:
  - id: ending
    description: "whether the match ends"
    default: normal
    choices:
      - {id: normal, description: "as the tiny game"}
      - {id: never, description: "never", patch: {match: {end_when: "false", max_hands: 100000}}}
  - id: late
    description: "an option after it"
    default: a
    choices:
      - {id: a, description: "a"}
      - {id: b, description: "b", patch: {match: {end_when: "false", max_hands: 50000}}}
"""


def _report(path: Path, workers: int, games: int = 3) -> list[str]:
    told: list[str] = []
    report = validate_file(path, simulate=PlayCheck(games, max_moves=300, time_limit=None, progress=told.append,
                                                    workers=workers))
    assert told, "progress is told"
    return [d.format() for d in report.diagnostics] + [f"{report.variants_checked} checked"]


def test_workers_give_the_same_report(tmp_path: Path) -> None:
    shutil.copy(TINY, tmp_path / "tiny.yaml")
    (tmp_path / "maybe.yaml").write_text(NO_END)
    for name in ("tiny.yaml", "maybe.yaml"):
        alone = _report(tmp_path / name, workers=1)
        assert _report(tmp_path / name, workers=2) == alone
    lines = _report(tmp_path / "maybe.yaml", workers=2)
    assert len(lines) == 2 and "with option ending=never: cannot be played: a game with seed" in lines[0], lines
    assert "did not end within 300 moves" in lines[0]


def test_the_time_left_is_estimated(tmp_path: Path) -> None:
    shutil.copy(TINY, tmp_path / "tiny.yaml")
    told: list[str] = []
    validate_file(tmp_path / "tiny.yaml", simulate=PlayCheck(4, progress=told.append))
    assert told[0].endswith("game 1 of 4")  # nothing played yet: no estimate
    assert all(", about " in t and t.endswith(" s left") for t in told[1:-1]), told
    assert len(told) == 2 * 4  # two configurations of 4 games
