"""Remembered rule functions as plain Python functions with loops, not nested lambdas and generators.

The compiler expands a rule function whose body loops (``old(p)``: the first card above p that does
not continue its run, then whether every card from there up is gone) into the expression that calls
it, remembered for its arguments while a decision's options are built:
``_memo(ctx, key, lambda: body)``. Run as written, each call makes a closure, calls ``remembered``,
then the lambda, and each ``first(...)``, ``all(...)`` or ``any(...)`` in the body makes a generator
and calls a function to drain it.

``rewrite`` turns each such call into a call of a function made for it, ``_rfN(ctx, key, free...)``
(the locals the body reads passed as arguments), whose body is statements: the memo looked up
inline, ``or``/``and``/``if`` as branches, a lambda applied to an argument as an assignment, and
``first``/``all``/``any`` of a generator, and ``not`` of any of these, as ``for`` loops that stop
where the generator would stop being drained. Everything else stays an expression, evaluated
exactly when and as often as it was: the same values, the same errors at the same step.
"""

from __future__ import annotations

import ast
import builtins
import re
from collections.abc import Callable
from typing import Any

from rulecraft.dsl.builtins import _first

DEF = "_rf"  # the prefix of the functions made here, in an expression's namespace
_MISSING = object()


def rewrite(code: str, namespace: dict[str, Any], holder: Any, compile_source: Callable[[str, str], Any]) -> str:
    """``code`` with each remembered call (``_memo(ctx, key, lambda: body)``, ``_memo`` being
    ``namespace['_memo']``) made a call of a function defined in ``namespace`` for it.

    ``holder.MEMO`` names the context attribute that holds the memo, read at each call (as
    ``remembered`` reads it); ``compile_source(source, name)`` is Python's compile of generated code.
    """
    if "_memo(" not in code:
        return code
    tree = ast.parse(code, mode="eval")
    maker = _Maker(namespace, holder, compile_source)
    new = maker.visit(tree)
    return ast.unparse(new) if maker.made else code


class _Maker(ast.NodeTransformer):
    def __init__(self, namespace: dict[str, Any], holder: Any, compile_source: Callable[[str, str], Any]) -> None:
        self.namespace = namespace
        self.holder = holder
        self.compile_source = compile_source
        self.made = 0
        kinds = {"_first": _first, "all": builtins.all, "any": builtins.any}
        self.drains = {name: kind for name, value in namespace.items() if isinstance(name, str)
                       for kind, fn in kinds.items() if value is fn}

    def visit_Call(self, node: ast.Call) -> Any:
        self.generic_visit(node)  # (the calls inside first: a body made into a function calls theirs)
        if not (isinstance(node.func, ast.Name) and node.func.id == "_memo" and len(node.args) == 3
                and not node.keywords and isinstance(node.args[2], ast.Lambda)
                and not node.args[2].args.args and isinstance(node.args[1], ast.Tuple)):
            return node
        # The names read through getters (``_g3(ctx)``) are read by the caller and passed: read there,
        # a name about the item is read from the item (``itemloop``), and the function reads no item.
        reads: dict[str, str] = {}
        body = _Reads(reads).visit(node.args[2].body)
        free = sorted(_free_names(body) - set(self.namespace) - {"ctx"} - set(reads.values()))
        ident = self._define(body, [*reads.values(), *free])
        args = [node.args[1], *(ast.Call(ast.Name(g, ast.Load()), [ast.Name("ctx", ast.Load())], [])
                                for g in reads), *(ast.Name(n, ast.Load()) for n in free)]
        # (the context last: code that lays the expression out over items looks for calls that read it)
        return ast.Call(func=ast.Name(ident, ast.Load()), args=[*args, ast.Name("ctx", ast.Load())], keywords=[])

    def _define(self, body: ast.expr, params: list[str]) -> str:
        ident = f"{DEF}{self.made}"
        while ident in self.namespace:
            self.made += 1
            ident = f"{DEF}{self.made}"
        self.made += 1
        emitter = _Emitter(self.drains)
        state = _StateReads()
        body = state.visit(body)
        steps = emitter.emit(body, "_r", 1)
        if state.state:
            steps = ["    _st = ctx.st", *(f"    _st_{n} = _st.{n}" for n in state.names), *steps]
        lines = [
            f"def {ident}({', '.join(['_key', *params, 'ctx'])}):",
            "    _m = _lp_getattr(ctx, _lp_holder.MEMO, None)",
            "    if _m is not None:",
            "        try:",
            "            _v = _m.get(_key, _lp_missing)",
            "        except _lp_TypeError:  # an argument or name holding a list: no key",
            "            _m = None",
            "        else:",
            "            if _v is not _lp_missing:",
            "                return _v",
            *steps,
            "    if _m is not None:",
            "        _m[_key] = _r",
            "    return _r",
        ]
        source = "\n".join(lines) + "\n"
        self.namespace.setdefault("_lp_getattr", getattr)
        self.namespace.setdefault("_lp_holder", self.holder)
        self.namespace.setdefault("_lp_missing", _MISSING)
        self.namespace.setdefault("_lp_TypeError", TypeError)
        exec(self.compile_source(source, f"<rule function {ident}>"), self.namespace)
        fn = self.namespace[ident]
        fn.python = source
        return ident


