"""Effects: the only way state changes outside moves.

An effect is a small map in a rule file::

    - id: failed-bid          # optional; counted in `fired` when it runs (compare reports these)
      for: t in teams()       # optional loop
      when: "t == team_of(declarer)"
      add: {"score[t]": "-bid"}

Actions: ``set`` / ``add`` (variables, ``name`` or ``name[index]``), ``move`` (pieces between zones),
``mark`` (name pieces for knowledge expressions), ``show`` (pieces every seat may see where they
lie, and variables or entries of them: ``engine.showing``), ``pay`` (chips between seats with named
multipliers), ``sit_out`` (seats that take no further part in the hand), ``void_hand``, ``end_phase``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rulecraft.dsl import CompiledExpr, Scope, T
from rulecraft.dsl.types import accepts, describe
from rulecraft.engine.board import Ctx, held_number
from rulecraft.engine.context import bound_scope
from rulecraft.engine.effect_code import Runner, make_runner
from rulecraft.engine.showing import ShowAction, show
from rulecraft.errors import UNKNOWN_POS, ExpressionRuntimeError, SourcePos, python_reason
from rulecraft.rules.located import pos_of

if TYPE_CHECKING:
    from rulecraft.engine.board import Board
    from rulecraft.engine.builder import Builder
    from rulecraft.engine.equipment import Equipment, VarSpec

_LVALUE = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\[(.+)\])?\s*$")
_FOR = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s+in\s+(.+)$", re.S)
ACTIONS = ("set", "add", "move", "mark", "show", "pay", "sit_out", "void_hand", "end_phase")


@dataclass(frozen=True, slots=True)
class Assign:
    var_index: int
    index: CompiledExpr | None
    value: CompiledExpr
    add: bool


@dataclass(frozen=True, slots=True)
class ZoneRef:
    zone: str
    owner: CompiledExpr | None


@dataclass(frozen=True, slots=True)
class MoveAction:
    src: ZoneRef
    dst: ZoneRef
    pieces: CompiledExpr | None
    face: str  # "keep" | "up" | "down"


@dataclass(frozen=True, slots=True)
class Multiplier:
    id: str
    when: CompiledExpr
    factor: CompiledExpr


@dataclass(frozen=True, slots=True)
class PayAction:
    payer: CompiledExpr
    payee: CompiledExpr
    amount: CompiledExpr
    multipliers: tuple[Multiplier, ...]
    account: int  # variable index of the per-seat chip count


@dataclass(frozen=True, slots=True)
class Effect:
    id: str
    loops: tuple[tuple[str, CompiledExpr], ...]  # nested `for` loops, outermost first
    when: CompiledExpr | None
    assigns: tuple[Assign, ...] = ()
    move: MoveAction | None = None
    mark: tuple[str, CompiledExpr] | None = None
    pay: PayAction | None = None
    void_hand: bool = False
    end_phase: bool = False
    pos: SourcePos = UNKNOWN_POS  # where the effect is written: what a failure while it runs names
    show: ShowAction | None = None  # pieces (where they lie) and variables shown to every seat
    # A looped effect whose `when` reads none of its loop's names: asked once before the loop, and when
    # it does not hold the loop is skipped (nothing fires in any pass, so nothing could change it).
    when_outside: bool = False
    sit_out: CompiledExpr | None = None  # seats that play no further part in this hand


def parse_zone_ref(b: Builder, rs: Equipment, text: Any, scope: Scope, what: str) -> ZoneRef:
    m = _LVALUE.match(str(text))
    if not m:
        b.error(text, f"'{text}' is not a zone: write a zone name, or name[owner] such as won[trick_winner]")
        return ZoneRef("?", None)
    name, index = _substr(text, m.group(1), m.start(1)), m.group(2)
    if not b.ref(name, rs.zone_by_name, "zone"):
        return ZoneRef(name, None)
    zone = rs.zone_by_name[name]
    if zone.per != "none" and index is None:
        b.error(text, f"zone '{name}' has one instance per {zone.per}: say whose, e.g. {name}[seat]")
    owner = b.expr(_substr(text, index, m.start(2)), scope, T.NUMBER, what) if index is not None else None
    return ZoneRef(name, owner)


def _substr(text: Any, sub: str, start: int) -> Any:
    """A piece of a located string that still knows its own position in the file."""
    from rulecraft.rules.located import LStr

    if isinstance(text, LStr) and hasattr(text, "pos_at"):
        return LStr(sub, text.pos_at(start))
    return sub


def check_value_type(b: Builder, var: VarSpec, indexed: bool, got: T, where: Any, verb: str = "set") -> None:
    """Refuse, where the rule is written, a value of a type the variable does not hold: a number
    variable set to text would fail (or compare wrongly) in the middle of a game."""
    want = var.value_type if indexed else var.expr_type
    if want is T.ANY or accepts(want, got):
        return
    what = f"each entry of '{var.name}'" if indexed else f"variable '{var.name}'"
    hint = " (number(...) reads a number from text)" if want is T.NUMBER and got is T.STRING else (
        " (text(...) gives the text of a number)" if want is T.STRING and got in (T.NUMBER, T.SEAT) else "")
    b.error(where, f"{what} holds {describe(want)}, but this value is {describe(got)}; "
                   f"it cannot be {'added' if verb == 'add' else 'set'} here{hint}")


def compile_effects(b: Builder, rs: Equipment, items: Any, scope: Scope, what: str) -> tuple[Effect, ...]:
    out: list[Effect] = []
    for i, raw in enumerate(items or ()):
        out.append(compile_effect(b, rs, raw, scope, f"{what} effect {raw.get('id', i + 1)}"))
    return tuple(out)


def compile_effect(b: Builder, rs: Equipment, raw: dict[str, Any], scope: Scope, what: str) -> Effect:
    loops: list[tuple[str, CompiledExpr]] = []
    # `for: "s in others(winner)"`, or a list of such loops, nested in order.
    specs = raw.get("for", [])
    for spec in specs if isinstance(specs, list) else [specs]:
        m = _FOR.match(str(spec))
        if not m:
            b.error(spec, "a 'for' loop is written 'NAME in EXPRESSION', e.g. 't in teams()'")
            continue
        loops.append((m.group(1), b.expr(_substr(spec, m.group(2), m.start(2)), scope, T.LIST, what)))
        scope = bound_scope(scope, [m.group(1)], what)
    when = b.expr(raw["when"], scope, T.BOOL, what) if "when" in raw else None
    actions = [a for a in ACTIONS if a in raw]
    if len(actions) != 1:
        b.error(raw, f"an effect does exactly one of {', '.join(ACTIONS)}; this one has "
                     f"{', '.join(actions) if actions else 'none'}")
    assigns: list[Assign] = []
    for verb in ("set", "add"):
        for target, value in (raw.get(verb) or {}).items():
            named = _named_variable(b, rs, target)
            if named is None:
                continue
            vname, index, at = named
            var = rs.variables[rs.var_index[vname]]
            if var.per == "none" and index is not None:
                b.error(target, f"variable '{vname}' is a single value, not one per seat or team")
            if var.per != "none" and index is None:
                b.error(target, f"variable '{vname}' holds one value per {var.per}: write {vname}[...]")
            idx = b.expr(_substr(target, index, at), scope, T.NUMBER, what) if index else None
            compiled = b.expr(value, scope, None, what)
            check_value_type(b, var, index is not None, compiled.type, value, verb)
            assigns.append(Assign(rs.var_index[vname], idx, compiled, verb == "add"))
    move = None
    if "move" in raw:
        spec = raw["move"]
        move = MoveAction(
            parse_zone_ref(b, rs, spec.get("from"), scope, what),
            parse_zone_ref(b, rs, spec.get("to"), scope, what),
            b.expr(spec["pieces"], scope, T.LIST, what) if "pieces" in spec else None,
            str(spec.get("face", "keep")),
        )
    mark = None
    if "mark" in raw:
        spec = raw["mark"]
        mark = (str(spec["name"]), b.expr(spec["pieces"], scope, T.LIST, what))
    show = compile_show(b, rs, raw["show"], scope, what) if "show" in raw else None
    sit_out = None
    if "sit_out" in raw:
        sit_out = b.expr((raw["sit_out"] or {}).get("seats"), scope, T.LIST, what)
    pay = None
    if "pay" in raw:
        spec = raw["pay"]
        account = spec.get("account", "chips")
        acc_index = -1
        if b.ref(account, rs.var_index, "variable"):
            acc_index = rs.var_index[account]
            if rs.variables[acc_index].per != "seat":
                b.error(spec, f"payments need a per-seat variable to pay from and to; '{account}' is not one")
        mults = tuple(
            Multiplier(str(m.get("id", f"x{j + 1}")),
                       b.expr(m.get("when", "true"), scope, T.BOOL, f"{what} multiplier {m.get('id', j + 1)}"),
                       b.expr(m["factor"], scope, T.NUMBER, f"{what} multiplier {m.get('id', j + 1)}"))
            for j, m in enumerate(spec.get("multipliers", ()))
        )
        pay = PayAction(b.expr(spec["from"], scope, None, what), b.expr(spec["to"], scope, None, what),
                        b.expr(spec["amount"], scope, T.NUMBER, what), mults, acc_index)
    eid = str(raw.get("id", ""))
    loop_names = {name for name, _ in loops}
    outside = bool(loops) and when is not None and not (set(getattr(when, "reads", loop_names)) & loop_names)
    return Effect(eid, tuple(loops), when, tuple(assigns), move, mark, pay,
                  bool(raw.get("void_hand", False)), bool(raw.get("end_phase", False)), pos_of(raw), show,
                  outside, sit_out)


def _named_variable(b: Builder, rs: Equipment, target: Any) -> tuple[Any, str | None, int] | None:
    """``NAME`` or ``NAME[index]``: (the name, still located; the index's text or None; where the index
    starts in the target), or None when it names no variable (reported at the target)."""
    m = _LVALUE.match(str(target))
    if not m:
        b.error(target, f"'{target}' is not a variable: write NAME or NAME[index]")
        return None
    name = _substr(target, m.group(1), m.start(1))
    if not b.ref(name, rs.var_index, "variable"):
        return None
    return name, m.group(2), m.start(2)


def compile_show(b: Builder, rs: Equipment, spec: Any, scope: Scope, what: str) -> ShowAction:
    """A show's ``pieces`` (an expression) and ``variables`` (``NAME``, or ``NAME[index]`` for one entry)."""
    spec = spec or {}
    pieces = b.expr(spec["pieces"], scope, T.LIST, what) if "pieces" in spec else None
    shown: list[tuple[int, CompiledExpr | None]] = []
    for target in spec.get("variables") or ():
        named = _named_variable(b, rs, target)
        if named is None:
            continue
        name, index, at = named
        if index is not None and rs.variables[rs.var_index[name]].per == "none":
            b.error(target, f"variable '{name}' is a single value, not one per seat or team: show it as '{name}'")
        entry = b.expr(_substr(target, index, at), scope, T.NUMBER, what) if index is not None else None
        shown.append((rs.var_index[name], entry))
    if pieces is None and not shown:
        b.error(spec, "a show names 'pieces' (an expression), 'variables' (a list of names), or both")
    return ShowAction(pieces, tuple(shown))


