"""The lark side of the expression parser: the LALR parser (its tables kept by lark in the user's cache
directory) and the transformer from lark's tree to ours. Imported when a text is parsed that no
earlier run kept the tree of (``parser._trees``): a run whose every tree is kept does not load lark.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any, cast

from lark import Lark, Token, Transformer, v_args

from rulecraft.dsl import ast as A
from rulecraft.dsl.quoted import quoted_text
from rulecraft.dsl.syntax_error import ExprSyntaxError
from rulecraft.parser_cache import lalr_parser, write_shipped


@lru_cache(maxsize=1)
def _parser() -> Lark:
    # Building the LALR tables takes longer than most commands' own work: rulecraft ships them, made
    # from this grammar with these options (parser_cache; used only when they were, by this lark), and
    # otherwise lark keeps them in a file of the user's cache directory.
    return lalr_parser("expression-parser", _grammar(), **PARSER_OPTIONS)


PARSER_OPTIONS: dict[str, Any] = {"propagate_positions": True, "maybe_placeholders": True}


def _grammar() -> str:
    return (Path(__file__).resolve().parent / "grammar.lark").read_text(encoding="utf-8")


def write_shipped_tables() -> Path:
    """Make the shipped tables of this grammar (``scripts/parser_tables.py``)."""
    return write_shipped("expression-parser", _grammar(), **PARSER_OPTIONS)


def _start(x: Any) -> int:
    if isinstance(x, Token):
        return int(x.start_pos or 0)
    if isinstance(x, A.Node):
        return x.start
    return int(x.meta.start_pos)


@v_args(meta=True)
class _ToAst(Transformer[Token, A.Node]):
    def number(self, meta: Any, c: list[Token]) -> A.Node:
        text = str(c[0])
        try:
            value: int | float = float(text) if any(ch in text for ch in ".eE") else int(text)
        except ValueError:  # past Python's limit on the digits of a whole number read from text (4,300)
            raise ExprSyntaxError(meta.start_pos, f"this number is too long ({len(text):,} digits)") from None
        return A.Literal(meta.start_pos, meta.end_pos, value)

    def string(self, meta: Any, c: list[Token]) -> A.Node:
        text = str(c[0])
        if "\x00" in text:  # Python's reader refuses it; a YAML "\0" can put one in a rule
            raise ExprSyntaxError(meta.start_pos + text.index("\x00"), "a text contains a NUL character; write "
                                                                       "text without control characters")
        try:
            value = quoted_text(text)
        except (SyntaxError, ValueError) as exc:  # an escape that means nothing: '\x4', '\N{nosuch}', '\h'
            reason = str(getattr(exc, "msg", exc)).rsplit(": ", 1)[-1]
            raise ExprSyntaxError(meta.start_pos, f"this text has an escape that means nothing ({reason}); write "
                                                  "a backslash as \\\\") from None
        return A.Literal(meta.start_pos, meta.end_pos, value)

    def true(self, meta: Any, c: list[Any]) -> A.Node:
        return A.Literal(meta.start_pos, meta.end_pos, True)

    def false(self, meta: Any, c: list[Any]) -> A.Node:
        return A.Literal(meta.start_pos, meta.end_pos, False)

    def none(self, meta: Any, c: list[Any]) -> A.Node:
        return A.Literal(meta.start_pos, meta.end_pos, None)

    def name(self, meta: Any, c: list[Token]) -> A.Node:
        return A.Name(meta.start_pos, meta.end_pos, str(c[0]))

    def args(self, meta: Any, c: list[Any]) -> tuple[A.Node, ...]:
        return tuple(x for x in c if x is not None)

    def comp_for(self, meta: Any, c: list[Any]) -> A.Comp:
        var, it, cond = c
        return A.Comp(meta.start_pos, meta.end_pos, str(var), _start(var), it, cond)

    def call(self, meta: Any, c: list[Any]) -> A.Node:
        return A.Call(meta.start_pos, meta.end_pos, str(c[0]), c[1] or (), None)

    def call_gen(self, meta: Any, c: list[Any]) -> A.Node:
        return A.Call(meta.start_pos, meta.end_pos, str(c[0]), (c[1],), c[2])

    def list_lit(self, meta: Any, c: list[Any]) -> A.Node:
        return A.ListExpr(meta.start_pos, meta.end_pos, c[0] or (), None)

    def list_comp(self, meta: Any, c: list[Any]) -> A.Node:
        return A.ListExpr(meta.start_pos, meta.end_pos, (c[0],), c[1])

    def index(self, meta: Any, c: list[Any]) -> A.Node:
        return A.Index(meta.start_pos, meta.end_pos, c[0], c[1])

    def neg(self, meta: Any, c: list[Any]) -> A.Node:
        return A.Unary(meta.start_pos, meta.end_pos, "-", c[0])

    def pos(self, meta: Any, c: list[Any]) -> A.Node:
        return A.Unary(meta.start_pos, meta.end_pos, "+", c[0])

    def not_(self, meta: Any, c: list[Any]) -> A.Node:
        return A.Unary(meta.start_pos, meta.end_pos, "not", c[0])

    def arith(self, meta: Any, c: list[Any]) -> A.Node:
        if len(c) == 1:  # an aliased rule with one child is not inlined by lark: do it here
            return cast(A.Node, c[0])
        rest = tuple((str(c[i]), _start(c[i]), c[i + 1]) for i in range(1, len(c), 2))
        return A.Arith(meta.start_pos, meta.end_pos, c[0], rest)

    def or_(self, meta: Any, c: list[Any]) -> A.Node:
        if len(c) == 1:
            return cast(A.Node, c[0])
        return A.BoolOp(meta.start_pos, meta.end_pos, "or", tuple(c))

    def and_(self, meta: Any, c: list[Any]) -> A.Node:
        if len(c) == 1:
            return cast(A.Node, c[0])
        return A.BoolOp(meta.start_pos, meta.end_pos, "and", tuple(c))

    def comp_op(self, meta: Any, c: list[Token]) -> tuple[str, int]:
        return (" ".join(str(t) for t in c), meta.start_pos)

    def compare(self, meta: Any, c: list[Any]) -> A.Node:
        if len(c) == 1:
            return cast(A.Node, c[0])
        rest = tuple((c[i][0], c[i][1], c[i + 1]) for i in range(1, len(c), 2))
        return A.Compare(meta.start_pos, meta.end_pos, c[0], rest)

    def cond(self, meta: Any, c: list[Any]) -> A.Node:
        return A.Cond(meta.start_pos, meta.end_pos, c[0], c[1], c[2])


_TO_AST = _ToAst()
