"""``rulecraft eval``: values printed in the language's words, errors as ``<expression>:1:COL`` with a caret."""

from __future__ import annotations

import json
import sys
from typing import Any

import click
import pytest
from click.testing import CliRunner

from rulecraft.cli import eval_cmd
from rulecraft.cli.errors import run_cli
from rulecraft.dsl import Scope, T
from rulecraft.errors import UsageError


def group() -> click.Group:
    g = click.Group("rulecraft")
    eval_cmd.register(g)
    return g


def run(*args: str) -> tuple[int, str, str]:
    """Run ``rulecraft eval ARGS`` the way the installed command does (run_cli: exit codes, error lines)."""
    runner = CliRunner()
    with runner.isolation() as (out, err, _):
        saved = sys.argv
        sys.argv = ["rulecraft", "eval", *args]
        try:
            code = run_cli(group())
        finally:
            sys.argv = saved
        return code, out.getvalue().decode(), err.getvalue().decode()


def ok(*args: str) -> str:
    code, out, err = run(*args)
    assert (code, err) == (0, ""), err
    return out.rstrip("\n")


# ----------------------------------------------------------------------------- values
@pytest.mark.parametrize(("args", "printed"), [
    (("1 + 2 * 3",), "7"),
    (("7 / 2",), "3.5"),
    (("7 // 2",), "3"),
    (("max(0, tricks - 5) * (2 if tricks >= 10 else 1)", "--set", "tricks=11"), "12"),
    (("max(0, tricks - 5) * (2 if tricks >= 10 else 1)", "--set", "tricks=7"), "2"),
    (("tricks > 5 and flag", "--set", "tricks=7", "--set", "flag=true"), "true"),
    (("not flag", "--set", "flag=false"), "true"),
    (("1 > 2",), "false"),
    (("first([])",), "none"),
    (("'a' + 'b'",), "ab"),
    (("trump + '!'", "--set", "trump=red"), "red!"),
    (("trump", "--set", 'trump="red"'), "red"),
    (("answer", "--set", "answer=yes"), "yes"),  # YAML 1.2: yes is a string, as in rule files
    (("x * 2", "--set", "x=010"), "20"),  # and 010 is ten
    (("x", "--set", "x=2.5"), "2.5"),
    (("x", "--set", "x="), "none"),
    (("[x * 2 for x in xs if x > 1]", "--set", "xs=[1,2,3]"), "[4, 6]"),
    (("xs", "--set", "xs=[1, 'a', true, null, [2]]"), '[1, "a", true, null, [2]]'),
    (("sorted(xs)", "--set", "xs=[c, a, b]"), '["a", "b", "c"]'),
    (("range(3)",), "[0, 1, 2]"),
    (("[]",), "[]"),
    (("count(x for x in range(10) if x % 3 == 0)",), "4"),
    (("a + b", "--set", "a=1", "--set", "b=2", "--set", "a=1"), "3"),  # the same value twice is no conflict
    (("  1 +\n  2",), "3"),
])
def test_prints_the_value(args: tuple[str, ...], printed: str) -> None:
    assert ok(*args) == printed


def test_lists_are_json() -> None:
    assert json.loads(ok("[[x, x * x] for x in range(3)]")) == [[0, 0], [1, 1], [2, 4]]


def test_with_click_runner_invoke() -> None:
    result = CliRunner().invoke(group(), ["eval", "sum(xs)", "--set", "xs=[1,2,3]"])
    assert result.exit_code == 0
    assert result.output == "6\n"


def test_is_registered_in_the_main_command() -> None:
    main = pytest.importorskip("rulecraft.cli.main")
    result = CliRunner().invoke(main.cli, ["eval", "--help"])
    assert result.exit_code == 0
    assert "--set NAME=VALUE" in result.output


# ----------------------------------------------------------------------------- errors
def test_compile_error_shows_position_and_caret() -> None:
    code, out, err = run("max(0, trick - 5)", "--set", "tricks=11")
    assert (code, out) == (1, "")
    assert err == (
        "<expression>:1:8: error: unknown name 'trick' (did you mean 'tricks'?)\n"
        "    1 | max(0, trick - 5)\n"
        "               ^\n"
    )


