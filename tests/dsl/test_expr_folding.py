"""Pure functions with literal arguments are evaluated once, at load time; failures there are load errors."""

from __future__ import annotations

from typing import Any

import pytest
from expr_helpers import CTX, make_scope, where

from rulecraft.dsl import Scope, T, compile_expr


def counting_scope() -> tuple[Scope, list[Any]]:
    calls: list[Any] = []

    def lookup(ctx: Any, pid: str) -> int:
        calls.append(pid)
        return {"rook-bird": 40, "red-5": 0}[pid]

    s = make_scope()
    s.add_function("pid", [T.STRING], T.PIECE, lookup, pure=True)
    s.add_function("impure", [T.STRING], T.NUMBER, lambda c, x: len(x), pure=False)
    s.add_user_function("bird", [], "pid('rook-bird')")
    return s, calls


def test_pure_call_with_literal_arguments_is_evaluated_once_at_load_time() -> None:
    s, calls = counting_scope()
    fn = compile_expr("led == pid('rook-bird')", s)
    assert calls == ["rook-bird"]
    assert "(40)" in fn.python  # type: ignore[attr-defined]
    assert "_f" not in fn.python  # type: ignore[attr-defined]  # no call of the function left, only its value
    for _ in range(3):
        assert fn({**CTX, "led": 40}) is True
    assert calls == ["rook-bird"]


def test_folding_goes_through_macros() -> None:
    s, calls = counting_scope()
    fn = compile_expr("bird()", s)
    assert fn.python == "(40)"  # type: ignore[attr-defined]
    assert fn(None) == 40
    assert calls == ["rook-bird"]


def test_builtins_with_literal_arguments_fold() -> None:
    s = make_scope()
    for text, code in (("max(1, 2)", "(2)"), ("abs(-3)", "(3)"), ("round(2.6)", "(3)"), ("sum([1, 2, 3])", "(6)"),
                       ("min([4, 5])", "(4)"), ("first([])", "(None)"), ("any([])", "(False)"),
                       ("max(abs(-7), 2)", "(7)")):
        assert compile_expr(text, s).python == code, text  # type: ignore[attr-defined]


def test_folded_lists_are_bound_once() -> None:
    fn = compile_expr("sorted([3, 1, 2])", make_scope())
    assert "_k" in fn.python and "sorted" not in fn.python  # type: ignore[attr-defined]
    assert fn(None) == [1, 2, 3]


def test_calls_with_game_values_are_not_folded() -> None:
    s, calls = counting_scope()
    s2 = Scope(parent=s)
    s2.add_name("which", T.STRING, getter=lambda c: c)
    fn = compile_expr("pid(which)", s2)
    assert calls == []
    assert fn("red-5") == 0 and fn("rook-bird") == 40
    assert calls == ["red-5", "rook-bird"]
    assert compile_expr("max(tricks, 1)", make_scope())(CTX) == 7


def test_impure_functions_are_never_folded() -> None:
    s, _ = counting_scope()
    assert "_f" in compile_expr("impure('abc')", s).python  # type: ignore[attr-defined]


def test_generator_arguments_are_not_folded() -> None:
    fn = compile_expr("sum(x for x in [1, 2])", make_scope())
    assert " for " in fn.python  # type: ignore[attr-defined]
    assert fn(None) == 3


def test_failing_pure_call_is_a_load_time_error() -> None:
    s, _ = counting_scope()
    assert where("led == pid('rook-brid')", s) == ("1:8", "pid() fails with these arguments: 'rook-brid'")
    assert where("max(1, 2) + bird() + abs(-1) + min([])", s) == (
        "1:32", "min() fails with these arguments: min() arg is an empty sequence")


def test_constants_are_inlined() -> None:
    fn = compile_expr("target + 1", make_scope())
    assert fn.python == "((300) + 1)"  # type: ignore[attr-defined]
    s = Scope()
    s.add_constant("far", T.NUMBER, float("inf"))  # no literal form: bound, not inlined
    assert compile_expr("far > 1", s)(None) is True


@pytest.mark.parametrize("value", [float("inf"), float("-inf")])
def test_folded_results_without_a_literal_form_still_work(value: float) -> None:
    s = Scope()
    s.add_function("huge", [], T.NUMBER, lambda c: value, pure=True)
    fn = compile_expr("huge()", s)
    assert fn(None) == value
