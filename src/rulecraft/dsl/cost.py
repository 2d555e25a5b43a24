"""How many steps an expression may take at most, worked out at load time from its compiled code.

The language has no ``while`` and no recursion, so an expression always ends; what can still grow
without bound is *how long* it takes and how much it holds: a loop over ``range(100000)`` inside
another loop over ``range(100000)`` is ten billion steps. This module gives every compiled
expression an upper bound a rule author can follow by hand:

* a value, a name or an operator is one step; a call to a builtin that reads a list (``sum``,
  ``count``, ``sorted`` ...) costs one step per item of that list;
* ``range(a, b)`` is as long as its bounds say: numbers written out, constants and arithmetic on them
  are worked out (``range(6 * 6 * max_dice)``), and a value with a declared range bounds it (the
  length of a list from the game, ``hand_number`` up to the match's ``max_hands``, ``min``, ``max`` and
  ``abs`` of such values); otherwise the most ``range`` ever gives (100,000);
* a list from the game (a hand, ``seats()``, a list variable) holds at most the scope's *list
  bound* (the engine uses the ruleset's number of pieces, at least 100);
* a loop ``[x for v in xs if c]`` costs its list, plus, for each item, what ``x`` and ``c`` cost.

The analysis reads the generated Python (made only of calls, comprehensions, operators and the
``(lambda params: body)(args)`` of an inlined rule function, its body perhaps remembered as
``_memo(ctx, key, lambda: body)``), so it sees exactly what runs, rule functions expanded included.

Each ``range`` whose length is not a known number is a *site* (``Estimate.sites``: where it is in the
code, and the most its bounds allow). ``estimate(..., limits=...)`` counts a site as at most its
limit: the compiler (``_check_cost``) gives an expression too costly at the worst a limit for each
such site that keeps it within bounds, and checks it at run time (``bounded_range``) instead of
refusing the file: a game whose hands hold 14 cards never comes near the limit of its
``range(hand_size() + 1)``.
"""

from __future__ import annotations

import ast
import hashlib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from rulecraft.disk_cache import Table, version_of
from rulecraft.dsl.builtins import BUILTINS, MAX_RANGE

_CAP = 10**30  # far beyond any limit: keeps the arithmetic on small ints however deep the loops
_READERS = frozenset({"sum", "count", "len", "any", "all", "min", "max", "sorted", "reversed", "first", "last",
                      "index_of"})
_KEEP_SIZE = frozenset({"sorted", "reversed"})
_ITEM_OF = frozenset({"min", "max", "first", "last"})


Span = tuple[int, int]  # the least and the most a whole number may be


@dataclass(frozen=True, slots=True)
class _Cost:
    steps: int
    size: int | None = None  # when the value may be a list: an upper bound on its length
    item: int | None = None  # when its items may be lists: an upper bound on theirs
    held: int = 0  # list items built and alive at once while it is computed (its memory)
    span: Span | None = None  # when the value is a whole number known to lie between two numbers


@dataclass(frozen=True, slots=True)
class Estimate:
    steps: int  # an upper bound on the steps of one evaluation
    held: int  # an upper bound on the list items it holds at once
    # Each range whose length is not a known number: (its column in the code, the most its bounds allow).
    sites: tuple[Span, ...] = ()


def estimate(code: str, namespace: dict[str, Any], list_functions: frozenset[str], list_getters: frozenset[str],
             list_bound: int, spans: dict[str, Span] | None = None,
             limits: dict[int, int] | None = None) -> Estimate:
    """Upper bounds on the steps one evaluation of ``code`` (a compiled expression) takes and what it holds.

    ``spans``: the declared range of the game names read by getter (identifier -> least, most);
    ``limits``: the most each site (by its column, see ``Estimate.sites``) is taken to give."""
    # The estimate reads of the namespace only the lengths of the lists bound in it and which names are
    # builtins: with those, the same code always gets the same estimate, so it is worked out once.
    given = tuple(sorted((spans or {}).items()))
    capped = tuple(sorted((limits or {}).items()))
    key = (code, list_functions, list_getters, list_bound, _shape(namespace), given, capped)
    found = _ESTIMATES.get(key)
    if found is None:
        # Kept between runs too (``disk_cache``), by the same key written out (sets sorted: their order
        # changes with each process's string hashing).
        written = repr((code, sorted(list_functions), sorted(list_getters), list_bound, key[4], given, capped))
        digest = hashlib.sha256(written.encode("utf-8", "surrogatepass")).hexdigest()[:40]
        kept: Any = _kept().get(digest)
        if _is_estimate(kept):
            found = Estimate(kept[0], kept[1], tuple((a, b) for a, b in kept[2]))
        else:
            tree = ast.parse(code, mode="eval")
            estimator = _Estimator(namespace, list_functions, list_getters, list_bound, dict(spans or {}),
                                   dict(limits or {}))
            cost = estimator.visit(tree.body, {})
            found = Estimate(cost.steps, cost.held, tuple(sorted(estimator.sites.items())))
            _kept().put(digest, (found.steps, found.held, found.sites))
        if len(_ESTIMATES) >= _ESTIMATES_KEPT:
            del _ESTIMATES[next(iter(_ESTIMATES))]  # the oldest
        _ESTIMATES[key] = found
    return found


