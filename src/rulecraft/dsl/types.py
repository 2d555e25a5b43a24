"""The few types the expression language checks at load time.

Pieces and seats are small ints at run time, so a seat or a piece is accepted where a number is
expected and the other way round (a literal ``0`` names seat 0). ``ANY`` is the type of values the
checker cannot know (a loop variable over an untyped list, an element of a variable's table); it
is accepted everywhere, so checking never refuses a correct rule, only a surely wrong one.
"""

from __future__ import annotations

from enum import Enum


class T(Enum):
    NUMBER = "number"
    BOOL = "boolean"
    STRING = "string"
    SEAT = "seat"
    PIECE = "piece"
    LIST = "list"
    NONE = "none"
    ANY = "any"

    def __str__(self) -> str:
        return self.value


_NUMERIC = frozenset({T.NUMBER, T.SEAT, T.PIECE})


def accepts(expected: T, actual: T) -> bool:
    """Whether a value of type ``actual`` may stand where ``expected`` is wanted."""
    if expected is T.ANY or actual is T.ANY or expected is actual or actual is T.NONE:
        return True
    return expected in _NUMERIC and actual in _NUMERIC


def is_numeric(t: T) -> bool:
    return t in _NUMERIC or t is T.ANY


def join(a: T, b: T) -> T:
    """The type of a value that is either an ``a`` or a ``b`` (the two arms of a conditional)."""
    if a is b:
        return a
    if a is T.NONE:
        return b
    if b is T.NONE:
        return a
    if a in _NUMERIC and b in _NUMERIC:
        return T.NUMBER
    return T.ANY


def type_of_value(value: object) -> T:
    """The type of a literal value: a constant, a ``--set`` value, a variable's initial value."""
    if isinstance(value, bool):
        return T.BOOL
    if isinstance(value, (int, float)):
        return T.NUMBER
    if isinstance(value, str):
        return T.STRING
    if isinstance(value, list):
        return T.LIST
    return T.NONE if value is None else T.ANY


def describe(t: T) -> str:
    """``a number``, ``a list``... for messages."""
    return {
        T.NUMBER: "a number", T.BOOL: "true or false", T.STRING: "a string", T.SEAT: "a seat",
        T.PIECE: "a piece", T.LIST: "a list", T.NONE: "none", T.ANY: "a value",
    }[t]
