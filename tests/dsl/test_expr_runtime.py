"""What happens while a game runs: failures name the rule and where it is; no way out to Python."""

from __future__ import annotations

import pytest
from expr_helpers import CTX, ev, make_scope, where

from rulecraft.dsl import Scope, T, compile_expr
from rulecraft.errors import ExpressionRuntimeError, RulecraftError, RuleFileError, SourcePos
from rulecraft.rules.located import LStr

POS = SourcePos("variants/test/base.yaml", 57, 19)


def run_located(text: str, what: str = "tricks value", **ctx: object) -> object:
    fn = compile_expr(LStr(text, POS), make_scope(), what=what)
    return fn({**CTX, **ctx})


@pytest.mark.parametrize(("text", "ctx", "error"), [
    ("tricks / n", {}, "ZeroDivisionError: division by zero"),
    ("tricks // n", {}, "ZeroDivisionError: integer division or modulo by zero"),
    ("tricks % n", {}, "ZeroDivisionError: integer modulo by zero"),
    ("xs[tricks]", {}, "IndexError: list index out of range"),
    ("xs[-4]", {}, "IndexError: list index out of range"),
    ("hand(seat)[5]", {}, "IndexError: list index out of range"),
    ("max(xs)", {"xs": []}, "ValueError: max() arg is an empty sequence"),
    ("sum(x for x in xs)", {"xs": ["a"]}, "TypeError: unsupported operand type(s) for +: 'int' and 'str'"),
    ("xs[0] + 1", {"xs": [None]}, "TypeError: unsupported operand type(s) for +: 'NoneType' and 'int'"),
])
def test_runtime_error_names_the_rule_and_its_position(text: str, ctx: dict[str, object], error: str) -> None:
    with pytest.raises(ExpressionRuntimeError) as info:
        run_located(text, **ctx)
    message = str(info.value)
    kind = error.split(":")[0]
    assert message.startswith(f"variants/test/base.yaml:57:19: error: tricks value: {kind}: ")
    assert message.endswith(f" (in '{text}')")
    if kind != "ZeroDivisionError":  # Python's own wording of the division messages varies between versions
        assert f": {error} (in " in message
    assert isinstance(info.value, RulecraftError)
    assert info.value.__cause__ is not None  # the original exception is kept for debugging


def test_runtime_error_without_a_file_position() -> None:
    with pytest.raises(ExpressionRuntimeError) as info:
        ev("1 // n")
    assert str(info.value) == "error: test rule: ZeroDivisionError: integer division or modulo by zero (in '1 // n')"


def test_runtime_error_inside_a_macro_names_the_calling_rule() -> None:
    s = make_scope()
    s.add_user_function("per_trick", ["x"], "x // n")
    fn = compile_expr(LStr("per_trick(tricks) + 1", POS), s, what="payment 'bonus'")
    with pytest.raises(ExpressionRuntimeError) as info:
        fn(CTX)
    assert str(info.value).startswith("variants/test/base.yaml:57:19: error: payment 'bonus': ZeroDivisionError")


def test_only_the_arm_taken_is_evaluated() -> None:
    assert run_located("tricks // n if n != 0 else 0") == 0
    assert run_located("n != 0 and tricks // n > 1") is False
    assert run_located("n == 0 or tricks // n > 1") is True
    assert run_located("[tricks // x for x in [1, n, 2] if x != 0]") == [7, 3]


def test_any_and_all_stop_at_the_deciding_item_while_sum_and_count_read_every_one() -> None:
    # sum/count/min/max... read a generator argument as a list (faster); any/all keep stopping early.
    assert run_located("any(tricks // x > 1 for x in [1, n])") is True  # never divides by n == 0
    assert run_located("all(tricks // x > 100 for x in [1, n])") is False
    assert run_located("sum(x * 2 for x in xs if x > 1)", xs=[1, 2, 3]) == 10
    assert run_located("count(x for x in xs if x > 1)", xs=[1, 2, 3]) == 2
    assert run_located("max(x for x in xs)", xs=[4, 9, 2]) == 9
    with pytest.raises(ExpressionRuntimeError, match="ZeroDivisionError"):
        run_located("sum(tricks // x for x in [1, n])")


def test_a_failure_in_a_getter_of_the_engine_is_not_hidden() -> None:
    """Errors of the engine's own functions are bugs, not rule errors: only expression failures are wrapped."""
    s = Scope()
    s.add_name("boom", T.NUMBER, getter=lambda c: c.missing)
    with pytest.raises(AttributeError):
        compile_expr("boom + 1", s)(object())


# ----------------------------------------------------------------------------- no way out to Python
@pytest.mark.parametrize(("text", "at", "message"), [
    ("__import__", "1:1", "unknown name '__import__'"),
    ("__import__('os')", "1:1", "unknown function '__import__'"),
    ("__builtins__", "1:1", "unknown name '__builtins__'"),
    ("ctx", "1:1", "unknown name 'ctx'"),
    ("_g0", "1:1", "unknown name '_g0'"),
    ("eval('1')", "1:1", "unknown function 'eval'"),
    ("exec('1')", "1:1", "unknown function 'exec'"),
    ("getattr(xs, 'x')", "1:1", "unknown function 'getattr'"),
    ("open('/etc/passwd')", "1:1", "unknown function 'open'"),
    ("globals()", "1:1", "unknown function 'globals'"),
    ("type(xs)", "1:1", "unknown function 'type'"),
    ("().__class__", "1:2", "unexpected ')'"),
    ("xs.__class__", "1:3", "unexpected '.': there is no attribute access; call a function instead, e.g. suit(p)"),
    ("'a'.join(xs)", "1:4", "unexpected '.': there is no attribute access; call a function instead, e.g. suit(p)"),
    ("lambda: 1", "1:7", "unexpected character ':'"),
    ("xs[0:1]", "1:5", "unexpected character ':'"),
    ("f(x=1)", "1:4", "unexpected '=': to compare, write '=='"),
    ("x := 1", "1:3", "unexpected character ':'"),
    ("import os", "1:8", "unexpected 'os'"),
    ("1; 2", "1:2", "unexpected character ';'"),
    ("{}", "1:1", "unexpected character '{'"),
    ("2 ** 3", "1:4", "unexpected '*'"),
    ("f'{xs}'", "1:2", "unexpected ''{xs}''"),
])
def test_python_is_out_of_reach(text: str, at: str, message: str) -> None:
    assert where(text) == (at, message)


def test_generated_code_has_no_builtins_and_no_user_text() -> None:
    fn = compile_expr("count(x for x in xs if x > tricks) + len(hand(seat))", make_scope())
    assert fn.__globals__["__builtins__"] == {}  # type: ignore[attr-defined]
    code = fn.python  # type: ignore[attr-defined]
    assert "tricks" not in code and "xs" not in code and "hand" not in code and "count" not in code
    assert "v1_x" in code  # loop variables get fresh identifiers


def test_strings_that_look_like_code_stay_strings() -> None:
    nasty = "'); __import__('os').system('echo pwned'); ('"
    assert ev(repr(nasty)) == nasty
    assert ev("'\\\\' + \"'\"") == "\\'"


def test_dunder_names_as_loop_variables_are_just_names() -> None:
    assert ev("[__class__ * 2 for __class__ in xs]") == [6, 2, 4]


def test_compile_error_is_a_rulecraft_error() -> None:
    with pytest.raises(RulecraftError):
        compile_expr("1 +", make_scope())
    assert issubclass(RuleFileError, RulecraftError)
