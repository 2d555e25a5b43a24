"""Compile an expression once, at load time, into one Python function of the evaluation context.

The tree is checked against the scope where the expression is written (every name and function
resolved, argument counts and types checked) and then turned into the source of a small Python
function made only of operators, calls to the bound functions and generator expressions. That
source is generated from our own tree, never from user text: names become fixed identifiers
(``_g3``, ``_f7``, ``v_p``), literals are ``repr``'d. It is then compiled by Python with no
builtins available, so a formula like ``max(0, tricks - 5) * (2 if tricks >= 10 else 1)`` costs a
few hundred nanoseconds instead of a tree walk.

A failure while a game runs (a division by zero) is raised as ExpressionRuntimeError naming the
rule and its file:line:col.
"""

from __future__ import annotations

import ast as pyast
import difflib
import math
import re
import sys
import warnings
from dataclasses import dataclass, field
from functools import lru_cache
from types import CodeType
from typing import Any, Protocol, cast

from rulecraft.disk_cache import compiled
from rulecraft.dsl import ast as A
from rulecraft.dsl.bindings import FunctionBinding, MacroBinding, NameBinding
from rulecraft.dsl.builtins import BUILTINS, DRAINING, SAME_ITEMS, VARIADIC
from rulecraft.dsl.cost import estimate
from rulecraft.dsl.itemloop import READ as _READ
from rulecraft.dsl.itemloop import getter_signature, inline_reads, select_source
from rulecraft.dsl.loops import rewrite
from rulecraft.dsl.parser import ExprSyntaxError, parse
from rulecraft.dsl.scope import Scope
from rulecraft.dsl.types import T, accepts, describe, is_numeric, join
from rulecraft.errors import (
    UNKNOWN_POS,
    Diagnostic,
    ExpressionRuntimeError,
    Limit,
    RuleFileError,
    SourcePos,
    clip,
    python_reason,
    source_window,
)

MAX_CODE = 50_000  # generated source size: guards against macros that expand exponentially
# How deep an expression nests once its rule functions are expanded in it (the text itself is held
# to parser.MAX_DEPTH); Python's own compiler gives up past about 200 brackets.
MAX_EXPANDED_DEPTH = Limit(80, "levels", "nests {n} levels deep once its functions are expanded")
# What one evaluation may cost at most (dsl/cost.py says how it is counted); also what computing its
# fixed parts at load time may cost.
MAX_STEPS = Limit(10_000_000, "steps", "may take up to {n} steps each time it is computed")
MAX_HELD = Limit(1_000_000, "values", "may hold up to {n} values in lists at once")
MAX_FOLDED = Limit(MAX_HELD.value, "values", "makes {n} values")
DEFAULT_LIST_BOUND = 1_000  # the longest list from the game, where the scope does not say


class CompiledExpr(Protocol):
    """A compiled expression: call it with the evaluation context."""

    text: str
    type: T
    pos: SourcePos
    reads: frozenset[str]  # the game names it reads: lets the engine evaluate it once where it can
    item_type: T  # for a list: the type of its items when the checker knows it (else T.ANY)

    def __call__(self, ctx: Any) -> Any: ...

    # Compiled on request (``compile_expr(..., select=True)``): the items for which the expression
    # holds, each set in turn into the context's item slot; names not about the item are read once.
    def select(self, ctx: Any, items: list[Any]) -> list[Any]: ...


class _Error(Exception):
    def __init__(self, src: Any, offset: int, message: str) -> None:
        super().__init__(message)
        self.src = src
        self.offset = offset
        self.message = message


@dataclass
class _Local:
    code: str
    type: T


@dataclass
class _Unit:
    """One text being compiled: the expression itself, or a macro body being inlined."""

    src: Any  # str or LStr
    locals: dict[str, _Local] = field(default_factory=dict)
    macro: str = ""


