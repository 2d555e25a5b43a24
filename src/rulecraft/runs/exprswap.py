"""Replacements an author could have written by mistake: another name, function or term of the same type.

``exprmut`` changes one token; an author's slip is as often the wrong word: ``leader`` for ``dealer``,
``rank(p)`` for ``order(p)``, ``top`` where ``top_card(play)`` was meant. The words an author reaches
for are the ones the file already uses, so the candidates are read from the file itself
(``Vocabulary``): every name it reads, every function it calls, every call it writes (a *term*).

For each place in an expression where a name is read or a function called:

- ``replace-name``: the name replaced by another the file reads, of the same type where it stands;
- ``replace-function``: the function replaced by another the file calls, taking as many arguments and
  giving the same type (``suit`` and ``rank``, ``min`` and ``max``, ``any`` and ``all``);
- ``replace-term``: the name or call replaced by a call the file writes elsewhere (or a call by a name),
  of the same type (``top`` and ``top_card(play)``).

Only replacements the compiler accepts where the expression is read (``exprplaces.Place``) are kept,
and at most ``PER_PLACE`` of each kind per place: the words nearest in spelling first (an author slips
to a near name), then the file's order. Everything depends only on the files, so every run lists the
same mutants.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from rulecraft.dsl import T
from rulecraft.dsl import ast as A
from rulecraft.dsl.parser import ExprSyntaxError, parse
from rulecraft.runs.exprmut import ExprEdit, shown
from rulecraft.runs.exprplaces import Place

PER_PLACE = 2  # replacements of each kind tried per place in an expression


@dataclass
class Vocabulary:
    """The words a file's expressions are written with, each in the order first met."""

    names: dict[str, None] = field(default_factory=dict)  # names read (not a loop's or a function's own)
    functions: dict[str, None] = field(default_factory=dict)  # functions called
    terms: dict[str, None] = field(default_factory=dict)  # calls written, spaces normalised

    def read(self, text: str, params: Iterable[str] = ()) -> None:
        """Add the words of one expression (``params``: a rule function's parameters, its own names)."""
        try:
            tree = parse(text)
        except ExprSyntaxError:
            return
        for node, bound in walk(tree, frozenset(params)):
            if isinstance(node, A.Name) and node.id not in bound:
                self.names.setdefault(node.id, None)
            elif isinstance(node, A.Call):
                self.functions.setdefault(node.func, None)
                if node.comp is None and not _uses(node, bound):
                    self.terms.setdefault(_normal(text[node.start:node.end]), None)


def walk(node: A.Node, bound: frozenset[str]) -> Iterator[tuple[A.Node, frozenset[str]]]:
    """Every node with the names bound where it stands (a comprehension's variable in its body)."""
    yield node, bound
    if isinstance(node, (A.Call, A.ListExpr)) and node.comp is not None:
        inner = bound | {node.comp.var}
        yield from walk(node.comp.iter, bound)
        if node.comp.cond is not None:
            yield from walk(node.comp.cond, inner)
        for item in (node.args if isinstance(node, A.Call) else node.items):
            yield from walk(item, inner)
        return
    for child in _children(node):
        yield from walk(child, bound)


def _children(node: A.Node) -> tuple[A.Node, ...]:
    if isinstance(node, (A.Compare, A.Arith)):
        return (node.first, *(n for _, _, n in node.rest))
    if isinstance(node, A.BoolOp):
        return node.values
    if isinstance(node, A.Unary):
        return (node.operand,)
    if isinstance(node, A.Cond):
        return (node.body, node.test, node.orelse)
    if isinstance(node, A.Index):
        return (node.target, node.index)
    if isinstance(node, A.Call):
        return node.args
    if isinstance(node, A.ListExpr):
        return node.items
    return ()


def _uses(node: A.Node, bound: frozenset[str]) -> bool:
    """Whether ``node`` reads a name bound around it (then it means nothing elsewhere)."""
    return any(isinstance(n, A.Name) and n.id in bound for n, _ in walk(node, frozenset()))


def _normal(text: str) -> str:
    return " ".join(text.split())


