"""The expression grammar (``grammar.lark``) read by hand: the same trees, for texts that parse.

lark reads a text in about half a millisecond, with its positions, through a general LALR machine
and a transformer, and a rule file has hundreds of texts; a first ``validate`` spent a tenth of its
time there. This reader follows the grammar rule for rule, by recursive descent, and makes the tree
lark and ``larkparse._ToAst`` make, down to every position (a node's span covers the brackets its
first or last part is written in, as lark's propagated positions do). It answers only when it is
sure: anything it does not read the way lark would, it gives up on (``quick_parse`` gives None) and
the text goes to lark, which also writes every syntax error's message. It gives up on

- any text that does not parse (lark finds the place and the words of the error);
- a character or token it does not know, a number or string lark's transformer would refuse;
- a tree that may nest past the parser's depth limit (lark measures it exactly, on its own tree).

So a text's tree does not depend on which reader read it: ``tests/dsl/test_quickparse.py`` checks
every expression of the bundled and test files, and many changed and generated ones, against lark.
"""

from __future__ import annotations

import re
from typing import Any

from rulecraft.dsl import ast as A
from rulecraft.dsl.quoted import quoted_text

# lark's terminals (grammar.lark), and its ignored whitespace (common.WS).
_TOKEN = re.compile(r"""
    (?P<ws>[ \t\f\r\n]+)
  | (?P<num>[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|\.[0-9]+(?:[eE][+-]?[0-9]+)?)
  | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<str>'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")
  | (?P<op>==|!=|<=|>=|//|[-+*/%<>()\[\],])
""", re.VERBOSE)
_KEYWORDS = frozenset({"if", "else", "for", "in", "and", "or", "not", "true", "false", "none"})
_COMPARE = frozenset({"==", "!=", "<", "<=", ">", ">=", "in", "not"})
_LITERALS = {"true": True, "false": False, "none": None}
_MAX_LEVELS = 50  # parser.MAX_DEPTH: a tree that might be deeper goes to lark, which measures it
_MAX_CALLS = 200  # nested descents before giving up (long chains of 'not' or '-')


class _GiveUp(Exception):
    """Not sure to read this text as lark does: lark reads it."""


# A token: (kind, text, start, end); kind is 'num', 'str', 'name', or the keyword or operator itself.
_Tok = tuple[str, str, int, int]
# A part read: (node, start, end, levels): start and end include the brackets it is written in (lark's
# container positions); levels bounds the levels of lark's tree above its deepest leaf (parser._check_depth).
_Part = tuple[A.Node, int, int, int]


def quick_parse(text: str) -> A.Node | None:
    """The tree of ``text`` as ``parser._parse`` makes it through lark, or None when lark must read it."""
    try:
        tokens = _tokens(text)
        reader = _Reader(tokens)
        node, _start, _end, levels = reader.expr()
        if reader.peek() != "$end" or levels > _MAX_LEVELS:
            return None
        return node
    except (_GiveUp, RecursionError):
        return None


def _tokens(text: str) -> list[_Tok]:
    out: list[_Tok] = []
    at, n = 0, len(text)
    match = _TOKEN.match
    while at < n:
        m = match(text, at)
        if m is None:
            raise _GiveUp
        kind = m.lastgroup
        end = m.end()
        if kind == "name":
            word = m.group()
            out.append((word if word in _KEYWORDS else "name", word, at, end))
        elif kind == "op":
            out.append((m.group(), m.group(), at, end))
        elif kind != "ws":
            out.append((kind or "", m.group(), at, end))
        at = end
    out.append(("$end", "", n, n))
    return out