@lru_cache(maxsize=1)
def _kept() -> Table:
    here = Path(__file__).resolve().parent
    return Table("cost-estimates", version_of(here / "cost.py", here / "builtins.py"), limit=20_000)


def _is_estimate(kept: Any) -> bool:
    """Whether a value read back from the disk cache is an estimate as ``estimate`` keeps it."""
    return (isinstance(kept, tuple) and len(kept) == 3 and all(isinstance(n, int) for n in kept[:2])
            and isinstance(kept[2], tuple)
            and all(isinstance(s, tuple) and len(s) == 2 and all(isinstance(n, int) for n in s) for s in kept[2]))


_ESTIMATES: dict[tuple[Any, ...], Estimate] = {}
_ESTIMATES_KEPT = 4096
_BUILTIN_IDS = {id(b.impl): name for name, b in BUILTINS.items()}


def _shape(namespace: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
    """What ``_Estimator`` reads of a namespace: each bound list's length and longest item, each builtin's name."""
    out: list[tuple[str, Any]] = []
    for name, value in namespace.items():
        if isinstance(value, (list, tuple)):
            items = [len(v) for v in value if isinstance(v, (list, tuple))]
            out.append((name, (len(value), max(items) if items else None)))
        else:
            builtin = _BUILTIN_IDS.get(id(value))
            if builtin is not None:
                out.append((name, builtin))
    return tuple(sorted(out))


class _Estimator:
    def __init__(self, namespace: dict[str, Any], list_functions: frozenset[str], list_getters: frozenset[str],
                 bound: int, spans: dict[str, Span], limits: dict[int, int]) -> None:
        self.namespace = namespace
        self.list_functions = list_functions
        self.list_getters = list_getters
        self.bound = bound
        self.spans = spans
        self.limits = limits
        self.sites: dict[int, int] = {}  # each range of a length not known: its column -> the most it gives
        self.builtin_names = _BUILTIN_IDS

    def visit(self, node: ast.expr, env: dict[str, _Cost]) -> _Cost:
        if isinstance(node, ast.Constant):
            value = node.value
            if isinstance(value, int) and not isinstance(value, bool):
                return _Cost(1, span=(value, value))
            return _Cost(1)
        if isinstance(node, ast.Name):
            return env.get(node.id) or self._bound_value(node.id)
        if isinstance(node, ast.Call):
            return self._call(node, env)
        if isinstance(node, (ast.ListComp, ast.GeneratorExp)):
            return self._loop(node, env)
        if isinstance(node, (ast.List, ast.Tuple)):
            return self._list(node.elts, env)
        if isinstance(node, ast.IfExp):
            test, body, orelse = (self.visit(x, env) for x in (node.test, node.body, node.orelse))
            return _Cost(_add(test.steps, max(body.steps, orelse.steps)), _max(body.size, orelse.size),
                         _max(body.item, orelse.item), max(test.held, body.held, orelse.held),
                         _union(body.span, orelse.span))
        if isinstance(node, ast.Compare):
            parts = [self.visit(x, env) for x in (node.left, *node.comparators)]
            steps = _add(*(p.steps for p in parts))
            for op, right in zip(node.ops, parts[1:], strict=True):
                if isinstance(op, (ast.In, ast.NotIn)):  # a membership test reads the whole list
                    steps = _add(steps, right.size if right.size is not None else self.bound)
            return _Cost(steps, held=_add(*(p.held for p in parts)))
        if isinstance(node, ast.BinOp):  # a + b + c nests to the left: walk the chain, not recurse along it
            chain: list[_Cost] = []
            operators: list[ast.operator] = []
            while isinstance(node, ast.BinOp):
                chain.append(self.visit(node.right, env))
                operators.append(node.op)
                node = node.left
            chain.append(self.visit(node, env))
            span = chain[-1].span
            for operator, operand in zip(reversed(operators), reversed(chain[:-1]), strict=True):  # left to right
                span = _arithmetic(operator, span, operand.span)
            return _Cost(_add(len(chain), *(p.steps for p in chain)), held=_add(*(p.held for p in chain)), span=span)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            inner = self.visit(node.operand, env)
            negated = (-inner.span[1], -inner.span[0]) if inner.span is not None else None
            return _Cost(_add(1, inner.steps), held=inner.held,
                         span=negated if isinstance(node.op, ast.USub) else inner.span)
        if isinstance(node, ast.Subscript):
            whole, index = self.visit(node.value, env), self.visit(node.slice, env)
            return _Cost(_add(whole.steps, index.steps, 1), whole.item, held=_add(whole.held, index.held))
        # Operators, and/or/not: the sum of their parts.
        parts = [self.visit(child, env) for child in ast.iter_child_nodes(node) if isinstance(child, ast.expr)]
        return _Cost(_add(1, *(p.steps for p in parts)), held=_add(*(p.held for p in parts)))

    def _bound_value(self, name: str) -> _Cost:
        """A name of the generated code: a constant bound at load time (a list's length is known), or ``ctx``."""
        value = self.namespace.get(name)
        if isinstance(value, (list, tuple)):
            items = [len(v) for v in value if isinstance(v, (list, tuple))]
            return _Cost(1, len(value), max(items) if items else None)
        if isinstance(value, int) and not isinstance(value, bool):
            return _Cost(1, span=(value, value))
        return _Cost(1)

    def _list(self, elts: list[ast.expr], env: dict[str, _Cost]) -> _Cost:
        steps, size, item, held = 1, 0, None, 0
        for elt in elts:
            if isinstance(elt, ast.Starred):  # [*a, *b]: lists joined
                part = self.visit(elt.value, env)
                n = part.size if part.size is not None else self.bound
                size = _add(size, n)
                steps = _add(steps, part.steps, n)
                held = _add(held, part.held, n)
                item = _max(item, part.item)
            else:
                part = self.visit(elt, env)
                size = _add(size, 1)
                steps = _add(steps, part.steps)
                held = _add(held, part.held, 1)
                item = _max(item, part.size)
        return _Cost(steps, size, item, held)

    def _loop(self, node: ast.ListComp | ast.GeneratorExp, env: dict[str, _Cost]) -> _Cost:
        gen = node.generators[0]  # the language allows one 'for' per pair of brackets
        source = self.visit(gen.iter, env)
        n = source.size if source.size is not None else self.bound
        inner = dict(env)
        if isinstance(gen.target, ast.Name):
            # An item of a list whose items are not known to be lists is taken to be a game list at most.
            inner[gen.target.id] = _Cost(1, source.item if source.item is not None else self.bound)
        elt = self.visit(node.elt, inner)
        conds = [self.visit(c, inner) for c in gen.ifs]
        each = _add(1, elt.steps, *(c.steps for c in conds))
        # A list keeps every item it builds; a generator only the one it is on.
        kept = _mul(n, _add(1, elt.held)) if isinstance(node, ast.ListComp) else elt.held
        held = _add(source.held, kept, *(c.held for c in conds))
        return _Cost(_add(source.steps, _mul(n, each)), n, elt.size, held)

    def _call(self, node: ast.Call, env: dict[str, _Cost]) -> _Cost:
        func = node.func
        if isinstance(func, ast.Name) and func.id == "_memo" and len(node.args) == 3 \
                and isinstance(node.args[2], ast.Lambda):
            # A remembered rule function (compiler._remembered): its key, and at worst its body computed.
            key, body = self.visit(node.args[1], env), self.visit(node.args[2].body, env)
            return _Cost(_add(1, key.steps, body.steps), body.size, body.item, _add(key.held, body.held), body.span)
        args = [self.visit(a, env) for a in node.args]
        steps = _add(1, *(a.steps for a in args))
        held = _add(*(a.held for a in args))
        if isinstance(func, ast.Lambda):  # an inlined rule function: its body, with its parameters' sizes
            inner = dict(env)
            for param, arg in zip(func.args.args, args, strict=False):
                inner[param.arg] = _Cost(1, arg.size, arg.item, span=arg.span)
            body = self.visit(func.body, inner)
            return _Cost(_add(steps, body.steps), body.size, body.item, _add(held, body.held), body.span)
        if not isinstance(func, ast.Name):
            return _Cost(steps, held=held)
        if func.id in self.list_getters:
            return _Cost(steps, self.bound, held=held)
        if func.id in self.spans:  # a game name with a declared range (``hand_number``)
            return _Cost(steps, held=held, span=self.spans[func.id])
        if func.id in self.list_functions:
            return _Cost(_add(steps, self.bound), self.bound, held=_add(held, self.bound))
        name = self.builtin_names.get(id(self.namespace.get(func.id)))
        if name == "range":
            size = self._range_size(node, args)
            return _Cost(_add(steps, size), size, held=_add(held, size))
        if name in ("min", "max") and len(args) > 1:
            spans = [a.span for a in args]
            if all(s is not None for s in spans):
                pick = min if name == "min" else max
                span = (pick(s[0] for s in spans if s), pick(s[1] for s in spans if s))
                return _Cost(steps, held=held, span=span)
        if name == "abs" and len(args) == 1 and args[0].span is not None:
            lo, hi = args[0].span
            return _Cost(steps, held=held, span=(0 if lo <= 0 <= hi else min(abs(lo), abs(hi)), max(abs(lo), abs(hi))))
        if name in _READERS and args:
            read = args[0].size if args[0].size is not None else self.bound
            total = _add(steps, read)
            if name in _KEEP_SIZE:
                return _Cost(total, args[0].size, args[0].item, _add(held, read))
            if name in _ITEM_OF or len(args) > 1:
                return _Cost(total, args[0].item, held=held)
            if name in ("count", "len"):  # a length: no more than the list holds
                return _Cost(total, held=held, span=(0, read))
            return _Cost(total, held=held)
        return _Cost(steps, held=held)

    def _range_size(self, node: ast.Call, args: list[_Cost]) -> int:
        """How many numbers a ``range`` call gives at most: what its bounds say, else a site's limit."""
        spans = [a.span for a in args]
        if len(spans) == 1 and spans[0] is not None:
            lo, hi = 0, spans[0][1]
            known = spans[0][0] == spans[0][1]
        elif len(spans) == 2 and spans[0] is not None and spans[1] is not None:
            lo, hi = spans[0][0], spans[1][1]
            known = spans[0][0] == spans[0][1] and spans[1][0] == spans[1][1]
        else:
            lo, hi, known = 0, MAX_RANGE, False
        size = max(0, min(hi - lo, MAX_RANGE))
        if known:  # numbers worked out at load time: the size is exact, nothing to check as it runs
            return size
        self.sites[node.col_offset] = size
        return min(size, self.limits.get(node.col_offset, size))


def _arithmetic(op: ast.operator, a: Span | None, b: Span | None) -> Span | None:
    """The span of ``a op b`` for whole numbers in spans ``a`` and ``b`` (None: not known)."""
    if isinstance(op, ast.Mod) and b is not None and b[0] > 0 and b[1] <= _CAP:
        return (0, b[1] - 1)  # whatever is divided, by a positive divisor
    if a is None or b is None or max(abs(a[0]), abs(a[1]), abs(b[0]), abs(b[1])) > _CAP:
        return None  # (numbers past any limit: no bound worth working out)
    if isinstance(op, ast.Add):
        return (a[0] + b[0], a[1] + b[1])
    if isinstance(op, ast.Sub):
        return (a[0] - b[1], a[1] - b[0])
    if isinstance(op, ast.Mult):
        corners = [x * y for x in a for y in b]
        return (min(corners), max(corners))
    if isinstance(op, ast.FloorDiv) and b[0] > 0:  # by a positive divisor only: no division by zero
        corners = [x // y for x in a for y in b]
        return (min(corners), max(corners))
    return None


def _union(a: Span | None, b: Span | None) -> Span | None:
    if a is None or b is None:
        return None
    return (min(a[0], b[0]), max(a[1], b[1]))


def _add(*xs: int) -> int:
    return min(sum(xs), _CAP)


def _mul(a: int, b: int) -> int:
    return min(a * b, _CAP)


def _max(a: int | None, b: int | None) -> int | None:
    if a is None:
        return b
    if b is None:
        return a
    return max(a, b)
