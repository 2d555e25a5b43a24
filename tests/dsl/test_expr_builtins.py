"""Every builtin, with its edge cases, both folded at load time (literal arguments) and run with game values."""

from __future__ import annotations

import pytest
from expr_helpers import ev, where

from rulecraft.dsl import Scope, T, compile_expr
from rulecraft.dsl.builtins import BUILTINS, MAX_RANGE
from rulecraft.errors import ExpressionRuntimeError


@pytest.mark.parametrize(("text", "value"), [
    # min / max: several numbers, or one list
    ("min(3, 1, 2)", 1), ("max(3, 1, 2)", 3), ("min(2, 2.5)", 2), ("max(-1, -2)", -1),
    ("min([4, 5])", 4), ("max([4, 5])", 5), ("min(xs)", 1), ("max(xs)", 3), ("max([7])", 7),
    ("max(0, tricks - 5)", 2), ("max(0, tricks - 9)", 0),
    ("min(x * 2 for x in xs)", 2), ("max(x for x in xs if x < 3)", 2),
    ("min('b', 'a')", "a"), ("max(colours)", "red"),
    # abs
    ("abs(-3)", 3), ("abs(3)", 3), ("abs(-2.5)", 2.5), ("abs(0)", 0), ("abs(n - tricks)", 7),
    # round: to the nearest whole number, halves to the even one (as Python does)
    ("round(2.4)", 2), ("round(2.6)", 3), ("round(-2.6)", -3), ("round(7)", 7),
    ("round(2.5)", 2), ("round(3.5)", 4), ("round(tricks / 2)", 4),
    # floor / ceil
    ("floor(2.7)", 2), ("floor(-2.1)", -3), ("floor(3)", 3), ("floor(tricks / 2)", 3),
    ("ceil(2.1)", 3), ("ceil(-2.7)", -2), ("ceil(3)", 3), ("ceil(tricks / 2)", 4),
    # sum
    ("sum([1, 2, 3])", 6), ("sum([])", 0), ("sum(xs)", 6), ("sum(x for x in xs if x > 1)", 5),
    ("sum([0.5, 0.25])", 0.75), ("sum(x for x in [])", 0),
    # count / len
    ("count([1, 2, 3])", 3), ("count([])", 0), ("count(x for x in xs if x > 1)", 2), ("count(xs)", 3),
    ("len([1, 2])", 2), ("len([])", 0), ("len(x for x in xs)", 3), ("len(hand(seat))", 3),
    # any / all
    ("any([false, true])", True), ("any([])", False), ("any(x > 2 for x in xs)", True),
    ("any(x > 3 for x in xs)", False),
    ("all([true, true])", True), ("all([])", True), ("all(x > 0 for x in xs)", True),
    ("all(x > 1 for x in xs)", False),
    # range (bounded)
    ("range(3)", [0, 1, 2]), ("range(0)", []), ("range(-2)", []), ("range(2, 5)", [2, 3, 4]),
    ("range(5, 2)", []), ("range(tricks)", [0, 1, 2, 3, 4, 5, 6]), ("range(-1, 1)", [-1, 0]),
    ("sum(range(101))", 5050), ("len(range(100000))", MAX_RANGE),
    # sorted / reversed
    ("sorted([3, 1, 2])", [1, 2, 3]), ("sorted([])", []), ("sorted(xs)", [1, 2, 3]),
    ("sorted(colours)", ["green", "red"]), ("sorted(-x for x in xs)", [-3, -2, -1]),
    ("reversed([1, 2, 3])", [3, 2, 1]), ("reversed([])", []), ("reversed(xs)", [2, 1, 3]),
    ("reversed(x for x in xs if x > 1)", [2, 3]),
    # first / last: none for an empty list
    ("first([4, 5])", 4), ("first([])", None), ("first(xs)", 3), ("first(x for x in xs if x < 3)", 1),
    ("first(x for x in xs if x > 9)", None),
    ("last([4, 5])", 5), ("last([])", None), ("last(xs)", 2), ("last(x for x in xs if x > 1)", 2),
    # number / text / index_of: text and numbers convert both ways; a position or -1
    ("number('12')", 12), ("number('2.5')", 2.5), ("number(tricks)", 7), ("number(text(tricks) + '0')", 70),
    ("text(tricks)", "7"), ("text(7.0)", "7"), ("text(false)", "false"),
    ("index_of(xs, 2)", 2), ("index_of(xs, 9)", -1), ("index_of(colours, 'green')", 1), ("index_of([], 1)", -1),
])
def test_builtin(text: str, value: object) -> None:
    result = ev(text)
    assert result == value
    assert type(result) is type(value)


def test_every_builtin_is_tested_here() -> None:
    import inspect
    import sys

    src = inspect.getsource(sys.modules[__name__])
    for name in BUILTINS:
        assert f'("{name}(' in src, f"builtin {name} has no test case"


def test_builtins_do_not_change_their_argument() -> None:
    ctx_xs = [3, 1, 2]
    assert ev("sorted(xs)", xs=ctx_xs) == [1, 2, 3]
    assert ev("reversed(xs)", xs=ctx_xs) == [2, 1, 3]
    assert ctx_xs == [3, 1, 2]


