"""A rule function is compiled where a rule calls it: one that no rule calls was never read, and a body
that did not parse, called a function that exists nowhere, or called itself passed validate."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulecraft.errors import RuleFileError
from rulecraft.load import load_ruleset

TINY = Path(__file__).parents[1] / "runs" / "tiny" / "rules.yaml"


def problems(tmp_path: Path, functions: str, strength: str | None = None) -> list[str]:
    text = TINY.read_text(encoding="utf-8").replace("zones:\n", f"functions:\n{functions}zones:\n", 1)
    if strength is not None:
        text = text.replace('strength: "rank(piece) if', f'strength: "{strength} + rank(piece) if', 1)
    path = tmp_path / "rules.yaml"
    path.write_text(text, encoding="utf-8")
    try:
        load_ruleset(str(path))
    except RuleFileError as exc:
        return [f"{d.pos.line}:{d.pos.col} {d.message}" for d in exc.diagnostics]
    return []


@pytest.mark.parametrize(("functions", "expected"), [
    ('  f(p): "p +"\n', ["13:13 in function 'f': the expression ends too early"]),
    ('  f(p): "rnak(p) + 1"\n', ["13:10 in function 'f': unknown function 'rnak' (did you mean 'rank'?)"]),
    ('  f(p): "f(p) + 1"\n', ["13:10 in function 'f': function 'f' calls itself (f -> f); rule functions cannot "
                              "recurse"]),
    ('  f(p): "g(p)"\n  g(p): "1 + h(p)"\n  h(p): "f(p)"\n',
     ["15:10 in function 'h': function 'f' calls itself (f -> g -> h -> f); rule functions cannot recurse"]),
    ('  f(p): "played_by(0) == [] and rank(p) > bonus"\n', []),  # names of some place of use: fine
], ids=["syntax", "unknown-function", "itself", "around-three", "sound"])
def test_an_unused_function_is_checked_where_it_is_written(tmp_path: Path, functions: str,
                                                           expected: list[str]) -> None:
    assert problems(tmp_path, functions) == expected


def test_a_used_function_s_problem_is_said_once(tmp_path: Path) -> None:
    assert problems(tmp_path, '  f(p): "f(p) + 1"\n', strength="f(piece)") == [
        "13:10 in function 'f': function 'f' calls itself (f -> f); rule functions cannot recurse"]
