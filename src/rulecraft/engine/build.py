"""From composed, schema-valid rule data to a Ruleset: resolve references, compile every expression.

Scopes nest the way rules run: constants and piece attributes (load time) → the game (seats,
roles, variables, zones, knowledge) → each phase kind's own names. Every problem is collected
with its position; a RuleFileError lists them all at the end.
"""

from __future__ import annotations

import dataclasses
import json
import re
from typing import Any, cast

from rulecraft.dsl import CompiledExpr, Scope, T
from rulecraft.dsl.bindings import MacroBinding
from rulecraft.dsl.function_check import rule_function_problems
from rulecraft.dsl.types import type_of_value
from rulecraft.engine.board import Ctx
from rulecraft.engine.builder import Builder
from rulecraft.engine.combo_chains import Kickers, Shape
from rulecraft.engine.combos import KINDS, ComboSpec, Play, TableEntry
from rulecraft.engine.context import (
    add_piece_constants,
    base_scope,
    bound_scope,
    piece_attribute_functions,
    piece_scope,
)
from rulecraft.engine.effects import compile_effects
from rulecraft.engine.equipment import DisplaySpec, SeatsSpec, VarSpec, ZoneSpec, max_hands_of
from rulecraft.engine.moves import ALL_VERBS, MoveBook, verb_problem
from rulecraft.engine.phases import PHASE_KINDS
from rulecraft.engine.phases.base import Phase
from rulecraft.engine.phases.tricks import Tricks, trick_scope
from rulecraft.engine.pieces import (
    NAME_CATEGORIES,
    NameTable,
    PieceTable,
    build_piece_table,
    make_name_table,
    name_list,
)
from rulecraft.engine.reuse import BuildReuse, ScopeAnswers, engine_names, words
from rulecraft.engine.ruleset import MatchSpec, Repeat, Ruleset
from rulecraft.errors import Diagnostic, ExpressionRuntimeError, SourcePos, clip
from rulecraft.rules.compose import plain
from rulecraft.rules.located import LStr, pos_of

DIRECTIONS = {"clockwise": 1, "counter-clockwise": -1, "counterclockwise": -1, "anticlockwise": -1}
VISIBILITIES = ("owner", "all", "nobody")
PER = ("none", "seat", "team")
DRAW_ATTRIBUTES = ("corner", "caption", "ink_by")  # display.draw keys that name a piece attribute
TYPE_NAMES = {"number": T.NUMBER, "seat": T.SEAT, "string": T.STRING, "bool": T.BOOL, "piece": T.PIECE,
              "list": T.LIST, "any": T.ANY}