class _Compiler:
    def __init__(self, scope: Scope) -> None:
        self.scope = scope
        self.namespace: dict[str, Any] = {}
        self._ids: dict[int, str] = {}
        self._macro_stack: list[str] = []
        self._loop_counter = 0
        self.reads: set[str] = set()  # the scope's names this expression reads (through functions too)
        self.getters: dict[str, NameBinding] = {}  # generated getter identifier -> the name it reads
        self.list_functions: set[str] = set()  # identifiers of game functions that give a list (for the cost)
        self.depth = 0
        self._body_reads: list[dict[str, None]] = []  # per rule function being expanded: the getters it reads
        self._loops = 0  # how many loops enclose the part being compiled
        self._body_loops: list[int] = []  # per rule function being expanded: the loops around its call
        self.folded = 0  # steps spent computing fixed parts at load time
        # What the scope answered, so that the same text compiled in another scope can be checked to
        # come out the same without walking it again (see _Trace): each name and function looked up,
        # with what decides the code made of it; every value bound, with where it came from; every
        # pure call computed at load time, with its result.
        self.looked: dict[tuple[str, str], Any] = {}
        self.binds: list[tuple[str, tuple[str, Any], str]] = []
        self.folds: list[tuple[str, tuple[Any, ...], str | None]] = []
        # The item type of lists this expression builds or reads, by their generated code, where it is
        # known (``range(4)``: numbers; ``['a', 'b']``: strings; a per-seat variable: its declared type).
        self.items: dict[str, T] = {}

    def item_type(self, code: str, t: T) -> T:
        """Record that the list ``code`` holds items of type ``t``; gives back ``T.LIST``."""
        if t is not T.ANY:
            self.items[code] = t
        return T.LIST

    # ----------------------------------------------------------------- helpers
    def bind(self, prefix: str, obj: Any, recipe: tuple[str, Any]) -> str:
        """The identifier of ``obj`` in the generated code; ``recipe`` says how the scope gave it (_Trace)."""
        key = id(obj)
        ident = self._ids.get(key)
        if ident is None:
            ident = f"_{prefix}{len(self._ids)}"
            self._ids[key] = ident
            self.namespace[ident] = obj
        self.binds.append((prefix, recipe, ident))
        return ident

    def lookup_name(self, name: str) -> NameBinding | None:
        b = self.scope.lookup_name(name)
        self.looked.setdefault(("n", name), describe_binding(b))
        return b

    def lookup_function(self, name: str) -> FunctionBinding | MacroBinding | None:
        b = self.scope.lookup_function(name)
        self.looked.setdefault(("f", name), describe_binding(b))
        return b

    def seat_count(self) -> int | None:
        n = self.scope.find_seat_count()
        self.looked.setdefault(("seats", ""), n)
        return n

    def seat_args(self, unit: _Unit, n: A.Call, b: FunctionBinding,
                  args: list[tuple[str, T]]) -> list[tuple[str, T]]:
        """Arguments where a seat is wanted, checked to be one when only a number is known of them.

        ``tricks(9)`` would index past the seats and ``tricks(-1)`` silently read the last one: a
        literal is refused here, any other number is checked as it is given. An argument that is a
        seat already (``s`` of ``seats()``, ``left_of(dealer)``) costs nothing."""
        count = self.seat_count() if T.SEAT in b.params else None
        if count is None:
            return args
        out = list(args)
        for i, want in enumerate(b.params[:len(args)]):
            code, got = args[i]
            if want is not T.SEAT or got in (T.SEAT, T.NONE):
                continue
            try:
                value = pyast.literal_eval(code)
            except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
                out[i] = (f"{self.bind('b', seat_arg, ('s', ''))}({code}, {count})", got)
                continue
            if value is not None and not _is_seat(value, count):
                where = n.args[i] if i < len(n.args) else n
                raise self.fail(unit, where, f"argument {i + 1} of {b.name}() is {clip(repr(value), 40)}, which is "
                                             f"no seat (seats are numbered 0 to {count - 1})")
        return out

    def fail(self, unit: _Unit, node: A.Node | int, message: str) -> _Error:
        offset = node if isinstance(node, int) else node.start
        if unit.macro:
            message = f"in function '{unit.macro}': {message}"
        return _Error(unit.src, offset, message)

    # ----------------------------------------------------------------- nodes
    def expr(self, unit: _Unit, n: A.Node) -> tuple[str, T]:
        method = getattr(self, "_" + type(n).__name__)
        self.depth += 1
        try:
            if MAX_EXPANDED_DEPTH.exceeded(self.depth):
                raise self.fail(unit, n, MAX_EXPANDED_DEPTH.message("this expression", self.depth))
            code, t = method(unit, n)
        finally:
            self.depth -= 1
        if len(code) > MAX_CODE:
            raise self.fail(unit, n, "this expression grows too large once its functions are expanded")
        return code, t

    def _Literal(self, unit: _Unit, n: A.Literal) -> tuple[str, T]:
        v = n.value
        if isinstance(v, bool):
            return repr(v), T.BOOL
        if v is None:
            return "None", T.NONE
        if isinstance(v, str):
            return repr(v), T.STRING
        if not _is_plain(v):  # 1e400 is inf, which has no literal form in the generated code
            raise self.fail(unit, n, "this number is too large")
        return repr(v), T.NUMBER

    def _Name(self, unit: _Unit, n: A.Name) -> tuple[str, T]:
        local = unit.locals.get(n.id)
        if local is not None:
            return local.code, local.type
        b = self.lookup_name(n.id)
        if b is None:
            if self.scope.lookup_function(n.id) is not None:
                raise self.fail(unit, n, f"'{n.id}' is a function: call it, e.g. {n.id}(...)")
            known = [*unit.locals, *(x.name for x in self.scope.names())]
            raise self.fail(unit, n, f"unknown name '{clip(n.id)}'{_did_you_mean(n.id, known)}")
        if b.getter is None:
            v = b.value
            if _is_plain(v):
                return f"({v!r})", b.type
            return self.bind("c", v, ("c", n.id)), b.type
        self.reads.add(n.id)
        ident = self.bind("g", b.getter, ("g", n.id))
        self.getters[ident] = b
        for names in self._body_reads:  # the rule functions being expanded read it (_remembered)
            names.setdefault(ident)
        if b.elem is not T.ANY:
            self.items[f"{ident}(ctx)"] = b.elem
        return f"{ident}(ctx)", b.type

    def _Call(self, unit: _Unit, n: A.Call) -> tuple[str, T]:
        b = self.lookup_function(n.func)
        if b is None:
            if self.scope.lookup_name(n.func) is not None or n.func in unit.locals:
                raise self.fail(unit, n, f"'{n.func}' is a value, not a function: write it without brackets")
            known = [f.name for f in self.scope.functions()]
            raise self.fail(unit, n, f"unknown function '{clip(n.func)}'{_did_you_mean(n.func, known)}")
        if n.comp is not None:
            drains = isinstance(b, FunctionBinding) and not b.takes_ctx and b.name in DRAINING
            args = [self._generator(unit, n.args[0], n.comp, *("[", "]") if drains else ("(", ")"))]
        else:
            args = [self.expr(unit, a) for a in n.args]
        if isinstance(b, MacroBinding):
            return self._inline(unit, n, b, args)
        if b.literal_args:
            for i, a in enumerate(n.args):
                if not isinstance(a, A.Literal):
                    raise self.fail(unit, a, f"argument {i + 1} of {b.name}() must be written out as it is, not "
                                             f"worked out (write {b.name}('some-id'), with the quotes)")
        self._check_args(unit, n, b, [t for _, t in args])
        args = self.seat_args(unit, n, b, args)
        rt = b.returns
        if b.name in ("min", "max") and not b.takes_ctx:
            types = [t for _, t in args]
            rt = T.ANY if len(types) == 1 else (T.NUMBER if all(is_numeric(t) for t in types) else T.ANY)
        elem = b.elem
        if b.name in SAME_ITEMS and not b.takes_ctx and args:
            elem = self.items.get(args[0][0], T.ANY)
        if b.pure and n.comp is None:
            folded = self._fold(unit, n, b, [c for c, _ in args])
            if folded is not None:
                if rt is T.LIST:
                    self.item_type(folded, elem)
                return folded, rt
        if b.table is not None and len(args) == 1 and _is_simple(args[0][0]):
            arg = args[0][0]
            table = self.bind("t", b.table, ("t", n.func))
            return f"({table}[{arg}] if {arg} is not None else None)", rt
        if b.code is not None and all(_is_simple(c) for c, _ in args):
            return f"({b.code.format(*(c for c, _ in args))})", rt
        codes = ", ".join(c for c, _ in args)
        fn = self.bind("b" if not b.takes_ctx else "f", b.impl, ("i", n.func))
        if b.takes_ctx and b.returns is T.LIST:
            self.list_functions.add(fn)
        call = f"{fn}(ctx, {codes})" if b.takes_ctx and codes else (f"{fn}(ctx)" if b.takes_ctx else f"{fn}({codes})")
        if rt is T.LIST:
            self.item_type(call, elem)
        return call, rt

    def _fold(self, unit: _Unit, n: A.Call, b: FunctionBinding, codes: list[str]) -> str | None:
        """Evaluate a pure call whose arguments are all literals now, once, instead of at every use."""
        values = []
        for c in codes:
            try:
                values.append(_literal(c))
            except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
                return None
        try:
            result = b.impl(None, *values) if b.takes_ctx else b.impl(*values)
        except Exception as exc:  # reported as a rule problem at load time, whatever it is
            raise self.fail(unit, n, f"{b.name}() fails with these arguments: {clip(exc, 200)}") from None
        self.folded += 1 + (len(result) if isinstance(result, (list, tuple, str)) else 0)
        if MAX_FOLDED.exceeded(self.folded):
            raise self.fail(unit, n, MAX_FOLDED.message("computing the fixed parts of this expression when the "
                                                        "file is loaded", self.folded))
        self.folds.append((n.func, tuple(values), repr(result) if _is_plain(result) else None))
        if _is_plain(result):
            return f"({result!r})"
        return self.bind("k", result, ("k", len(self.folds) - 1))

    def _check_args(self, unit: _Unit, n: A.Call, b: FunctionBinding, types: list[T]) -> None:
        if not b.takes_ctx and b.name in VARIADIC:
            lo, hi = VARIADIC[b.name]
            if len(types) < lo or (hi is not None and len(types) > hi):
                count = f"{lo} or {hi}" if hi is not None else f"at least {lo}"
                raise self.fail(unit, n, f"{b.name}() takes {count} argument(s), got {len(types)}")
            if b.name in ("min", "max") and len(types) == 1 and not accepts(T.LIST, types[0]):
                raise self.fail(unit, n, f"{b.name}() of one value needs a list; for numbers give two or more")
            return
        if len(types) != len(b.params):
            names = f" ({', '.join(b.param_names)})" if b.param_names else ""
            s = "" if len(b.params) == 1 else "s"
            raise self.fail(unit, n, f"{b.name}() takes {len(b.params)} argument{s}{names}, got {len(types)}")
        for i, (want, got) in enumerate(zip(b.params, types, strict=True)):
            if not accepts(want, got):
                where = n.args[i] if i < len(n.args) else n
                raise self.fail(unit, where, f"argument {i + 1} of {b.name}() must be {describe(want)}, "
                                             f"not {describe(got)}")

    def _inline(self, unit: _Unit, n: A.Call, m: MacroBinding, args: list[tuple[str, T]]) -> tuple[str, T]:
        if len(args) != len(m.params):
            s = "" if len(m.params) == 1 else "s"
            raise self.fail(unit, n, f"{m.name}() takes {len(m.params)} argument{s} ({', '.join(m.params)}), "
                                     f"got {len(args)}")
        if m.name in self._macro_stack:
            chain = " -> ".join([*self._macro_stack, m.name])
            raise self.fail(unit, n, f"function '{m.name}' calls itself ({chain}); rule functions cannot recurse")
        try:
            tree = parse(str(m.body))
        except ExprSyntaxError as exc:
            raise _Error(m.body, exc.offset, f"in function '{m.name}': {exc.message}") from None
        body_unit = _Unit(m.body, {}, m.name)
        # Each argument is evaluated once, by binding it as the parameter of a small lambda.
        self._macro_stack.append(m.name)
        self._body_reads.append({})
        self._body_loops.append(self._loops)
        try:
            params = []
            for pname, (code, t) in zip(m.params, args, strict=True):
                if _is_simple(code):  # a name or a literal: substitute it, no need to bind it once
                    body_unit.locals[pname] = _Local(code, t)
                    continue
                self._loop_counter += 1
                ident = f"a{self._loop_counter}_{pname}"
                body_unit.locals[pname] = _Local(ident, t)
                params.append((ident, code))
            body_code, body_type = self.expr(body_unit, tree)
        finally:
            self._macro_stack.pop()
            reads = self._body_reads.pop()
            self._body_loops.pop()
        body_code = self._remembered(m, body_code, [(local.code, local.type) for local in body_unit.locals.values()],
                                     list(reads))
        if not params:
            return body_code, body_type
        names = ", ".join(p for p, _ in params)
        values = ", ".join(c for _, c in params)
        return f"(lambda {names}: {body_code})({values})", body_type

    def _remembered(self, m: MacroBinding, body: str, params: list[tuple[str, T]], reads: list[str]) -> str:
        """``body`` (a rule function's code, its parameters bound) remembered for the same arguments.

        Only a body with a loop is worth it (a lookup costs about as much as a few operators). Its
        value follows from its arguments, the names it reads and the game's state, so those names'
        values are part of the key with the arguments; the key also names the function and the
        scope (a name may mean another thing in another scope). The engine keeps the memo only while
        the state cannot change (``MEMO``); a function given a list, or reading a list, is not
        remembered (a list is no key)."""
        if " for " not in body:
            return body
        if self._body_loops and self._body_loops[-1] == self._loops:
            # Called once in the body of a rule function being expanded, outside its loops: that
            # function, remembered, computes this once per key of its own already.
            return body
        if any(t is T.LIST for _, t in params) or any(self.getters[ident].type is T.LIST for ident in reads):
            return body
        token = f"{m.name}@{'/'.join(_scope_names(self.scope))}"
        key = ", ".join([repr(token), *(code for code, _ in params), *(f"{ident}(ctx)" for ident in reads)])
        return f"_memo(ctx, ({key},), lambda: {body})"

    def _generator(self, unit: _Unit, elt: A.Node, comp: A.Comp, open_: str, close: str) -> tuple[str, T]:
        it_code, it_type = self.expr(unit, comp.iter)
        if not accepts(T.LIST, it_type):
            raise self.fail(unit, comp.iter, f"'for {comp.var} in ...' needs a list, not {describe(it_type)}")
        self._loop_counter += 1
        ident = f"v{self._loop_counter}_{comp.var}"
        inner = _Unit(unit.src, {**unit.locals, comp.var: _Local(ident, T.ANY)}, unit.macro)
        self._loops += 1  # (what the loop's item and condition hold is evaluated once per item)
        try:
            elt_code, elt_type = self.expr(inner, elt)
            cond = ""
            if comp.cond is not None:
                c_code, c_type = self.expr(inner, comp.cond)
                self._need(inner, comp.cond, c_type, T.BOOL, "the 'if' of a 'for'")
                cond = f" if {c_code}"
        finally:
            self._loops -= 1
        code = f"{open_}{elt_code} for {ident} in {it_code}{cond}{close}"
        return code, self.item_type(code, elt_type)

    def _ListExpr(self, unit: _Unit, n: A.ListExpr) -> tuple[str, T]:
        if n.comp is not None:
            return self._generator(unit, n.items[0], n.comp, "[", "]")
        items = [self.expr(unit, x) for x in n.items]
        code = "[" + ", ".join(c for c, _ in items) + "]"
        elem = T.ANY
        for i, (_, t) in enumerate(items):
            elem = t if i == 0 else join(elem, t)
        return code, self.item_type(code, elem)

    def _Index(self, unit: _Unit, n: A.Index) -> tuple[str, T]:
        target, tt = self.expr(unit, n.target)
        index, it = self.expr(unit, n.index)
        if not accepts(T.LIST, tt):
            raise self.fail(unit, n.target, f"only a list can be indexed with [...], not {describe(tt)}")
        if not is_numeric(it):
            raise self.fail(unit, n.index, f"a list index must be a number, not {describe(it)}")
        return f"{target}[{index}]", self.items.get(target, T.ANY)

    def _Unary(self, unit: _Unit, n: A.Unary) -> tuple[str, T]:
        code, t = self.expr(unit, n.operand)
        if n.op == "not":
            self._need(unit, n.operand, t, T.BOOL, "'not'")
            return f"(not {code})", T.BOOL
        if not is_numeric(t):
            raise self.fail(unit, n, f"'{n.op}' needs a number, not {describe(t)}")
        return f"({n.op}{code})", T.NUMBER

    def _Arith(self, unit: _Unit, n: A.Arith) -> tuple[str, T]:
        code, t = self.expr(unit, n.first)
        parts = [code]
        result = t
        joined: list[str] = []  # lists joined so far: one flat [*a, *b, *c], however long the chain
        for op, offset, operand in n.rest:
            c2, t2 = self.expr(unit, operand)
            if op == "+" and (result is T.LIST or t2 is T.LIST):
                if not (accepts(T.LIST, result) and accepts(T.LIST, t2)):
                    raise self.fail(unit, offset, f"cannot add {describe(result)} and {describe(t2)}")
                # Lists join (zones and generators too): [*a, *b] takes any iterable.
                joined = joined or ["".join(parts)]
                joined.append(c2)
                parts = ["[" + ", ".join(f"*{c}" for c in joined) + "]"]
                result = T.LIST
                continue
            if op == "+" and (result is T.STRING or t2 is T.STRING):
                if not (accepts(T.STRING, result) and accepts(T.STRING, t2)):
                    raise self.fail(unit, offset, f"cannot add {describe(result)} and {describe(t2)}")
                result = T.STRING
            else:
                for side, side_t in ((n.first, result), (operand, t2)):
                    if not is_numeric(side_t):
                        raise self.fail(unit, side, f"'{op}' needs numbers, not {describe(side_t)}")
                result = T.NUMBER if result is not T.ANY or t2 is not T.ANY else T.ANY
            parts.append(f" {op} {c2}")
        return "(" + "".join(parts) + ")", result

    def _BoolOp(self, unit: _Unit, n: A.BoolOp) -> tuple[str, T]:
        codes = []
        for v in n.values:
            c, t = self.expr(unit, v)
            self._need(unit, v, t, T.BOOL, f"'{n.op}'")
            codes.append(c)
        return "(" + f" {n.op} ".join(codes) + ")", T.BOOL

    def _Compare(self, unit: _Unit, n: A.Compare) -> tuple[str, T]:
        code, t = self.expr(unit, n.first)
        parts = [code]
        left = t
        for op, offset, operand in n.rest:
            c2, t2 = self.expr(unit, operand)
            if op in ("in", "not in"):
                if not (accepts(T.LIST, t2) or t2 is T.STRING):
                    raise self.fail(unit, operand, f"'{op}' needs a list on its right, not {describe(t2)}")
            elif op in ("==", "!="):
                if T.STRING in (left, t2) and (left in _NUMBERS or t2 in _NUMBERS):
                    hint = " (name a piece with piece('...'))" if T.PIECE in (left, t2) else ""
                    raise self.fail(unit, offset, f"cannot compare {describe(left)} with {describe(t2)} "
                                                  f"using '{op}': they are never equal{hint}")
            else:
                ok = (is_numeric(left) and is_numeric(t2)) or (
                    accepts(T.STRING, left) and accepts(T.STRING, t2) and T.STRING in (left, t2))
                if not ok:
                    raise self.fail(unit, offset, f"cannot compare {describe(left)} with {describe(t2)} using '{op}'")
            parts.append(f" {op} {c2}")
            left = t2
        return "(" + "".join(parts) + ")", T.BOOL

    def _Cond(self, unit: _Unit, n: A.Cond) -> tuple[str, T]:
        body, bt = self.expr(unit, n.body)
        test, tt = self.expr(unit, n.test)
        self._need(unit, n.test, tt, T.BOOL, "the condition after 'if'")
        orelse, ot = self.expr(unit, n.orelse)
        return f"({body} if {test} else {orelse})", join(bt, ot)

    def _need(self, unit: _Unit, node: A.Node, got: T, want: T, where: str) -> None:
        if not accepts(want, got):
            raise self.fail(unit, node, f"{where} needs {describe(want)}, but this is {describe(got)}")


