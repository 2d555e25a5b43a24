"""User functions from a rule file's ``functions:`` section: inlined where they are called."""

from __future__ import annotations

from typing import Any

from expr_helpers import CTX, ev, make_scope, where

from rulecraft.dsl import Scope, T, compile_expr


def test_the_rook_functions() -> None:
    # pieces 0,1 red; 2,3 green; 4 the bird. Trump is green.
    assert [ev(f"is_trump({p})") for p in range(5)] == [False, False, True, True, True]
    assert ev("count(q for q in hand(seat) if is_trump(q))") == 3
    assert ev("counters(0)") == 15
    assert ev("counters(seat)") == 30


def test_a_macro_sees_the_names_of_the_place_it_is_used() -> None:
    root = make_scope()
    root.add_user_function("follows", ["p"], "suit(p) == suit(led)")
    follow = Scope(parent=root, name="follow rule")
    follow.add_name("led", T.PIECE, getter=lambda c: c["first_played"])
    payment = Scope(parent=root, name="payment")
    payment.add_name("led", T.PIECE, getter=lambda c: c["last_led"])
    f1 = compile_expr("follows(2)", follow)
    f2 = compile_expr("follows(2)", payment)
    assert f1({"first_played": 3, "last_led": 0}) is True
    assert f2({"first_played": 3, "last_led": 0}) is False


def test_arguments_are_evaluated_once() -> None:
    seen: list[int] = []

    def getter(ctx: Any) -> int:
        seen.append(1)
        return 5

    s = make_scope()
    s.add_name("costly", T.NUMBER, getter=getter)
    s.add_user_function("triple", ["x"], "x + x + x")
    fn = compile_expr("triple(costly * 2)", s)
    assert fn(None) == 30
    assert len(seen) == 1
    # A plain name is read where it is used (cheaper than binding it); the result is the same.
    assert compile_expr("triple(costly)", s)(None) == 15


def test_literal_and_name_arguments_are_substituted() -> None:
    fn = compile_expr("double(3)", make_scope())
    assert fn.python == "(3 + 3)"  # type: ignore[attr-defined]


def test_macro_body_cannot_see_the_callers_loop_variables() -> None:
    s = make_scope()
    s.add_user_function("uses_q", [], "q + 1")
    assert where("[uses_q() for q in xs]", s) == ("1:1", "in function 'uses_q': unknown name 'q'")


def test_macro_parameters_shadow_scope_names_and_do_not_leak() -> None:
    s = make_scope()
    s.add_user_function("plus_tricks", ["tricks"], "tricks + 100")
    assert compile_expr("plus_tricks(1) + tricks", s)(CTX) == 108


def test_loop_variables_of_nested_macros_do_not_clash() -> None:
    s = make_scope()
    s.add_user_function("inner", ["x"], "sum(x * y for y in [1, 2])")
    s.add_user_function("outer", ["ys"], "[inner(y) for y in ys]")
    assert compile_expr("outer(xs)", s)(CTX) == [9, 3, 6]


def test_a_macro_may_call_another_many_times_without_recursion() -> None:
    s = make_scope()
    s.add_user_function("sq", ["x"], "x * x")
    s.add_user_function("sum_sq", ["a", "b"], "sq(a) + sq(b) + sq(a + b)")
    assert compile_expr("sum_sq(tricks, 1)", s)(CTX) == 49 + 1 + 64


def test_macro_with_a_generator_argument() -> None:
    s = make_scope()
    s.add_user_function("total", ["xs"], "sum(xs)")
    assert compile_expr("total(x * 10 for x in xs)", s)(CTX) == 60