def build_from_data(
    data: dict[str, Any],
    *,
    name: str,
    chosen: dict[str, str],
    content_hash: str,
    composed: Any = None,
    source_text: dict[str, str] | None = None,
    reuse: BuildReuse | None = None,
    builder: Builder | None = None,
) -> Ruleset:
    """``reuse``: what earlier builds of the same files worked out (``engine/reuse.py``), when validating;
    ``builder``: the one to collect problems with (a tool's, that keeps what it compiled)."""
    b = builder if builder is not None else Builder(source_text)
    root = Scope(name="constants")
    constants = dict(data.get("constants", {}) or {})
    for cname, value in constants.items():
        root.add_constant(str(cname), type_of_value(value), value=value, doc="a constant of the ruleset")

    pieces = _pieces(b, root, data.get("pieces", []), constants, reuse)
    # Every list an expression reads from the game (a zone, seats(), a variable) is taken to hold at
    # most this many items when the load-time check bounds an expression's steps (dsl/cost.py).
    root.list_bound = max(pieces.count, int((data.get("seats") or {}).get("count", 1)), 1)
    root.seat_count = int((data.get("seats") or {}).get("count", 1))
    add_piece_constants(root, pieces)
    reserved = set(constants)
    piece_attribute_functions(root, pieces, reserved)

    rs = Ruleset(
        name=name, title=str(data.get("title", name)), chosen=chosen, content_hash=content_hash,
        composed=composed, seats=_seats_placeholder(data), pieces=pieces, zones=(), zone_by_name={},
        variables=(), var_index={}, constants=constants, combinations={}, data=data,
    )
    # Moves are values made from the pieces' ids: builds that share the pieces share the book too.
    rs.moves = MoveBook(pieces.columns["id"]) if reuse is None else reuse.of("moves", pieces.columns["id"], MoveBook)
    _build_zones(b, rs, data.get("zones", []))
    _build_variables(b, rs, data.get("variables", {}) or {})
    rs.start_zone = str(data.get("start_zone", rs.zones[0].name if rs.zones else "deck"))
    if rs.zones and rs.start_zone not in rs.zone_by_name:
        b.ref(data.get("start_zone"), rs.zone_by_name, "zone")
    if "hand" not in rs.zone_by_name:
        b.error(data.get("zones", data), "every ruleset needs a per-seat zone called 'hand'")

    # User functions are macros: inlined where used, so they see the names of the place of use.
    for signature, body in (data.get("functions", {}) or {}).items():
        fname, params = _parse_signature(b, signature)
        if fname:
            root.add_user_function(fname, params=params, body=body, pos=pos_of(body))

    game = base_scope(rs, root)
    rs.scope = game
    _build_variable_owners(b, rs, data.get("variables", {}) or {}, game)
    rs.seats = _build_seats(b, rs, data.get("seats", {}) or {}, game)
    tscope = trick_scope(game)
    rs.trick_scope = tscope
    rs.combinations = _build_combos(b, rs, data.get("combinations", []) or [], tscope)

    hand = data.get("hand", {}) or {}
    phases: list[Phase] = []
    seen_ids: dict[str, SourcePos] = {}
    inputs = _phase_inputs(data, rs, root, reuse) if reuse is not None and reuse.phases else None
    for raw in hand.get("phases", []) or []:
        kind = raw.get("kind", "")
        if not b.ref(kind, PHASE_KINDS, "phase kind"):
            continue
        pid = str(raw.get("id", kind))
        if pid in seen_ids:
            b.error(raw.get("id", raw), f"duplicate phase id '{pid}' (first at line {seen_ids[pid].line})")
        seen_ids[pid] = pos_of(raw)
        try:
            with b.within(raw):
                phase = _build_phase(b, rs, raw, kind, game, reuse, inputs)
        except (KeyError, TypeError, ValueError) as exc:
            b.error(raw, f"phase '{pid}' ({kind}): {_describe(exc)}")
            continue
        if "when" in raw:
            phase.when = b.expr(raw["when"], game, T.BOOL, f"phase '{pid}' when")
        if "repeat" in raw:
            repeat = _repeat(b, raw["repeat"], pid, game, [str(p.id) for p in phases])
            if repeat is not None:
                rs.repeats[len(phases)] = repeat
        phases.append(phase)
    rs.phases = tuple(phases)
    rs.verbs = _phase_verbs(b, phases)
    # Recording which restriction barred a winning play costs a rating per refused play; do it only
    # when some rule asks (barred('...')).
    asks_barred = _mentions(data, "barred(", reuse)
    for phase in phases:
        if isinstance(phase, Tricks):
            phase.track_barred = asks_barred
    if not phases:
        b.error(data.get("hand", data), "a hand needs at least one phase")
    rs.on_void = compile_effects(b, rs, hand.get("on_void", ()), game, "hand on_void")

    match = data.get("match", {}) or {}
    seat_scope = bound_scope(game, ["seat"], "match score")
    rs.match = MatchSpec(
        start=compile_effects(b, rs, match.get("start", ()), game, "match start"),
        after_hand=compile_effects(b, rs, match.get("after_hand", ()), game, "match after_hand"),
        end_when=b.expr(match.get("end_when", "true"), game, T.BOOL, "match end_when"),
        max_hands=max_hands_of(data),
        score=b.expr(match.get("score", "0"), seat_scope, T.NUMBER, "match score"),
    )
    disp = data.get("display", {}) or {}
    rs.display = DisplaySpec(
        group_by=str(disp["group_by"]) if disp.get("group_by") else None,
        sort_by=tuple(str(x) for x in disp.get("sort_by", ())),
        piece_label=str(disp.get("label", "id")),
        names=_build_names(b, rs, data, disp, reuse),
        draw=plain(disp.get("draw") or {}),
        show=_build_show(b, rs, disp.get("show") or {}),
    )
    draw = disp.get("draw") or {}
    for a in (disp.get("group_by"), *disp.get("sort_by", ()), *(draw.get(k) for k in DRAW_ATTRIBUTES)):
        if a and a not in pieces.columns:  # the located names, for the error's position
            b.ref(a, pieces.columns, "piece attribute")
    for key in ("labels", "half_red"):
        for pid in draw.get(key) or ():
            if pid not in pieces.by_type_id:
                b.ref(pid, pieces.by_type_id, "piece")
    _check_rule_functions(b, root, tscope)
    b.raise_if_errors()
    return rs


def _repeat(b: Builder, raw: Any, pid: str, game: Scope, before: list[str]) -> Repeat | None:
    """A phase's ``repeat``: ``until`` (when the repeat ends, asked each time this phase is left) and
    ``from`` (the first phase of the repeated group: this one, or one before it)."""
    if not isinstance(raw, dict) or "until" not in raw:
        b.error(raw, f"phase '{pid}' repeat: give 'until' (a condition asked each time the phase ends) and "
                     "optionally 'from' (the first phase repeated)")
        return None
    until = b.expr(raw["until"], game, T.BOOL, f"phase '{pid}' repeat until")
    start = str(raw.get("from", pid))
    if start == pid:
        return Repeat(until, len(before))
    if start not in before:
        b.error(raw["from"], f"phase '{pid}' repeats from '{clip(start)}', which is not a phase before it"
                             + (f" (phases before it: {', '.join(before)})" if before else ""))
        return None
    return Repeat(until, before.index(start))