def run_effects(st: Board, effects: tuple[Effect, ...]) -> None:
    """Run the effects in order (until one signals), as the list's generated function (``effect_code``)."""
    if effects:
        runner(effects)(st)


def runner(effects: tuple[Effect, ...]) -> Runner:
    """The generated function that runs ``effects`` (``run(st)``), made at its first use. Code that
    runs one list often (a round's end) may keep it, and call it without looking it up."""
    found = _RUNNERS.get(id(effects))
    if found is None or found[0] is not effects:
        if len(_RUNNERS) >= _RUNNERS_KEPT:
            del _RUNNERS[next(iter(_RUNNERS))]  # the oldest
        found = _RUNNERS[id(effects)] = (effects, make_runner(effects, _HELPERS))
    return found[1]


def run_effects_generic(st: Board, effects: tuple[Effect, ...]) -> None:
    """``run_effects`` step by step: what the generated function of a list must do (tests compare them)."""
    ctx = st.ctx
    for e in effects:
        if st.signal:
            return
        try:
            if e.loops:
                if e.when_outside and not _holds_before(e, ctx):
                    continue
                _run_loops(st, e, 0)
            elif e.when is None or e.when(ctx):  # most effects wait for a moment: ask before calling
                _fire(st, e, ctx)
        except _CANNOT as exc:  # values its expressions gave that the action cannot use (adding a list to 3)
            raise _cannot(e, exc) from exc