class _StateReads(ast.NodeTransformer):
    """The state's reads through the context (``ctx.st``, a weak proxy: each read through it costs a
    lookup) made through locals: ``ctx.st`` as ``_st`` and each attribute read of it (a table:
    ``ctx.st.loc``, not a method called) as ``_st_loc``; ``names`` collects those attributes."""

    def __init__(self) -> None:
        self.names: dict[str, None] = {}
        self.state = False

    def visit_Call(self, node: ast.Call) -> Any:
        if _is_state(getattr(node.func, "value", None)):  # (a method of the state: called on _st)
            self.state = True
            node.func = ast.Attribute(ast.Name("_st", ast.Load()), node.func.attr, ast.Load())  # type: ignore[attr-defined]
            node.args = [self.visit(a) for a in node.args]
            return node
        self.generic_visit(node)
        return node

    def visit_Attribute(self, node: ast.Attribute) -> Any:
        if _is_state(node.value):
            self.state = True
            self.names[node.attr] = None
            return ast.Name(f"_st_{node.attr}", ast.Load())
        if _is_state(node):
            self.state = True
            return ast.Name("_st", ast.Load())
        self.generic_visit(node)
        return node


def _is_state(node: Any) -> bool:
    return (isinstance(node, ast.Attribute) and node.attr == "st" and isinstance(node.value, ast.Name)
            and node.value.id == "ctx")


class _Reads(ast.NodeTransformer):
    """Each getter read ``_gN(ctx)`` replaced by a parameter (``reads``: getter -> parameter)."""

    def __init__(self, reads: dict[str, str]) -> None:
        self.reads = reads

    def visit_Call(self, node: ast.Call) -> Any:
        if (isinstance(node.func, ast.Name) and re.fullmatch(r"_g\d+", node.func.id) and len(node.args) == 1
                and isinstance(node.args[0], ast.Name) and node.args[0].id == "ctx" and not node.keywords):
            return ast.Name(self.reads.setdefault(node.func.id, f"r{node.func.id}"), ast.Load())
        self.generic_visit(node)
        return node


def _free_names(node: ast.AST) -> set[str]:
    """Names ``node`` reads that it does not bind itself (as a lambda's parameter or a loop's variable)."""
    bound: set[str] = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Lambda):
            bound.update(a.arg for a in n.args.args)
        elif isinstance(n, ast.comprehension):
            bound.update(t.id for t in ast.walk(n.target) if isinstance(t, ast.Name))
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and n.id not in bound}


class _Emitter:
    """Statements that set a variable to an expression's value, with loops for drained generators."""

    def __init__(self, drains: dict[str, str]) -> None:
        self.drains = drains
        self.temps = 0

    def emit(self, node: ast.expr, target: str, depth: int) -> list[str]:
        pad = "    " * depth
        if not self._worth(node):  # (nothing in it to make a loop of: as fast as an expression)
            return [f"{pad}{target} = {ast.unparse(node)}"]
        if isinstance(node, ast.BoolOp):
            out = self.emit(node.values[0], target, depth)
            test = f"not {target}" if isinstance(node.op, ast.Or) else target
            inner = depth
            nest: list[str] = []
            for value in node.values[1:]:
                nest_lines = self.emit(value, target, inner + 1)
                nest.append(f"{'    ' * inner}if {test}:")
                nest += nest_lines
                inner += 1
            return out + nest
        if isinstance(node, ast.IfExp):
            t = self._temp()
            return [*self.emit(node.test, t, depth), f"{pad}if {t}:", *self.emit(node.body, target, depth + 1),
                    f"{pad}else:", *self.emit(node.orelse, target, depth + 1)]
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return [*self.emit(node.operand, target, depth), f"{pad}{target} = not {target}"]
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Lambda) and not node.keywords
                and len(node.args) == len(node.func.args.args) and not any(isinstance(a, ast.Starred)
                                                                           for a in node.args)):
            out = []
            for param, arg in zip(node.func.args.args, node.args, strict=True):
                out += self.emit(arg, param.arg, depth)
            return out + self.emit(node.func.body, target, depth)
        kind = self._drained(node)
        if kind is not None:
            assert isinstance(node, ast.Call)
            gen = node.args[0]
            assert isinstance(gen, ast.GeneratorExp)
            comp = gen.generators[0]
            loop = f"{pad}for {ast.unparse(comp.target)} in {ast.unparse(comp.iter)}:"
            conds = [f"{pad}    {'    ' * i}if {ast.unparse(c)}:" for i, c in enumerate(comp.ifs)]
            indent = pad + "    " + "    " * len(comp.ifs)
            elt = ast.unparse(gen.elt)
            if kind == "_first":
                return [f"{pad}{target} = None", loop, *conds, f"{indent}{target} = {elt}", f"{indent}break"]
            stop, found = ("not", "False") if kind == "all" else ("", "True")
            start = "True" if kind == "all" else "False"
            return [f"{pad}{target} = {start}", loop, *conds, f"{indent}if {stop} ({elt}):",
                    f"{indent}    {target} = {found}", f"{indent}    break"]
        return [f"{pad}{target} = {ast.unparse(node)}"]

    def _worth(self, node: ast.expr) -> bool:
        """Whether ``node`` drains a generator or applies a lambda outside any generator or lambda."""
        if self._drained(node) is not None or (isinstance(node, ast.Call) and isinstance(node.func, ast.Lambda)):
            return True
        if isinstance(node, (ast.BoolOp, ast.IfExp, ast.UnaryOp)):
            return any(self._worth(child) for child in ast.iter_child_nodes(node) if isinstance(child, ast.expr))
        return False

    def _drained(self, node: ast.expr) -> str | None:
        """``_first``, ``all`` or ``any`` when ``node`` drains one generator of one ``for`` with them."""
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and len(node.args) == 1
                and not node.keywords and isinstance(node.args[0], ast.GeneratorExp)):
            return None
        gen = node.args[0]
        if len(gen.generators) != 1 or gen.generators[0].is_async:
            return None
        return self.drains.get(node.func.id)

    def _temp(self) -> str:
        self.temps += 1
        return f"_t{self.temps}_"