def _phase_verbs(b: Builder, phases: list[Phase]) -> dict[str, bool]:
    """The move verbs the phases name beyond the engine's own, each with whether it takes a value; one word
    with two shapes in one ruleset is refused at the later phase (a typed move would mean two things)."""
    out: dict[str, bool] = {}
    for phase in phases:
        for verb, takes_value in phase.verbs().items():
            if verb in ALL_VERBS:  # (its shape was checked where the phase names it)
                continue
            problem = verb_problem(verb, takes_value, out)
            if problem:
                b.error(phase.pos, f"phase '{phase.id}': {problem}")
            else:
                out[verb] = takes_value
    return out


def _check_rule_functions(b: Builder, root: Scope, widest: Scope) -> None:
    """What any place of use would find wrong in a rule function, said of every function, used or not
    (``dsl/function_check.py``); a function a rule uses has had its problems said where it is used."""
    reported = {d.message.split(":", 1)[0] for d in b.diags if d.message.startswith("in function '")}
    unreported = [f for f in root.own_bindings()
                  if isinstance(f, MacroBinding) and f"in function '{f.name}'" not in reported]
    if unreported:
        b.diags.extend(rule_function_problems(unreported, widest, b.source_text))


# Top-level sections no phase's build reads: constants and rule functions are read only through the
# scopes, by name (see _build_phase); the rest are built after the phases or not at all.
_NOT_READ_BY_PHASES = frozenset({"constants", "functions", "hand", "match", "display", "options", "presets"})


def _phase_inputs(data: dict[str, Any], rs: Ruleset, root: Scope, reuse: BuildReuse) -> tuple[Any, ...]:
    """What every phase's build may read besides its own data and the names it writes: the sections
    the equipment is built from (each the same object in builds that share it, or the first of the
    same located data), the pieces as built (their derived attributes read constants), and every name
    the engine declares in the game and trick-round scopes, described."""
    assert rs.trick_scope is not None and rs.scope is not None
    keys = tuple(sorted(str(k) for k in data if k not in _NOT_READ_BY_PHASES))
    sections = tuple(reuse.same(k, data[k]) for k in keys)
    answers = ScopeAnswers(rs.scope, reuse.tokens)
    return (keys, answers.token(engine_names(rs.trick_scope, root))), (rs.pieces, *sections), answers


def _build_phase(b: Builder, rs: Ruleset, raw: dict[str, Any], kind: str, game: Scope, reuse: BuildReuse | None,
                 inputs: tuple[Any, ...] | None) -> Any:
    """The phase ``raw`` describes; with ``inputs`` (a validation that plays no game), the one an
    earlier build made from the same phase data and equipment, when every name the phase could
    reach (the words of its data and of the rule functions they name) is answered the same: an
    option that changes a constant or a rule function the phase names has it built again."""
    if inputs is None or reuse is None:
        return PHASE_KINDS[kind].build(b, rs, raw, game)
    shared, objects, answers = inputs
    objects = (raw, *objects)

    def extra() -> Any:
        reached = answers.reachable(reuse.of("words", raw, words))
        chosen = tuple(sorted(rs.chosen.items())) if "option" in reached else ()  # option('x') reads the choice
        return shared, answers.of(reached), chosen

    # Whether the names are answered the same is asked only of a phase built before from the same objects
    # (and worked out once: a phase built anew is kept under the same answers).
    asked = extra() if reuse.known("phase", objects) else None
    found = reuse.get("phase", objects, asked) if asked is not None else None
    if found is not None:
        return found
    before = len(b.diags)
    phase = PHASE_KINDS[kind].build(b, rs, raw, game)
    if len(b.diags) == before:  # only what was built without a problem: a problem is found again
        reuse.put("phase", objects, asked if asked is not None else extra(), phase)
    return phase


def _pieces(b: Builder, root: Scope, raw: Any, constants: dict[str, Any], reuse: BuildReuse | None) -> PieceTable:
    """The piece table, checked; the one an earlier build made, when the pieces section is the same
    object and so is every constant its derived attributes could read (the only names they see)."""
    used: tuple[str, ...] = ()
    objects: tuple[Any, ...] = ()
    if reuse is not None:
        used = tuple(sorted(n for n in reuse.of("derive names", raw, _derive_names) if n in constants))
        objects = (raw, *(constants[n] for n in used))
        found = reuse.get("pieces", objects, used)
        if found is not None:
            return cast(PieceTable, found)
    before = len(b.diags)
    deriver = _deriver(b, root)
    pieces = build_piece_table(raw, deriver, pos_of, b.diags)
    if deriver.failures:
        # Pieces were made with attributes that could not be computed (ids like 'cNone' repeat): say
        # only why, and build nothing on them.
        b.diags[before:] = deriver.failures
        b.raise_if_errors()
    if "id" not in pieces.columns:  # the table could not be finished (an id template it cannot fill)
        b.raise_if_errors()
    _check_attribute_kinds(b, pieces)
    if reuse is not None and len(b.diags) == before:
        reuse.put("pieces", objects, used, pieces)
    return pieces