def _cannot(e: Effect, exc: Exception) -> ExpressionRuntimeError:
    """The error of an effect whose expressions gave values its action cannot use (adding a list to 3)."""
    where = f"{e.pos}: " if e.pos is not UNKNOWN_POS else ""
    name = f"effect '{e.id}'" if e.id else "effect"
    reason = str(exc) if isinstance(exc, _Unusable) else python_reason(exc, 200)
    return ExpressionRuntimeError(f"{where}error: {name} cannot be done with the values its expressions "
                                  f"gave: {reason}", reason)


# Each effect list's generated function, by the list's identity (the list is kept with it, so the
# identity cannot pass to another list while the entry lives): made at the list's first run.
_RUNNERS: dict[int, tuple[tuple[Effect, ...], Runner]] = {}
_RUNNERS_KEPT = 4096


_CANNOT = (TypeError, ValueError, IndexError, KeyError, ArithmeticError)


class _Unusable(ValueError):
    """A value an effect's expression gave that its action cannot use, said in the rules' words."""


def _holds_before(e: Effect, ctx: Ctx) -> bool:
    """Whether the loop of an effect whose ``when`` reads none of its loop's names may fire at all.

    Asked before the loop, where the loop would ask it first: an expression that fails here (where
    the loop might never have asked it, its lists being empty) lets the loop run and fail, or not,
    where it would have.
    """
    assert e.when is not None
    try:
        return bool(e.when(ctx))
    except Exception:  # the loop asks again, and reports it where it always did
        return True