@pytest.mark.parametrize(("expr", "first_line"), [
    ("1 +", "<expression>:1:4: error: the expression ends too early"),
    ("(1 + 2", "<expression>:1:7: error: the expression ends too early: 1 '(' not closed (expected ')')"),
    ("a = 1", "<expression>:1:3: error: unexpected '=': to compare, write '=='"),
    ("x.y", "<expression>:1:2: error: unexpected '.': there is no attribute access; call a function instead, "
            "e.g. suit(p)"),
    ("sux([1])", "<expression>:1:1: error: unknown function 'sux' (did you mean 'sum'?)"),
    ("1 + 'a'", "<expression>:1:3: error: cannot add a number and a string"),
    ("__import__('os')", "<expression>:1:1: error: unknown function '__import__'"),
    ("min([])", "<expression>:1:1: error: min() fails with these arguments: min() arg is an empty sequence"),
    ("1 +\n  nope", "<expression>:2:3: error: unknown name 'nope'"),
])
def test_errors_exit_1_without_traceback(expr: str, first_line: str) -> None:
    code, out, err = run(expr)
    assert (code, out) == (1, "")
    assert err.splitlines()[0] == first_line
    assert "Traceback" not in err
    assert err.splitlines()[-1].strip() == "^"


def test_multi_line_expression_error_shows_its_line() -> None:
    _, _, err = run("1 +\n  nope")
    assert err.splitlines()[1:] == ["    2 |   nope", "          ^"]


@pytest.mark.parametrize(("expr", "sets", "message"), [
    ("1 / n", ["n=0"], "<expression>:1:1: error: the expression: ZeroDivisionError: division by zero (in '1 / n')"),
    ("xs[5]", ["xs=[1]"], "<expression>:1:1: error: the expression: IndexError: list index out of range (in 'xs[5]')"),
    ("max(xs)", ["xs=[]"], "<expression>:1:1: error: the expression: ValueError: max() arg is an empty sequence "
                           "(in 'max(xs)')"),
])
def test_runtime_errors_exit_1(expr: str, sets: list[str], message: str) -> None:
    args = [expr]
    for s in sets:
        args += ["--set", s]
    assert run(*args) == (1, "", message + "\n")


@pytest.mark.parametrize(("args", "message"), [
    (("x", "--set", "x"), "error: --set is written NAME=VALUE (e.g. --set tricks=7), not 'x'"),
    (("x", "--set", "=1"), "error: --set is written NAME=VALUE (e.g. --set tricks=7), not '=1'"),
    (("x", "--set", "2x=1"), "error: '2x' cannot be a name: use letters, digits and _, not a word of the language"),
    (("x", "--set", "if=1"), "error: 'if' cannot be a name: use letters, digits and _, not a word of the language"),
    (("x", "--set", "x={a: 1}"),
     "error: a --set value is a number, true/false, a string or a list, not a mapping: '{a: 1}'"),
    (("x", "--set", "x=[1, 2"), "error: cannot read the value '[1, 2': invalid YAML"),
    (("a", "--set", "a=1", "--set", "a=5"), "error: --set gives 'a' twice, as 1 and 5"),  # as -o does
    (("a", "--set", "a=[1]", "--set", "a='x'"), 'error: --set gives \'a\' twice, as [1] and "x"'),
    (("1", "-o", "bird_rank=lowest"),
     "error: -o/--option and --preset choose options of a ruleset: give --ruleset too"),
])
def test_usage_errors_exit_2(args: tuple[str, ...], message: str) -> None:
    code, out, err = run(*args)
    assert (code, out) == (2, "")
    assert err.startswith(message)


def test_missing_expression_is_a_usage_error() -> None:
    code, _, err = run()
    assert code == 2
    assert "Missing argument 'EXPRESSION'" in err


def test_a_function_that_needs_a_game_is_an_error_not_a_crash(monkeypatch: pytest.MonkeyPatch) -> None:
    def scope(*args: Any, **kwargs: Any) -> Scope:
        s = Scope(name="eval")
        s.add_function("needs_game", [], T.NUMBER, lambda ctx: ctx.st.hand_no)
        return s

    monkeypatch.setattr(eval_cmd, "eval_scope", scope)
    code, _, err = run("needs_game() + 1")
    assert code == 1
    assert err.startswith("<expression>:1:1: error: this expression cannot be evaluated outside a game "
                          "(AttributeError: ")


def test_parse_value_types() -> None:
    assert eval_cmd.parse_value("3") == (3, T.NUMBER)
    assert eval_cmd.parse_value("-2.5") == (-2.5, T.NUMBER)
    assert eval_cmd.parse_value("true") == (True, T.BOOL)
    assert eval_cmd.parse_value("red") == ("red", T.STRING)
    assert eval_cmd.parse_value('"3"') == ("3", T.STRING)
    assert eval_cmd.parse_value("[1, 2]") == ([1, 2], T.LIST)
    assert eval_cmd.parse_value("") == (None, T.NONE)
    value, _ = eval_cmd.parse_value("[a, 1]")
    assert type(value[0]) is str and type(value[1]) is int  # plain values, not located ones