class _Reader:
    def __init__(self, tokens: list[_Tok]) -> None:
        self.tokens = tokens
        self.i = 0
        self.calls = 0

    def peek(self) -> str:
        return self.tokens[self.i][0]

    def take(self, kind: str | None = None) -> _Tok:
        tok = self.tokens[self.i]
        if kind is not None and tok[0] != kind:
            raise _GiveUp
        if tok[0] == "$end":
            raise _GiveUp
        self.i += 1
        return tok

    def _deeper(self) -> None:
        self.calls += 1
        if self.calls > _MAX_CALLS:
            raise _GiveUp

    # ?expr: or_expr "if" or_expr "else" expr -> cond | or_expr
    def expr(self) -> _Part:
        self._deeper()
        body = self.or_expr()
        if self.peek() != "if":
            self.calls -= 1
            return body
        self.take()
        test = self.or_expr()
        self.take("else")
        orelse = self.expr()
        self.calls -= 1
        node = A.Cond(body[1], orelse[2], body[0], test[0], orelse[0])
        return node, node.start, node.end, 1 + max(body[3], test[3], orelse[3])

    # ?or_expr: and_expr ("or" and_expr)* -> or_   (and the same for and_)
    def or_expr(self) -> _Part:
        return self._bool("or", self.and_expr)

    def and_expr(self) -> _Part:
        return self._bool("and", self.not_expr)

    def _bool(self, op: str, operand: Any) -> _Part:
        first: _Part = operand()
        if self.peek() != op:
            return first
        parts = [first]
        while self.peek() == op:
            self.take()
            parts.append(operand())
        node = A.BoolOp(first[1], parts[-1][2], op, tuple(p[0] for p in parts))
        return node, node.start, node.end, 1 + max(p[3] for p in parts)

    # ?not_expr: "not" not_expr -> not_ | comparison
    def not_expr(self) -> _Part:
        if self.peek() != "not":
            return self.comparison()
        self._deeper()
        tok = self.take()
        operand = self.not_expr()
        self.calls -= 1
        node = A.Unary(tok[2], operand[2], "not", operand[0])
        return node, node.start, node.end, 1 + operand[3]

    # ?comparison: sum (comp_op sum)* -> compare
    def comparison(self) -> _Part:
        first = self.sum()
        if self.peek() not in _COMPARE:
            return first
        rest: list[tuple[str, int, A.Node]] = []
        last = first
        levels = first[3]
        while self.peek() in _COMPARE:
            tok = self.take()
            op = tok[1]
            if op == "not":
                self.take("in")
                op = "not in"
            last = self.sum()
            levels = max(levels, last[3])
            rest.append((op, tok[2], last[0]))
        node = A.Compare(first[1], last[2], first[0], tuple(rest))
        return node, node.start, node.end, 2 + levels  # compare, and a 'not in' below it

    # ?sum: product (ADD_OP product)* -> arith;  ?product: unary (MUL_OP unary)* -> arith
    def sum(self) -> _Part:
        return self._arith(("+", "-"), self.product)

    def product(self) -> _Part:
        return self._arith(("*", "//", "/", "%"), self.unary)

    def _arith(self, ops: tuple[str, ...], operand: Any) -> _Part:
        first: _Part = operand()
        if self.peek() not in ops:
            return first
        rest: list[tuple[str, int, A.Node]] = []
        last = first
        levels = first[3]
        while self.peek() in ops:
            tok = self.take()
            last = operand()
            levels = max(levels, last[3])
            rest.append((tok[1], tok[2], last[0]))
        node = A.Arith(first[1], last[2], first[0], tuple(rest))
        return node, node.start, node.end, 1 + levels

    # ?unary: "-" unary -> neg | "+" unary -> pos | postfix
    def unary(self) -> _Part:
        kind = self.peek()
        if kind not in ("-", "+"):
            return self.postfix()
        self._deeper()
        tok = self.take()
        operand = self.unary()
        self.calls -= 1
        node = A.Unary(tok[2], operand[2], kind, operand[0])
        return node, node.start, node.end, 1 + operand[3]

    # ?postfix: atom | postfix "[" expr "]" -> index
    def postfix(self) -> _Part:
        part = self.atom()
        while self.peek() == "[":
            self.take()
            index = self.expr()
            close = self.take("]")
            node = A.Index(part[1], close[3], part[0], index[0])
            part = (node, node.start, node.end, 1 + max(part[3], index[3]))
        return part

    def atom(self) -> _Part:
        tok = self.take()
        kind = tok[0]
        if kind == "name":
            if self.peek() == "(":
                return self.call(tok)
            return A.Name(tok[2], tok[3], tok[1]), tok[2], tok[3], 0
        if kind == "num":
            return A.Literal(tok[2], tok[3], _number(tok[1])), tok[2], tok[3], 0
        if kind == "str":
            return A.Literal(tok[2], tok[3], _string(tok[1])), tok[2], tok[3], 0
        if kind in _LITERALS:
            return A.Literal(tok[2], tok[3], _LITERALS[kind]), tok[2], tok[3], 0
        if kind == "[":
            items, comp, close, levels = self.items("]")
            node = A.ListExpr(tok[2], close[3], items, comp)
            return node, node.start, node.end, 2 + levels
        if kind == "(":
            self._deeper()
            inner = self.expr()
            close = self.take(")")
            self.calls -= 1
            return inner[0], tok[2], close[3], inner[3]  # the brackets are the inner part's container
        raise _GiveUp

    # NAME "(" [args] ")" -> call | NAME "(" expr comp_for ")" -> call_gen
    def call(self, name: _Tok) -> _Part:
        self.take("(")
        args, comp, close, levels = self.items(")")
        node = A.Call(name[2], close[3], name[1], args, comp)
        return node, node.start, node.end, 2 + levels

    def items(self, closing: str) -> tuple[tuple[A.Node, ...], A.Comp | None, _Tok, int]:
        """What stands between brackets: ``[args]`` (expressions, a trailing comma allowed) or one
        expression and its ``comp_for``; then the closing bracket."""
        self._deeper()
        if self.peek() == closing:
            self.calls -= 1
            return (), None, self.take(), 0
        first = self.expr()
        if self.peek() == "for":
            comp, levels = self.comp_for()
            self.calls -= 1
            return (first[0],), comp, self.take(closing), max(first[3], levels)
        parts = [first]
        while self.peek() == ",":
            self.take()
            if self.peek() == closing:
                break
            parts.append(self.expr())
        self.calls -= 1
        return tuple(p[0] for p in parts), None, self.take(closing), max(p[3] for p in parts)

    # comp_for: "for" NAME "in" or_expr ["if" or_expr]
    def comp_for(self) -> tuple[A.Comp, int]:
        start = self.take("for")
        var = self.take("name")
        self.take("in")
        iterable = self.or_expr()
        cond: _Part | None = None
        if self.peek() == "if":
            self.take()
            cond = self.or_expr()
        end = (cond or iterable)[2]
        comp = A.Comp(start[2], end, var[1], var[2], iterable[0], cond[0] if cond else None)
        return comp, 1 + max(iterable[3], cond[3] if cond else 0)


def _number(text: str) -> int | float:
    try:
        return float(text) if any(ch in text for ch in ".eE") else int(text)
    except ValueError:  # too many digits: lark's side says so
        raise _GiveUp from None


def _string(text: str) -> str:
    if "\x00" in text:
        raise _GiveUp
    if "\\" not in text and text.isprintable():  # no escape, no line break or control character
        return text[1:-1]
    try:
        return quoted_text(text)
    except (SyntaxError, ValueError):
        raise _GiveUp from None
