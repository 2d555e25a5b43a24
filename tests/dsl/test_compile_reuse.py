"""A text compiled again in another scope reuses its code only when the scope answers the same.

``compile_expr`` remembers, per text and kind of scope, what the scope answered while the text was
walked (see ``_Trace`` in dsl/compiler.py). Each test compiles one text in two scopes of the same
kind (the same names along the chain, as each configuration of a ruleset builds them) that differ
in one answer, and checks that the second result is right for its own scope.
"""

from __future__ import annotations

from typing import Any

import pytest

from rulecraft.dsl import Scope, T, compile_expr
from rulecraft.errors import RuleFileError


class Ctx:
    def __init__(self, **values: Any) -> None:
        self.__dict__.update(values)
        self.item: Any = None


def _scope(**constants: Any) -> Scope:
    s = Scope(name="reuse test")
    for name, value in constants.items():
        s.add_constant(name, T.NUMBER if isinstance(value, int) else T.LIST, value)
    return s


def test_a_constant_with_another_value() -> None:
    assert compile_expr("target + 1", _scope(target=10))(None) == 11
    assert compile_expr("target + 1", _scope(target=20))(None) == 21


def test_a_pure_function_computed_at_load_time_with_another_result() -> None:
    def scope(table: dict[str, int]) -> Scope:
        s = _scope()
        s.add_function("rank", [T.STRING], T.NUMBER, lambda ctx, name: table[name], pure=True)
        return s

    assert compile_expr("rank('ace') * 2", scope({"ace": 14}))(None) == 28
    assert compile_expr("rank('ace') * 2", scope({"ace": 1}))(None) == 2
    with pytest.raises(RuleFileError, match="fails with these arguments"):
        compile_expr("rank('ace') * 2", scope({}))


def test_names_read_through_one_getter_or_two() -> None:
    def scope(shared: bool) -> Scope:
        s = _scope()
        first = lambda c: c.a  # noqa: E731
        s.add_name("a", T.NUMBER, getter=first)
        s.add_name("b", T.NUMBER, getter=first if shared else (lambda c: c.b))
        return s

    ctx = Ctx(a=5, b=2)
    assert compile_expr("a - b", scope(shared=True))(ctx) == 0
    assert compile_expr("a - b", scope(shared=False))(ctx) == 3
    assert compile_expr("a - b", scope(shared=True))(ctx) == 0


def test_a_name_that_becomes_a_function_or_a_macro() -> None:
    s = _scope(x=3)
    s.add_user_function("double", ["v"], "v * 2")
    assert compile_expr("double(x)", s)(None) == 6
    t = _scope(x=3)
    t.add_user_function("double", ["v"], "v + 2")
    assert compile_expr("double(x)", t)(None) == 5
    u = _scope(x=3)
    with pytest.raises(RuleFileError, match="unknown function 'double'"):
        compile_expr("double(x)", u)


def test_the_cost_limit_is_checked_in_each_scope() -> None:
    text = "sum(sum(1 for b in big) for a in big)"
    assert compile_expr(text, _scope(big=list(range(10))))(None) == 100
    with pytest.raises(RuleFileError, match="steps"):
        compile_expr(text, _scope(big=list(range(5000))))


def test_the_expected_type_is_checked_in_each_scope() -> None:
    s = Scope(name="reuse test")
    s.add_constant("flag", T.BOOL, True)
    assert compile_expr("flag", s, expect=T.BOOL)(None) is True
    t = Scope(name="reuse test")
    t.add_constant("flag", T.NUMBER, 1)
    with pytest.raises(RuleFileError, match="a condition is expected"):
        compile_expr("flag", t, expect=T.BOOL)


def test_select_reads_the_item_as_each_scope_says() -> None:
    def scope(per_item: bool) -> Scope:
        s = Scope(name="reuse select")
        s.item_slot = "item"
        if per_item:
            s.add_name("v", T.NUMBER, getter=lambda c: c.item, item_code="_it")
        else:
            s.add_name("v", T.NUMBER, getter=lambda c: c.fixed)
        return s

    ctx = Ctx(fixed=2)
    assert compile_expr("v > 1", scope(per_item=True), select=True).select(ctx, [0, 1, 2, 3]) == [2, 3]
    assert compile_expr("v > 1", scope(per_item=False), select=True).select(ctx, [0, 1, 2, 3]) == [0, 1, 2, 3]