def test_builtins_accept_any_iterable_value() -> None:
    # Zones reach expressions as read-only views, not lists: the builtins only iterate them.
    class View:
        def __iter__(self):  # type: ignore[no-untyped-def]
            return iter([5, 6])

    for text, value in (("count(xs)", 2), ("sum(xs)", 11), ("first(xs)", 5), ("last(xs)", 6), ("max(xs)", 6),
                        ("sorted(xs)", [5, 6]), ("reversed(xs)", [6, 5]), ("any(x > 5 for x in xs)", True)):
        assert ev(text, xs=View()) == value


@pytest.mark.parametrize(("text", "at", "message"), [
    ("min()", "1:1", "min() takes at least 1 argument(s), got 0"),
    ("max()", "1:1", "max() takes at least 1 argument(s), got 0"),
    ("min(1)", "1:1", "min() of one value needs a list; for numbers give two or more"),
    ("max(tricks)", "1:1", "max() of one value needs a list; for numbers give two or more"),
    ("range()", "1:1", "range() takes 1 or 2 argument(s), got 0"),
    ("range(1, 2, 3)", "1:1", "range() takes 1 or 2 argument(s), got 3"),
    ("abs()", "1:1", "abs() takes 1 argument (x), got 0"),
    ("abs(1, 2)", "1:1", "abs() takes 1 argument (x), got 2"),
    ("round(1, 2)", "1:1", "round() takes 1 argument (x), got 2"),
    ("sum(1, 2)", "1:1", "sum() takes 1 argument (xs), got 2"),
    ("abs('x')", "1:5", "argument 1 of abs() must be a number, not a string"),
    ("floor(xs)", "1:7", "argument 1 of floor() must be a number, not a list"),
    ("ceil(true)", "1:6", "argument 1 of ceil() must be a number, not true or false"),
    ("sum(3)", "1:5", "argument 1 of sum() must be a list, not a number"),
    ("count(trump)", "1:7", "argument 1 of count() must be a list, not a string"),
    ("sorted(tricks)", "1:8", "argument 1 of sorted() must be a list, not a number"),
    ("1 + sum(x for x in 3)", "1:20", "'for x in ...' needs a list, not a number"),
    # literal arguments are evaluated at load time, so a failure there is a load-time error
    ("min([])", "1:1", "min() fails with these arguments: min() arg is an empty sequence"),
    ("max([])", "1:1", "max() fails with these arguments: max() arg is an empty sequence"),
    (f"range({MAX_RANGE + 1})", "1:1", f"range() fails with these arguments: range() of more than {MAX_RANGE} numbers"),
    ("range(-5, 99999)", "1:1", f"range() fails with these arguments: range() of more than {MAX_RANGE} numbers"),
    ("sum([1, 'a'])", "1:1", "sum() fails with these arguments: unsupported operand type(s) for +: 'int' and 'str'"),
])
def test_builtin_misuse_is_a_load_error(text: str, at: str, message: str) -> None:
    assert where(text) == (at, message)


@pytest.mark.parametrize(("text", "ctx", "error"), [
    ("min(xs)", {"xs": []}, "ValueError: min() arg is an empty sequence"),
    ("max(x for x in xs if x > 5)", {}, "ValueError: max() arg is an empty sequence"),
    ("range(tricks)", {"tricks": MAX_RANGE + 1}, f"ValueError: range() of more than {MAX_RANGE} numbers"),
    ("sum(xs)", {"xs": [1, "a"]}, "TypeError"),
    ("number(xs[0])", {"xs": ["ten"]}, "ValueError: number() cannot read 'ten' as a number"),
    ("text(xs)", {"xs": [1]}, "ValueError: text() needs a number"),
])
def test_builtin_failure_while_playing_is_a_runtime_error(text: str, ctx: dict[str, object], error: str) -> None:
    with pytest.raises(ExpressionRuntimeError) as info:
        ev(text, **ctx)
    assert "error: test rule: " + error in str(info.value)


def test_builtin_result_types_are_known_at_load_time() -> None:
    s = Scope()
    s.add_name("xs", T.LIST, getter=lambda c: c)
    s.add_name("k", T.NUMBER, getter=lambda c: c)
    types = {
        "min(k, 1)": T.NUMBER, "max(xs)": T.ANY, "abs(k)": T.NUMBER, "round(k)": T.NUMBER, "floor(k)": T.NUMBER,
        "ceil(k)": T.NUMBER, "sum(xs)": T.NUMBER, "count(xs)": T.NUMBER, "len(xs)": T.NUMBER, "any(xs)": T.BOOL,
        "all(xs)": T.BOOL, "range(k)": T.LIST, "sorted(xs)": T.LIST, "reversed(xs)": T.LIST, "first(xs)": T.ANY,
        "last(xs)": T.ANY, "number(xs[0])": T.NUMBER, "text(k)": T.STRING, "index_of(xs, k)": T.NUMBER,
    }
    assert {t.split("(")[0] for t in types} == set(BUILTINS)
    for text, t in types.items():
        assert compile_expr(text, s).type is t, text