def _derive_names(raw: Any) -> frozenset[str]:
    """Every word written in the derived attributes of a pieces section (a superset of the names they read)."""
    words: set[str] = set()
    for entry in raw if isinstance(raw, list) else ():
        derive = entry.get("derive") if isinstance(entry, dict) else None
        for expr in derive.values() if isinstance(derive, dict) else ():
            words.update(re.findall(r"[A-Za-z_][A-Za-z_0-9]*", str(expr)))
        if isinstance(entry, dict) and "where" in entry:  # a generator's condition reads constants too
            words.update(re.findall(r"[A-Za-z_][A-Za-z_0-9]*", str(entry["where"])))
    return frozenset(words)


def _mentions(value: Any, text: str, reuse: BuildReuse | None = None) -> bool:
    if isinstance(value, str):
        return text in value
    if reuse is not None and isinstance(value, (dict, list)):  # a section shared with an earlier build: once
        return bool(reuse.of(f"mentions {text}", value, lambda v: _mentions_in(v, text, reuse)))
    return _mentions_in(value, text, reuse)


def _mentions_in(value: Any, text: str, reuse: BuildReuse | None) -> bool:
    if isinstance(value, dict):
        return any(_mentions(k, text, reuse) or _mentions(v, text, reuse) for k, v in value.items())
    if isinstance(value, list):
        return any(_mentions(v, text, reuse) for v in value)
    return False


def _describe(exc: Exception) -> str:
    if isinstance(exc, KeyError):
        return f"missing key {exc}"
    return str(exc)




def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, (int, float)):
        return "a number"
    return "a string" if isinstance(value, str) else "a list or mapping"


def _check_attribute_kinds(b: Builder, pieces: PieceTable) -> None:
    """An attribute is one kind of value on every piece that has it (a number, a string, true or false).

    Expressions are checked against the kind (``rank(p) > 3`` needs a number), so a column mixing
    kinds would let through a comparison that fails in the middle of a game.
    """
    for name in pieces.attr_names:
        first: dict[str, int] = {}
        for t, ptype in enumerate(pieces.types):
            value = ptype.attrs.get(name)
            if value is not None:
                first.setdefault(_kind(value), t)
        if len(first) > 1:
            (kind_a, a), (kind_b, t) = sorted(first.items(), key=lambda kv: kv[1])[:2]
            other = pieces.types[t]
            b.error(other.pos, f"attribute '{clip(name)}' is {kind_a} on piece '{clip(pieces.types[a].id)}' "
                               f"({clip(json.dumps(plain(pieces.types[a].attrs[name]), ensure_ascii=False))}) but "
                               f"{kind_b} on piece '{clip(other.id)}' "
                               f"({clip(json.dumps(plain(other.attrs[name]), ensure_ascii=False))}): each attribute "
                               "is one kind of value")


class _Deriver:
    """Computes derived piece attributes at load time; each failure is kept once per expression."""

    def __init__(self, b: Builder, root: Scope) -> None:
        self.b = b
        self.root = root
        self.cache: dict[tuple[str, tuple[str, ...]], Any] = {}
        self.failures: list[Diagnostic] = []
        self.failed: set[int] = set()

    def __call__(self, expr: Any, names: dict[str, Any], pos: SourcePos) -> Any:
        key = (str(expr), tuple(sorted(names)))
        compiled = self.cache.get(key)
        if compiled is None:
            scope = bound_scope(self.root, sorted(names), "derived attribute")
            compiled = self.b.expr(expr, scope, None, "derived attribute")
            self.cache[key] = compiled
        ctx = Ctx(None)
        ctx.bind = {k: plain(v) for k, v in names.items()}
        try:
            return compiled(ctx)
        except ExpressionRuntimeError as exc:
            if id(expr) not in self.failed:  # one message per expression, not one per generated piece
                self.failed.add(id(expr))
                shown = ", ".join(f"{k}={json.dumps(plain(v), ensure_ascii=False)}" for k, v in names.items())
                self.failures.append(Diagnostic(pos, f"cannot compute this attribute for the piece with {clip(shown)}: "
                                                     f"{exc.reason}"))
            return None


def _deriver(b: Builder, root: Scope) -> _Deriver:
    return _Deriver(b, root)


def _parse_signature(b: Builder, signature: Any) -> tuple[str, list[str]]:
    text = str(signature).strip()
    if "(" not in text or not text.endswith(")"):
        b.error(signature, f"a function is written 'name(param, ...)', or 'name()' without parameters, not '{text}'")
        return "", []
    fname, rest = text.split("(", 1)
    params = [p.strip() for p in rest[:-1].split(",") if p.strip()]
    if not fname.strip().isidentifier() or not all(p.isidentifier() for p in params):
        b.error(signature, f"a function is written 'name(param, ...)' with plain names, not '{text}'")
        return "", []
    return fname.strip(), params