def _run_loops(st: Board, e: Effect, depth: int) -> None:
    ctx = st.ctx
    name, items_expr = e.loops[depth]
    items = list(items_expr(ctx))
    innermost = depth + 1 == len(e.loops)
    bind = ctx.bind
    missing = object()
    saved = bind.get(name, missing)
    try:
        for item in items:
            bind[name] = item
            if innermost:
                _run_once(st, e, ctx)
            else:
                _run_loops(st, e, depth + 1)
    finally:
        if saved is missing:
            bind.pop(name, None)
        else:
            bind[name] = saved


def _run_once(st: Board, e: Effect, ctx: Ctx) -> None:
    if e.when is None or e.when(ctx):
        _fire(st, e, ctx)


def _fire(st: Board, e: Effect, ctx: Ctx) -> None:
    """Do what the effect says (its ``when`` holds)."""
    if e.id:
        st.note_fired(e.id)
    if len(e.assigns) == 1:
        a = e.assigns[0]
        value = a.value(ctx)
        st.assign(a.var_index, a.index(ctx) if a.index is not None else None, value, a.add)
    elif e.assigns:
        # Evaluate every right-hand side first, so `set: {a: b, b: a}` swaps.
        values = [(a, a.value(ctx), a.index(ctx) if a.index is not None else None) for a in e.assigns]
        for a, value, index in values:
            st.assign(a.var_index, index, value, a.add)
    if e.move is not None:
        m = e.move
        src = st.zone_instance(m.src.zone, m.src.owner(ctx) if m.src.owner else None)
        dst = st.zone_instance(m.dst.zone, m.dst.owner(ctx) if m.dst.owner else None)
        named = list(st.zones[src]) if m.pieces is None else _pieces(st, m.pieces(ctx))
        pieces = named if m.pieces is None else [p for p in named if st.loc[p] == src]
        if src == dst:  # moved within their zone: to its end (a card buried at the bottom of the stock)
            within = st.zones[src]
            for p in pieces:
                within.remove(p)
                within.append(p)
        if m.face == "keep":
            st.gather(pieces, dst)
        else:
            for p in pieces:
                st.put(p, dst, face_down=m.face == "down", by=None)
    if e.mark is not None:
        name, pieces_expr = e.mark
        st.marks.setdefault(name, set()).update(pieces_expr(ctx))
    if e.show is not None:  # a rule makes these public (the card that must lead, dice): views and logs follow
        show(st, e.show, ctx)
    if e.pay is not None:
        _pay(st, e, ctx)
    if e.sit_out is not None:
        _sit_out(st, e.sit_out(ctx))
    if e.void_hand:
        st.signal = "void"
    if e.end_phase:
        st.signal = st.signal or "end_phase"


