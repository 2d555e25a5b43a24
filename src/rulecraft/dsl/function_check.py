"""Rule functions checked where they are written, whether a rule calls them or not.

A rule function is a macro: it is compiled where a rule calls it, in the scope of that place
(``compiler._inline``), so a function that no rule calls was never read: a body that does not parse, a
call to a function that exists in no scope, or a function that calls itself passed ``validate`` and
waited for the first rule that would use it. What can be said of a body without a place of use is
said here; the types of its names depend on that place and are left to it.
"""

from __future__ import annotations

import dataclasses
import functools
import graphlib
from collections.abc import Iterator, Sequence

from rulecraft.dsl import ast as A
from rulecraft.dsl.bindings import MacroBinding
from rulecraft.dsl.compiler import _diagnostic, _did_you_mean
from rulecraft.dsl.parser import ExprSyntaxError, parse
from rulecraft.dsl.scope import Scope
from rulecraft.errors import Diagnostic, clip


@functools.lru_cache(maxsize=4096)
def _calls_in(body: str) -> tuple[A.Call, ...]:
    """The calls a body makes (every configuration of a file has the same functions: read each once)."""
    return tuple(_calls(parse(body)))


def _calls(node: object) -> Iterator[A.Call]:
    """Every call in a tree, outermost first and left to right."""
    if isinstance(node, A.Call):
        yield node
    if isinstance(node, tuple):
        for item in node:
            yield from _calls(item)
    elif dataclasses.is_dataclass(node) and not isinstance(node, type):
        for f in dataclasses.fields(node):
            yield from _calls(getattr(node, f.name))


def rule_function_problems(functions: Sequence[MacroBinding], widest: Scope,
                           source_text: dict[str, str]) -> list[Diagnostic]:
    """The problems of ``functions`` that any place of use would report; ``widest`` is a scope that
    knows every function a place of use may call."""
    by_name = {m.name: m for m in functions}
    problems: list[Diagnostic] = []
    calls: dict[str, tuple[A.Call, ...]] = {}

    def problem(m: MacroBinding, offset: int, message: str) -> None:
        text = source_text.get(m.pos.file)
        problems.append(_diagnostic(m.body, offset, f"in function '{m.name}': {message}", text))

    for m in functions:
        try:
            calls[m.name] = _calls_in(str(m.body))
        except ExprSyntaxError as exc:
            problem(m, exc.offset, exc.message)
    for name, found in calls.items():
        for call in found:
            if call.func not in by_name and widest.lookup_function(call.func) is None:
                hint = _did_you_mean(call.func, [*(f.name for f in widest.functions()), *by_name])
                problem(by_name[name], call.start, f"unknown function '{clip(call.func)}'{hint}")
                break  # the compiler stops at a body's first problem too
    for chain in _cycles({name: {c.func for c in found if c.func in calls} for name, found in calls.items()}):
        caller, callee = chain[-2], chain[-1]
        call = next(c for c in calls[caller] if c.func == callee)
        problem(by_name[caller], call.start,
                f"function '{callee}' calls itself ({' -> '.join(chain)}); rule functions cannot recurse")
    return problems


def _cycles(callees: dict[str, set[str]]) -> Iterator[list[str]]:
    """One chain of calls around each group of functions that call each other (``[f, g, f]``), in time
    linear in the calls for each group found (graphlib's topological sort finds one at a time)."""
    graph = {name: set(called) for name, called in callees.items()}
    while True:
        try:
            graphlib.TopologicalSorter(graph).prepare()
            return
        except graphlib.CycleError as exc:
            found: list[str] = list(reversed(exc.args[1]))  # graphlib lists each name after those it calls
            yield found
            for name in found:  # the group is reported: check the rest without it
                graph.pop(name, None)
            for called in graph.values():
                called.difference_update(found)