def _seats_placeholder(data: dict[str, Any]) -> SeatsSpec:
    n = int((data.get("seats") or {}).get("count", 1))
    return SeatsSpec(n, 1, tuple((s,) for s in range(n)), tuple(range(n)), None)


def _build_seats(b: Builder, rs: Ruleset, raw: dict[str, Any], game: Scope) -> SeatsSpec:
    n = int(raw.get("count", 0))
    if n < 1:
        b.error(raw.get("count", raw), "seats.count must be at least 1")
        n = max(n, 1)
    direction = str(raw.get("direction", "clockwise"))
    if direction not in DIRECTIONS:
        b.error(raw.get("direction"), f"direction is clockwise or counter-clockwise, not '{direction}'")
    teams_raw = raw.get("teams")
    if teams_raw:
        teams = tuple(tuple(int(s) for s in t) for t in teams_raw)
        flat = sorted(s for t in teams for s in t)
        if flat != list(range(n)):
            b.error(teams_raw, f"teams must list every seat 0..{n - 1} exactly once")
            teams = tuple((s,) for s in range(n))
    else:
        teams = tuple((s,) for s in range(n))
    team_of = [0] * n
    for ti, t in enumerate(teams):
        for s in t:
            if 0 <= s < n:
                team_of[s] = ti
    sits_out = None
    if "sits_out" in raw:
        sits_out = b.expr(raw["sits_out"], bound_scope(game, ["seat"], "sits_out"), T.BOOL, "seats.sits_out")
    decided_by = None
    if "decided_by" in raw:
        decided_by = b.expr(raw["decided_by"], bound_scope(game, ["seat"], "decided_by"), T.NUMBER,
                            "seats.decided_by")
    return SeatsSpec(n, DIRECTIONS.get(direction, 1), teams, tuple(team_of), sits_out, decided_by)


def _build_zones(b: Builder, rs: Ruleset, raw: list[dict[str, Any]]) -> None:
    n_seats = int((rs.data.get("seats") or {}).get("count", 1))
    teams_raw = (rs.data.get("seats") or {}).get("teams")
    n_teams = len(teams_raw) if teams_raw else n_seats
    zones = []
    base = 0
    for z in raw:
        zid = str(z.get("id"))
        if zid in rs.zone_by_name:
            b.error(z.get("id"), f"duplicate zone id '{zid}'")
            continue
        per = str(z.get("per", "none"))
        vis = str(z.get("visibility", "nobody"))
        if per not in PER:
            b.error(z.get("per"), f"per is one of {', '.join(PER)}, not '{per}'")
            per = "none"
        if vis not in VISIBILITIES:
            b.error(z.get("visibility"), f"visibility is one of {', '.join(VISIBILITIES)}, not '{vis}'")
        count = {"none": 1, "seat": n_seats, "team": n_teams}[per]
        grid = tuple(int(x) for x in (z["grid"]["columns"], z["grid"]["tiers"])) if "grid" in z else None
        spec = ZoneSpec(zid, per, vis, base, count, grid, str(z.get("description", "")), pos_of(z))  # type: ignore[arg-type]
        base += count
        zones.append(spec)
        rs.zone_by_name[zid] = spec
    rs.zones = tuple(zones)
    rs.zone_of_instance = tuple(z for z in zones for _ in range(z.instances))
    rs.public_instance = tuple(z.visibility == "all" for z in rs.zone_of_instance)
    rs.hand_base = rs.zone_by_name["hand"].base if "hand" in rs.zone_by_name else 0


def _build_variables(b: Builder, rs: Ruleset, raw: dict[str, Any]) -> None:
    out = []
    for vname, spec in raw.items():
        spec = spec or {}
        scope = str(spec.get("scope", "hand"))
        if scope not in ("match", "hand"):
            b.error(spec.get("scope"), f"a variable's scope is match or hand, not '{scope}'")
        per = str(spec.get("per", "none"))
        if per not in PER:
            b.error(spec.get("per"), f"per is one of {', '.join(PER)}, not '{per}'")
            per = "none"
        initial = spec.get("initial")
        tname = str(spec.get("type", "")) or None
        if tname is not None and tname not in TYPE_NAMES:
            b.error(spec.get("type"), f"unknown type '{tname}'; types are {', '.join(TYPE_NAMES)}")
        etype = T.LIST if per != "none" else (TYPE_NAMES.get(tname or "", type_of_value(initial))
                                               if initial is not None or tname else T.ANY)
        vis = str(spec.get("visibility", "all"))
        if vis not in VISIBILITIES:
            b.error(spec.get("visibility"), f"visibility is one of {', '.join(VISIBILITIES)}, not '{vis}'")
            vis = "all"
        if spec.get("owner") is not None and (vis != "owner" or per != "none"):
            b.error(spec.get("owner"), "'owner' names the seat that may see a single value with visibility: owner; "
                                       "a per-seat or per-team variable's entries belong to their seat or team")
        elif vis == "owner" and per == "none" and spec.get("owner") is None:
            b.error(spec.get("visibility", spec), f"variable '{vname}' holds one value: say which seat may see it "
                                                  "with owner: (an expression giving a seat, e.g. declarer)")
        vtype = etype if per == "none" else (
            TYPE_NAMES.get(tname or "", T.ANY) if tname else _entry_type(initial))
        out.append(VarSpec(str(vname), scope, per, initial, etype, str(spec.get("description", "")),
                           pos_of(spec), vis, value_type=vtype))
    rs.variables = tuple(out)
    rs.var_index = {v.name: i for i, v in enumerate(out)}


