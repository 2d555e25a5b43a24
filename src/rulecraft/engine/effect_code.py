"""An effect list as one generated Python function: what ``effects.run_effects`` does, unrolled.

``run_effects`` walks a list of effects asking each what it has (loops? a condition? which action?)
every time the list runs, and a trick round's ``on_round`` list runs after every round, a scoring
list after every hand. The function generated here (once per list) has those answers written in:
per effect, its condition called directly, its loops as Python ``for`` loops binding the loop's
name as ``_run_loops`` binds it, and an effect that only sets or adds variables done inline (the
values of every right-hand side first, then the assignments, as ``_fire`` does them). Any other
action goes to ``_fire``, the generic form. Failures are reported exactly as ``run_effects``
reports them (``_cannot``), and the list stops as soon as an effect signals (void, end of phase).

Each expression's code is written into the function where it is used (its failures reported as
its own compiled form reports them, ``_inline``), not called: a scoring list asks a dozen
conditions and values a hand, each a Python call with a getter call or two inside.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rulecraft.dsl.compiler import NUMBER_CHECK, compile_generated
from rulecraft.dsl.itemloop import inline_reads, renamed

Runner = Callable[[Any], None]


def make_runner(effects: Sequence[Any], helpers: dict[str, Any]) -> Runner:
    """The function ``run(st)`` for ``effects`` (``effects.Effect`` values); ``helpers`` holds the
    generic pieces it falls back on or reports with: ``_fire``, ``_holds_before``, ``_cannot``,
    ``_CANNOT``, ``_held``."""
    namespace: dict[str, Any] = {"__builtins__": {}, "list": list, "int": int, **helpers}
    code = _Code(namespace)
    lines = ["def _run(st):", "    ctx = st.ctx"]
    for k, e in enumerate(effects):
        namespace[f"_e{k}"] = e
        lines += ["    if st.signal:", "        return", "    try:",
                  *("        " + line for line in _effect(k, e, code)),
                  "    except _CANNOT as exc:", f"        raise _cannot(_e{k}, exc) from exc"]
    if not effects:
        lines.append("    return")
    # Names with code read inline; the state as ``st`` (``ctx.st`` is a proxy of it: see ``Ctx``).
    source = inline_reads("\n".join(lines) + "\n", code.getters).replace("ctx.st.", "st.")
    exec(compile_generated(source, "<effect list>"), namespace)
    run: Runner = namespace["_run"]
    run.python = source  # type: ignore[attr-defined]
    return run


class _Code:
    """The namespace of the function in the making, and the getters of the expressions laid into it."""

    def __init__(self, namespace: dict[str, Any]) -> None:
        self.namespace = namespace
        self.getters: dict[str, Any] = {}

    def inline(self, expr: Any, target: str, tag: str) -> list[str]:
        """Lines that set ``target`` to ``expr``'s value: its code written in, failures reported as its
        compiled form reports them (its own ``_fail``), a number checked where it checks one; a
        callable that is no compiled expression is called."""
        if getattr(expr, "python", None) is None or getattr(expr, "getters", None) is None:
            self.namespace[tag] = expr
            return [f"{target} = {tag}(ctx)"]
        body, getters, names = renamed(expr, tag)
        self.namespace.update(names)
        self.getters.update(getters)
        check = NUMBER_CHECK.format(v=target, p=tag).splitlines() if getattr(expr, "checks_number", False) else []
        return ["try:", f"    {target} = {body}", *("    " + line for line in check),
                f"except {tag}_guarded as exc:", f"    raise {tag}_fail(exc) from exc"]


def _effect(k: int, e: Any, code: _Code) -> list[str]:
    """One effect's lines: its loops around its condition around its action."""
    namespace = code.namespace
    action = _action(k, e, code)
    if e.when is not None:
        action = [*code.inline(e.when, "holds", f"_w{k}"), "if holds:", *("    " + line for line in action)]
    if not e.loops:
        return action
    body = action
    for depth in reversed(range(len(e.loops))):  # innermost first: each loop wraps what is inside it
        name, items = e.loops[depth]
        namespace[f"_n{k}_{depth}"] = name
        saved, item = f"saved{depth}", f"item{depth}"
        body = [
            *code.inline(items, "items", f"_l{k}_{depth}"),
            "items = list(items)",  # (the list first, then the name's old value: as _run_loops)
            f"{saved} = bind.get(_n{k}_{depth}, _MISSING)",
            "try:",
            f"    for {item} in items:",
            f"        bind[_n{k}_{depth}] = {item}",
            *("        " + line for line in body),
            "finally:",
            f"    if {saved} is _MISSING:",
            f"        bind.pop(_n{k}_{depth}, None)",
            "    else:",
            f"        bind[_n{k}_{depth}] = {saved}",
        ]
    body = ["bind = ctx.bind", *body]
    if e.when_outside:  # asked once before the loop: when it does not hold, nothing could fire
        return [f"if _holds_before(_e{k}, ctx):", *("    " + line for line in body)]
    return body


def _action(k: int, e: Any, code: _Code) -> list[str]:
    """What the effect does once its condition holds: inline for variables alone, else ``_fire``."""
    only_assigns = (e.assigns and e.move is None and e.mark is None and e.show is None and e.pay is None
                    and e.sit_out is None and not e.void_hand and not e.end_phase)
    if not only_assigns:
        return [f"_fire(st, _e{k}, ctx)"]
    out = [f"st.note_fired(_e{k}.id)"] if e.id else []
    # Every right-hand side (and index) first, so `set: {a: b, b: a}` swaps; then the assignments.
    for j, a in enumerate(e.assigns):
        out += code.inline(a.value, f"value{j}", f"_v{k}_{j}")
        if a.index is not None:
            out += code.inline(a.index, f"index{j}", f"_i{k}_{j}")
    out.append("vars_ = st.vars")
    for j, a in enumerate(e.assigns):  # (Board.assign, written out)
        new = f"table[i] + value{j}" if a.add else f"value{j}"
        if a.index is None:
            new = f"vars_[{a.var_index}] + value{j}" if a.add else f"value{j}"
            out.append(f"vars_[{a.var_index}] = _held({new})")
        else:
            out += [f"table = vars_[{a.var_index}]", f"i = int(index{j})", f"table[i] = _held({new})"]
    return out