def test_set_values_are_type_checked_like_constants() -> None:
    code, _, err = run("trump < 1", "--set", "trump=red")
    assert code == 1
    assert err.splitlines()[0] == "<expression>:1:7: error: cannot compare a string with a number using '<'"


# ----------------------------------------------------------------------------- --ruleset
def _fake_ruleset(calls: list[Any]) -> Any:
    constants = Scope(name="constants")
    constants.add_constant("target", T.NUMBER, 300)
    constants.add_function("suit", [T.PIECE], T.STRING, lambda c, p: ["red", "bird"][p], pure=True)
    constants.add_function("piece", [T.STRING], T.PIECE, lambda c, pid: {"bird": 1}[pid], pure=True)
    constants.add_user_function("bird", [], "piece('bird')")
    game = Scope(parent=constants, name="game")
    game.add_name("dealer", T.SEAT, getter=lambda c: c.st.vars[0])

    class FakeRuleset:
        scope = Scope(parent=game, name="trick round")

    def load(ref: str, options: dict[str, str] | None = None, preset: str | None = None) -> Any:
        calls.append((ref, options, preset))
        if ref == "nosuch":
            raise UsageError("unknown ruleset 'nosuch'")
        return FakeRuleset()

    return load


def test_ruleset_scope_is_its_constants_scope(monkeypatch: pytest.MonkeyPatch) -> None:
    """Independent of the loader: the command walks up to the scope named 'constants'."""
    import rulecraft.load as model

    calls: list[Any] = []
    monkeypatch.setattr(model, "load_ruleset", _fake_ruleset(calls))
    assert ok("suit(bird()) + s", "--ruleset", "fake", "-o", "a=b", "--set", "s=-ish") == "bird-ish"
    assert calls == [("fake", {"a": "b"}, None)]
    code, _, err = run("dealer", "--ruleset", "fake")
    assert code == 1
    assert err.splitlines()[0] == "<expression>:1:1: error: unknown name 'dealer'"
    code, _, err = run("1", "--ruleset", "nosuch")
    assert (code, err) == (2, "error: unknown ruleset 'nosuch'\n")


def _loader_ready() -> bool:
    import importlib.util

    return all(importlib.util.find_spec(f"rulecraft.rules.{m}") is not None
               for m in ("compose", "schema_check", "yamlload"))


needs_loader = pytest.mark.skipif(
    not _loader_ready(),
    reason="--ruleset loads real rule files: needs rules/compose.py, rules/schema_check.py and rules/yamlload.py",
)


@needs_loader
def test_ruleset_rook_constants_pieces_and_functions() -> None:
    assert ok("target", "--ruleset", "rook") == "300"
    assert ok("bird_rank", "--ruleset", "rook") == "16"
    assert ok("suit(piece('rook-bird'))", "--ruleset", "rook") == "bird"
    assert ok("points(piece('rook-bird')) + points(piece('red-10'))", "--ruleset", "rook") == "30"
    assert ok("sum(points(p) for p in pieces())", "--ruleset", "rook") == "120"
    assert ok("[pid(p) for p in pieces() if suit(p) == 'red' and rank(p) > 12]", "--ruleset", "rook") == (
        '["red-13", "red-14"]')
    assert ok("suit(bird())", "--ruleset", "rook") == "bird"


@needs_loader
def test_ruleset_options() -> None:
    assert ok("trump_rank(piece('rook-bird'))", "--ruleset", "rook") == "16"
    assert ok("trump_rank(piece('rook-bird'))", "--ruleset", "rook", "-o", "bird_rank=lowest") == "0"
    assert ok("trump_rank(piece('rook-bird'))", "--ruleset", "rook", "-o", "bird_rank=between-10-11") == "10.5"


@needs_loader
def test_ruleset_errors() -> None:
    code, _, err = run("is_trump(bird())", "--ruleset", "rook")  # trump is a variable: only in a game
    assert code == 1
    assert err.splitlines()[0].endswith("error: in function 'is_trump': unknown name 'trump'")
    assert err.startswith("variants/rook/base.yaml:") or ":error:" not in err
    code, _, err = run("seat", "--ruleset", "rook")
    assert (code, err.splitlines()[0]) == (1, "<expression>:1:1: error: unknown name 'seat'")
    code, _, err = run("1", "--ruleset", "no-such-game")
    assert code == 2
    assert err.startswith("error: unknown ruleset 'no-such-game'")
    code, _, err = run("1", "--ruleset", "rook", "-o", "bird_rank=middle")
    assert code == 2
    assert "middle" in err
    code, _, err = run("1", "--ruleset", "rook", "-o", "bird_rank")
    assert code == 2