def _entry_type(initial: Any) -> T:
    """The type of a per-seat or per-team variable's entries, from its initial value (one value for
    every entry, or a list of them), when they all agree."""
    values = initial if isinstance(initial, list) else [initial]
    types = {type_of_value(v) for v in values if v is not None}
    return types.pop() if len(types) == 1 else T.ANY


def _build_variable_owners(b: Builder, rs: Ruleset, raw: dict[str, Any], game: Scope) -> None:
    """Compile each single-valued owner-visible variable's ``owner`` (it may read other variables)."""
    specs = list(rs.variables)
    for i, v in enumerate(specs):
        owner = (raw.get(v.name) or {}).get("owner")
        if v.visibility == "owner" and v.per == "none" and owner is not None:
            specs[i] = dataclasses.replace(v, owner=b.expr(owner, game, T.SEAT, f"variable '{v.name}' owner"))
    rs.variables = tuple(specs)


def _build_combos(b: Builder, rs: Ruleset, raw: list[dict[str, Any]], tscope: Scope) -> dict[str, ComboSpec]:
    out: dict[str, ComboSpec] = {}
    pieces: PieceTable = rs.pieces
    pscope = piece_scope(tscope.parent or tscope)
    for c in raw:
        cid = str(c.get("id"))
        kind = str(c.get("kind", "single"))
        if kind not in KINDS:
            b.ref(c.get("kind"), list(KINDS), "combination kind")
            continue
        if cid in out:
            b.error(c.get("id"), f"duplicate combination id '{cid}'")
        for attr in ("by", "within"):
            if c.get(attr) is not None and str(c[attr]) not in pieces.columns:
                b.ref(c[attr], pieces.columns, "piece attribute")
        fixed: list[int] = []
        for pid in c.get("pieces", ()) if kind == "fixed" else ():
            if b.ref(pid, pieces.by_type_id, "piece"):
                fixed.append(pieces.by_type_id[str(pid)])
        entries = []
        for i, e in enumerate(c.get("entries", ()) if kind == "table" else ()):
            pattern = []
            for item in e.get("pieces", ()):
                alts = item if isinstance(item, list) else [item]
                ok = [pieces.by_type_id[str(a)] for a in alts if b.ref(a, pieces.by_type_id, "piece")]
                pattern.append(tuple(ok))
            entries.append(TableEntry(str(e.get("id", f"{cid}-{i + 1}")), tuple(pattern), e.get("class", cid),
                                      float(e.get("strength", 0))))
        what = f"combination '{cid}'"
        sizes = tuple(int(s) for s in c.get("sizes", [c.get("size", 1)]))
        if kind == "table":  # a table's sizes are its entries' lengths
            sizes = tuple(sorted({len(e.pattern) for e in entries}))
        elif kind == "fixed":
            sizes = (len(fixed),)
        shape = tuple(int(n) for n in c.get("shape", ())) if kind == "groups" else ()
        if kind == "groups":
            if not shape or any(n < 1 for n in shape) or c.get("by") is None:
                b.error(c, f"combination '{cid}' of kind groups needs 'by' and a 'shape' of group sizes, e.g. [3, 2]")
            sizes = (sum(shape),)
        chain, order, wild = _chain_of(b, c, kind, sizes, pscope, what)
        out[cid] = ComboSpec(
            id=cid, kind=kind, sizes=sizes, by=str(c["by"]) if c.get("by") else None,
            within=str(c["within"]) if c.get("within") else None,
            min_len=int(c.get("min", 3)), max_len=int(c.get("max", 99)), fixed=tuple(fixed),
            entries=tuple(entries),
            cls=b.expr(c["class"], tscope, None, what) if "class" in c else None,
            strength=b.expr(c["strength"], tscope, T.NUMBER, what) if "strength" in c else None,
            value=b.expr(c["value"], tscope, T.NUMBER, what) if "value" in c else None,
            ends_play=bool(c.get("ends_play", False)), description=str(c.get("description", "")),
            pos=pos_of(c),
            singles=tuple(Play(cid, (p,), True, move=rs.moves.get("play", (p,))) for p in range(pieces.count))
            if kind == "single" else (),
            shape=shape, chain=chain, order=order, wild=wild,
            where=b.expr(c["where"], tscope, T.BOOL, f"{what} where") if "where" in c else None,
            beats=b.expr(c["beats"], tscope, T.BOOL, f"{what} beats") if "beats" in c else None,
        )
    return out


