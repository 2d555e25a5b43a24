"""How many steps an expression may take at most, worked out at load time from its compiled code.

The language has no ``while`` and no recursion, so an expression always ends; what can still grow
without bound is *how long* it takes and how much it holds: a loop over ``range(100000)`` inside
another loop over ``range(100000)`` is ten billion steps. This module gives every compiled
expression an upper bound a rule author can follow by hand:

* a value, a name or an operator is one step; a call to a builtin that reads a list (``sum``,
  ``count``, ``sorted`` ...) costs one step per item of that list;
* ``range(a, b)`` is as long as it says when ``a`` and ``b`` are written as numbers, and the most
  ``range`` ever gives (100,000) otherwise;
* a list from the game (a hand, ``seats()``, a list variable) holds at most the scope's *list
  bound* (the engine uses the ruleset's number of pieces, at least 100);
* a loop ``[x for v in xs if c]`` costs its list, plus, for each item, what ``x`` and ``c`` cost.

The analysis reads the generated Python (made only of calls, comprehensions, operators and the
``(lambda params: body)(args)`` of an inlined rule function, its body perhaps remembered as
``_memo(ctx, key, lambda: body)``), so it sees exactly what runs, rule functions expanded included.
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


@dataclass(frozen=True, slots=True)
class _Cost:
    steps: int
    size: int | None = None  # when the value may be a list: an upper bound on its length
    item: int | None = None  # when its items may be lists: an upper bound on theirs
    held: int = 0  # list items built and alive at once while it is computed (its memory)


@dataclass(frozen=True, slots=True)
class Estimate:
    steps: int  # an upper bound on the steps of one evaluation
    held: int  # an upper bound on the list items it holds at once


def estimate(code: str, namespace: dict[str, Any], list_functions: frozenset[str], list_getters: frozenset[str],
             list_bound: int) -> Estimate:
    """Upper bounds on the steps one evaluation of ``code`` (a compiled expression) takes and what it holds."""
    # The estimate reads of the namespace only the lengths of the lists bound in it and which names are
    # builtins: with those, the same code always gets the same estimate, so it is worked out once.
    key = (code, list_functions, list_getters, list_bound, _shape(namespace))
    found = _ESTIMATES.get(key)
    if found is None:
        # Kept between runs too (``disk_cache``), by the same key written out (sets sorted: their order
        # changes with each process's string hashing).
        written = repr((code, sorted(list_functions), sorted(list_getters), list_bound, key[-1]))
        digest = hashlib.sha256(written.encode("utf-8", "surrogatepass")).hexdigest()[:40]
        kept = _kept().get(digest)
        if isinstance(kept, tuple) and len(kept) == 2 and all(isinstance(n, int) for n in kept):
            found = Estimate(*kept)
        else:
            tree = ast.parse(code, mode="eval")
            cost = _Estimator(namespace, list_functions, list_getters, list_bound).visit(tree.body, {})
            found = Estimate(cost.steps, cost.held)
            _kept().put(digest, (found.steps, found.held))
        if len(_ESTIMATES) >= _ESTIMATES_KEPT:
            del _ESTIMATES[next(iter(_ESTIMATES))]  # the oldest
        _ESTIMATES[key] = found
    return found


@lru_cache(maxsize=1)
def _kept() -> Table:
    here = Path(__file__).resolve().parent
    return Table("cost-estimates", version_of(here / "cost.py", here / "builtins.py"), limit=20_000)


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
                 bound: int) -> None:
        self.namespace = namespace
        self.list_functions = list_functions
        self.list_getters = list_getters
        self.bound = bound
        self.builtin_names = _BUILTIN_IDS

    def visit(self, node: ast.expr, env: dict[str, _Cost]) -> _Cost:
        if isinstance(node, ast.Constant):
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
                         _max(body.item, orelse.item), max(test.held, body.held, orelse.held))
        if isinstance(node, ast.Compare):
            parts = [self.visit(x, env) for x in (node.left, *node.comparators)]
            steps = _add(*(p.steps for p in parts))
            for op, right in zip(node.ops, parts[1:], strict=True):
                if isinstance(op, (ast.In, ast.NotIn)):  # a membership test reads the whole list
                    steps = _add(steps, right.size if right.size is not None else self.bound)
            return _Cost(steps, held=_add(*(p.held for p in parts)))
        if isinstance(node, ast.BinOp):  # a + b + c nests to the left: walk the chain, not recurse along it
            parts = []
            while isinstance(node, ast.BinOp):
                parts.append(self.visit(node.right, env))
                node = node.left
            parts.append(self.visit(node, env))
            return _Cost(_add(len(parts), *(p.steps for p in parts)), held=_add(*(p.held for p in parts)))
        if isinstance(node, ast.Subscript):
            value, index = self.visit(node.value, env), self.visit(node.slice, env)
            return _Cost(_add(value.steps, index.steps, 1), value.item, held=_add(value.held, index.held))
        # Operators, and/or/not: the sum of their parts.
        parts = [self.visit(child, env) for child in ast.iter_child_nodes(node) if isinstance(child, ast.expr)]
        return _Cost(_add(1, *(p.steps for p in parts)), held=_add(*(p.held for p in parts)))

    def _bound_value(self, name: str) -> _Cost:
        """A name of the generated code: a constant bound at load time (a list's length is known), or ``ctx``."""
        value = self.namespace.get(name)
        if isinstance(value, (list, tuple)):
            items = [len(v) for v in value if isinstance(v, (list, tuple))]
            return _Cost(1, len(value), max(items) if items else None)
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
            return _Cost(_add(1, key.steps, body.steps), body.size, body.item, _add(key.held, body.held))
        args = [self.visit(a, env) for a in node.args]
        steps = _add(1, *(a.steps for a in args))
        held = _add(*(a.held for a in args))
        if isinstance(func, ast.Lambda):  # an inlined rule function: its body, with its parameters' sizes
            inner = dict(env)
            for param, arg in zip(func.args.args, args, strict=False):
                inner[param.arg] = _Cost(1, arg.size, arg.item)
            body = self.visit(func.body, inner)
            return _Cost(_add(steps, body.steps), body.size, body.item, _add(held, body.held))
        if not isinstance(func, ast.Name):
            return _Cost(steps, held=held)
        if func.id in self.list_getters:
            return _Cost(steps, self.bound, held=held)
        if func.id in self.list_functions:
            return _Cost(_add(steps, self.bound), self.bound, held=_add(held, self.bound))
        name = self.builtin_names.get(id(self.namespace.get(func.id)))
        if name == "range":
            size = _range_size(node.args)
            return _Cost(_add(steps, size), size, held=_add(held, size))
        if name in _READERS and args:
            read = args[0].size if args[0].size is not None else self.bound
            total = _add(steps, read)
            if name in _KEEP_SIZE:
                return _Cost(total, args[0].size, args[0].item, _add(held, read))
            if name in _ITEM_OF or len(args) > 1:
                return _Cost(total, args[0].item, held=held)
            return _Cost(total, held=held)
        return _Cost(steps, held=held)


def _range_size(args: list[ast.expr]) -> int:
    numbers = [_int_constant(a) for a in args]
    if any(n is None for n in numbers) or not numbers:
        return MAX_RANGE
    lo, hi = (0, numbers[0]) if len(numbers) == 1 else (numbers[0], numbers[1])
    assert lo is not None and hi is not None
    return max(0, min(hi - lo, MAX_RANGE))


def _int_constant(node: ast.expr) -> int | None:
    """A whole number written as a literal (``(5)`` and ``(-5)`` included)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _int_constant(node.operand)
        return -inner if inner is not None else None
    return None


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