def _pieces(st: Board, values: Any) -> list[int]:
    """The pieces a ``move`` names, each checked to be one (``first()`` of an empty zone is none)."""
    out = list(values)
    for p in out:
        if isinstance(p, bool) or not isinstance(p, int) or not 0 <= p < st.rs.pieces.count:
            shown = "none" if p is None else repr(p)
            raise _Unusable(f"the pieces to move include {shown}, which is not a piece"
                            + (" (first() of an empty list is none)" if p is None else ""))
    return out


def _sit_out(st: Board, seats: Any) -> None:
    """The seats take no further part in the hand (a partner whose partner plays alone): every order
    of seats made from now on (a phase's first turn, a trick's next round) passes them by, as it passes
    a seat ``seats.sits_out`` names; their pieces stay where they lie."""
    out = set(seats)
    if any(not isinstance(s, int) or isinstance(s, bool) or not 0 <= s < st.rs.seats.count for s in out):
        raise _Unusable(f"sit_out needs seats (0 to {st.rs.seats.count - 1}), not {sorted(map(repr, out))}")
    active = tuple(s for s in st.active if s not in out)
    if not active:
        raise _Unusable("sit_out would leave no seat to play the hand")
    st.active = active


def _pay(st: Board, e: Effect, ctx: Ctx) -> None:
    p = e.pay
    assert p is not None
    payer, payee = p.payer(ctx), p.payee(ctx)
    if payer is None or payee is None or payer == payee:
        return
    amount = p.amount(ctx)
    factors: list[str] = []
    for m in p.multipliers:
        if m.when(ctx):
            f = m.factor(ctx)
            if f != 1:
                factors.append(f"{m.id}x{f:g}" if isinstance(f, (int, float)) else m.id)
                st.note_fired(m.id)
            amount = amount * f
    if not amount:
        return
    if isinstance(amount, float) and amount.is_integer():
        amount = int(amount)
    st.transfer(p.account, int(payer), int(payee), amount, e.id or "payment", tuple(factors))


_MISSING = object()
_HELPERS: dict[str, Any] = {"_fire": _fire, "_holds_before": _holds_before, "_cannot": _cannot,
                            "_CANNOT": _CANNOT, "_held": held_number, "_MISSING": _MISSING}