def _chain_of(b: Builder, c: dict[str, Any], kind: str, sizes: tuple[int, ...], pscope: Scope,
              what: str) -> tuple[Shape | None, CompiledExpr | None, CompiledExpr | None]:
    """The general reading of a ``same`` or ``run`` (``combo_chains``), when it asks for one: runs of
    n-of-a-kind groups (``each``), an order by expression, kickers, wild pieces; with the compiled
    ``order`` and ``wild``."""
    general = ("each", "order", "kickers", "wild")
    asked = [k for k in general if k in c]
    if not asked:
        return None, None, None
    if kind not in ("same", "run"):
        b.error(c.get(asked[0]), f"{what}: '{asked[0]}' is read only by combinations of kind same or run")
        return None, None, None
    if kind == "same" and "each" in c:
        b.error(c["each"], f"{what}: 'each' (pieces of every value) is for a run; a same's sizes say it")
    if c.get("by") is None and "order" not in c:
        b.error(c, f"{what} needs 'by' (an attribute) or 'order' (an expression of piece) for its values")
    order = b.expr(c["order"], pscope, None, f"{what} order") if "order" in c else None
    wild = b.expr(c["wild"], pscope, T.BOOL, f"{what} wild") if "wild" in c else None
    kickers = None
    raw = c.get("kickers")
    if raw is not None:
        by = raw.get("by", c.get("by"))
        if by is None:
            b.error(raw, f"{what}: kickers need 'by', the attribute their groups share (the combination's "
                         "order is an expression)")
        kickers = Kickers(int(raw.get("size", 1)), int(raw.get("count", 0)), int(raw.get("per_value", 0)),
                          bool(raw.get("distinct", True)), str(by or ""))
        if kickers.count + kickers.per_value == 0:
            b.error(raw, f"{what}: kickers need 'count' (groups) or 'per_value' (groups for each value)")
    if kind == "same":
        shape = Shape(sizes, (1,), False, kickers)
    else:
        lo, hi = int(c.get("min", 3)), int(c.get("max", 99))
        shape = Shape((int(c.get("each", 1)),), tuple(range(lo, hi + 1)), True, kickers)
    return shape, order, wild



# ---------------------------------------------------------------------- display: languages and names
NamesByLang = dict[str, tuple[str, ...]]
NAMED = {"pieces": "piece", "phases": "phase", "variables": "variable", "options": "option",
         "rules": "rule id", "calls": "call", "verbs": "move verb"}


def _build_names(b: Builder, rs: Ruleset, data: dict[str, Any], disp: dict[str, Any],
                 reuse: BuildReuse | None = None) -> NameTable:
    """The ruleset's languages and names, every key checked against what the rules declare.

    A name may also be given for something only an option choice adds (a piece of ``ones: kept``):
    ids written in any choice's patch count as known, so one display section can name them all.
    """
    declared = disp.get("languages") or {}
    default = str(disp.get("default_language") or (next(iter(declared)) if declared else "en"))
    languages = {str(k): str(v) for k, v in declared.items()} or {default: default}
    if declared and default not in languages:
        b.ref(disp.get("default_language"), languages, "language")
    known = _nameable(rs, data, reuse)
    removed: frozenset[str] = getattr(rs.composed, "removed_ids", frozenset())
    patch_ids = _patch_ids(data) if reuse is None else reuse.of("patch ids", data.get("options"),
                                                                lambda _: _patch_ids(data))
    terms: dict[str, dict[str, NamesByLang]] = {c: {} for c in NAME_CATEGORIES}
    for entry in data.get("pieces", []) or []:  # a piece entry's own `names`, already filled per piece
        _check_languages(b, entry.get("names"), languages)
    for t in rs.pieces.types:
        if t.names:
            terms["pieces"][t.id] = dict(t.names)
    table = disp.get("names") or {}
    for category in NAME_CATEGORIES:
        for key, per_lang in (table.get(category) or {}).items():
            if key in known[category]:
                terms[category].setdefault(str(key), {}).update(_names_of(b, per_lang, languages))
            elif _declared_by_patch(key, patch_ids) or key in removed:  # added by a choice, or deleted
                _check_languages(b, per_lang, languages)
            else:
                _unknown(b, table[category], key, sorted(known[category]), NAMED[category])
    values: dict[str, dict[str, NamesByLang]] = {}
    for attr, by_value in (table.get("values") or {}).items():
        if attr not in rs.pieces.attr_names:
            _unknown(b, table["values"], attr, rs.pieces.attr_names, "piece attribute")
            continue
        present = {str(v) for v in rs.pieces.columns[attr] if v is not None}
        for value, per_lang in (by_value or {}).items():
            if str(value) not in present:
                if _declared_by_patch(value, patch_ids):
                    _check_languages(b, per_lang, languages)
                else:
                    _unknown(b, by_value, value, sorted(present), f"{attr} value")
                continue
            values.setdefault(str(attr), {}).setdefault(str(value), {}).update(_names_of(b, per_lang, languages))
    return make_name_table(languages, default, {c: t for c, t in terms.items() if t}, values)


