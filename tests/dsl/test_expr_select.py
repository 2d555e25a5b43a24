"""``CompiledExpr.select`` gives what evaluating the expression item by item gives.

``select`` reads item-independent names once and moves item-independent parts of the expression
before its loop. Hypothesis writes random expressions mixing names about the item (``a`` read
straight from the item, ``b`` through a getter) with names that are not (``x``, ``y``), including
divisions that fail when the divisor is 0, placed under ``and``/``or``/``if`` where a moved part
could fail although the expression never evaluates it. For random items, ``select`` must keep
exactly the items for which the plain expression is true, and fail exactly when it fails.
(``y`` is given as code, so generated code reads it inline rather than through a getter call.)
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulecraft.dsl import Scope, T, compile_expr
from rulecraft.errors import ExpressionRuntimeError


class Ctx:
    def __init__(self, x: int, y: int) -> None:
        self.x, self.y = x, y
        self.item: tuple[int, int] | None = None


def _scope() -> Scope:
    s = Scope(name="select test")
    s.item_slot = "item"
    s.add_name("x", T.NUMBER, getter=lambda c: c.x)
    s.add_name("y", T.NUMBER, code="ctx.y")
    s.add_name("a", T.NUMBER, getter=lambda c: c.item[0], item_code="_it[0]")
    s.add_name("b", T.NUMBER, getter=lambda c: c.item[1], per_item=True)
    s.add_user_function("twice", ["v"], "v + v")
    return s


SCOPE = _scope()
LEAVES = st.one_of(st.sampled_from(["x", "y", "a", "b"]), st.integers(-3, 3).map(str))


@st.composite
def num(draw: Any, depth: int = 3) -> str:
    if depth <= 0 or draw(st.integers(0, 3)) == 0:
        return str(draw(LEAVES))
    sub = num(depth - 1)
    kind = draw(st.sampled_from(["arith", "div", "cond", "macro", "count"]))
    if kind == "arith":
        return f"({draw(sub)} {draw(st.sampled_from(['+', '-', '*']))} {draw(sub)})"
    if kind == "div":  # fails when the divisor is 0
        return f"({draw(sub)} // {draw(sub)})"
    if kind == "cond":
        return f"({draw(sub)} if {draw(boolean(depth - 1))} else {draw(sub)})"
    if kind == "macro":
        return f"twice({draw(sub)})"
    return f"count(q for q in [{draw(sub)}, {draw(sub)}] if q > {draw(sub)})"


@st.composite
def boolean(draw: Any, depth: int = 3) -> str:
    n = num(depth - 1)
    if depth <= 0:
        return f"{draw(LEAVES)} < {draw(LEAVES)}"
    kind = draw(st.sampled_from(["cmp", "chain", "and", "or", "not"]))
    if kind == "cmp":
        return f"{draw(n)} {draw(st.sampled_from(['==', '!=', '<', '>=']))} {draw(n)}"
    if kind == "chain":
        return f"{draw(n)} < {draw(n)} < {draw(n)}"
    if kind == "not":
        return f"not ({draw(boolean(depth - 1))})"
    return f"({draw(boolean(depth - 1))}) {kind} ({draw(boolean(depth - 1))})"


def _one_by_one(fn: Any, ctx: Ctx, items: list[tuple[int, int]]) -> list[tuple[int, int]] | str:
    kept = []
    for item in items:
        ctx.item = item
        try:
            if fn(ctx):
                kept.append(item)
        except ExpressionRuntimeError:
            return "fails"
    return kept


def _selected(fn: Any, ctx: Ctx, items: list[tuple[int, int]]) -> list[tuple[int, int]] | str:
    try:
        return list(fn.select(ctx, items))
    except ExpressionRuntimeError:
        return "fails"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=boolean(), x=st.integers(-2, 2), y=st.integers(-2, 2),
       items=st.lists(st.tuples(st.integers(-2, 2), st.integers(-2, 2)), max_size=4))
def test_select_agrees_with_evaluating_each_item(text: str, x: int, y: int, items: list[tuple[int, int]]) -> None:
    fn = compile_expr(text, SCOPE, T.BOOL, select=True)
    assert _selected(fn, Ctx(x, y), items) == _one_by_one(fn, Ctx(x, y), items), fn.select.python


def test_parts_about_the_position_are_computed_once_before_the_loop() -> None:
    fn = compile_expr("twice(x) + y == a and b > 0", SCOPE, T.BOOL, select=True)
    loop = fn.select.python.split("for _it in items:")
    assert "v_g" in loop[0] and "h0 =" in loop[0]  # x, y and twice(x) + y: before the loop
    assert "ctx.item = _it" in loop[1]  # b is read through its getter, so the item goes into the context
    assert fn.select(Ctx(1, 1), [(3, 1), (3, 0), (2, 1)]) == [(3, 1)]


def test_a_part_that_may_fail_is_not_moved_out_of_a_condition() -> None:
    fn = compile_expr("a > 0 and x // y > 0", SCOPE, T.BOOL, select=True)
    assert fn.select(Ctx(1, 0), [(0, 0), (-1, 0)]) == []  # x // y is never reached
    with pytest.raises(ExpressionRuntimeError, match="ZeroDivisionError"):
        fn.select(Ctx(1, 0), [(1, 0)])


def test_a_chain_stops_at_its_first_false_link() -> None:
    fn = compile_expr("a < x < x // y", SCOPE, T.BOOL, select=True)
    assert fn.select(Ctx(1, 0), [(1, 0), (2, 0)]) == []  # 1 < 1 is false: x // y is never reached


def test_selecting_from_no_items_evaluates_nothing() -> None:
    fn = compile_expr("x // y == a", SCOPE, T.BOOL, select=True)
    assert fn.select(Ctx(1, 0), []) == []


def test_a_scope_without_an_item_slot_cannot_compile_select() -> None:
    with pytest.raises(ValueError, match="no item slot"):
        compile_expr("true", Scope(name="plain"), T.BOOL, select=True)


def test_a_name_given_as_code_is_read_inline_and_a_name_needs_a_way_to_be_read() -> None:
    fn = compile_expr("x + y * 10 == a", SCOPE, T.BOOL, select=True)
    getter_calls = [n for n in fn.__code__.co_names if re.fullmatch(r"_g\d+", n)]
    assert len(getter_calls) == 2 and "y" in fn.__code__.co_names  # x and a through getters, y as ctx.y
    assert "(ctx.y)" in fn.select.python and fn.select(Ctx(1, 2), [(21, 0), (3, 0)]) == [(21, 0)]
    assert SCOPE.lookup_name("y").getter(Ctx(1, 2)) == 2  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="needs a getter or code"):
        Scope(name="plain").add_name("z", T.NUMBER)