_GETTER = re.compile(r"^_g\d+\(ctx\)$")


_NUMBERS = (T.NUMBER, T.SEAT, T.PIECE)


def _is_plain(v: Any) -> bool:
    """Whether ``repr(v)`` is a Python literal that evaluates back to ``v`` (inf and nan are not)."""
    return v is None or isinstance(v, (bool, int, str)) or (isinstance(v, float) and math.isfinite(v))


def _is_simple(code: str) -> bool:
    """Code cheap enough to repeat where a macro uses its parameter: a name, a literal, a getter.

    (Reading a getter twice costs less than binding it once through a lambda call.)
    """
    inner = code[1:-1] if code.startswith("(") and code.endswith(")") else code
    if inner.isidentifier() or _GETTER.match(inner):
        return True
    try:
        float(inner)
    except ValueError:
        return inner in ("True", "False", "None") or (inner[:1] in "'\"" and inner.count(inner[:1]) == 2)
    return True


def _did_you_mean(name: str, known: list[str]) -> str:
    if len(name) > 100:  # no name that long exists; comparing it with each would only cost time
        return ""
    close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


_EXPECT_WORDS = {T.BOOL: "a condition", T.NUMBER: "a number", T.LIST: "a list", T.STRING: "a string",
                 T.SEAT: "a seat", T.PIECE: "a piece"}

