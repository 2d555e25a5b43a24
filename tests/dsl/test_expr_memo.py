"""Rule functions remembered within one decision (``dsl.compiler.remembered``, ``MEMO``).

A rule function whose body loops is compiled to remember its result for the same arguments, the
same values of the names it reads and the same scope, for as long as the context holds a memo (the
engine keeps one only while it builds a decision's options). Without a memo it is computed each
time, as before.
"""

from __future__ import annotations

from typing import Any

import pytest

from rulecraft.dsl import Scope, T, compile_expr
from rulecraft.errors import RuleFileError


class Ctx:
    def __init__(self, hands: list[list[int]], seat: int = 0, led: int = 0) -> None:
        self.hands = hands
        self.seat = seat
        self.led = led
        self.memo: dict[Any, Any] | None = None
        self.reads = 0  # how often a hand was read: how often a body was computed


def _scope() -> Scope:
    root = Scope(name="constants")
    root.list_bound = 100
    root.add_function("rank", [T.PIECE], T.NUMBER, lambda c, p: p % 10, pure=True)
    # 'above(p)': how many cards of the seat's hand rank above p, a body with a loop that reads `seat`.
    root.add_user_function("above", ["p"], "count(q for q in hand(seat) if rank(q) > rank(p))")
    root.add_user_function("cheap", ["p"], "rank(p) + 1")
    game = Scope(parent=root, name="game")
    game.add_name("seat", T.SEAT, getter=lambda c: c.seat)

    def hand(c: Ctx, s: int) -> list[int]:
        c.reads += 1
        return c.hands[s]

    game.add_function("hand", [T.SEAT], T.LIST, hand)
    return game


def test_the_same_call_is_computed_once_while_a_memo_is_kept() -> None:
    s = _scope()
    one = compile_expr("above(3) + above(3)", s)
    other = compile_expr("above(3) * 10", s)  # another expression shares what the first computed
    ctx = Ctx([[1, 5, 7, 2]])
    assert one(ctx) == 4 and ctx.reads == 2  # no memo: computed at each call
    ctx.memo = {}
    ctx.reads = 0
    assert one(ctx) == 4 and other(ctx) == 20
    assert ctx.reads == 1
    assert compile_expr("above(5)", s)(ctx) == 1 and ctx.reads == 2  # another argument: computed


def test_the_names_a_function_reads_are_part_of_its_key() -> None:
    fn = compile_expr("above(3)", _scope())
    ctx = Ctx([[1, 5, 7, 2], [9, 8, 1]])
    ctx.memo = {}
    assert fn(ctx) == 2
    ctx.seat = 1  # above(3) reads seat: a different seat is a different question
    assert fn(ctx) == 2 and ctx.reads == 2
    ctx.hands[1].append(6)
    assert fn(ctx) == 2  # the memo trusts the state not to change while it is kept: the engine drops it
    ctx.memo = None
    assert fn(ctx) == 3


def test_the_same_function_in_another_scope_is_another_question() -> None:
    # A function of the game is not part of the key (it reads the state, which the memo trusts not to
    # change): the same rule function where 'limit()' means another thing must not share a result.
    root = Scope(name="constants")
    root.add_user_function("under_limit", ["p"], "count(q for q in [p] if q < limit())")
    a, b = Scope(parent=root, name="follow rule"), Scope(parent=root, name="payment")
    a.add_function("limit", [], T.NUMBER, lambda c: 4)
    b.add_function("limit", [], T.NUMBER, lambda c: 6)
    ctx = Ctx([])
    ctx.memo = {}
    assert compile_expr("under_limit(5)", a)(ctx) == 0
    assert compile_expr("under_limit(5)", b)(ctx) == 1


def test_only_functions_with_a_loop_and_no_list_are_remembered() -> None:
    s = _scope()
    assert "_memo" not in compile_expr("cheap(3)", s).python  # type: ignore[attr-defined]
    assert "_memo" in compile_expr("above(3)", s).python  # type: ignore[attr-defined]
    s.add_user_function("longest", ["xs"], "max([rank(q) for q in xs] + [0])")
    fn = compile_expr("longest(hand(seat))", s)
    assert "_memo" not in fn.python  # type: ignore[attr-defined]
    ctx = Ctx([[3, 14]])
    ctx.memo = {}
    assert fn(ctx) == 4


def test_an_argument_that_cannot_be_a_key_is_computed() -> None:
    s = _scope()
    s.add_user_function("has_above", ["p"], "any(rank(q) > 0 for q in p)")  # p's type is not known: any
    s.add_name("anything", T.ANY, getter=lambda c: [1, 2])
    fn = compile_expr("has_above(anything)", s)
    assert "_memo" in fn.python  # type: ignore[attr-defined]
    ctx = Ctx([])
    ctx.memo = {}
    assert fn(ctx) is True and ctx.memo == {}


def test_the_cost_limit_still_sees_a_remembered_body() -> None:
    s = _scope()
    s.add_user_function("slow", ["x"], "count(i for i in range(100000) if i == x)")
    assert "_memo" in compile_expr("slow(3)", s).python  # type: ignore[attr-defined]
    with pytest.raises(RuleFileError, match="steps"):
        compile_expr("count(j for j in range(100000) if slow(j) > 0)", s)


def test_a_function_called_once_in_a_remembered_body_is_remembered_with_it() -> None:
    # 'twice_above(p)' calls above(p) once, outside any loop: remembering twice_above is enough. A
    # function that calls above(q) for every card remembers each: other rules ask the same questions.
    s = _scope()
    s.add_user_function("twice_above", ["p"], "above(p) * 2")
    s.add_user_function("all_above", ["p"], "sum(above(q) for q in hand(seat) if q != p)")
    once = compile_expr("twice_above(3)", s).python  # type: ignore[attr-defined]
    assert once.count("_memo(") == 1 and "'twice_above@" in once
    each = compile_expr("all_above(3) + above(7)", s)
    assert each.python.count("'above@") == 2  # type: ignore[attr-defined]
    ctx = Ctx([[1, 5, 7, 2]])
    ctx.memo = {}
    assert each(ctx) == (2 + 1 + 3) + 0 and compile_expr("twice_above(5)", s)(ctx) == 2
    assert ctx.reads == 1 + 4 + 1  # all_above's hand, above() of each card, twice_above(5)'s above(5)
