"""Every broken file is refused at the exact line:column, with a message a newcomer can act on."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulecraft.rules import yamlload
from rulecraft.runs.validate import validate_file

BROKEN = Path(__file__).parent / "broken"

CASES = {
    "syntax_error.yaml": (2, 20, "invalid YAML: mapping values are not allowed here; a ':' followed by a space "
                                 "starts a key; if it is part of a value, put the value in quotes"),
    "duplicate_key.yaml": (4, 3, "duplicate key 'target' (first at line 3)"),
    "alias_bomb.yaml": (6, 30, "alias '*d' expands the file past 100,000 values; rule files may not multiply "
                               "data through aliases (a 'billion laughs' file)"),
    "unknown_key.yaml": (6, 7, "unknown key 'folow' in a trick phase (did you mean 'follow'?)"),
    "wrong_type.yaml": (3, 10, "expected a whole number for 'count', got the string 'four'"),
    "bad_option_default.yaml": (5, 15, "the default '500' of option 'target' is not one of its choices: 300, 250 "
                                       "(did you mean '300'?)"),
    "bad_patch.yaml": (8, 63, "in the patch of option short_game=yes: unknown key 'cuont' in the seats "
                              "(did you mean 'count'?)"),
    "missing_extends.yaml": (2, 10, "cannot find '../no-such-game/base.yaml' to extend"),
    "unknown_reference.yaml": (5, 9, "unknown piece attribute 'rnk' (did you mean 'rank'?)"),
    "expression_syntax.yaml": (5, 29, "the expression ends too early: 1 '(' not closed (expected ')', ',' or 'for')"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_broken_file_is_refused_where_the_problem_is(name: str) -> None:
    line, col, message = CASES[name]
    report = validate_file(BROKEN / name)
    assert not report.ok
    first = report.diagnostics[0]
    assert (first.pos.file, first.pos.line, first.pos.col) == (f"tests/rules/broken/{name}", line, col), \
        first.format()
    assert first.message.startswith(message), first.message


def test_extends_cycle_names_the_chain() -> None:
    report = validate_file(BROKEN / "cycle_a.yaml")
    (d,) = report.diagnostics
    assert (d.pos.file, d.pos.line, d.pos.col) == ("tests/rules/broken/cycle_b.yaml", 2, 10)
    assert d.message == ("extends cycle: tests/rules/broken/cycle_a.yaml extends tests/rules/broken/cycle_b.yaml "
                         "extends tests/rules/broken/cycle_a.yaml")


def test_missing_extends_names_the_chain() -> None:
    (d,) = validate_file(BROKEN / "missing_extends.yaml").diagnostics
    assert "tests/rules/broken/missing_extends.yaml extends ../no-such-game/base.yaml" in d.message


def test_alias_budget_is_small() -> None:
    # The budget is what keeps a billion-laughs file cheap to refuse: it is measured on the node graph
    # (each anchor counted once) before anything is built, so refusing costs at most this many steps.
    assert yamlload.MAX_NODES <= 200_000
    assert yamlload.MAX_BYTES <= 4 * 1024 * 1024


def test_errors_show_the_source_line_and_a_caret() -> None:
    (d,) = validate_file(BROKEN / "wrong_type.yaml").diagnostics
    assert d.context == ("   3 |   count: four", "     |          ^")


@pytest.mark.parametrize(("text", "where", "message"), [
    ('        - add: {"scroe[0]": 1}', (12, 18), "unknown variable 'scroe' (did you mean 'score'?)"),
    ('        - move: {from: dekc, to: "hand[0]"}', (12, 24), "unknown zone 'dekc' (did you mean 'deck'?)"),
])
def test_loading_names_effect_targets_where_they_are_written(tmp_path: Path, text: str, where: tuple[int, int],
                                                             message: str) -> None:
    """Not only `validate`: a game started on a broken file points at the name too (no <unknown>:0:0)."""
    from rulecraft.errors import RuleFileError
    from rulecraft.load import load_ruleset

    rules = tmp_path / "game.yaml"
    rules.write_text(
        "name: tiny\nseats: {count: 2}\npieces: [{id: a}, {id: b}]\n"
        "zones: [{id: deck}, {id: hand, per: seat, visibility: owner}]\n"
        "variables: {score: {scope: match, per: seat, initial: 0}}\n"
        "match: {end_when: 'true'}\n"
        "hand:\n  phases:\n    - id: score\n      kind: effects\n      effects:\n" + text + "\n",
        encoding="utf-8",
    )
    with pytest.raises(RuleFileError) as err:
        load_ruleset(str(rules))
    (d,) = err.value.diagnostics
    assert (d.pos.line, d.pos.col) == where, d.format()
    assert d.message == message
