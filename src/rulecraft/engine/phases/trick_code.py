"""A trick phase's decision and play as generated Python functions, for the common shape of phase.

Most trick-taking games play single pieces face up and narrow them with a few restrictions (follow
suit; a special piece that must be played on some lead). For a phase of that shape two functions
are generated once, when the ruleset is first played, as straight-line Python:

- the decision: the seat's single plays, then every restriction of the lead or the follow in
  order, each one pass over the candidates (reads that are not about the candidate done once,
  the rest per candidate, as ``dsl/itemloop.py`` lays expressions out), then the moves;
- the play: the piece to the trick zone, its strength (the combination's expression, inline),
  the best play so far, and the next seat of the round.

``GeneratedTricks`` is the trick phase kind the rule files get: a ``Tricks`` that decides at first
use whether its shape fits. The generic path of ``Tricks`` makes a call per step and per
expression; these make none, and do the same (a test plays seeded games with both and compares
every decision and every state after a play).

Any other shape (combinations of several pieces, face-down plays, "beating" follows, restrictions
whose refusals are asked about with ``barred()``, identical copies of pieces) keeps the generic
path, as does a decision where the restrictions leave no play (the generic path then offers the
follows that form no combination, face up: ``Tricks._free_follows``), and such a play.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from rulecraft.dsl.compiler import NUMBER_CHECK, compile_generated
from rulecraft.dsl.itemloop import ITEM, inline_reads, loop_parts, renamed
from rulecraft.engine.effects import runner
from rulecraft.engine.phases.tricks import Options, Restriction, Tricks

if TYPE_CHECKING:
    from rulecraft.dsl.bindings import NameBinding
    from rulecraft.engine.board import Board
    from rulecraft.engine.combos import Play
    from rulecraft.engine.moves import Move

LegalFn = Callable[["Board"], "list[Move]"]
# What a restriction's comprehension does when something in it fails: leave the pass to the loop. (A
# test makes it re-raise, to see that the bundled games' comprehensions never fail in play.)
GIVE_UP = "kept = None"
ApplyFn = Callable[["Board", "Move"], bool]


class GeneratedTricks(Tricks):
    """A trick phase whose decision and play are generated functions when its shape fits."""

    def __init__(self, pid: str, pos: Any) -> None:
        super().__init__(pid, pos)
        self._generated: bool | None = None  # whether decide and play are generated: None until first use

    def legal(self, st: Board) -> list[Move]:
        if self._generated is None:  # decided at first use: the ruleset is complete by then
            self._generated = self.observer is None and fits(self, st)  # an observer needs the generic path
            if self._generated:
                self.decide = generate(self, st, Options)
                self.play = generate_apply(self, st)
                return self.decide(st)
            self.decide = self._legal_moves  # (from now on, without this call and the one below)
        return super().legal(st)


def fits(phase: Tricks, st: Board) -> bool:
    """Whether the phase has the shape the generated decision covers."""
    return (len(phase.combos) == 1 and phase.combos[0].kind == "single" and not st.rs.pieces.has_copies
            and phase.face_up == "any" and phase.face_down == "never" and not phase.track_barred
            and not phase.free and phase.composite is None)


def generate(phase: Tricks, st: Board, options_type: type) -> LegalFn:
    """``legal(st)``: the moves of the seat to act (``st.pdata.options`` set), as ``phase.legal`` gives them.

    Where every restriction reads of a candidate only its piece (``piece``: following suit, a piece that must go),
    the candidates are the hand's pieces themselves and the moves come from a table by piece: no play
    is looked up per candidate, and the plays behind the moves are made only if asked for
    (``PieceOptions``). Otherwise the candidates are the hand's single plays.
    """
    rs = st.rs
    singles = phase.combos[0].singles
    out = _Source({"_singles": singles, "_hb": rs.hand_base, "_Options": options_type,
                   "_none": frozenset(), "_stop_when": phase.stop_when, "_STOP": rs.moves.get("stop"),
                   "_generic": phase._options, "_moves": [s.move for s in singles], "_PieceOptions": PieceOptions,
                   "_new": object.__new__})
    by_piece = options_type is Options and _piece_reads_only(phase, out)
    if by_piece:
        listed = ["    cands = st.zones[_hb + seat]  # (read only: each restriction makes a new list)",
                  "    moves = [_moves[p] for p in cands]",
                  "    if stop is not None:",
                  "        d.options = _PieceOptions([stop, *moves], _singles)",
                  "        return d.options.moves",
                  "    o = _new(_PieceOptions)  # (PieceOptions(moves, _singles), without its __init__'s call)",
                  "    o.moves, o.singles, o.barred = moves, _singles, _none",
                  "    d.options = o"]
    else:
        listed = ["    cands = [_singles[p] for p in st.zones[_hb + seat]]",
                  f"    moves = [{ITEM}.move for {ITEM} in cands]",
                  "    if stop is not None:",
                  "        d.options = _Options([stop, *moves], [None, *cands], _none)",
                  "        return d.options.moves",
                  "    d.options = _Options(moves, cands, _none)"]
    lines = [
        "def _legal(st):",
        "    d = st.pdata",
        "    if d.options is not None:",
        "        return d.options.moves",
        "    ctx = st.ctx",
        "    seat = st.to_act",
        "    ctx.seat = seat",
        listed[0],
        "    stop = None",
        "    if d.plays:",
        *_rules(phase.follow_rules, "f", out, "        ", by_piece),
        "        pass  # (when following has no restriction)",
        "    else:",
        *(["        ctx.combo = None", "        if _stop_when(ctx):", "            stop = _STOP"]
          if phase.stop_when is not None else []),
        *_rules(phase.lead_rules, "l", out, "        ", by_piece),
        "        pass  # (when the lead has no restriction)",
        "    if not cands:",
        "        return _generic(st).moves",
        *listed[1:],
        "    return moves",
    ]
    fn: LegalFn = out.define(lines, f"trick phase '{phase.id}' legal moves")
    return fn


class PieceOptions(Options):
    """A decision of single plays made over pieces: the play behind each move is looked up when asked
    (by ``play_of`` or ``each_play``, neither on a playout's path), not made per decision."""

    __slots__ = ("singles",)

    def __init__(self, moves: list[Move], singles: tuple[Play, ...]) -> None:
        self.moves = moves
        self.singles = singles
        self.barred = _NO_BARS

    # Read only here (a decision's plays are never set once made).
    @property
    def plays(self) -> Sequence[Play | None]:  # type: ignore[override]
        singles = self.singles
        return [singles[m.pieces[0]] if m.verb == "play" else None for m in self.moves]


_NO_BARS: frozenset[str] = frozenset()
PIECE_READ = f"{ITEM}.pieces[0]"  # how a laid-out expression reads a candidate's piece (``piece``)


def _piece_reads_only(phase: Tricks, out: _Source) -> bool:
    """Whether every restriction of the phase reads of a candidate its piece and nothing else."""
    for k, r in enumerate((*phase.follow_rules, *phase.lead_rules)):
        for expr in (r.when, r.allow):
            if expr is None:
                continue
            laid = _Source(dict(out.namespace)).lay(expr, f"_probe{k}")
            if laid.store or any(line.split(" = ", 1)[1] != PIECE_READ for line in laid.per_item):
                return False
    return True


def generate_apply(phase: Tricks, st: Board) -> ApplyFn:
    """``apply(st, move)`` (of a phase that ``fits``), as ``phase.apply`` does it.

    A face-up play, as straight-line Python: the piece goes face up to the trick zone, the play's
    strength (the combination's expression, laid out inline) decides whether it is the best so far,
    and the next seat of the round is set to act (or, after the last play, the phase steps: the
    round ends). Other moves (stop, a face-down discard) go to ``phase.apply``.
    """
    rs = st.rs
    spec = phase.combos[0]
    trick_zi = st.zone_instance(phase.trick_zone)
    captures = [st.owned_instance(phase.capture_to, s) for s in range(rs.seats.count)]
    out = _Source({"_singles": spec.singles, "_hb": rs.hand_base, "_tz": trick_zi, "_cls": (spec.id, 1),
                   "_on_lead": runner(phase.on_lead), "_generic": phase.apply,
                   "_step": phase.step, "_captures": captures,
                   "_value": spec.value if spec.value is not None else phase.value,
                   "_on_round": runner(phase.on_round),  # (the lists' generated functions, kept)
                   "_end_when": phase.end_when})
    rate: list[str] = []
    for expr, prefix, name, default in ((spec.strength, "_s", "strength", f"{ITEM}.entry_strength"),
                                        (spec.cls, "_c", "cls", "_cls")):
        if expr is None:
            rate.append(f"{name} = {default}")
        else:  # ctx.combo is the play already
            laid = out.lay(expr, prefix)
            laid.per_item = [f"{line.split(' = ', 1)[0]} = p" if line.split(" = ", 1)[1] == PIECE_READ else line
                             for line in laid.per_item]  # (the play's piece is read already)
            # A strength of a type not known at load time is checked to be a number, as its compiled form does.
            check = NUMBER_CHECK.format(v=name, p=prefix).splitlines() \
                if getattr(expr, "checks_number", False) else []
            rate += laid.guarded([*laid.before, *laid.per_item, f"{name} = {laid.body}", *check])
    lead = []
    if spec.ends_play:
        lead.append("d.order = [seat]  # shown to end play: nobody follows")
    if phase.on_lead:
        lead += ["_on_lead(st)", "return False"]
    lines = [
        "def _apply(st, move):",
        "    d = st.pdata",
        "    opts = d.options",
        "    if opts is None or move.verb != 'play' or opts.free:",
        "        return _generic(st, move)",
        "    seat = st.to_act",
        "    p = move.pieces[0]",
        f"    {ITEM} = _singles[p]  # (the state checked the move is legal)",
        "    plays = d.plays",
        "    if not plays:",
        "        d.last = len(st.zones[_hb + seat]) == 1",
        "    d.options = None",
        "    loc = st.loc",
        "    old = loc[p]",
        "    if old != _tz:",
        "        st.zones[old].remove(p)",
        "        st.zones[_tz].append(p)",
        "        loc[p] = _tz",
        "    st.face_down[p] = 0",
        *(["    st.seen_public[p] = 1"] if rs.public_instance[trick_zi] else []),
        "    ctx = st.ctx",
        "    ctx.seat = seat",
        f"    ctx.combo = {ITEM}",
        *("    " + line for line in rate),
        "    best = d.best",
        "    if best < 0 or (cls == d.classes[best] and strength > d.strengths[best]):",
        "        d.best = len(plays)",
        "    d.seats.append(seat)",
        f"    plays.append({ITEM})",
        "    d.classes.append(cls)",
        "    d.strengths.append(strength)",
        "    n = len(plays)",
        *(["    if n == 1:", *("        " + line for line in lead)] if lead else []),
        "    if n < len(d.order):",
        "        seat = d.order[n]",
        "        st.to_act = seat",
        "        ctx.seat = seat",
        "        return True",
        *("    " + line for line in _round_end(phase, any(rs.public_instance[zi] for zi in captures))),
    ]
    apply: ApplyFn = out.define(lines, f"trick phase '{phase.id}' apply")
    return apply


def _capture(public: bool) -> list[str]:
    """The round's pieces to the winner's capture zone, each lying as it lies (``Board.gather``).

    Written out where no capture zone is public (nobody sees a piece arrive); otherwise ``gather``.
    """
    if public:
        return ["st.gather([pl.pieces[0] for pl in plays], _captures[winner])"]
    return [
        "won = _captures[winner]",
        "zones, loc = st.zones, st.loc",
        "pile = zones[won]",
        "for pl in plays:",
        "    p = pl.pieces[0]",
        "    old = loc[p]",
        "    if old != won:",
        "        zones[old].remove(p)",
        "        pile.append(p)",
        "        loc[p] = won",
    ]


def _round_end(phase: Tricks, public_capture: bool) -> list[str]:
    """After the round's last play: what ``phase.step`` does then (``_finish_round``, the next lead).

    Written out for a phase that captures every play to one zone (no ``own_to``); any other goes to
    ``step``. Each play is one face-up piece, so the best play is set and the default value is 1.
    """
    if phase.own_to is not None:
        return ["return _step(st)"]
    value = "_value(ctx)" if phase.combos[0].value is not None or phase.value is not None else "1"
    ends = ["True"] if phase.combos[0].ends_play else []
    # A round with a revoke in it (a game recorded at a table) ends as the generic path ends it, the
    # revoke found there.
    found = ["if d.revokes:", "    return _step(st)"] if phase.revoke is not None else []
    return [
        *found,
        "winner = d.seats[d.best]",
        "d.winner = winner",
        "ctx.combo = plays[0]",
        "ctx.seat = winner",
        f"value = d.value = {value}",
        "st.tricks[winner] += value",
        *_capture(public_capture),
        "st.history.append({'type': 'round', 'winner': winner, 'value': value})",
        *(["_on_round(st)", "if st.signal:", "    return False"] if phase.on_round else []),
        f"if {' or '.join([*ends, 'not st.zones[_hb + winner]', *(['_end_when(ctx)'] if phase.end_when else [])])}:",
        "    d.ended = True",
        "    return False",
        "d.leader = winner",
        "d.round_no += 1",
        "order = d.order = st.order_from(winner)",
        "d.seats, d.plays, d.classes, d.strengths = [], [], [], []",
        "d.best, d.last = -1, False",
        "if d.barred:",
        "    d.barred = set()",
        "d.winner, d.value, d.options = None, 0, None",
        "seat = st.to_act = order[0]  # (the winner holds pieces: it leads)",
        "ctx.seat = seat",
        "return True",
    ]


def _rules(rules: tuple[Restriction, ...], tag: str, out: _Source, indent: str, by_piece: bool = False) -> list[str]:
    """Each restriction as one pass over the candidates, keeping those it does not refuse.

    ``by_piece``: the candidates are pieces, and each read of a candidate's piece is the candidate.

    A restriction's ``allow`` is asked only of candidates its ``when`` applies to, and its reads
    that are not about the candidate happen at the first such candidate (never when none applies),
    so an expression fails here exactly where the generic path would.

    The pass is first tried as one list comprehension (``_comprehension``), which judges a candidate
    in a few steps where the loop takes a dozen; should anything in it fail, the loop runs instead,
    and fails (or not) exactly where it always did: the expressions read the state and change nothing.
    """
    code: list[str] = []
    for k, r in enumerate(rules):
        rule = f"_r{tag}{k}"
        allow = out.lay(r.allow, f"{rule}a", by_piece)
        code += [f"# restriction '{r.id}'", "if not cands:", "    return _generic(st).moves"]
        # if_able: the restriction lapses when no candidate it applies to passes
        start, passed, keep = ((["passed = False"], ["        passed = True"], ["if passed:", "    cands = kept"])
                        if r.if_able else ([], [], ["cands = kept"]))
        if r.when is None or not r.when_per_play:
            check = ["kept = []", *start, f"for {ITEM} in cands:",
                     *("    " + line for line in allow.judged("_a")),
                     "    if _a:", f"        kept.append({ITEM})", *passed]
            check = [*_comprehension(None, allow, r.if_able, check), *keep]
            if r.when is None:
                code += [*allow.guarded(allow.before), *check]
            else:  # the condition is about the position, not the candidate: asked once
                when = out.lay(r.when, f"{rule}w", by_piece)
                code += [*when.guarded([*when.before, f"_w = {when.body}"]), "if _w:",
                        *("    " + line for line in [*allow.guarded(allow.before), *check])]
            continue
        when = out.lay(r.when, f"{rule}w", by_piece)
        first = ["if not ready:", *("    " + line for line in allow.before), "    ready = True"] if allow.before else []
        loop = ["kept = []", *start, "ready = False",
                f"for {ITEM} in cands:", *("    " + line for line in when.judged("_w")),
                "    if not _w:", f"        kept.append({ITEM})", "        continue",
                *("    " + line for line in allow.guarded([*first, *allow.item_lines(), f"_a = {allow.body}"])),
                "    if _a:", f"        kept.append({ITEM})", *passed]
        code += [*when.guarded(when.before), *_comprehension(when, allow, r.if_able, loop), *keep]
    return [indent + line for line in code]


def _comprehension(when: _Laid | None, allow: _Laid, if_able: bool, loop: list[str]) -> list[str]:
    """``loop`` (which sets ``kept``, and ``passed`` for an if_able restriction), tried first as a
    comprehension over the candidates: ``when`` (None: every candidate) and ``allow`` judged inline,
    each candidate's reads bound by ``for name in [read]`` (as fast as an assignment). ``allow``'s
    reads that are not about the candidate are made before it (the loop makes them only when a
    candidate applies: here a failure just sends the pass to the loop). A layout that must put the
    candidate into the context for a read is left to the loop."""
    laid = [x for x in (when, allow) if x is not None]
    if any(x.store for x in laid):
        return loop
    bound: dict[str, str] = {}  # each read once: a name whose read was made already stands for that name
    same: dict[str, str] = {}
    for x in laid:
        for line in x.per_item:
            name, read = line.split(" = ", 1)
            same[name] = ITEM if read == ITEM else bound.setdefault(read, name)  # (a piece: the candidate)
    reads = "".join(f" for {name} in [{read}]" for read, name in bound.items())
    named = re.compile(r"\b(" + "|".join(map(re.escape, same)) + r")\b") if same else None

    def body(x: _Laid) -> str:
        return named.sub(lambda m: same[m.group(1)], x.body) if named is not None else x.body

    test = f"not ({body(when)}) or ({body(allow)})" if when is not None else body(allow)
    if when is not None and _calls(allow):
        # Reads that call a function (a rule function walking a hand, say) are made only when some
        # candidate applies, as the loop makes them: each candidate's ``when`` judged once, first.
        lines = ["try:", f"    applies = [({body(when)}) for {ITEM} in cands{reads}]", "    if _any(applies):",
                 *("        " + line for line in allow.before),
                 f"        kept = [{ITEM} for {ITEM}, _w in _zip(cands, applies){reads}"
                 f" if (not _w or ({body(allow)}))]",
                 "    else:", "        kept = list(cands)"]
    else:
        lines = ["try:", *("    " + line for line in (allow.before if when is not None else [])),
                 f"    kept = [{ITEM} for {ITEM} in cands{reads} if ({test})]"]  # (a conditional body needs them)
    if if_able:  # it lapses unless a candidate it applies to passed (one is among those kept)
        if when is None:
            lines.append("    passed = len(kept) > 0")
        else:
            lines += ["    passed = False", f"    for {ITEM} in kept:", *("        " + line for line in when.per_item),
                      f"        if {when.body}:", "            passed = True", "            break"]
    return [*lines, "except Exception:", f"    {GIVE_UP}", "if kept is None:", *("    " + line for line in loop)]


_CALL = re.compile(r"[\w)\]]\(")


def _calls(laid: _Laid) -> bool:
    """Whether the reads ``laid`` makes before its candidates call something, once the reads of names
    that have code are written in (``inline_reads``): beyond reading state, items and tables."""
    source = inline_reads("\n".join(line.split(" = ", 1)[-1] for line in laid.before), laid.getters)
    return _CALL.search(source) is not None


class _Source:
    """One generated function in the making: the namespace and getters of the expressions it lays out."""

    def __init__(self, names: dict[str, Any]) -> None:
        self.namespace: dict[str, Any] = {"__builtins__": {}, "len": len, "list": list, "_any": any, "_zip": zip,
                                          "Exception": Exception, **names}
        self.getters: dict[str, NameBinding] = {}

    def lay(self, fn: Any, prefix: str, by_piece: bool = False) -> _Laid:
        """``fn`` laid out over candidates: plays, or pieces (``by_piece``: its reads of the candidate's
        piece are the candidate itself; ``_piece_reads_only`` says when it reads nothing else)."""
        code, getters, names = renamed(fn, prefix)
        self.namespace.update(names)
        self.getters.update(getters)
        laid = _Laid(code, getters, prefix)
        if by_piece:
            laid.per_item = [f"{line.split(' = ', 1)[0]} = {ITEM}" for line in laid.per_item]
        return laid

    def define(self, lines: list[str], title: str) -> Any:
        """The function ``lines`` define (its getters' reads inlined), with its source as ``.python``."""
        # Both functions hold the state in ``st`` and its round in ``d`` (``ctx.st`` is ``st``): reads
        # through them skip a lookup or two, and each decision makes several.
        # The same holds for the code of game functions written into the expressions (``holds``).
        local = {ident: replace(b, code=_local_reads(b.code)) if b.code is not None else b
                 for ident, b in self.getters.items()}
        source = _local_reads(inline_reads("\n".join(lines) + "\n", local))
        exec(compile_generated(source, f"<{title}>"), self.namespace)
        fn = self.namespace[lines[0].split()[1].split("(")[0]]
        fn.python = source
        return fn


def _local_reads(code: str) -> str:
    """A getter's code over ``ctx`` as read inside the generated functions (``st`` and ``d`` at hand)."""
    return code.replace("ctx.st.pdata.", "d.").replace("ctx.st.", "st.")


class _Laid:
    """A compiled expression laid out for generated code over candidates (``_it``), names prefixed."""

    def __init__(self, code: str, getters: dict[str, NameBinding], prefix: str) -> None:
        parts = loop_parts(code, getters, prefix)
        self.getters = getters
        self.prefix = prefix
        self.before = list(parts.before)
        self.per_item = list(parts.per_item)
        self.body = parts.body
        self.store = parts.store

    def item_lines(self) -> list[str]:
        return [f"ctx.combo = {ITEM}", *self.per_item] if self.store else self.per_item

    def guarded(self, lines: list[str]) -> list[str]:
        """``lines`` with the expression's failures reported as its own compiled form reports them."""
        if not lines:
            return []
        return ["try:", *("    " + line for line in lines), f"except {self.prefix}_guarded as exc:",
                f"    raise {self.prefix}_fail(exc) from exc"]

    def judged(self, result: str) -> list[str]:
        """Per candidate: set ``result`` to the expression's value (the reads before done already)."""
        return self.guarded([*self.item_lines(), f"{result} = {self.body}"])