def swap_edits(text: str, place: Place, vocab: Vocabulary, params: Iterable[str] = ()) -> list[ExprEdit]:
    """The replacements of ``text`` read at ``place``, in the order of the places they change."""
    try:
        tree = parse(text)
    except ExprSyntaxError:
        return []
    own = frozenset(params)
    out: list[ExprEdit] = []
    made: set[str] = {text}
    for node, bound in walk(tree, own):
        if isinstance(node, A.Name) and node.id not in bound:
            written = node.id
            sort = place.sort_of_name(written)
            if sort is None:
                continue
            names = [n for n in vocab.names if n != written and n not in own and place.sort_of_name(n) == sort]
            out += _kept(text, node, names, place, made, "replace-name")
            if sort[0] is not T.LIST:
                terms = [t for t in vocab.terms if not _within(written, t) and _term_type(t, place) is sort[0]]
                out += _kept(text, node, terms, place, made, "replace-term", 1)
        elif isinstance(node, A.Call):
            out += _function_swaps(text, node, place, vocab, made)
            kind = place.returns(node.func)
            if node.comp is not None or _uses(node, bound) or kind is None or kind is T.LIST:
                continue
            written = _normal(text[node.start:node.end])
            names = [n for n in vocab.names if n not in own and place.sort_of_name(n) == (kind, T.ANY, "")]
            terms = [t for t in vocab.terms if not _within(written, t) and _term_type(t, place) is kind]
            out += _kept(text, node, [*names, *terms], place, made, "replace-term")
    return sorted(out, key=lambda e: (e.at, e.start, e.end))


def _function_swaps(text: str, node: A.Call, place: Place, vocab: Vocabulary, made: set[str]) -> list[ExprEdit]:
    """``f(...)`` as ``g(...)``: another function the file calls, of as many arguments, giving the same type."""
    kind = place.returns(node.func)
    if kind is None:
        return []
    takes = place.signature(node.func)
    others = [f for f in vocab.functions if f != node.func and place.returns(f) is kind
              and place.signature(f) == takes]
    at = node.start
    picked: list[ExprEdit] = []
    for f in _nearest(node.func, others):
        edit = ExprEdit(at, at, at + len(node.func), f, "replace-function", f"'{node.func}(' -> '{f}('")
        new = edit.apply(text)
        if new not in made and place.compiles(new):
            made.add(new)
            picked.append(edit)
            if len(picked) == PER_PLACE:
                break
    return picked


def _within(written: str, term: str) -> bool:
    """Whether ``term`` reads ``written`` (a name, or a call, in it): replacing one by the other would
    only wrap it in more of the same."""
    try:
        tree = parse(term)
    except ExprSyntaxError:
        return True
    return any((isinstance(n, A.Name) and n.id == written)
               or (isinstance(n, A.Call) and _normal(term[n.start:n.end]) == written)
               for n, _ in walk(tree, frozenset()))


def _term_type(term: str, place: Place) -> T | None:
    """The type a call written elsewhere gives where it would stand (None: it calls nothing known here)."""
    try:
        tree = parse(term)
    except ExprSyntaxError:
        return None
    return place.returns(tree.func) if isinstance(tree, A.Call) else None


def _kept(text: str, node: A.Node, candidates: list[str], place: Place, made: set[str],
          operator: str, most: int = PER_PLACE) -> list[ExprEdit]:
    """The first ``most`` candidates, nearest first, that make a new expression the place accepts."""
    old = text[node.start:node.end]
    picked: list[ExprEdit] = []
    for cand in _nearest(_normal(old), candidates):
        edit = ExprEdit(node.start, node.start, node.end, cand, operator, f"{shown(old)} -> {shown(cand)}")
        new = edit.apply(text)
        if new in made or not place.compiles(new):
            continue
        made.add(new)
        picked.append(edit)
        if len(picked) == most:
            break
    return picked


def _nearest(word: str, candidates: Iterable[str]) -> list[str]:
    """The candidates nearest ``word`` in spelling first; ties in the order given."""
    listed = list(dict.fromkeys(candidates))
    score = {c: difflib.SequenceMatcher(None, word, c).ratio() for c in listed}
    return sorted(listed, key=lambda c: -score[c])