_GUARDED = (ArithmeticError, TypeError, ValueError, IndexError, KeyError, RecursionError)


def compile_expr(text: Any, scope: Scope, expect: T | None = None, what: str = "expression",
                 source_text: str | None = None, select: bool = False) -> CompiledExpr:
    """Compile ``text`` (a str, or a located LStr) in ``scope``; raises RuleFileError on any problem.

    ``expect`` is the type the place of use needs (a condition: T.BOOL). ``what`` names the rule
    for run-time errors; ``source_text`` is the whole file, to show the offending line with a caret.
    ``select`` also compiles ``CompiledExpr.select`` (the scope must have an item slot).
    """
    src = text if isinstance(text, str) else str(text)
    key = (str(src), _scope_names(scope))
    try:
        comp, trace = None, None
        kept = _TRACES.get(key) or []
        for i, trace in enumerate(kept):
            comp = _replay(trace, scope)
            if comp is not None:
                if i:  # the most recently matched first: the configurations after it likely match it too
                    kept.insert(0, kept.pop(i))
                break
        if trace is not None and comp is not None:
            code, rtype = trace.code, trace.rtype
        else:
            comp = _Compiler(scope)
            tree = parse(str(src))
            code, rtype = comp.expr(_Unit(src), tree)
            trace = _remember(key, comp, code, rtype)
        if expect is not None and not accepts(expect, rtype):
            raise _Error(src, 0, f"{_EXPECT_WORDS.get(expect, 'this')} is expected here, but this expression "
                                 f"gives {describe(rtype)}")
        code = _check_cost(comp, code, scope, src)
    except ExprSyntaxError as exc:
        raise RuleFileError([_diagnostic(src, exc.offset, exc.message, source_text)]) from None
    except _Error as exc:
        same_file = source_text if _pos(exc.src) .file == _pos(src).file else None
        raise RuleFileError([_diagnostic(exc.src, exc.offset, exc.message, same_file)]) from None
    except RecursionError:  # past every limit above: Python's own, on code the limits let through
        raise RuleFileError([_diagnostic(src, 0, _TOO_COMPLEX, source_text)]) from None
    try:
        fn = _finish(comp, code, src, rtype, what, trace.signature, number=expect is T.NUMBER and rtype is T.ANY)
        if select:
            fn.select = _finish_select(comp, fn.run_python, src, scope,  # type: ignore[method-assign,attr-defined]
                                       trace.signature)
        return fn
    except RecursionError:
        raise RuleFileError([_diagnostic(src, 0, _TOO_COMPLEX, source_text)]) from None


