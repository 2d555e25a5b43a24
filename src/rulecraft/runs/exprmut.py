"""Small changes to one expression, found on its parse tree and written back as text.

Each change is an ``ExprEdit``: a span of the expression's text and what replaces it, so the
author's own spelling and spacing are kept and the position of the changed operator is exact
(the tree knows where every operator and operand starts). The operators are the classic ones of
mutation testing, in the expression language's words:

- a comparison's boundary or sense: ``<`` and ``<=``, ``>`` and ``>=``, ``==`` and ``!=``,
  ``in`` and ``not in``;
- ``and`` and ``or`` swapped; one operand of an ``and`` or ``or`` left out (a forgotten condition,
  or one too many); ``+`` and ``-`` swapped;
- a number one more and one less; ``true`` and ``false`` swapped;
- a condition negated: a whole condition (``not (...)``), the test of an ``a if c else b``; a
  ``not`` or a unary minus left out.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from rulecraft.dsl import ast as A
from rulecraft.dsl.parser import ExprSyntaxError, parse

COMPARE_SWAP = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "==", "in": "not in",
                "not in": "in"}
ARITH_SWAP = {"+": "-", "-": "+"}
_BOOL_WORD = re.compile(r"\b(and|or)\b")
_SHOWN = 48  # longer texts are shortened in a change's description


@dataclass(frozen=True, slots=True)
class ExprEdit:
    """Replace ``text[start:end]`` with ``new``; ``at`` is where the change is reported."""

    at: int
    start: int
    end: int
    new: str
    operator: str  # compare | boolean-operator | drop-operand | arithmetic | number | literal | negate
    change: str  # what changed, for people: "'>=' -> '>'"

    def apply(self, text: str) -> str:
        return text[: self.start] + self.new + text[self.end:]


def shown(text: str) -> str:
    text = " ".join(text.split())
    return repr(text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "…")


def expression_edits(text: str, condition: bool) -> list[ExprEdit]:
    """Every edit of ``text``, in the order the changed places appear; none if it does not parse.

    ``condition``: the expression stands where a condition is expected, so negating it is a change.
    A condition whose top is a comparison or ``and``/``or`` is negated even without it.
    """
    try:
        tree = parse(text)
    except ExprSyntaxError:
        return []
    edits: list[ExprEdit] = []
    # A condition that is a bare true/false is flipped as a literal; one that starts with 'not'
    # loses the 'not' (wrapping it in another would be the same change).
    if (condition or isinstance(tree, (A.Compare, A.BoolOp))) and not _is_not(tree) \
            and not isinstance(tree, A.Literal):
        edits.append(ExprEdit(tree.start, 0, len(text), f"not ({text.strip()})", "negate",
                              f"{shown(text)} -> {shown('not (' + text.strip() + ')')}"))
    edits.extend(_edits(text, tree))
    seen: set[str] = set()
    out: list[ExprEdit] = []
    for e in sorted(edits, key=lambda e: (e.at, e.start, e.end)):
        result = e.apply(text)
        if result != text and result not in seen:
            seen.add(result)
            out.append(e)
    return out


def _is_not(node: A.Node) -> bool:
    return isinstance(node, A.Unary) and node.op == "not"


def _edits(text: str, node: A.Node) -> Iterator[ExprEdit]:
    """The edits of ``node`` and everything under it."""
    if isinstance(node, A.Literal):
        yield from _literal(text, node)
    elif isinstance(node, A.Compare):
        for op, at, _ in node.rest:
            end = _op_end(text, op, at)
            new = COMPARE_SWAP.get(op)
            if new is not None and end > at:
                yield ExprEdit(at, at, end, new, "compare", f"'{op}' -> '{new}'")
    elif isinstance(node, A.Arith):
        for op, at, _ in node.rest:
            new = ARITH_SWAP.get(op)
            if new is not None:
                yield ExprEdit(at, at, at + len(op), new, "arithmetic", f"'{op}' -> '{new}'")
    elif isinstance(node, A.BoolOp):
        new = "or" if node.op == "and" else "and"
        for left, right in zip(node.values, node.values[1:], strict=False):
            m = _BOOL_WORD.search(text, left.end, right.start)
            if m is not None:
                yield ExprEdit(m.start(), m.start(), m.end(), new, "boolean-operator", f"'{node.op}' -> '{new}'")
        yield from _drop_operands(text, node)
    elif isinstance(node, A.Unary):
        if node.op in ("not", "-"):
            m = re.compile(r"(not\b|-)\s*").match(text, node.start)
            if m is not None:
                what = "'not' left out" if node.op == "not" else "unary '-' left out"
                yield ExprEdit(node.start, node.start, m.end(), "", "negate", what)
    elif isinstance(node, A.Cond):
        test = text[node.test.start:node.test.end]
        if not _is_not(node.test):
            yield ExprEdit(node.test.start, node.test.start, node.test.end, f"not ({test})", "negate",
                           f"{shown(test)} -> {shown('not (' + test + ')')}")
    for child in _children(node):
        yield from _edits(text, child)


def _drop_operands(text: str, node: A.BoolOp) -> Iterator[ExprEdit]:
    """Each operand of ``a and b and c`` (or ``or``) left out in turn: the others joined as written,
    an operand that binds less tightly than the operator (an ``or`` inside an ``and``, a conditional)
    kept in brackets."""
    for i, dropped in enumerate(node.values):
        kept = [_operand(text, v, node.op) for j, v in enumerate(node.values) if j != i]
        gone = text[dropped.start:dropped.end]
        yield ExprEdit(dropped.start, node.start, node.end, f" {node.op} ".join(kept), "drop-operand",
                       f"{shown(gone)} left out of '{node.op}'")


def _operand(text: str, node: A.Node, op: str) -> str:
    written = text[node.start:node.end]
    looser = isinstance(node, A.Cond) or (isinstance(node, A.BoolOp) and op == "and" and node.op == "or")
    return f"({written})" if looser else written


def _literal(text: str, node: A.Literal) -> Iterator[ExprEdit]:
    v = node.value
    old = text[node.start:node.end]
    if isinstance(v, bool):
        new = "false" if v else "true"
        yield ExprEdit(node.start, node.start, node.end, new, "literal", f"'{old}' -> '{new}'")
    elif isinstance(v, (int, float)):
        for step in (1, -1):
            new = _number_text(v + step)
            yield ExprEdit(node.start, node.start, node.end, new, "number", f"'{old}' -> '{new}'")


def _number_text(v: float) -> str:
    if isinstance(v, float) and not v.is_integer():
        return repr(v)
    return str(int(v)) if isinstance(v, int) else repr(v)


def _op_end(text: str, op: str, at: int) -> int:
    """Where comparison operator ``op`` written at ``at`` ends (``not in`` may have any spacing)."""
    if op == "not in":
        m = re.compile(r"not\s+in\b").match(text, at)
        return m.end() if m else at
    return at + len(op) if text.startswith(op, at) else at


def _children(node: A.Node) -> list[A.Node]:
    if isinstance(node, A.Compare | A.Arith):
        return [node.first, *(n for _, _, n in node.rest)]
    if isinstance(node, A.BoolOp):
        return list(node.values)
    if isinstance(node, A.Unary):
        return [node.operand]
    if isinstance(node, A.Cond):
        return [node.body, node.test, node.orelse]
    if isinstance(node, A.Index):
        return [node.target, node.index]
    if isinstance(node, A.Call):
        return [*node.args, *(_comp(node.comp))]
    if isinstance(node, A.ListExpr):
        return [*node.items, *(_comp(node.comp))]
    return []


def _comp(comp: A.Comp | None) -> list[A.Node]:
    if comp is None:
        return []
    return [comp.iter, *([comp.cond] if comp.cond is not None else [])]
