"""The expression tree: small frozen nodes, each knowing where it starts and ends in the source text.

Offsets are character indices into the expression's text; the compiler turns them into file
positions (``LStr.pos_at``) only when it has something to report.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Node:
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Literal(Node):
    value: Any  # int | float | str | bool | None


@dataclass(frozen=True, slots=True)
class Name(Node):
    id: str


@dataclass(frozen=True, slots=True)
class Comp(Node):
    """``for VAR in ITER [if COND]`` inside a call or list brackets."""

    var: str
    var_start: int
    iter: Node
    cond: Node | None


@dataclass(frozen=True, slots=True)
class Call(Node):
    func: str
    args: tuple[Node, ...]
    comp: Comp | None  # ``f(x for x in xs)``: args holds the one element expression


@dataclass(frozen=True, slots=True)
class ListExpr(Node):
    items: tuple[Node, ...]
    comp: Comp | None  # ``[x for x in xs]``: items holds the one element expression


@dataclass(frozen=True, slots=True)
class Index(Node):
    target: Node
    index: Node


@dataclass(frozen=True, slots=True)
class Unary(Node):
    op: str  # '-' | '+' | 'not'
    operand: Node


@dataclass(frozen=True, slots=True)
class Arith(Node):
    first: Node
    rest: tuple[tuple[str, int, Node], ...]  # (operator, operator offset, operand)


@dataclass(frozen=True, slots=True)
class BoolOp(Node):
    op: str  # 'and' | 'or'
    values: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Compare(Node):
    first: Node
    rest: tuple[tuple[str, int, Node], ...]


@dataclass(frozen=True, slots=True)
class Cond(Node):
    body: Node
    test: Node
    orelse: Node