# ----------------------------------------------------------------- compiling a text again
# A ruleset is built once per option choice and preset when it is validated (and again by each
# process that loads it): the same texts are compiled again in scopes that mostly answer the same.
# The code generated for a text depends only on the text and on what the scope answered while it
# was walked: for each name and function, the facts code generation reads of its binding (its
# type, a constant's value, a getter's inline code, a macro's body...), which values came out as
# one object (a value used twice is bound once), and the results of the pure calls computed at
# load time. A _Trace keeps those answers with the code; compiling the text again asks the new
# scope the same questions and, when every answer is the same, binds the new scope's values to the
# same code instead of walking the text again. Any other answer compiles the text in full (which
# also reports any problem). The load-time checks that read the namespace (the cost limit) and the
# expected type are made again every time.


@dataclass(frozen=True, slots=True)
class _Trace:
    looked: tuple[tuple[tuple[str, str], Any], ...]  # (("n"|"f", name), describe_binding(binding)), once each
    folds: tuple[tuple[str, tuple[Any, ...], str | None], ...]  # (function, literal arguments, repr if plain)
    binds: tuple[tuple[str, tuple[str, Any], str], ...]  # (prefix, recipe, identifier), every bind in order
    code: str
    rtype: T
    reads: frozenset[str]
    getters: tuple[tuple[str, str], ...]  # (identifier, name)
    list_functions: frozenset[str]
    items: tuple[tuple[str, T], ...]  # the item types of lists the code builds or reads (see _Compiler.items)
    # How the getters read their names (itemloop.getter_signature): the same for every replay, whose
    # getters' bindings were each found to read the same way.
    signature: tuple[tuple[str, bool, str | None, str | None], ...]


# A few traces per text: the choices of an option give a text a few different codes (a constant
# true or false), and the configurations alternate between them.
_TRACES: dict[tuple[str, tuple[str, ...]], list[_Trace]] = {}
_TRACES_KEPT = 4096
_TRACES_PER_TEXT = 4


