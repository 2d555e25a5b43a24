"""A trick phase's legal moves as one generated Python function, for the common shape of phase.

Most trick-taking games play single pieces face up and narrow them with a few restrictions (follow
suit; a special piece that must be played on some lead). For a phase of that shape the decision is generated once,
when the ruleset is first played, as straight-line Python: the seat's single plays, then every
restriction of the lead or the follow in order, each laid out as ``CompiledExpr.select`` lays out
one expression (``dsl/itemloop.py``: reads that are not about the candidate done once, the rest
per candidate), then the moves. The generic path of ``Tricks`` makes a call per step and per
expression; this makes none, and gives the same moves in the same order (a test plays seeded
games with both and compares every decision).

Any other shape (combinations of several pieces, face-down plays, "beating" follows, restrictions
whose refusals are asked about with ``barred()``, identical copies of pieces) keeps the generic
path, as does a decision where the restrictions leave no play (the generic path then offers a
face-down discard).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rulecraft.dsl.itemloop import ITEM, loop_parts, renamed

if TYPE_CHECKING:
    from rulecraft.engine.moves import Move
    from rulecraft.engine.phases.tricks import Restriction, Tricks
    from rulecraft.engine.state import State

LegalFn = Callable[["State"], "list[Move] | None"]


def fits(phase: Tricks, st: State) -> bool:
    """Whether the phase has the shape the generated decision covers."""
    return (len(phase.combos) == 1 and phase.combos[0].kind == "single" and not st.rs.pieces.has_copies
            and phase.face_up == "any" and phase.face_down == "never" and not phase.track_barred)


def generate(phase: Tricks, st: State, options_type: type) -> LegalFn:
    """``legal(st)``: the moves of the seat to act (and ``st.pdata.options`` set), or None for the generic path."""
    rs = st.rs
    namespace: dict[str, Any] = {"__builtins__": {}, "_singles": phase.combos[0].singles, "_hb": rs.hand_base,
                                 "_Options": options_type, "_none": frozenset(), "_stop_when": phase.stop_when,
                                 "_STOP": rs.moves.get("stop"), "set": set, "len": len}
    lines = [
        "def _legal(st):",
        "    d = st.pdata",
        "    ctx = st.ctx",
        "    seat = st.to_act",
        "    ctx.seat = seat",
        "    cands = [_singles[p] for p in st.zones[_hb + seat]]",
        "    stop = None",
        "    if d.plays:",
        *_rules(phase.follow_rules, "f", namespace, "        "),
        "    else:",
        "        if _stop_when is not None:",
        "            ctx.combo = None",
        "            if _stop_when(ctx):",
        "                stop = _STOP",
        *_rules(phase.lead_rules, "l", namespace, "        "),
        "        pass",
        "    if not cands:",
        "        return None",
        f"    moves = [{ITEM}.move for {ITEM} in cands]",
        "    if stop is not None:",
        "        d.options = _Options([stop, *moves], [None, *cands], _none)",
        "        return d.options.moves",
        "    d.options = _Options(moves, cands, _none)",
        "    return moves",
    ]
    source = "\n".join(lines) + "\n"
    exec(compile(source, f"<trick phase '{phase.id}' legal moves>", "exec"), namespace)
    fn: LegalFn = namespace["_legal"]
    fn.python = source  # type: ignore[attr-defined]
    return fn


def _rules(rules: tuple[Restriction, ...], tag: str, namespace: dict[str, Any], indent: str) -> list[str]:
    out: list[str] = []
    for k, r in enumerate(rules):
        rule = f"_r{tag}{k}"
        namespace[rule] = r
        out.append(f"# restriction '{r.id}'")
        out.append("if not cands:")
        out.append("    return None")
        if r.when is None:
            out.append("applies = cands")
        else:
            out.extend(_judge(r.when, f"{rule}w", namespace, per_item=r.when_per_play, keep="applies"))
        out.append("if applies:")
        out.extend("    " + line for line in _judge(r.allow, f"{rule}a", namespace, per_item=True, keep="failing",
                                                     negate=True))
        lapse = " and len(failing) != len(applies)" if r.if_able else ""
        out.append(f"    if failing{lapse}:")
        out.append("        drop = set(failing)")
        out.append(f"        cands = [{ITEM} for {ITEM} in cands if {ITEM} not in drop]")
    return [indent + line for line in out]


def _judge(fn: Any, prefix: str, namespace: dict[str, Any], per_item: bool, keep: str,
           negate: bool = False) -> list[str]:
    """Statements that set ``keep`` to the candidates for which ``fn`` holds (or fails, with ``negate``)."""
    code, getters, names = renamed(fn, prefix)
    namespace.update(names)
    parts = loop_parts(code, getters, prefix)
    test = f"not ({parts.body})" if negate else parts.body
    guard = [f"except {prefix}_guarded as exc:", f"    raise {prefix}_fail(exc) from exc"]
    if not per_item:  # the condition reads nothing about the candidate: ask it once
        return ["try:", *("    " + line for line in parts.before),
                f"    {keep} = cands if {test} else []", *guard]
    source = "applies" if keep == "failing" else "cands"
    store = [f"ctx.combo = {ITEM}"] if parts.store else []
    return ["try:", *("    " + line for line in parts.before), f"    {keep} = []",
            f"    for {ITEM} in {source}:", *("        " + line for line in [*store, *parts.per_item]),
            f"        if {test}:", f"            {keep}.append({ITEM})", *guard]
