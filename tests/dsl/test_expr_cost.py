"""The load-time bound on an expression's cost (dsl/cost.py): numbers worked out, declared ranges read,
and the rest bounded as it runs instead of refused (the command-line side: tests/hardening)."""

from __future__ import annotations

from typing import Any

import pytest
from expr_helpers import CTX, make_scope

from rulecraft.dsl import Scope, T, compile_expr
from rulecraft.dsl.builtins import BUILTINS
from rulecraft.dsl.cost import estimate
from rulecraft.errors import ExpressionRuntimeError, RuleFileError

# A list of choices with a loop over a list of the game in each: 1,000 steps a choice, the scope's list
# bound being 1,000. Counted at 100,000 numbers for the range it would be 10^8 steps.
CHOICES = "[b for b in range(k + 1) if count(x for x in xs if x >= 0) + b >= 0]"


def scope_with_k(span: tuple[int, int] | None) -> Scope:
    s = make_scope()
    s.add_name("k", T.NUMBER, getter=lambda c: c["k"], span=span)
    return s


def run(fn: Any, **ctx: Any) -> Any:
    return fn({**CTX, **ctx})


def test_a_declared_range_bounds_the_range_of_a_name() -> None:
    fn = compile_expr(CHOICES, scope_with_k((0, 13)))
    assert "_range_upto" not in fn.python  # type: ignore[attr-defined]  # nothing left to check as it runs
    assert run(fn, k=3) == [0, 1, 2, 3]


def test_a_range_not_known_is_limited_as_it_runs_and_fails_at_the_rule() -> None:
    fn = compile_expr(CHOICES, scope_with_k(None), what="bid choices")
    assert run(fn, k=13) == list(range(14))  # far within its limit
    with pytest.raises(ExpressionRuntimeError) as info:
        run(fn, k=100_000)
    # (1,996 choices, each holding while it is computed a list as long as the list bound, are about a million.)
    assert "range() here would give 100,001 numbers; it may give at most 1,996, " in str(info.value)
    assert str(info.value).startswith("error: bid choices: ValueError: range() here")


def test_each_range_of_an_unknown_length_gets_the_limit_that_fits_the_whole() -> None:
    # Two nested ranges of n: n + n * (n + ...) steps, and n lists of n held: the largest n that keeps
    # within 10,000,000 steps and 1,000,000 values is 999.
    fn = compile_expr("count([count(range(k)) for a in range(k)])", scope_with_k(None))
    assert fn.python.count("_range_upto_999(") == 2  # type: ignore[attr-defined]
    assert run(fn, k=999) == 999
    with pytest.raises(ExpressionRuntimeError):
        run(fn, k=1000)


def test_a_range_of_a_worked_out_size_is_not_limited() -> None:
    # range(6 * 50) is known to give 300: only the range of k is checked as it runs.
    fn = compile_expr("count([count(range(6 * 50)) for a in range(k)]) + count([a for a in range(k) "
                      "if count(range(k)) > 0])", scope_with_k(None))
    assert "_range_upto" in fn.python  # type: ignore[attr-defined]
    assert "range_upto_300" not in fn.python  # type: ignore[attr-defined]
    assert run(fn, k=20) == 40


def test_arithmetic_on_spans() -> None:
    ns = {"_r": BUILTINS["range"].impl, "_a": BUILTINS["abs"].impl, "_m": BUILTINS["min"].impl}
    spans = {"_k": (1, 200)}

    def size(code: str) -> int:
        # The steps of range(code): 1 for the call, what the argument costs, and the numbers it gives.
        est = estimate(f"_r({code})", ns, frozenset(), frozenset(), 52, spans)
        base = estimate(f"_r({code})", ns, frozenset(), frozenset(), 52, spans, {c: 0 for c, _ in est.sites})
        return est.steps - base.steps if est.sites else est.steps - 1 - (
            estimate(code, ns, frozenset(), frozenset(), 52, spans).steps)

    assert size("((6) * (6)) * (5)") == 180  # folded: exact
    assert size("(1 + _a((_k(ctx) - (7)))) + 1") == 195  # 1 + |200 - 7| + 1
    assert size("_m(_k(ctx), (3)) * (2)") == 6
    assert size("_k(ctx) % (4)") == 3
    assert size("_k(ctx) // (2)") == 100
    assert size("(-(_k(ctx))) + (300)") == 299


def test_an_expression_too_costly_without_its_unknown_ranges_is_refused() -> None:
    with pytest.raises(RuleFileError) as info:
        compile_expr("count([sum(range(100000)) for a in range(100000)]) + count(range(k))", scope_with_k(None))
    assert "this expression may take up to 10,000,600,008 steps each time it is computed" in str(info.value)