SHOW_PLACES = ("seat", "centre", "details", "hidden")


def _build_show(b: Builder, rs: Ruleset, show: dict[str, Any]) -> dict[str, str]:
    """``display.show``: each listed variable's place on a table, each name checked against the variables."""
    out: dict[str, str] = {}
    for place in SHOW_PLACES:
        for name in show.get(place) or ():
            if name in rs.var_index:
                out[str(name)] = place
            elif name not in getattr(rs.composed, "removed_ids", frozenset()):  # (an overlay deleted it)
                b.ref(name, rs.var_index, "variable")
    return out


def _names_of(b: Builder, per_lang: Any, languages: dict[str, str]) -> NamesByLang:
    _check_languages(b, per_lang, languages)
    return {str(lang): name_list(v) for lang, v in (per_lang or {}).items() if lang in languages}


def _check_languages(b: Builder, per_lang: Any, languages: dict[str, str]) -> None:
    for lang in per_lang or {}:
        if lang not in languages:
            _unknown(b, per_lang, lang, list(languages), "language",
                     " (declare it in display.languages)")


def _unknown(b: Builder, mapping: Any, key: Any, known: Any, kind: str, extra: str = "") -> None:
    """An unknown key of a names table, reported at the key with a did-you-mean."""
    where = getattr(mapping, "key_pos", {}).get(key, pos_of(mapping))
    before = len(b.diags)
    b.ref(LStr(str(key), where), list(known), kind)
    if extra and len(b.diags) > before:
        d = b.diags[-1]
        b.diags[-1] = dataclasses.replace(d, message=d.message + extra)


def _item_ids(value: Any, reuse: BuildReuse | None = None) -> set[str]:
    """Every ``id`` of an item anywhere under ``value`` (restrictions, effects, multipliers, entries ...)."""
    if reuse is not None and isinstance(value, (dict, list)):  # a section shared with an earlier build: once
        return set(reuse.of("item ids", value, lambda v: frozenset(_item_ids_in(v, reuse))))
    return _item_ids_in(value, reuse)


def _item_ids_in(value: Any, reuse: BuildReuse | None) -> set[str]:
    out: set[str] = set()
    if isinstance(value, dict):
        if isinstance(value.get("id"), str):
            out.add(str(value["id"]))
        for v in value.values():
            out |= _item_ids(v, reuse)
    elif isinstance(value, list):
        for v in value:
            out |= _item_ids(v, reuse)
    return out


def _strings(value: Any) -> set[str]:
    if isinstance(value, str):
        return {str(value)}
    if isinstance(value, list):
        return {s for v in value for s in _strings(v)}
    return set()


def _nameable(rs: Ruleset, data: dict[str, Any], reuse: BuildReuse | None = None) -> dict[str, set[str]]:
    """What each names category may name: the ids (and call words) the rules declare."""
    phases = (data.get("hand") or {}).get("phases", []) or []
    calls: set[str] = set()
    for const in (data.get("constants") or {}).values():  # choose phases offer values held in constants
        calls |= _strings(const)
    for ph in phases:
        calls |= {str(c) for c in ph.get("calls", []) or []}
        calls |= {str(c.get("id")) for c in ph.get("extra_calls", []) or []}
        if ph.get("kind") == "choose":  # ... or written in the expression itself
            calls |= {a or q for a, q in re.findall(r"'([^']*)'|\"([^\"]*)\"", str(ph.get("from", "")))}
        choice = ph.get("choose") if isinstance(ph.get("choose"), dict) else {}
        # A number chosen from a range (a bid) may be named too; from 0, so that one display section
        # names the values of every option's range (one choice may leave out the 0 another offers).
        for n in re.findall(r"\brange\((?:\d+\s*,\s*)?(\d+)\)", str(choice.get("from", ""))):
            calls |= {str(i) for i in range(min(int(n), 1000))}
    return {
        "pieces": set(rs.pieces.by_type_id),
        "phases": {str(ph.get("id", ph.get("kind"))) for ph in phases},
        "variables": set(rs.var_index),
        "options": {str(o.get("id")) for o in data.get("options", []) or []},
        "rules": set().union(*(_item_ids(data.get(k), reuse) for k in ("combinations", "hand", "match"))),
        "calls": calls,
        "verbs": set(ALL_VERBS) | set(rs.verbs),
    }


def _patch_ids(data: dict[str, Any]) -> list[re.Pattern[str]]:
    """The item ids written in option choices' patches, as patterns (a generated id is a template)."""
    ids: set[str] = set()
    for option in data.get("options", []) or []:
        for choice in option.get("choices", []) or []:
            ids |= _item_ids(choice.get("patch"))
    return [re.compile("".join(".+" if part.startswith("{") else re.escape(part)
                               for part in re.split(r"(\{[^}]*\})", i) if part) + "$") for i in sorted(ids)]


def _declared_by_patch(key: Any, patch_ids: list[re.Pattern[str]]) -> bool:
    return any(p.match(str(key)) for p in patch_ids)
