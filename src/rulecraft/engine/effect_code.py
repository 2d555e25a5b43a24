"""An effect list as one generated Python function: what ``effects.run_effects`` does, unrolled.

``run_effects`` walks a list of effects asking each what it has (loops? a condition? which action?)
every time the list runs, and a trick round's ``on_round`` list runs after every round, a scoring
list after every hand. The function generated here (once per list) has those answers written in:
per effect, its condition called directly, its loops as Python ``for`` loops binding the loop's
name as ``_run_loops`` binds it, and an effect that only sets or adds variables done inline (the
values of every right-hand side first, then the assignments, as ``_fire`` does them). Any other
action goes to ``_fire``, the generic form. Failures are reported exactly as ``run_effects``
reports them (``_cannot``), and the list stops as soon as an effect signals (void, end of phase).

The source depends only on the list's shape, not on its expressions (those are names in the
namespace), so lists of the same shape share one compiled code object.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rulecraft.dsl.compiler import compile_generated

Runner = Callable[[Any], None]


def make_runner(effects: Sequence[Any], helpers: dict[str, Any]) -> Runner:
    """The function ``run(st)`` for ``effects`` (``effects.Effect`` values); ``helpers`` holds the
    generic pieces it falls back on or reports with: ``_fire``, ``_holds_before``, ``_cannot``,
    ``_CANNOT``, ``_held``."""
    namespace: dict[str, Any] = {"__builtins__": {}, "list": list, "int": int, **helpers}
    lines = ["def _run(st):", "    ctx = st.ctx"]
    for k, e in enumerate(effects):
        namespace[f"_e{k}"] = e
        lines += ["    if st.signal:", "        return", "    try:",
                  *("        " + line for line in _effect(k, e, namespace)),
                  "    except _CANNOT as exc:", f"        raise _cannot(_e{k}, exc) from exc"]
    if not effects:
        lines.append("    return")
    source = "\n".join(lines) + "\n"
    exec(compile_generated(source, "<effect list>"), namespace)
    run: Runner = namespace["_run"]
    return run


def _effect(k: int, e: Any, namespace: dict[str, Any]) -> list[str]:
    """One effect's lines: its loops around its condition around its action."""
    action = _action(k, e, namespace)
    if e.when is not None:
        namespace[f"_w{k}"] = e.when
        action = [f"if _w{k}(ctx):", *("    " + line for line in action)]
    if not e.loops:
        return action
    body = action
    for depth in reversed(range(len(e.loops))):  # innermost first: each loop wraps what is inside it
        name, items = e.loops[depth]
        namespace[f"_l{k}_{depth}"] = items
        namespace[f"_n{k}_{depth}"] = name
        saved, item = f"saved{depth}", f"item{depth}"
        body = [
            f"items = list(_l{k}_{depth}(ctx))",  # (the list first, then the name's old value: as _run_loops)
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


def _action(k: int, e: Any, namespace: dict[str, Any]) -> list[str]:
    """What the effect does once its condition holds: inline for variables alone, else ``_fire``."""
    only_assigns = (e.assigns and e.move is None and e.mark is None and e.show is None and e.pay is None
                    and e.sit_out is None and not e.void_hand and not e.end_phase)
    if not only_assigns:
        return [f"_fire(st, _e{k}, ctx)"]
    out = [f"st.note_fired(_e{k}.id)"] if e.id else []
    # Every right-hand side (and index) first, so `set: {a: b, b: a}` swaps; then the assignments.
    for j, a in enumerate(e.assigns):
        namespace[f"_v{k}_{j}"] = a.value
        out.append(f"value{j} = _v{k}_{j}(ctx)")
        if a.index is not None:
            namespace[f"_i{k}_{j}"] = a.index
            out.append(f"index{j} = _i{k}_{j}(ctx)")
    out.append("vars_ = st.vars")
    for j, a in enumerate(e.assigns):  # (Board.assign, written out)
        new = f"table[i] + value{j}" if a.add else f"value{j}"
        if a.index is None:
            new = f"vars_[{a.var_index}] + value{j}" if a.add else f"value{j}"
            out.append(f"vars_[{a.var_index}] = _held({new})")
        else:
            out += [f"table = vars_[{a.var_index}]", f"i = int(index{j})", f"table[i] = _held({new})"]
    return out
