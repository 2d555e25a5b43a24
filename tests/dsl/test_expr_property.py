"""The compiled language agrees with Python on the subset both share.

Hypothesis writes random well-typed expressions over whole numbers (+ - * // %, comparisons, chains,
and/or/not, conditionals, min/max/abs, list literals with in / not in), sometimes bracketed and
sometimes not, so both languages' precedence rules decide the grouping. Each is compiled by
rulecraft and evaluated by Python's own ``eval`` (true/false written True/False), and the two
results must be equal, with the same type. Leaves are literals (folded at load time) or names read
from the context at run time.
"""

from __future__ import annotations

import re
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulecraft.dsl import Scope, T, compile_expr

NAMES = ("x", "y", "z")


def _scope() -> Scope:
    s = Scope(name="property")
    for n in NAMES:
        s.add_name(n, T.NUMBER, getter=(lambda c, _n=n: c[_n]))
    return s


SCOPE = _scope()


def _maybe_paren(draw: Any, text: str) -> str:
    return f"({text})" if draw(st.booleans()) else text


@st.composite
def num(draw: Any, depth: int = 3) -> str:
    leaf = st.one_of(st.integers(-20, 20).map(str), st.sampled_from(NAMES))
    if depth <= 0 or draw(st.integers(0, 3)) == 0:
        return str(draw(leaf))
    kind = draw(st.sampled_from(["arith", "arith", "div", "neg", "call", "cond", "minlist"]))
    sub = num(depth - 1)
    if kind == "arith":
        op = draw(st.sampled_from(["+", "-", "*"]))
        return f"{_maybe_paren(draw, draw(sub))} {op} {_maybe_paren(draw, draw(sub))}"
    if kind == "div":  # the divisor is never zero
        op = draw(st.sampled_from(["//", "%"]))
        divisor = draw(st.sampled_from(["(abs({}) + 1)", "max(1, {})", "(-1 - abs({}))"])).format(draw(sub))
        return f"{_maybe_paren(draw, draw(sub))} {op} {divisor}"
    if kind == "neg":
        return f"-{_maybe_paren(draw, draw(sub))}"
    if kind == "call":
        fn = draw(st.sampled_from(["min", "max", "abs"]))
        args = [draw(sub) for _ in range(1 if fn == "abs" else draw(st.integers(2, 3)))]
        return f"{fn}({', '.join(args)})"
    if kind == "cond":
        return f"({draw(sub)} if {draw(boolean(depth - 1))} else {draw(sub)})"
    items = ", ".join(draw(sub) for _ in range(draw(st.integers(1, 3))))
    return f"{draw(st.sampled_from(['min', 'max']))}([{items}])"


@st.composite
def boolean(draw: Any, depth: int = 3) -> str:
    if depth <= 0:
        return draw(st.sampled_from(["true", "false", "x < y", "z == 0"]))
    kind = draw(st.sampled_from(["cmp", "cmp", "chain", "and", "or", "not", "in", "lit", "cond"]))
    n = num(depth - 1)
    b = boolean(depth - 1)
    ops = st.sampled_from(["==", "!=", "<", "<=", ">", ">="])
    if kind == "cmp":
        return f"{draw(n)} {draw(ops)} {draw(n)}"
    if kind == "chain":
        return f"{draw(n)} {draw(ops)} {draw(n)} {draw(ops)} {draw(n)}"
    if kind in ("and", "or"):
        return f"{_maybe_paren(draw, draw(b))} {kind} {_maybe_paren(draw, draw(b))}"
    if kind == "not":
        return f"not {_maybe_paren(draw, draw(b))}"
    if kind == "in":
        items = ", ".join(draw(n) for _ in range(draw(st.integers(0, 3))))
        return f"{draw(n)} {draw(st.sampled_from(['in', 'not in']))} [{items}]"
    if kind == "cond":
        return f"({draw(b)} if {draw(b)} else {draw(b)})"
    return draw(st.sampled_from(["true", "false"]))


def _python(text: str) -> str:
    return re.sub(r"\btrue\b", "True", re.sub(r"\bfalse\b", "False", text))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.one_of(num(), boolean()), env=st.fixed_dictionaries({n: st.integers(-9, 9) for n in NAMES}))
def test_compiled_result_equals_python_eval(text: str, env: dict[str, int]) -> None:
    expected = eval(_python(text), {"__builtins__": {"min": min, "max": max, "abs": abs}}, dict(env))
    got = compile_expr(text, SCOPE)(env)
    assert (type(got), got) == (type(expected), expected), text


def test_the_generator_covers_the_interesting_cases() -> None:
    """A fixed sample, so the property test is known to reach precedence-sensitive shapes."""
    samples = [
        "-3 // 2 * 4 - 5 % 3", "1 < 2 == 2 > 1", "not x < y or z == 0 and true", "-abs(x) - -y",
        "(1 if x > y else -1) * min(x, y, z)", "x % (abs(y) + 1) - max([x, y]) // max(1, z)",
        "2 in [x, y, 2] and 3 not in [] or not false", "(true if x == y else x < z) or false",
    ]
    for text in samples:
        env = {"x": 4, "y": -3, "z": 0}
        expected = eval(_python(text), {"__builtins__": {"min": min, "max": max, "abs": abs}}, dict(env))
        got = compile_expr(text, SCOPE)(env)
        assert (type(got), got) == (type(expected), expected), text