def describe_binding(b: NameBinding | FunctionBinding | MacroBinding | None, every_value: bool = False) -> Any:
    """All that code generation reads of a binding, besides the identity of the values it binds.

    ``every_value``: a constant's value described whatever it is (code reads a list or a mapping by
    identity; a phase's builder may read what it holds: ``engine/reuse.py``)."""
    if isinstance(b, NameBinding):
        if b.getter is None:
            v = b.value
            if every_value:
                return ("constant", b.name, b.type, type(v), repr(v))
            return ("constant", b.name, b.type, repr(v) if _is_plain(v) else type(v))
        return ("name", b.name, b.type, b.per_item, b.item_code, b.code, b.elem, b.span)
    if isinstance(b, FunctionBinding):
        return ("function", b.name, b.params, b.returns, b.takes_ctx, b.param_names, b.pure, b.table is not None,
                b.elem, b.literal_args, b.code)
    if isinstance(b, MacroBinding):
        return ("macro", b.name, b.params, str(b.body))
    return None


def _scope_names(scope: Scope) -> tuple[str, ...]:
    """Which kind of scope (names along its chain): a text compiled in several keeps a trace for each."""
    names = []
    s: Scope | None = scope
    while s is not None:
        names.append(s.name)
        s = s.parent
    return tuple(names)


def _remember(key: tuple[str, tuple[str, ...]], comp: _Compiler, code: str, rtype: T) -> _Trace:
    getter_names = {ident: b.name for ident, b in comp.getters.items()}
    trace = _Trace(tuple(comp.looked.items()), tuple(comp.folds), tuple(comp.binds), code, rtype,
                   frozenset(comp.reads), tuple(getter_names.items()), frozenset(comp.list_functions),
                   tuple(comp.items.items()), getter_signature(comp.getters))
    kept = _TRACES.get(key)
    if kept is None:
        if len(_TRACES) >= _TRACES_KEPT:
            del _TRACES[next(iter(_TRACES))]  # the oldest
        kept = _TRACES[key] = []
    kept.insert(0, trace)
    del kept[_TRACES_PER_TEXT:]
    return trace


# What describe_binding gave for each binding object (kept, so its id is not reused): one build asks the same
# bindings of its scopes for many expressions, and a binding never changes (frozen; a constant's
# value is described by its repr, or only its type), so each is described once per build, not once
# per expression that reads it.
_DESCRIBED: dict[int, tuple[Any, Any]] = {}
_DESCRIBED_KEPT = 16384


def _described(b: NameBinding | FunctionBinding | MacroBinding | None) -> Any:
    found = _DESCRIBED.get(id(b))
    if found is not None and found[0] is b:
        return found[1]
    described = describe_binding(b)
    if b is not None:
        if len(_DESCRIBED) >= _DESCRIBED_KEPT:
            _DESCRIBED.clear()
        _DESCRIBED[id(b)] = (b, described)
    return described


def _replay(trace: _Trace, scope: Scope) -> _Compiler | None:
    """A compiler state as walking the trace's text in ``scope`` would leave it, or None if the scope
    answers any question differently (then the text is compiled in full)."""
    found: dict[tuple[str, str], Any] = {}
    for key, described in trace.looked:
        if key[0] == "seats":
            if scope.find_seat_count() != described:
                return None
            continue
        b = scope.lookup_name(key[1]) if key[0] == "n" else scope.lookup_function(key[1])
        if _described(b) != described:
            return None
        found[key] = b
    results: list[Any] = []
    folded = 0
    for fname, values, shown in trace.folds:
        f = found[("f", fname)]
        try:
            result = f.impl(None, *values) if f.takes_ctx else f.impl(*values)
        except Exception:  # the full compile reports it where it is written
            return None
        if (repr(result) if _is_plain(result) else None) != shown:
            return None
        folded += 1 + (len(result) if isinstance(result, (list, tuple, str)) else 0)
        results.append(result)
    if MAX_FOLDED.exceeded(folded):
        return None
    comp = _Compiler(scope)
    for prefix, (kind, name), ident in trace.binds:
        if kind == "k":
            obj = results[name]
        elif kind == "g":
            obj = found[("n", name)].getter
        elif kind == "c":
            obj = found[("n", name)].value
        elif kind == "t":
            obj = found[("f", name)].table
        elif kind == "s":
            obj = seat_arg
        else:
            obj = found[("f", name)].impl
        if comp.bind(prefix, obj, (kind, name)) != ident:  # values bound as one object before, or apart
            return None
    comp.reads = set(trace.reads)
    comp.getters = {ident: found[("n", name)] for ident, name in trace.getters}
    comp.list_functions = set(trace.list_functions)
    comp.items = dict(trace.items)
    comp.folded = folded
    return comp


@lru_cache(maxsize=4096)
def _literal_cached(code: str) -> Any:
    return pyast.literal_eval(code)


def _literal(code: str) -> Any:
    """The value of a literal argument (``(40)``, ``'x'``): read once per text, unless it can be changed."""
    value = _literal_cached(code)
    if isinstance(value, (list, dict, set)):  # a fresh one each time, as literal_eval gives
        return pyast.literal_eval(code)
    return value


_TOO_COMPLEX = ("this expression is nested too deeply (or is too long) for Python to compile once its functions are "
                "expanded: name parts of it in 'functions:'")


def _check_cost(comp: _Compiler, code: str, scope: Scope, src: Any) -> str:
    """The code to run for an expression within MAX_STEPS and MAX_HELD (see dsl/cost.py), or refuse it.

    An expression that may cost too much only because of a ``range`` whose length is not known at load
    time is not refused: each such range gets the most numbers it may give that keeps the whole within
    bounds, checked as it runs (``bounded_range``), and the code calls that instead."""
    lists = frozenset(ident for ident, b in comp.getters.items() if b.type is T.LIST)
    spans = {ident: b.span for ident, b in comp.getters.items() if b.span is not None}
    bound = scope.find_list_bound() or DEFAULT_LIST_BOUND
    list_functions = frozenset(comp.list_functions)

    def cost_at(limits: dict[int, int] | None) -> Any:
        return estimate(code, comp.namespace, list_functions, lists, bound, spans, limits)

    try:
        cost = cost_at(None)
        limits = _range_limits(cost, cost_at) if _too_costly(cost) else None
    except (SyntaxError, MemoryError, ValueError):  # Python cannot even read it back
        raise RecursionError from None
    if limits is None:
        if not _too_costly(cost):
            return code
        how = "a loop multiplies what it contains by the length of its list; a range counts its numbers" + (
            f", a list from the game as {bound:,} items" if lists or comp.list_functions else "")
        if MAX_STEPS.exceeded(cost.steps):
            raise _Error(src, 0, MAX_STEPS.message("this expression", cost.steps, how))
        raise _Error(src, 0, MAX_HELD.message("this expression", cost.held, how))
    bounded = _bounded_ranges(code, limits, comp)
    comp.items.update({bounded: comp.items[code]} if code in comp.items else {})
    return bounded


