"""A value chosen by `choose` keeps its type; a mismatch is refused where it is written (issue 18)."""

from __future__ import annotations

import copy
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from support import ruleset

from rulecraft.dsl import evaluate
from rulecraft.engine.build import build_from_data
from rulecraft.engine.game import Game
from rulecraft.engine.ruleset import Ruleset
from rulecraft.errors import ExpressionRuntimeError, RuleFileError


def _rook_with(choose: dict[str, Any], variables: dict[str, Any]) -> Ruleset:
    """Rook with one more choose phase (the declarer names a value) right after trump is named."""
    data = copy.deepcopy(ruleset("rook").composed.data)  # type: ignore[union-attr]
    data["variables"].update(variables)
    phases = data["hand"]["phases"]
    at = next(i for i, p in enumerate(phases) if p["kind"] == "choose")
    phases.insert(at + 1, {"id": "pick", "kind": "choose", "seat": "declarer", **choose})
    return build_from_data(data, name="rook", chosen={}, content_hash="test")


def _to_pick(rs: Ruleset) -> Any:
    st = Game(rs, 3).new_state()
    while st.rs.phases[st.pidx].id != "pick":
        moves = st.legal_moves()
        st.apply(next((m for m in moves if m.verb != "pass"), moves[0]))  # someone bids: the hand is played
    return st


def test_a_number_chosen_is_a_number() -> None:
    rs = _rook_with({"from": "range(2, 5)", "set": "wager"}, {"wager": {"scope": "hand", "type": "number"}})
    st = _to_pick(rs)
    assert [m.text for m in st.legal_moves()] == ["name 2", "name 3", "name 4"]
    st.apply(st.legal_moves()[1])
    assert st.var("wager") == 3 and isinstance(st.var("wager"), int)


def test_a_choice_may_write_one_entry_of_a_per_seat_variable() -> None:
    rs = _rook_with({"from": "[seat, next(seat, 1)]", "set": "partner_of[seat]"},
                    {"partner_of": {"scope": "hand", "per": "seat", "type": "seat", "initial": 0}})
    st = _to_pick(rs)
    seat = st.to_act
    st.apply(st.legal_moves()[1])
    assert st.var("partner_of")[seat] == (seat + 1) % 4
    assert [st.var("partner_of")[s] for s in range(4) if s != seat] == [0, 0, 0]


def test_a_piece_is_named_by_its_id_and_stored_as_the_piece() -> None:
    rs = _rook_with({"from": "[p for p in hand(seat) if points(p) > 0]", "set": "shown"},
                    {"shown": {"scope": "hand", "type": "piece"}})
    st = _to_pick(rs)
    move = st.legal_moves()[0]
    st.apply(move)
    assert rs.pieces.type_id(st.var("shown")) == move.value


@pytest.mark.parametrize(("choose", "var", "message"), [
    ({"from": "['1', '2']", "set": "wager"}, {"type": "number"},
     "each value to choose from is a string, but 'wager' holds a number (number(x) reads a number from text)"),
    ({"from": "range(3)", "set": "wager"}, {"type": "string"},
     "each value to choose from is a number, but 'wager' holds a string"),
    ({"from": "[text(x) for x in range(3)]", "set": "wager"}, {"initial": 0},
     "each value to choose from is a string, but 'wager' holds a number"),
    ({"from": "range(3)", "set": "wager[seat]"}, {"type": "number"}, "variable 'wager' is a single value"),
    # A list of mixed items types as 'any'; fixed by the rules, each item is judged at load, not in play.
    ({"from": "['pass', 1, 2, 3]", "set": "wager"}, {"type": "number"},
     "the values to choose from include 'pass', but 'wager' holds a number"),
])
def test_a_mismatch_is_refused_at_the_from_expression(choose: dict[str, Any], var: dict[str, Any],
                                                       message: str) -> None:
    with pytest.raises(RuleFileError) as info:
        _rook_with(choose, {"wager": {"scope": "hand", **var}})
    assert message in info.value.diagnostics[0].message


def test_validate_reports_the_mismatch_at_file_line_col(tmp_path: Path) -> None:
    rules = tmp_path / "house.yaml"
    rules.write_text(
        "extends: rook\n"
        "name: rook-wager\n"
        "variables:\n"
        "  wager: {scope: hand, type: number}\n"
        "hand:\n"
        "  phases:\n"
        "    - {id: pick, kind: choose, seat: declarer, from: \"['1', '2']\", set: wager}\n", encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "rulecraft.cli.main", "validate", str(rules)],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 1
    assert f"{rules}:7:55: error: each value to choose from is a string, but 'wager' holds a number" in result.stdout
    assert "Traceback" not in result.stdout + result.stderr


def test_an_untyped_list_is_checked_when_chosen_and_refused_at_the_rule() -> None:
    # (read from the game, the list is known only when chosen from: a fixed one is refused at load, above)
    rs = _rook_with({"from": "[first(['a', 'b']) for p in hand(seat)]", "set": "wager"},
                    {"wager": {"scope": "hand", "type": "number"}})
    st = _to_pick(rs)
    with pytest.raises(ExpressionRuntimeError, match="holds a number"):
        st.apply(st.legal_moves()[0])


def test_set_of_a_value_of_the_wrong_type_is_refused_at_the_value() -> None:
    data = copy.deepcopy(ruleset("rook").composed.data)  # type: ignore[union-attr]
    data["match"]["after_hand"].append({"set": {"dealer": "'north'"}})
    with pytest.raises(RuleFileError, match="variable 'dealer' holds a seat, but this value is a string"):
        build_from_data(data, name="rook", chosen={}, content_hash="test")


def test_an_entry_of_a_typed_per_seat_variable_has_its_type() -> None:
    data = copy.deepcopy(ruleset("rook").composed.data)  # type: ignore[union-attr]
    data["match"]["after_hand"].append({"when": "score[0] == 'x'", "set": {"dealer": "0"}})
    with pytest.raises(RuleFileError, match="cannot compare a number with a string"):
        build_from_data(data, name="rook", chosen={}, content_hash="test")


@pytest.mark.parametrize(("text", "value"), [
    ("number('12') + 1", 13), ("number(' -2.5 ')", -2.5), ("number(7)", 7), ("number('3.0')", 3),
    ("text(3)", "3"), ("text(2.0)", "2"), ("text(2.5)", "2.5"), ("text(true)", "true"), ("text(none)", "none"),
    ("'bid ' + text(4)", "bid 4"), ("number(text(41)) + 1", 42),
    ("index_of(['left', 'right', 'across'], 'right')", 1), ("index_of([3, 4], 5)", -1),
    ("index_of(range(10), 7)", 7), ("index_of([1, 2, 1], 1)", 0),
])
def test_conversion_and_index_of(text: str, value: Any) -> None:
    got = evaluate(text)
    assert got == value and type(got) is type(value)


@pytest.mark.parametrize("text", ["number('ten')", "number('')", "number('nan')", "number(true)"])
def test_number_of_what_names_no_number_is_refused(text: str) -> None:
    with pytest.raises(RuleFileError, match="number"):
        evaluate(text)  # literal arguments are computed at load time: refused there
