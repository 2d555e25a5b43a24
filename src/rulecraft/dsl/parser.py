"""Text to expression tree, with the LALR parser built once per process.

Syntax errors come out as ``ExprSyntaxError(offset, message)``; the compiler places them in the
rule file. Messages name what was found and what could have come instead, in the words a rule
author uses (``')'``, ``a name``), never lark's terminal names.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from rulecraft.disk_cache import Table, package_files, version_of
from rulecraft.dsl import ast as A
from rulecraft.dsl.syntax_error import ExprSyntaxError
from rulecraft.errors import Limit

if TYPE_CHECKING:
    from lark import Token, Tree
    from lark.exceptions import UnexpectedInput

# Checked before the work they bound: a long text before it is parsed, its brackets before lark
# builds a tree, the tree's depth before it is turned (recursively) into ours.
MAX_LENGTH = Limit(10_000, "characters", "is {n} characters long")
MAX_DEPTH = Limit(50, "levels", "nests {n} levels deep")

_TERMINAL_WORDS = {
    "RPAR": "')'", "LPAR": "'('", "RSQB": "']'", "LSQB": "'['", "COMMA": "','", "NAME": "a name",
    "NUMBER": "a number", "STRING": "a string", "ADD_OP": "'+' or '-'", "MUL_OP": "'*', '/', '//' or '%'",
    "MINUS": "'-'", "PLUS": "'+'", "IF": "'if'", "ELSE": "'else'", "FOR": "'for'", "IN": "'in'",
    "NOT": "'not'", "AND": "'and'", "OR": "'or'", "TRUE": "'true'", "FALSE": "'false'", "NONE": "'none'",
    "EQUAL": "'=='", "NOTEQUAL": "'!='", "LESSTHAN": "'<'", "MORETHAN": "'>'", "LESSEQUAL": "'<='",
    "MOREEQUAL": "'>='", "$END": "the end of the expression",
}

__all__ = ["ExprSyntaxError", "parse"]


@lru_cache(maxsize=1)
def _trees() -> Table:
    """The trees of texts parsed before, kept between runs (``disk_cache``): the same text makes the same
    tree while this module, the tree's classes and the grammar are the same (their sources are the key)."""
    here = Path(__file__).resolve().parent
    return Table("expression-trees", version_of(*(here / f for f in ("parser.py", "larkparse.py", "quickparse.py",
                                                                    "ast.py", "grammar.lark")),
                                                *package_files("lark", "__init__.py")),  # its version
                 limit=20_000)


@lru_cache(maxsize=4096)
def parse(text: str) -> A.Node:
    """The tree of ``text``; raises ExprSyntaxError. Cached: rule files repeat expressions, and runs repeat
    rule files (a text that does not parse is not kept: it is parsed again for its message)."""
    kept = _trees().get(text)
    if isinstance(kept, A.Node):
        return kept
    node = _parse(text)
    _trees().put(text, node)
    return node


def _parse(text: str) -> A.Node:
    if not text.strip():
        raise ExprSyntaxError(0, "empty expression: write a value, e.g. 0, true or a formula")
    if MAX_LENGTH.exceeded(len(text)):
        raise ExprSyntaxError(0, MAX_LENGTH.message("this expression", len(text),
                                                    "name a long formula in 'functions:' and call it"))
    _check_brackets(text)
    quick = _quick(text)
    if quick is not None:
        return quick
    from lark import Tree
    from lark.exceptions import UnexpectedInput, VisitError

    from rulecraft.dsl.larkparse import _TO_AST, _parser

    try:
        tree = _parser().parse(text)
    except UnexpectedInput as exc:
        raise _syntax_error(text, exc) from None
    if isinstance(tree, Tree):
        _check_depth(tree)
    try:
        node = _TO_AST.transform(tree) if isinstance(tree, Tree) else tree
    except VisitError as exc:
        if isinstance(exc.orig_exc, ExprSyntaxError):
            raise exc.orig_exc from None
        raise
    assert isinstance(node, A.Node)
    return node


def _quick(text: str) -> A.Node | None:
    """The tree the hand-written reader makes (``dsl/quickparse.py``), or None: lark reads the text."""
    from rulecraft.dsl.quickparse import quick_parse  # as lark: imported when a text no run kept is read

    return quick_parse(text)


