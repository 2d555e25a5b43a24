"""Functions every expression may call. They are pure and take no evaluation context.

Argument counts and types are checked at load time by ``check_builtin``; ``min``/``max`` take
either one list or several numbers, like Python's.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from rulecraft.dsl.bindings import FunctionBinding
from rulecraft.dsl.types import T

MAX_RANGE = 100_000  # keeps every expression's run time bounded


def _count(items: Iterable[Any]) -> int:
    return len(list(items))  # list() drains a generator in C: cheaper than counting in Python


def _range(a: Any, b: Any = None) -> list[int]:
    lo, hi = (0, int(a)) if b is None else (int(a), int(b))
    if hi - lo > MAX_RANGE:
        raise ValueError(f"range() of more than {MAX_RANGE} numbers")
    return list(range(lo, hi))


def _first(items: Iterable[Any]) -> Any:
    return next(iter(items), None)


def _last(items: Iterable[Any]) -> Any:
    out = None
    for out in items:  # noqa: B007 - the last one is the answer
        pass
    return out


def _min(*args: Any) -> Any:
    return min(args[0]) if len(args) == 1 else min(args)


def _max(*args: Any) -> Any:
    return max(args[0]) if len(args) == 1 else max(args)


def _number(x: Any) -> Any:
    """A number from a number or from its text ('12', '-2.5'); anything else is an error naming it."""
    if isinstance(x, bool) or not isinstance(x, (int, float, str)):
        raise ValueError(f"number() needs a number or the text of one, not {x!r}")
    if not isinstance(x, str):
        return x
    text = str(x).strip()
    try:
        return int(text)
    except ValueError:
        pass
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"number() cannot read {str(x)[:40]!r} as a number") from None
    if value != value or value in (float("inf"), float("-inf")):
        raise ValueError(f"number() cannot read {str(x)[:40]!r} as a number")
    return int(value) if value.is_integer() else value


def _text(x: Any) -> str:
    """The text of a value as a rule file writes it: 3 (not 3.0), 2.5, true, none, red."""
    if isinstance(x, bool):
        return "true" if x else "false"
    if x is None:
        return "none"
    if isinstance(x, float) and x.is_integer():
        return str(int(x))
    if isinstance(x, (int, float, str)):
        return str(x)
    raise ValueError(f"text() needs a number, a string or true/false, not a {type(x).__name__}")


def _index_of(items: Iterable[Any], x: Any) -> int:
    for i, item in enumerate(items):
        if item == x:
            return i
    return -1


def _b(
    name: str, params: tuple[T, ...], returns: T, impl: Any, doc: str, names: tuple[str, ...] = (), elem: T = T.ANY
) -> FunctionBinding:
    return FunctionBinding(name, params, returns, impl, doc, takes_ctx=False, param_names=names, pure=True,
                           elem=elem)


# params of () with a variadic marker are checked by hand in check_builtin.
BUILTINS: dict[str, FunctionBinding] = {
    b.name: b
    for b in (
        _b("min", (), T.ANY, _min, "the smallest of several numbers, or of a list: min(a, b), min(xs)"),
        _b("max", (), T.ANY, _max, "the largest of several numbers, or of a list: max(0, tricks - 5)"),
        _b("abs", (T.NUMBER,), T.NUMBER, abs, "the absolute value", ("x",)),
        _b("round", (T.NUMBER,), T.NUMBER, round, "the nearest whole number", ("x",)),
        _b("floor", (T.NUMBER,), T.NUMBER, math.floor, "round down to a whole number", ("x",)),
        _b("ceil", (T.NUMBER,), T.NUMBER, math.ceil, "round up to a whole number", ("x",)),
        _b("sum", (T.LIST,), T.NUMBER, sum, "the total of a list: sum(points(p) for p in hand(seat))", ("xs",)),
        _b("count", (T.LIST,), T.NUMBER, _count,
           "how many items: count(p for p in hand(seat) if suit(p) == trump)", ("xs",)),
        _b("len", (T.LIST,), T.NUMBER, _count, "how many items (the same as count)", ("xs",)),
        _b("any", (T.LIST,), T.BOOL, any, "whether any item is true: any(rank(p) == 9 for p in hand(seat))",
           ("xs",)),
        _b("all", (T.LIST,), T.BOOL, all, "whether every item is true", ("xs",)),
        _b("range", (), T.LIST, _range, "whole numbers: range(n) is 0..n-1, range(a, b) is a..b-1",
           elem=T.NUMBER),
        _b("sorted", (T.LIST,), T.LIST, sorted, "the items in increasing order", ("xs",)),
        _b("reversed", (T.LIST,), T.LIST, lambda xs: list(reversed(list(xs))), "the items in reverse order",
           ("xs",)),
        _b("first", (T.LIST,), T.ANY, _first, "the first item, or none for an empty list", ("xs",)),
        _b("last", (T.LIST,), T.ANY, _last, "the last item, or none for an empty list", ("xs",)),
        _b("number", (T.ANY,), T.NUMBER, _number, "the number a text names: number('12') is 12", ("x",)),
        _b("text", (T.ANY,), T.STRING, _text, "a number (or true/false) as text: text(3) is '3'", ("x",)),
        _b("index_of", (T.LIST, T.ANY), T.NUMBER, _index_of,
           "the position of the first item equal to x (0 first), or -1: index_of(['a', 'b'], 'b') is 1",
           ("xs", "x")),
    )
}

VARIADIC = {"min": (1, None), "max": (1, None), "range": (1, 2)}
# Builtins that read every item of their list: a generator written as their argument is compiled to
# a list comprehension, which Python runs faster (and the result is the same, failures included).
# Builtins that give their list's items in another order: the items keep their type.
SAME_ITEMS = frozenset({"sorted", "reversed"})
DRAINING = frozenset({"sum", "count", "len", "min", "max", "sorted", "reversed", "last"})
