"""A trick phase's decision and play as generated Python functions, for phases of combinations.

``trick_code.py`` generates the decision and the play of the common single-piece phase. This does
the same for the other shapes the trick kind offers: combinations of several pieces (sets, runs,
table entries), identical copies, ``beating`` follows, face-down plays (``when_cannot_beat``,
``always``) and restrictions whose refusals are asked about with ``barred()``. At first use two
functions are generated from the rule file:

- the decision: the seat's plays (the combinations' enumeration, the lead's size only for a
  follow), the beating test against the round's best play (class, then strength, each kept on the
  play or worked out), every restriction of the lead or the follow as one pass over the candidates
  (``trick_code._rules``: reads not about the candidate done once), the restrictions that barred a
  beating play, the face-down plays, then the moves and their plays (``Options``);
- the play: the pieces to the trick zone (face up, rated; or face down), the best play so far, the
  next seat, and after the round's last play the round's end: the capture (to one zone, or the
  winner's own pieces to another), its record, the ``on_round`` effects and the next lead.

Each does what the generic path of ``Tricks`` does, step for step (a test plays seeded games of every
ruleset it accepts with both paths and compares every decision and every state after a play). What
it does not cover keeps the generic path: a phase whose ``barred()`` must be judged for ``face_up:
any`` follows, a rule-coverage observer, and at play time a stop, a revoke or a round with a revoke.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from rulecraft.dsl.itemloop import ITEM
from rulecraft.engine.combos import NOT_KNOWN, enumerate_all, may_have, single_plays
from rulecraft.engine.effects import runner
from rulecraft.engine.phases.trick_code import ApplyFn, GeneratedTricks, LegalFn, _rules, _Source, fits
from rulecraft.engine.phases.tricks import NO_DOWNS, Options, Restriction, Tricks, WithFaceDown

if TYPE_CHECKING:
    from rulecraft.engine.board import Board
    from rulecraft.engine.moves import Move


class GeneratedComboTricks(GeneratedTricks):
    """The trick phase kind: generated single-piece code (``trick_code``) when its shape fits, else
    generated combination code when that fits, else the generic path."""

    def __init__(self, pid: str, pos: Any) -> None:
        super().__init__(pid, pos)
        self.combo_generated: bool | None = None  # whether this module's functions decide and play

    def legal(self, st: Board) -> list[Move]:
        if self.combo_generated is None:
            self.combo_generated = (self._generated is None and self.observer is None and not fits(self, st)
                                    and combo_fits(self))
            if self.combo_generated:
                self._generated = False  # (the single-piece generator's verdict: not its shape)
                self.decide = generate_decision(self, st)
                self.play = generate_play(self, st)
                return self.decide(st)
        return super().legal(st)


def combo_fits(phase: Tricks) -> bool:
    """Whether the generated combination code covers the phase: ``barred()`` is judged only for
    ``beating`` follows (where every candidate beats the best play, so no strength is asked)."""
    return not phase.track_barred or phase.face_up == "beating"


def generate_decision(phase: Tricks, st: Board) -> LegalFn:
    """``legal(st)``: the moves of the seat to act (``st.pdata.options`` set), as ``phase.legal`` gives them."""
    rs = st.rs
    beating = phase.face_up == "beating"
    sized: dict[int, tuple[Any, ...]] = {}

    def of_size(k: int) -> tuple[Any, ...]:
        """(combinations with plays of k pieces, the single combination when it is the only one)."""
        combos = tuple(c for c in phase.combos if may_have(c, k))
        found = sized[k] = (combos, combos[0] if len(combos) == 1 and combos[0].kind == "single" else None)
        return found

    out = _Source({"_hb": rs.hand_base, "_pieces": rs.pieces, "_combos": phase.combos, "_Options": Options,
                   "_WithFaceDown": WithFaceDown, "_none": frozenset(), "_frozenset": frozenset,
                   "_set": set, "_NO_DOWNS": NO_DOWNS, "_NK": NOT_KNOWN, "_enumerate_all": enumerate_all,
                   "_single_plays": single_plays, "_sized": sized, "_of_size": of_size,
                   "_cls_of": phase._cls_of, "_strength_of": phase._strength_of, "_downs": phase._downs,
                   "_face_down": phase._face_down, "_move_of": phase._move_of, "_book": rs.moves,
                   "_stop_when": phase.stop_when, "_generic": phase._options,
                   "_STOP": rs.moves.get("stop") if phase.stop_when else None})
    lead = _restrictions(phase.lead_rules, "l", out, False)
    follow = _restrictions(phase.follow_rules, "f", out, phase.track_barred)
    if phase.face_down == "always":
        downs = ["down = _downs(st, hand, k)"]
    elif phase.face_down == "when_cannot_beat":
        downs = ["down = _NO_DOWNS if cands else _downs(st, hand, k)"] if beating else [
            # (as the generic path: every candidate rated, then whether one beats the best play)
            "best = d.best",
            "can_beat = False",
            f"for {ITEM} in cands:",
            *("    " + line for line in _RATE),
            "    if best < 0 or (cls == d.classes[best] and strength > d.strengths[best]):",
            "        can_beat = True",
            "down = _NO_DOWNS if can_beat else _downs(st, hand, k)"]
    else:
        downs = ["down = _NO_DOWNS"]
    beat = [
        "best = d.best",
        "if best >= 0:",
        "    bc = d.classes[best]",
        "    bs = d.strengths[best]",
        "    pool = []",
        f"    for {ITEM} in cands:",
        f"        cls = {ITEM}.known_cls",
        "        if cls is _NK:",
        f"            cls = _cls_of(ctx, {ITEM})",
        "        if cls != bc:",
        "            continue  # (a strength is asked only of a play in the best play's class)",
        f"        strength = {ITEM}.known_strength",
        "        if strength is _NK:",
        f"            strength = _strength_of(ctx, {ITEM})",
        "        if strength > bs:",
        f"            pool.append({ITEM})",
        "    cands = pool",
    ] if beating else []
    body = [
        "seat = st.to_act",
        "ctx.seat = seat",
        "hand = st.zones[_hb + seat]",
        "stop = None",
        "barred = _none",
        "if d.plays:",
        "    k = d.plays[0].size",
        "    combos, single = _sized.get(k) or _of_size(k)",
        "    if single is not None:",
        "        cands = _single_plays(single, hand, _pieces)",
        "    else:",
        "        cands = _enumerate_all(combos, hand, _pieces, k, ctx)",
        *("    " + line for line in beat),
        *("    " + line for line in follow),
        *("    " + line for line in downs),
        "    if not cands and not (down[0] or down[1]):",
        "        down = _downs(st, hand, k)  # nothing else is possible: discard",
        "else:",
        *(["    ctx.combo = None", "    if _stop_when(ctx):", "        stop = _STOP"]
          if phase.stop_when is not None else []),
        "    cands = _enumerate_all(_combos, hand, _pieces, None, ctx)",
        *("    " + line for line in lead),
        "    down = _NO_DOWNS if cands else _downs(st, hand, 1)",
        f"moves = [{ITEM}.move or _move_of(st, {ITEM}) for {ITEM} in cands]",
        "if stop is not None:",
        "    moves.insert(0, stop)",
        "    cands.insert(0, None)",
        "downs, sets = down",
        "if sets:",
        "    opts = _Options(_WithFaceDown(moves, cands, sets, _face_down(st), _book), cands, barred)",
        "else:",
        "    if downs:",
        "        cands.extend(downs)",
        f"        moves.extend([{ITEM}.move or _move_of(st, {ITEM}) for {ITEM} in downs])",
        "    opts = _Options(moves, cands, barred)",
        "d.options = opts",
        "return opts.moves",
    ]
    memo = any(_REMEMBERS.search(line) for line in body)
    lines = [
        "def _legal(st):",
        "    d = st.pdata",
        "    if d.options is not None:",
        "        return d.options.moves",
        "    ctx = st.ctx",
        # While the options are built nothing changes the state: a rule function asked again with the
        # same arguments gives what it gave (the memo is dropped before anything can move).
        *(["    ctx.memo = {}", "    try:", *("        " + line for line in body), "    finally:",
           "        ctx.memo = None"] if memo else ["    " + line for line in body]),
    ]
    fn: LegalFn = out.define(lines, f"trick phase '{phase.id}' legal moves")
    return fn


# A call that remembers a rule function's result (``remembered``, or a function made by ``dsl/loops.py``).
_REMEMBERS = re.compile(r"\b_memo\(|\b\w*_rf\d+\(")
# A candidate's class and strength (``_it``), as ``Tricks._rate`` works them out.
_RATE = [f"cls = {ITEM}.known_cls", "if cls is _NK:", f"    cls = _cls_of(ctx, {ITEM})",
         f"strength = {ITEM}.known_strength", "if strength is _NK:", f"    strength = _strength_of(ctx, {ITEM})"]


def _restrictions(rules: tuple[Restriction, ...], tag: str, out: _Source, track: bool) -> list[str]:
    """Each restriction as ``trick_code._rules`` lays it out, asked only while candidates are left (as
    ``apply_restrictions`` skips a rule with none), and with ``track``, the ids of the rules that
    removed a candidate collected into ``barred`` (each removed play's last remover, as the generic
    path's dict by pieces keeps it)."""
    code: list[str] = []
    if track and rules:
        code.append("removed = {}")
    for k, r in enumerate(rules):
        # (one restriction at a time: _rules's own check for no candidates never fires inside "if cands")
        laid = _rules((r,), f"{tag}{k}_", out, "    ")
        if track:
            code += ["if cands:", "    before = cands", *laid,
                     "    if len(cands) != len(before):",
                     "        left = _set(cands)",
                     f"        for {ITEM} in before:",
                     f"            if {ITEM} not in left:",
                     f"                removed[{ITEM}.pieces] = {r.id!r}"]
        else:
            code += ["if cands:", *laid]
    if track and rules:
        code += ["if removed:", "    barred = _frozenset(removed.values())"]
    return code


def generate_play(phase: Tricks, st: Board) -> ApplyFn:
    """``apply(st, move)``, as ``phase.apply`` does it, for a play or a face-down play the decision
    offered; a stop or a revoke goes to ``phase.apply``, and so does a round's end with a revoke in it."""
    rs = st.rs
    trick_zi = st.zone_instance(phase.trick_zone)
    captures = [st.owned_instance(phase.capture_to, s) for s in range(rs.seats.count)]
    owns = [st.owned_instance(phase.own_to, s) for s in range(rs.seats.count)] if phase.own_to else []
    values = {c.id: c.value for c in phase.combos if c.value is not None}
    out = _Source({"_hb": rs.hand_base, "_tz": trick_zi, "_NK": NOT_KNOWN, "_WithFaceDown": WithFaceDown,
                   "_cls_of": phase._cls_of, "_strength_of": phase._strength_of, "_generic": phase.apply,
                   "_step": phase.step, "_ends": frozenset(c.id for c in phase.combos if c.ends_play),
                   "_on_lead": runner(phase.on_lead), "_on_round": runner(phase.on_round),
                   "_captures": captures, "_owns": owns, "_values": values, "_value": phase.value,
                   "_end_when": phase.end_when, "zip": zip, "type": type, "list": list})
    public = bool(rs.public_instance[trick_zi])
    capture = ["st.gather([p for pl in plays for p in pl.pieces], _captures[winner])"] if not owns else [
        "to_zi = _captures[winner]",
        "own_zi = _owns[winner]",
        "for s, pl in zip(d.seats, plays):",
        "    st.gather(pl.pieces, own_zi if s == winner else to_zi)",
    ]
    ends = " or ".join(["lead.combo in _ends", "not st.zones[_hb + winner]",
                        *(["_end_when(ctx)"] if phase.end_when is not None else [])])
    lines = [
        "def _apply(st, move):",
        "    d = st.pdata",
        "    opts = d.options",
        "    verb = move.verb",
        "    if opts is None or (verb != 'play' and verb != 'down'):",
        "        return _generic(st, move)",
        "    seat = st.to_act",
        "    moves = opts.moves",
        "    if type(moves) is list:",
        "        play = opts.plays[moves.index(move)]",
        "    else:",
        "        play = opts.play_of(move)",
        "    barred = opts.barred",
        "    plays = d.plays",
        "    if not plays:",
        "        d.last = len(st.zones[_hb + seat]) == play.size",
        "    elif barred:",
        "        d.barred |= barred",
        "    d.options = None",
        "    ctx = st.ctx",
        "    if play.face_up:",
        "        zones, loc, face_down = st.zones, st.loc, st.face_down",
        "        pile = zones[_tz]",
        "        for p in play.pieces:",
        "            old = loc[p]",
        "            if old != _tz:",
        "                zones[old].remove(p)",
        "                pile.append(p)",
        "                loc[p] = _tz",
        "            face_down[p] = 0",
        *(["            st.seen_public[p] = 1"] if public else []),
        "        ctx.seat = seat",
        "        cls = play.known_cls",
        "        if cls is _NK:",
        "            cls = _cls_of(ctx, play)",
        "        strength = play.known_strength",
        "        if strength is _NK:",
        "            strength = _strength_of(ctx, play)",
        "        best = d.best",
        "        if best < 0 or (cls == d.classes[best] and strength > d.strengths[best]):",
        "            d.best = len(plays)",
        "    else:",
        "        for p in play.pieces:",
        "            st.put(p, _tz, True, seat)",
        "        cls = strength = None",
        "    d.seats.append(seat)",
        "    plays.append(play)",
        "    d.classes.append(cls)",
        "    d.strengths.append(strength)",
        "    n = len(plays)",
        "    if n == 1:",
        "        if play.combo in _ends:",
        "            d.order = [seat]  # shown to end play: nobody follows",
        *(["        ctx.seat, ctx.combo = seat, play", "        _on_lead(st)", "        return False"]
          if phase.on_lead else []),
        "    if n < len(d.order) and not d.ended:",
        "        seat = st.to_act = d.order[n]",
        "        ctx.seat = seat",
        "        return True",
        "    if d.ended or d.revokes:",
        "        return _step(st)",
        # The round's end (Tricks._finish_round, then the next lead as Tricks.step sets it).
        "    winner = d.seats[d.best] if d.best >= 0 else d.leader",
        "    d.winner = winner",
        "    lead = plays[0]",
        "    ctx.combo = lead",
        "    ctx.seat = winner",
        "    value_expr = _values.get(lead.combo, _value)",
        "    value = d.value = value_expr(ctx) if value_expr is not None else lead.size",
        "    st.tricks[winner] += value",
        *("    " + line for line in capture),
        "    st.history.append({'type': 'round', 'winner': winner, 'value': value})",
        *(["    _on_round(st)", "    if st.signal:", "        return False"] if phase.on_round else []),
        f"    if {ends}:",
        "        d.ended = True",
        "        return False",
        "    d.leader = winner",
        "    d.round_no += 1",
        "    order = d.order = st.order_from(winner)",
        "    d.seats, d.plays, d.classes, d.strengths = [], [], [], []",
        "    d.best, d.last = -1, False",
        "    if d.barred:",
        "        d.barred = set()",
        "    d.winner, d.value, d.options = None, 0, None",
        "    seat = st.to_act = order[0]  # (the winner holds pieces: it leads)",
        "    ctx.seat = seat",
        "    return True",
    ]
    fn: ApplyFn = out.define(lines, f"trick phase '{phase.id}' apply")
    return fn
