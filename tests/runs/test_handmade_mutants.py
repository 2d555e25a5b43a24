"""The author's mistakes issue 33 made by hand, each a plausible slip that changes some outcome: the
bundled scenarios must notice every one (a scenario fails with the mistaken rule).

Each mistake is a rule path and what is written there instead (or that it is left out); it is made on
the loaded rule file as a mutant is (``runs/mutants.py``) and the game's scenario suite played against it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulecraft.runs.mutants import Mutant, _drop_path
from rulecraft.runs.mutate import KILLED, MutantRunner, run_baseline
from rulecraft.runs.ruleshape import sites
from rulecraft.runs.suite import load_suite

ROOT = Path(__file__).resolve().parents[2]

# (game, file, rule path of the value, what is written instead; None: the value (a list item) left out)
MISTAKES = [
    # Hearts: the no-points rule kept for the first two tricks; the queen-too choice's breaks losing hearts.
    ("hearts", "variants/hearts/base.yaml",
     "hand.phases[play].follow.restrictions[no-points-first-trick].when", "round_number <= 2"),
    ("hearts", "variants/hearts/base.yaml",
     'options[queen_breaks_hearts].choices[queen-too].patch.functions["breaks(p)"]', "p == piece('sQ')"),
    # Spades: the game ending at the target on a tie; a set side losing 10 a trick it fell short by.
    ("spades", "variants/spades/base.yaml", "match.end_when", "max(score) >= target"),
    ("spades", "variants/spades/base.yaml", 'hand.phases[scoring].effects[contract-set].add["score[t]"]',
     "-10 * (contract[t] - taken[t])"),
    # Big Two: pair, full house and four-of-a-kind strength by another expression of the same type; flushes
    # compared by suit first.
    ("big-two", "variants/big-two/base.yaml", "combinations[pair].strength", "top"),
    ("big-two", "variants/big-two/base.yaml", "combinations[full-house].strength", "3000 + top_card(play)"),
    ("big-two", "variants/big-two/base.yaml", "combinations[four-and-one].strength", "4000 + top_card(play)"),
    ("big-two", "variants/big-two/base.yaml", "combinations[flush].strength",
     "five(play, 2000 + 100 * index_of(suit_order, suit(piece)) + top_card(play))"),
    # Tien Gow: 文武尊 without its deletion of the 1-5 pair from the civil pairs: the 1-5 pair is then both
    # 文尊 and the weakest civil pair, two readings of one play.
    ("tien-gow", "variants/tien-gow/base.yaml",
     "options[bunmu_son].choices[on].patch.combinations[pair].entries[red-six-pair]", None),
    ("tien-gow", "variants/tien-gow/base.yaml",
     "options[bunmu_son].choices[wen-loses-to-long-seven].patch.combinations[pair].entries[red-six-pair]", None),
]


def _mistake(game: str, file: str, rule: str, new: str | None) -> tuple[MutantRunner, Mutant]:
    from rulecraft.rules.paths import rule_path

    suite = load_suite([ROOT / "tests" / "scenarios" / game])
    doc = suite.docs[file]
    paths = {rule_path(doc.data, s.path): s.path for s in sites(doc.data)}
    path = paths.get(rule)
    if path is None:  # a list item with no site of its own (an entry of a patch): found by its path's text
        path = _find(doc.data, rule)
    assert path is not None, f"no {rule} in {file}"
    if new is None:  # (an only item of a patch's list goes with its list, as mutants leave one out)
        path = _drop_path(doc.data, path, "extends" in doc.data)
    m = Mutant(0, file, 0, 0, rule, "hand-made", f"{rule} -> {new!r}", (path,), drop=new is None, new=new)
    runner = MutantRunner(suite, [m], run_baseline(suite), timeout=0)
    return runner, m


def _find(data: object, rule: str) -> tuple[str | int, ...] | None:
    from rulecraft.rules.paths import rule_path

    stack: list[tuple[object, tuple[str | int, ...]]] = [(data, ())]
    while stack:
        node, path = stack.pop()
        if path and rule_path(data, path) == rule:
            return path
        if isinstance(node, dict):
            stack.extend((v, (*path, k)) for k, v in node.items())
        elif isinstance(node, list):
            stack.extend((v, (*path, i)) for i, v in enumerate(node))
    return None


@pytest.mark.parametrize(("game", "file", "rule", "new"), MISTAKES, ids=[f"{g}:{r}" for g, _f, r, _n in MISTAKES])
def test_each_mistake_is_noticed(game: str, file: str, rule: str, new: str | None,
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # positions name files relative to the working directory
    runner, m = _mistake(game, file, rule, new)
    outcome = runner.evaluate(m)
    assert outcome.status == KILLED, f"{rule} -> {new!r} is not noticed ({outcome.status}: {outcome.detail})"
