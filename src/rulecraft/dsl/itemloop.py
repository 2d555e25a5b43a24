"""The source of ``CompiledExpr.select``: one expression judged over many items in one Python loop.

A trick round asks the same restriction of every candidate play. Calling the compiled expression
once per candidate would read every game value again each time; the loop generated here reads
what does not depend on the item once, before the loop:

* names that are not about the item (``trump``, ``led``) are read into locals first;
* larger parts of the expression that use none of the item's names (``suit_of(led)``) are
  computed once too, when the expression evaluates them for every item anyway (a part reached
  only through ``and``/``or``/``if`` might never be evaluated, and may fail where it is not);
* names about the item are read once per item, straight from the item where the scope says how.

Functions never read the item (only names marked ``per_item`` do), so a call whose arguments do
not depend on the item gives the same value for every item.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from rulecraft.dsl.bindings import NameBinding

ITEM = "_it"
_READ = r"\b({ident})\(ctx\)"
READ = re.compile(_READ.format(ident=r"_g\d+"))


@dataclass(frozen=True, slots=True)
class LoopParts:
    """One compiled expression laid out for a loop over items (``_it``)."""

    before: tuple[str, ...]  # statements run once, before the loop
    per_item: tuple[str, ...]  # statements run for each item, first
    body: str  # the expression itself, reading the locals the statements above set
    store: bool  # whether the item must also be put into the context (a getter still reads it there)


def loop_parts(code: str, getters: dict[str, NameBinding], prefix: str = "") -> LoopParts:
    """Split compiled ``code`` (getters called as ``ident(ctx)``) into work before and per item.

    ``prefix`` keeps the locals of several expressions laid out in one function apart.
    """
    reads = _calls_of(getters)
    before: list[str] = []
    per_item: list[str] = []
    for ident in dict.fromkeys(m.group(1) for m in reads.finditer(code)):
        b = getters[ident]
        if b.per_item:
            per_item.append(f"i{ident} = {b.item_code or f'{ident}(ctx)'}")  # identifiers start with _
        else:
            before.append(f"v{ident} = {ident}(ctx)")
    body = reads.sub(lambda m: ("i" if getters[m.group(1)].per_item else "v") + m.group(1), code)
    body, hoisted = _hoist_invariants(body, prefix)
    before.extend(f"{name} = {expr}" for name, expr in hoisted)
    store = any("(ctx" in line for line in [body, *per_item])
    return LoopParts(tuple(before), tuple(per_item), body, store)


def renamed(fn: Any, prefix: str) -> tuple[str, dict[str, NameBinding], dict[str, Any]]:
    """A compiled expression's code, getters and namespace with every bound name prefixed.

    Several expressions, each compiled with its own namespace (``_g0``, ``_t1``, ``_fail``...), can
    then share one generated function without their names colliding.
    """
    namespace = {k: v for k, v in fn.__globals__.items() if k != "__builtins__"}
    tree = ast.parse(getattr(fn, "run_python", fn.python), mode="eval")  # (what runs: see dsl/loops.py)
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in namespace:
            node.id = prefix + node.id
    getters = {prefix + k: v for k, v in fn.getters.items()}
    return ast.unparse(tree), getters, {prefix + k: v for k, v in namespace.items()}


def inline_reads(source: str, getters: dict[str, NameBinding]) -> str:
    """``source`` with each getter call ``ident(ctx)`` of a name that has ``code`` replaced by that code.

    Applied last, to the whole generated source: the layout above still sees every read as a call.
    """
    inlined = {ident: b.code for ident, b in getters.items() if b.code is not None}
    if not inlined:
        return source
    return _calls_of(inlined).sub(lambda m: f"({inlined[m.group(1)]})", source)


def _calls_of(idents: Iterable[str]) -> re.Pattern[str]:
    """A pattern for ``ident(ctx)`` calls of these identifiers (longest first: none is cut short)."""
    alternatives = "|".join(re.escape(i) for i in sorted(idents, key=len, reverse=True))
    return re.compile(_READ.format(ident=alternatives or "(?!)"))


def select_source(code: str, getters: dict[str, NameBinding], slot: str,
                  signature: tuple[tuple[str, bool, str | None, str | None], ...] | None = None) -> str:
    """Python source of ``def _select(ctx, items)`` for the compiled expression ``code``.

    ``signature``: ``getter_signature(getters)``, when the caller knows it already."""
    # The source depends on the code, the slot and how each getter reads its name, nothing else: the
    # same expression built again (each option choice of a ruleset) is laid out once.
    key = (code, slot, getter_signature(getters) if signature is None else signature)
    found = _SELECTS.get(key)
    if found is None:
        found = _select_source(code, getters, slot)
        if len(_SELECTS) >= _SELECTS_KEPT:
            del _SELECTS[next(iter(_SELECTS))]  # the oldest
        _SELECTS[key] = found
    return found


_SELECTS: dict[tuple[Any, ...], str] = {}
_SELECTS_KEPT = 1024


def getter_signature(getters: dict[str, NameBinding]) -> tuple[tuple[str, bool, str | None, str | None], ...]:
    """All that code generation reads of the bindings behind getter identifiers (not the getters themselves)."""
    return tuple(sorted((ident, b.per_item, b.item_code, b.code) for ident, b in getters.items()))


def _select_source(code: str, getters: dict[str, NameBinding], slot: str) -> str:
    parts = loop_parts(code, getters)
    lines = [
        "def _select(ctx, items):",
        "    if not items:",  # nothing judged: nothing read (a hoisted part may fail where never needed)
        "        return []",
        "    try:",
        *(f"        {line}" for line in parts.before),
        "        out = []",
        f"        for {ITEM} in items:",
        *(f"            {line}" for line in [*([f"ctx.{slot} = {ITEM}"] if parts.store else []), *parts.per_item]),
        f"            if {parts.body}:",
        f"                out.append({ITEM})",
        "        return out",
        "    except _guarded as exc:",
        "        raise _fail(exc) from exc",
    ]
    return inline_reads("\n".join(lines) + "\n", getters)


def _hoist_invariants(body: str, prefix: str = "") -> tuple[str, list[tuple[str, str]]]:
    """Replace the largest item-independent parts evaluated for every item by locals computed once."""
    tree = ast.parse(body, mode="eval")
    hoisted: list[tuple[str, str]] = []

    # The recursion goes through an argument: a closure naming itself would be a reference cycle (code
    # generated at a phase's first use, in the middle of a game, would leave it to the collector).
    def visit(node: ast.expr, visit: Any) -> ast.expr:
        if not _item_free(node):
            for field, value in ast.iter_fields(node):
                kept = _always_evaluated(node, field)
                if isinstance(value, list):
                    setattr(node, field, [visit(v, visit) if isinstance(v, ast.expr) and i in kept else v
                                          for i, v in enumerate(value)])
                elif isinstance(value, ast.expr) and 0 in kept:
                    setattr(node, field, visit(value, visit))
            return node
        if isinstance(node, (ast.Name, ast.Constant)):
            return node  # already as cheap as a local
        name = f"{prefix}h{len(hoisted)}"
        hoisted.append((name, ast.unparse(node)))
        return ast.Name(id=name, ctx=ast.Load())

    new = visit(tree.body, visit)
    return ast.unparse(new), hoisted


def _item_free(node: ast.AST) -> bool:
    """Whether ``node`` reads nothing that changes from item to item, nor a name bound inside it."""
    inner: set[str] = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Lambda):
            inner.update(a.arg for a in n.args.args)
        elif isinstance(n, ast.comprehension):
            inner.update(t.id for t in ast.walk(n.target) if isinstance(t, ast.Name))
    for n in ast.walk(node):
        if isinstance(n, ast.Name) and (n.id == ITEM or n.id.startswith("i_")):
            return False
        if isinstance(n, ast.Name) and n.id not in inner and _bound_outside(n.id):
            return False
    return True


def _bound_outside(name: str) -> bool:
    """Names of lambda parameters and loop variables made by the compiler (``a1_p``, ``v2_q``).

    Met free inside a part, they belong to an enclosing lambda or generator: the part is evaluated
    per use of that binding and cannot move before the loop.
    """
    return bool(re.match(r"^[av]\d+_", name))


def _always_evaluated(node: ast.AST, field: str) -> set[int]:
    """Positions of ``node.field`` evaluated whenever ``node`` is (index 0 for a single child)."""
    everything = set(range(len(getattr(node, field)))) if isinstance(getattr(node, field), list) else {0}
    if isinstance(node, ast.BoolOp):
        return {0} if field == "values" else set()
    if isinstance(node, ast.IfExp):
        return {0} if field == "test" else set()
    if isinstance(node, ast.Compare):
        return {0} if field == "comparators" else everything  # a chain stops at the first false link
    if isinstance(node, (ast.Lambda, ast.GeneratorExp, ast.ListComp, ast.SetComp, ast.DictComp)):
        return set()  # evaluated later, per use (a generator's first iterable is, but stays simple)
    if isinstance(node, (ast.BinOp, ast.UnaryOp, ast.Call, ast.Subscript, ast.Attribute, ast.Tuple, ast.List,
                         ast.Starred)):
        return everything
    return set()