def _too_costly(cost: Any) -> bool:
    return bool(MAX_STEPS.exceeded(cost.steps) or MAX_HELD.exceeded(cost.held))


def _range_limits(cost: Any, cost_at: Any) -> dict[int, int] | None:
    """The most each range of a length not known may give (by its column) so that the expression stays
    within bounds: the same cap for every one (no more than its own bounds allow), the largest that fits.
    None when not even ranges giving nothing would (the rest of the expression costs too much)."""
    sites = dict(cost.sites)
    if not sites or _too_costly(cost_at(dict.fromkeys(sites, 0))):
        return None
    lo, hi = 0, max(sites.values())  # lo fits, hi does not (the whole did not fit)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if _too_costly(cost_at({col: min(most, mid) for col, most in sites.items()})):
            hi = mid
        else:
            lo = mid
    return {col: min(most, lo) for col, most in sites.items()}


def _bounded_ranges(code: str, limits: dict[int, int], comp: _Compiler) -> str:
    """``code`` with each range call at a column of ``limits`` calling a ``bounded_range`` of its limit."""
    data = code.encode("utf-8")  # (the columns Python gives are byte offsets)
    for col in sorted(limits, reverse=True):  # from the end: the columns before stay where they are
        name = re.match(rb"[A-Za-z_][A-Za-z0-9_]*", data[col:])
        assert name is not None  # a site is a call of the range builtin by its identifier
        ident = f"_range_upto_{limits[col]}"  # (the compiler's own identifiers are _<letter><number>)
        comp.namespace[ident] = bounded_range(limits[col])
        data = data[:col] + ident.encode() + data[col + len(name.group(0)):]
    return data.decode("utf-8")


@lru_cache(maxsize=256)
def bounded_range(limit: int) -> Any:
    """``range``, refusing to give more than ``limit`` numbers: an expression's run-time step budget."""

    def bounded(a: Any, b: Any = None) -> list[int]:
        lo, hi = (0, int(a)) if b is None else (int(a), int(b))
        if hi - lo > limit:
            raise ValueError(f"range() here would give {hi - lo:,} numbers; it may give at most {limit:,}, so that "
                             f"this expression takes at most {MAX_STEPS.value:,} steps and holds at most "
                             f"{MAX_HELD.value:,} values each time it is computed (a loop multiplies what it "
                             "contains by the length of its list)")
        return list(range(lo, hi))

    return bounded


def a_number(value: Any) -> Any:
    """``value``, when it is a number. A place that needs a number, whose expression is of a type not
    known at load time (``xs[0]``), says so here, instead of the engine failing to compare or add it."""
    if isinstance(value, (int, float)):
        return value
    kind = "a string" if isinstance(value, str) else "none" if value is None else \
        "a list" if isinstance(value, (list, tuple)) else f"a {type(value).__name__}"
    shown = repr(str(value) if isinstance(value, str) else value)  # a located string shows as a string
    raise TypeError(f"this gives {kind} ({clip(shown, 40)}), where a number is needed")


def _is_seat(value: Any, count: int) -> bool:
    return not isinstance(value, bool) and isinstance(value, (int, float)) and value in range(count)


def seat_arg(value: Any, count: int) -> Any:
    """``value``, when it is a seat (or none). Where a function of the game wants a seat and the
    expression gives only a number, the number is checked here as it is given."""
    if value is None or _is_seat(value, count):
        return int(value) if isinstance(value, float) else value
    raise ValueError(f"this gives {clip(repr(value), 40)}, where a seat (0 to {count - 1}) is needed")


# The evaluation context's attribute that holds the memo of rule-function results: a dict while the
# engine builds one decision's options (the state cannot change meanwhile), else None or absent.
MEMO = "memo"
_MISSING = object()


def remembered(ctx: Any, key: tuple[Any, ...], compute: Any) -> Any:
    """``compute()``, or what it gave before for ``key`` while the context's memo is kept (``MEMO``)."""
    memo = getattr(ctx, MEMO, None)
    if memo is None:
        return compute()
    try:
        value = memo.get(key, _MISSING)
    except TypeError:  # an argument or name holding a list: no key
        return compute()
    if value is _MISSING:
        value = memo[key] = compute()
    return value


NUMBER_CHECK = "{v} = {p}_a_number({v})"  # p: the prefix of the expression's names, where it is laid out


def _finish(comp: _Compiler, code: str, src: Any, rtype: T, what: str,
            signature: tuple[tuple[str, bool, str | None, str | None], ...], number: bool = False) -> CompiledExpr:
    pos = _pos(src)
    where = f"{pos}: " if pos is not UNKNOWN_POS else ""

    def fail(exc: BaseException) -> ExpressionRuntimeError:
        # Located values are str/int/list underneath: their class names mean nothing to a rule author.
        reason = python_reason(exc)
        return ExpressionRuntimeError(f"{where}error: {what}: {reason} (in '{clip(src, 200)}')", reason)

    comp.namespace["__builtins__"] = {}
    comp.namespace["_guarded"] = _GUARDED
    comp.namespace["_fail"] = fail
    comp.namespace["_where"] = where
    comp.namespace["_a_number"] = a_number
    comp.namespace["_memo"] = remembered
    # What runs: each remembered rule function a function of its own, with loops (``dsl/loops.py``);
    # ``python`` stays the expression as compiled (what the cost bound and play_alone read).
    run = rewrite(code, comp.namespace, sys.modules[__name__], _python)
    source = _expr_source(run, number, signature, comp.getters)
    # exec of source generated from our own checked tree (never user text), with no builtins.
    exec(_python(source, f"<rule expression {where or clip(src)!r}>"), comp.namespace)
    fn: Any = comp.namespace["_expr"]
    fn.text = str(src)
    fn.type = rtype
    fn.pos = pos
    fn.python = code
    fn.run_python = run  # the code that runs (laid out by code that generates functions over it)
    fn.reads = frozenset(comp.reads)
    fn.checks_number = number  # code that inlines fn.python repeats the check (NUMBER_CHECK)
    fn.getters = dict(comp.getters)  # which name each getter reads (for code that lays expressions out)
    fn.item_type = comp.items.get(code, T.ANY) if rtype is T.LIST else T.ANY  # what its list holds, if known
    return cast(CompiledExpr, fn)




