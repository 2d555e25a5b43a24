"""Remembered rule functions run as functions with loops (``dsl/loops.py``) give what their expression gives.

Each expression below calls rule functions whose bodies drain generators (``first``, ``all``,
``any``), branch (``or``, ``and``, ``if``, ``not``) and bind arguments worked out once (a lambda
applied). The compiled expression runs the rewritten code; its ``python`` is the expression as the
compiler wrote it (lambdas and generators), which is evaluated here in the same namespace. The two
must give the same value, or fail with the same error, for every hand and seat tried, with and
without a memo; the Luk Fu test in ``tests/engine/test_decision_memo.py`` checks the same in play.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from rulecraft.dsl import Scope, T, compile_expr
from rulecraft.errors import ExpressionRuntimeError


class Ctx:
    def __init__(self, hands: list[list[int]], seat: int) -> None:
        self.hands = hands
        self.seat = seat
        self.memo: dict[Any, Any] | None = None


def _scope() -> Scope:
    root = Scope(name="constants")
    root.list_bound = 100
    root.add_function("rank", [T.PIECE], T.NUMBER, lambda c, p: p % 10, pure=True)
    root.add_function("suit", [T.PIECE], T.NUMBER, lambda c, p: p // 10, pure=True)
    game = Scope(parent=root, name="game")
    game.add_name("seat", T.SEAT, getter=lambda c: c.seat)
    game.add_function("hand", [T.SEAT], T.LIST, lambda c, s: list(c.hands[s]))
    game.add_user_function("gap", ["p"], "first(q for q in hand(seat) if suit(q) == suit(p) and rank(q) > rank(p))")
    game.add_user_function("tops", ["p", "g"],
                           "g == none or all(rank(q) >= rank(g) for q in hand(seat) if suit(q) == suit(g))")
    game.add_user_function("old", ["p"], "rank(p) == 9 or tops(p, gap(p))")
    game.add_user_function("strong", ["s"], "max([suit(q) for q in hand(s) if not old(q)] + [0])")
    game.add_user_function("some", ["p"],
                           "(not any(rank(q) == rank(p) for q in hand(seat) if q != p)) if rank(p) > 4 "
                           "else count(q for q in hand(seat) if rank(q) < rank(p)) > 1")
    game.add_user_function("divides", ["p"], "any(10 / rank(q) > rank(p) for q in hand(seat))")
    return game


EXPRESSIONS = [
    "old(13)", "count(p for p in hand(seat) if old(p))", "strong(seat)", "strong(0) + strong(1)",
    "[some(p) for p in hand(seat)]", "gap(21)", "tops(5, gap(5)) and not old(7)", "divides(3)",
]


@pytest.mark.parametrize("text", EXPRESSIONS)
def test_the_function_with_loops_gives_what_the_expression_gives(text: str) -> None:
    fn = compile_expr(text, _scope())
    assert fn.run_python != fn.python  # (rewritten: a function with loops)
    rng = random.Random(7)
    outcomes = set()
    for _ in range(300):
        hands = [rng.sample(range(40), rng.randrange(0, 9)) for _ in range(2)]
        memos: tuple[dict[Any, Any] | None, ...] = (None, {})
        for memo in memos:
            ctx = Ctx(hands, rng.randrange(2))
            ctx.memo = memo
            try:
                got: Any = ("value", fn(ctx))
            except ExpressionRuntimeError as exc:
                got = ("error", exc.reason)
            ctx.memo = None if memo is None else {}
            try:
                want: Any = ("value", eval(fn.python, {**fn.__globals__, "ctx": ctx}))
            except Exception as exc:  # what the compiled form reports, as its guard words it
                want = ("error", fn.__globals__["_fail"](exc).reason)
            assert got == want, f"{text} with hands {hands}, seat {ctx.seat}"
            outcomes.add(got[0])
    assert "value" in outcomes
    assert "error" in outcomes or text != "divides(3)"  # (a failure inside a loop: the same error)