def _brackets(text: str) -> Iterator[tuple[int, str]]:
    """Each bracket of ``text`` with its offset, skipping those inside string literals."""
    quote = ""
    escaped = False
    for i, ch in enumerate(text):
        if quote:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch in "()[]":
            yield i, ch


def _check_brackets(text: str) -> None:
    """Refuse brackets nested past MAX_DEPTH at the first bracket too deep, before lark reads them."""
    depth = 0
    for i, ch in _brackets(text):
        if ch in "([":
            depth += 1
            if MAX_DEPTH.exceeded(depth):
                raise ExprSyntaxError(i, MAX_DEPTH.message("this expression", _bracket_depth(text)))
        else:
            depth -= 1


def _bracket_depth(text: str) -> int:
    depth = most = 0
    for ch in text:  # strings do not matter here: this only sizes the message
        depth += ch in "(["
        depth -= ch in ")]"
        most = max(most, depth)
    return most


_ONE_CHILD_LEVELS = frozenset({"neg", "pos", "not_", "call", "list_lit", "index"})


def _check_depth(tree: Tree[Token]) -> None:
    """Refuse a tree nested past MAX_DEPTH (``a if c else b if ...``), walking it without recursion."""
    from lark import Tree

    deepest = 0
    at: int | None = None  # where the first level past the limit starts: what the caret points at
    stack: list[tuple[Tree[Token], int]] = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        # A rule lark keeps around a single child (the or_ of a lone comparison) is no level of its own.
        level = len([c for c in node.children if c is not None]) > 1 or node.data in _ONE_CHILD_LEVELS
        depth += level
        deepest = max(deepest, depth)
        if level and depth == MAX_DEPTH.value + 1:
            start = int(getattr(node.meta, "start_pos", 0) or 0)
            at = start if at is None else min(at, start)
        stack.extend((child, depth) for child in node.children if isinstance(child, Tree))
    if at is not None:
        raise ExprSyntaxError(at, MAX_DEPTH.message("this expression", deepest,
                                                    "name parts of it in 'functions:' and call them"))


def _expected(exc: UnexpectedInput) -> str:
    names: list[str] = sorted({_TERMINAL_WORDS.get(t, t.lower()) for t in (getattr(exc, "expected", None) or ())})
    if not names:
        return ""
    if len(names) > 6:
        return ""
    return " (expected " + (", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else names[0]) + ")"


def _unclosed(text: str) -> str:
    """``: 1 '(' not closed`` for brackets left open; brackets inside string literals do not count."""
    stack: list[str] = []
    for _, ch in _brackets(text):
        if ch in "([":
            stack.append(ch)
        elif stack:
            stack.pop()
    parts = [f"{stack.count(b)} '{b}'" for b in "([" if b in stack]
    return f": {' and '.join(parts)} not closed" if parts else ""


def _syntax_error(text: str, exc: UnexpectedInput) -> ExprSyntaxError:
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

    if isinstance(exc, UnexpectedEOF) or (isinstance(exc, UnexpectedToken) and exc.token.type == "$END"):
        offset = len(text.rstrip())
        return ExprSyntaxError(offset, f"the expression ends too early{_unclosed(text)}{_expected(exc)}")
    if isinstance(exc, UnexpectedToken):
        tok = exc.token
        offset = int(tok.start_pos or 0)
        shown = str(tok)
        if shown in ("=",):
            return ExprSyntaxError(offset, "unexpected '=': to compare, write '=='")
        return ExprSyntaxError(offset, f"unexpected '{shown}'{_expected(exc)}")
    if isinstance(exc, UnexpectedCharacters):
        offset = int(exc.pos_in_stream or 0)
        ch = text[offset] if offset < len(text) else ""
        if ch == "=":
            return ExprSyntaxError(offset, "unexpected '=': to compare, write '=='")
        if ch in "'\"":
            return ExprSyntaxError(offset, "this string is not closed")
        if ch == "&" or ch == "|":
            return ExprSyntaxError(offset, f"unexpected '{ch}': write 'and' / 'or'")
        if ch == "!":
            return ExprSyntaxError(offset, "unexpected '!': write 'not' (or '!=' to compare)")
        if ch == ".":
            return ExprSyntaxError(offset, "unexpected '.': there is no attribute access; call a function instead,"
                                           " e.g. suit(p)")
        return ExprSyntaxError(offset, f"unexpected character '{ch}'")
    return ExprSyntaxError(0, str(exc))  # pragma: no cover - lark raises only the kinds above