_SOURCES: dict[tuple[Any, ...], str] = {}
_SOURCES_KEPT = 4096


def _expr_source(code: str, number: bool, signature: tuple[Any, ...], getters: dict[str, NameBinding]) -> str:
    """The source of ``def _expr(ctx)`` for ``code``: made once for each code, check and way of reading names."""
    key = (code, number, signature)
    found = _SOURCES.get(key)
    if found is None:
        body, reads = _hoist_reads(code)
        check = "".join(f"        {line}\n" for line in NUMBER_CHECK.format(v="_v", p="").splitlines()) \
            if number else ""
        result = f"        _v = {body}\n{check}        return _v\n" if number else f"        return {body}\n"
        found = inline_reads(f"def _expr(ctx):\n    try:\n{reads}{result}"
                             "    except _guarded as exc:\n        raise _fail(exc) from exc\n", getters)
        if len(_SOURCES) >= _SOURCES_KEPT:
            del _SOURCES[next(iter(_SOURCES))]  # the oldest
        _SOURCES[key] = found
    return found


def _finish_select(comp: _Compiler, code: str, src: Any, scope: Scope,
                   signature: tuple[tuple[str, bool, str | None, str | None], ...]) -> Any:
    """``select(ctx, items)``: the items for which the expression holds, in order (see ``itemloop``)."""
    slot = scope.find_item_slot()
    if slot is None or not slot.isidentifier():
        raise ValueError(f"scope '{scope.name}' has no item slot to select over")
    source = select_source(code, comp.getters, slot, signature)
    where = comp.namespace["_where"]
    exec(_python(source, f"<rule expression {where or clip(src)!r}, over items>"), comp.namespace)
    fn = comp.namespace["_select"]
    fn.python = source
    return fn


def _python(source: str, name: str) -> Any:
    """Python's compile of generated code; its own limits (nesting past ~200 brackets) become ours."""
    try:
        return compile_generated(source, name)
    except (SyntaxError, RecursionError, MemoryError):
        raise RecursionError from None  # compile_expr reports it at the expression, as too deeply nested


@lru_cache(maxsize=4096)
def compile_generated(source: str, name: str) -> CodeType:
    """Python's compile of code rulecraft generated (never user text), quietly, once per source."""
    # A code object depends only on its source and name, and is immutable: the same expression built
    # again (each option choice of a ruleset, each game of a process) is compiled by Python once.
    # What differs between builds is the namespace it is executed in, which is always fresh.
    # Python's warnings about the code ('none[0]': "perhaps you missed a comma?") are about code we
    # generated, printed to a user's terminal; what is wrong with the expression is reported as it runs.
    # Kept between runs too (``disk_cache``): the same source always compiles to the same code.
    return compiled(source, name, lambda: _compile_quietly(source, name))


def _compile_quietly(source: str, name: str) -> CodeType:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)
        return compile(source, name, "exec")


def _hoist_reads(code: str) -> tuple[str, str]:
    """Read each game value used more than once a single time, into a local, before the expression.

    Reads are side-effect free and cannot fail where their scope is valid, so reading them up front
    changes nothing but the cost: rule functions inlined several times (``suit_of(led)``) would
    otherwise read the same value again and again.
    """
    counts: dict[str, int] = {}
    for m in _READ.finditer(code):
        counts[m.group(1)] = counts.get(m.group(1), 0) + 1
    repeated = [name for name, n in counts.items() if n > 1]
    if not repeated:
        return code, ""
    body = _READ.sub(lambda m: f"v{m.group(1)}" if m.group(1) in repeated else m.group(0), code)
    reads = "".join(f"        v{name} = {name}(ctx)\n" for name in repeated)
    return body, reads


def _pos(src: Any) -> SourcePos:
    p = getattr(src, "pos", None)
    return p if isinstance(p, SourcePos) else UNKNOWN_POS


def _diagnostic(src: Any, offset: int, message: str, source_text: str | None) -> Diagnostic:
    base = _pos(src)
    pos_at = getattr(src, "pos_at", None)
    text = str(src)
    line_start = text.rfind("\n", 0, offset) + 1  # the expression's own line, when it has several
    line_end = len(text) if text.find("\n", offset) < 0 else text.find("\n", offset)
    pos = pos_at(offset) if pos_at is not None and base is not UNKNOWN_POS else (
        SourcePos(base.file, base.line, base.col + offset) if base is not UNKNOWN_POS else
        SourcePos("<expression>", text.count("\n", 0, offset) + 1, offset - line_start + 1))
    context: tuple[str, ...]
    lines = source_text.split("\n", pos.line) if source_text and pos.line >= 1 else []
    if 1 <= pos.line <= len(lines):
        line, col = source_window(lines[pos.line - 1].rstrip("\r"), pos.col)
        gutter = f"{pos.line:>5} | "
        context = (gutter + line, " " * (len(gutter) + col - 1) + "^")
    else:
        line, col = source_window(text[line_start:line_end], offset - line_start + 1)
        context = ("    " + line, "    " + " " * (col - 1) + "^")
    return Diagnostic(pos, message, context=context)


def evaluate(text: str, scope: Scope | None = None, ctx: Any = None) -> Any:
    """Compile and run ``text`` once (for ``rulecraft eval`` and tests)."""
    return compile_expr(text, scope or Scope(name="eval"))(ctx)


__all__ = ["BUILTINS", "CompiledExpr", "NameBinding", "compile_expr", "evaluate"]
