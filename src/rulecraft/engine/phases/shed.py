"""Shedding turns: each seat in turn plays onto a pile what the restrictions allow, or draws from a stock.

A rule file writes it as ``kind: shed``::

    - id: play
      kind: shed
      combinations: [single]               # default: all
      first: "left_of(dealer)"
      zone: pile                           # the shared zone plays go onto (default: pile)
      restrictions:                        # which plays are allowed (e.g. match the pile's top piece)
        - {id: match, allow: "suit(piece) == suit(last(zone('pile'))) or rank(piece) == 8"}
      draw:                                # a seat may draw instead of playing
        from: stock                        # a shared zone, drawn from its first piece
        when: unable                       # only when no play is allowed (default); always; or a condition
        limit: 1                           # draws per turn (default: no limit, "until able to play")
        count: "max(1, penalty)"           # pieces one draw takes (default 1)
        ends_turn: "penalty > 0"           # whether a draw ends the turn (default: the seat decides again)
        refill: {from: pile, keep: 1}      # an empty stock takes the pile but its top piece, shuffled
      places: place                        # per-seat variable: 1, 2, ... as seats go out
      end_when: "count(finished) >= 1"     # the hand ends after a play when this holds
      pass_when: unable                    # pass only when unable to play or draw (default); always; a condition
      on_pass: [...]                       # effects after a seat passes (seat: the one that passed)
      on_draw: [...]                       # effects after a draw (seat: the one that drew)
      on_play:                             # what a play does, in order, when its condition holds
        - {id: wild-names, when: "rank(piece) == 8", choose: {from: "['c', 'd', 'h', 's']", set: named}}
        - {id: skip-next, when: "rank(piece) == 11", skip: 1}
        - {id: reverse, when: "rank(piece) == 1", reverse: true}
        - {id: draw-two, when: "rank(piece) == 2", draw: {count: 2, seat: "next_player"}}

There are no rounds: a turn is one play (then the next seat is to act), or a draw (the same seat
decides again, having ``count`` more pieces, unless ``ends_turn`` holds: a penalty drawn), or a pass,
offered only when the seat can neither play nor draw (the stock is empty and cannot be refilled, or it
has drawn its ``limit`` this turn) — or also by choice, at any turn with ``pass_when: always``, or while
its condition holds. A draw
takes the first piece of the stock; the stock's order was fixed by its shuffle, so drawing is no new
chance, and the drawn piece is seen only as the hand's zone allows. A refill moves the pile, but its
top ``keep`` pieces, to the stock and shuffles it (a chance event, logged).

``on_play`` items run after each play, in order, each when its ``when`` holds (``play``, ``piece``,
``size``... name the play just made, ``seat`` its player): ``skip`` passes over that many of the
seats that would act next, ``reverse`` turns the direction of play round for the rest of the phase,
``draw`` makes a seat (``next_player`` by default) draw ``count`` pieces from the stock, ``effects``
are ordinary effects, and ``choose`` asks the player to name a value (``name h``) into a variable
before the turn passes on (a wild piece whose player names the suit to follow); the items after it
run once it has answered. A seat that plays its last piece goes out, after its play's items: its
place goes into ``places`` and it takes no further turn.

The hand ends after a play when ``end_when`` holds, when one seat alone holds pieces (it takes the
last place), or when play is **blocked**: every seat still holding pieces has passed, one after
another, with no play or draw in between, each because it could do nothing else (a pass made by
choice blocks nothing).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rulecraft.dsl import CompiledExpr, Scope, T
from rulecraft.engine.combos import Play, enumerate_all
from rulecraft.engine.effects import Effect, compile_effects, run_effects
from rulecraft.engine.moves import Move
from rulecraft.engine.phases.base import (
    Phase,
    describe_legal,
    pieces_held,
    places_variable,
    record_place,
    rule_failed,
    seat_of,
)
from rulecraft.engine.phases.tricks import TrickData, Tricks, apply_restrictions, build_restrictions
from rulecraft.engine.phases.turns import VERBS
from rulecraft.engine.phases.values import ChoiceSpec, build_choice, checked, choice_values
from rulecraft.errors import clip
from rulecraft.rules.located import pos_of

if TYPE_CHECKING:
    from rulecraft.engine.board import Board
    from rulecraft.engine.builder import Builder
    from rulecraft.engine.equipment import Equipment

DRAW_WHEN = ("unable", "always")
PASS_WHEN = ("unable", "always")


@dataclass(slots=True)
class ShedData(TrickData):
    """The phase's state. ``plays`` stays empty (there are no rounds): the trick-round names that read
    it (``lead``, ``led``, ``best``) are empty here."""

    cur: int = -1  # the seat whose turn it is
    backwards: bool = False  # the direction of play has been turned round
    drawn: int = 0  # pieces the seat to act has drawn this turn
    passed: list[int] = field(default_factory=list)  # seats that passed since the last play or draw
    finished: list[int] = field(default_factory=list)  # seats out, in the order they went out
    last_player: int | None = None
    last_pieces: tuple[int, ...] = ()  # the latest play's pieces
    turns: int = 0  # plays made in the phase
    # A play's item waiting for its player to name a value: (item index, seat, play, seats to skip).
    pending: tuple[int, int, Play, int] | None = None
    moves: list[Move] | None = None  # the seat to act's legal moves, made once per decision
    plays_of: list[Play | None] | None = None
    stuck: list[int] = field(default_factory=list)  # seats that passed, able to do nothing else, since then

    def copy(self) -> ShedData:
        return ShedData(self.leader, self.round_no, self.order, [], [], [], [], -1, set(), False, None, 0,
                        self.ended, None, (), self.cur, self.backwards, self.drawn, list(self.passed),
                        list(self.finished), self.last_player, self.last_pieces, self.turns, self.pending,
                        self.moves, self.plays_of, list(self.stuck))


@dataclass(frozen=True, slots=True)
class ShedItem:
    """One item of ``on_play``: what a play does when ``when`` holds for it."""

    id: str
    when: CompiledExpr | None
    skip: CompiledExpr | None
    reverse: bool
    draw_count: CompiledExpr | None
    draw_seat: CompiledExpr | None
    effects: tuple[Effect, ...]
    choose: ChoiceSpec | None
    counted: bool = False  # whether the rule file gave it an id (then `fired` counts it)


def shed_scope(parent: Scope, phase: Shed) -> Scope:
    """The names of a shed phase: the trick round's (the candidate play's are the ones that apply) and its own."""
    s = Scope(parent=parent, name="shedding turns")

    def next_player(c: Any) -> int:
        d: ShedData = c.st.pdata
        return phase._next(c.st, d, c.seat if c.seat is not None else d.cur)

    s.add_name("finished", T.LIST, getter=lambda c: list(c.st.pdata.finished), elem=T.SEAT,
               doc="the seats that have gone out, in order")
    s.add_name("passed", T.LIST, getter=lambda c: list(c.st.pdata.passed), elem=T.SEAT,
               doc="the seats that passed since the last play or draw")
    s.add_name("last_player", T.SEAT, getter=lambda c: c.st.pdata.last_player,
               doc="the seat that made the latest play (none before the first)")
    s.add_name("last_play", T.LIST, getter=lambda c: list(c.st.pdata.last_pieces), elem=T.PIECE,
               doc="the pieces of the latest play (empty before the first)")
    s.add_name("drawn", T.NUMBER, getter=lambda c: c.st.pdata.drawn,
               doc="how many pieces the seat to act has drawn this turn")
    s.add_name("next_player", T.SEAT, getter=next_player,
               doc="the seat that would act after `seat`, in the direction of play now")
    s.add_name("backwards", T.BOOL, getter=lambda c: c.st.pdata.backwards,
               doc="whether the direction of play has been turned round")
    s.add_name("turn_number", T.NUMBER, getter=lambda c: c.st.pdata.turns + 1,
               doc="1 for the phase's first play, 2 for the second ...")
    return s


class Shed(Tricks):
    kind = "shed"
    counts_rounds = False  # no rounds: a turn is one play

    def __init__(self, pid: str, pos: Any) -> None:
        super().__init__(pid, pos)
        self.rules: tuple[Any, ...] = ()
        self.stock: str | None = None
        self.draw_when = "unable"
        self.draw_also: CompiledExpr | None = None  # a condition under which a seat able to play may draw
        self.draw_limit: CompiledExpr | None = None
        self.draw_count: CompiledExpr | None = None  # pieces one draw takes (None: 1)
        self.draw_ends: CompiledExpr | None = None  # whether a draw ends the turn (None: never)
        self.on_draw: tuple[Effect, ...] = ()
        self.pass_always = False
        self.pass_also: CompiledExpr | None = None  # a condition under which a seat may pass by choice
        self.refill_from: str | None = None
        self.refill_keep = 1
        self.places_var = -1
        self.on_play: tuple[ShedItem, ...] = ()
        self.on_pass: tuple[Effect, ...] = ()
        self.decide = self.legal
        self.play = self.apply

    @classmethod
    def build(cls, b: Builder, rs: Equipment, raw: dict[str, Any], scope: Scope) -> Phase:
        t = cls(str(raw.get("id", cls.kind)), pos_of(raw))
        assert rs.trick_scope is not None
        sscope = shed_scope(rs.trick_scope, t)
        what = f"shed phase '{t.id}'"
        combos = [rs.combinations[str(n)] for n in raw.get("combinations", list(rs.combinations))
                  if b.ref(n, rs.combinations, "combination")]
        if not combos:
            b.error(raw, "a shed phase needs at least one combination (e.g. a 'single')")
        t.combos = tuple(combos)
        t.combo_by_id = {c.id: c for c in combos}
        t.first = b.expr(raw.get("first", "0"), scope, T.NUMBER, f"{what} first player")
        t.lead_rules = build_restrictions(b, raw.get("restrictions", ()), sscope, what)
        t.trick_zone = str(raw.get("zone", "pile"))
        b.shared_zone(t.trick_zone, rs.zone_by_name, "the zone a shed phase plays to")
        draw = raw.get("draw")
        if draw is not None:
            t.stock = str(draw.get("from", ""))
            b.shared_zone(draw.get("from"), rs.zone_by_name, "the zone a shed phase draws from")
            when = draw.get("when", "unable")
            if isinstance(when, str) and when in DRAW_WHEN:
                t.draw_when = when
            else:  # a condition: a seat able to play may draw too while it holds (a penalty it may take)
                t.draw_when = "condition"
                known = len(b.diags)
                t.draw_also = b.expr(when, sscope, T.BOOL, f"{what} draw when")
                if len(b.diags) > known and isinstance(when, str) and when.strip().isidentifier():
                    del b.diags[known:]  # a misspelt word, not a condition meant
                    b.error(when, f"draw 'when' is one of {', '.join(DRAW_WHEN)} or a condition, not '{clip(when)}'")
            if "limit" in draw:
                t.draw_limit = b.expr(draw["limit"], sscope, T.NUMBER, f"{what} draw limit")
            if "count" in draw:
                t.draw_count = b.expr(draw["count"], sscope, T.NUMBER, f"{what} draw count")
            if "ends_turn" in draw:
                t.draw_ends = b.expr(draw["ends_turn"], sscope, T.BOOL, f"{what} draw ends_turn")
            refill = draw.get("refill")
            if refill is not None:
                t.refill_from = str(refill.get("from", t.trick_zone))
                b.shared_zone(refill.get("from", t.trick_zone), rs.zone_by_name, "the zone a stock is refilled from")
                t.refill_keep = int(refill.get("keep", 1))
                if t.refill_from == t.stock:
                    b.error(refill.get("from", refill), "a stock is refilled from another zone (the pile), not itself")
        t.places_var = places_variable(b, rs, raw)
        if "end_when" in raw:
            t.end_when = b.expr(raw["end_when"], sscope, T.BOOL, f"{what} end_when")
        t.on_play = tuple(_item(b, rs, t, item, i, sscope, what) for i, item in enumerate(raw.get("on_play") or ()))
        t.on_pass = compile_effects(b, rs, raw.get("on_pass", ()), sscope, f"{what} on_pass")
        t.on_draw = compile_effects(b, rs, raw.get("on_draw", ()), sscope, f"{what} on_draw")
        if "on_draw" in raw and t.stock is None:
            b.error(raw["on_draw"], f"{what} has 'on_draw' effects, but no stock to draw from: give it "
                                    f"'draw: {{from: ZONE}}'")
        pass_when = raw.get("pass_when", "unable")
        if isinstance(pass_when, str) and pass_when in PASS_WHEN:
            t.pass_always = pass_when == "always"
        else:  # a condition: a seat may pass by choice while it holds (a number of passes allowed)
            known = len(b.diags)
            t.pass_also = b.expr(pass_when, sscope, T.BOOL, f"{what} pass_when")
            if len(b.diags) > known and isinstance(pass_when, str) and pass_when.strip().isidentifier():
                del b.diags[known:]
                b.error(pass_when, f"pass_when is one of {', '.join(PASS_WHEN)} or a condition, "
                                   f"not '{clip(pass_when)}'")
        t.track_barred = False
        return t

    # ------------------------------------------------------------------ flow
    def begin(self, st: Board) -> None:
        assert self.first is not None
        first = seat_of(self.first, st.ctx, st.rs.seats.count, f"shed phase '{self.id}' first player")
        st.pdata = ShedData(first, 1, st.order_from(first), cur=first)

    def step(self, st: Board) -> bool:
        d: ShedData = st.pdata
        if d.ended:
            return False
        seat = d.pending[1] if d.pending is not None else d.cur
        st.to_act = st.ctx.seat = seat
        return True

    def _order(self, st: Board, d: ShedData, seat: int) -> list[int]:
        """The seats after ``seat`` in the direction of play now (``seat`` itself not included)."""
        order = list(st.order_from(seat))[1:]
        return order[::-1] if d.backwards else order

    def _next(self, st: Board, d: ShedData, seat: int) -> int:
        """The next seat still holding pieces after ``seat`` (``seat`` itself when there is none)."""
        return next((s for s in self._order(st, d, seat) if st.hand(s) and s not in d.finished), seat)

    # ------------------------------------------------------------------ decisions
    def _choices(self, st: Board) -> tuple[list[Move], list[Play | None]]:
        d: ShedData = st.pdata
        if d.moves is None or d.plays_of is None:
            d.moves, d.plays_of, _removed = self._options_now(st)
        return d.moves, d.plays_of

    def _options_now(self, st: Board) -> tuple[list[Move], list[Play | None], dict[tuple[int, ...], Any]]:
        d: ShedData = st.pdata
        seat = st.to_act
        assert seat is not None
        ctx = st.ctx
        book = st.rs.moves
        if d.pending is not None:
            spec = self.on_play[d.pending[0]].choose
            assert spec is not None
            ctx.seat, ctx.combo = seat, d.pending[2]
            return [book.get(spec.verb, (), text) for text in self._values(st, spec)], [], {}
        ctx.seat, ctx.combo = seat, None
        cands = enumerate_all(self.combos, st.hand(seat), st.rs.pieces, ctx=ctx)
        allowed, removed = apply_restrictions(st, self.lead_rules, cands)
        if removed and self.observer is not None:
            self.observer({r.id for r in removed.values()})
        moves: list[Move] = [p.move or self._move_of(st, p) for p in allowed]
        plays: list[Play | None] = list(allowed)
        if self._may_draw(st, d, bool(allowed)):
            moves.append(book.get("draw"))
            plays.append(None)
        if not moves or self.pass_always or (self.pass_also is not None and self._pass_also(st)):
            moves.append(book.get("pass"))
            plays.append(None)
        return moves, plays, removed

    def _pass_also(self, st: Board) -> bool:
        assert self.pass_also is not None
        st.ctx.combo = None
        return bool(self.pass_also(st.ctx))

    def _may_draw(self, st: Board, d: ShedData, can_play: bool) -> bool:
        if self.stock is None:
            return False
        if can_play and self.draw_when != "always":
            if self.draw_also is None:
                return False
            st.ctx.combo = None
            if not self.draw_also(st.ctx):
                return False
        if self.draw_limit is not None and d.drawn >= self.draw_limit(st.ctx):
            return False
        return bool(st.zones[st.zone_instance(self.stock)]) or self._refillable(st)

    def _refillable(self, st: Board) -> bool:
        return self.refill_from is not None and len(st.zones[st.zone_instance(self.refill_from)]) > self.refill_keep

    def _draw(self, st: Board, seat: int, count: int) -> int:
        """``seat`` draws up to ``count`` pieces from the stock (refilled when empty, if the rules say
        so); how many it drew."""
        assert self.stock is not None
        stock = st.zone_instance(self.stock)
        hand = st.hand_instance(seat)
        drawn = 0
        while drawn < count:
            if not st.zones[stock]:
                if not self._refillable(st):
                    break
                assert self.refill_from is not None
                src = st.zones[st.zone_instance(self.refill_from)]
                moving = src[:len(src) - self.refill_keep] if self.refill_keep > 0 else list(src)
                for p in st.chance_shuffle(list(moving)):
                    st.put(p, stock)
            st.put(st.zones[stock][0], hand)
            drawn += 1
        return drawn

    def _values(self, st: Board, spec: ChoiceSpec) -> dict[str, Any]:
        return choice_values(st, spec)

    def legal(self, st: Board) -> list[Move]:
        return list(self._choices(st)[0])

    def apply(self, st: Board, move: Move) -> bool:
        d: ShedData = st.pdata
        seat = st.to_act
        assert seat is not None
        moves, plays = self._choices(st)
        d.moves = d.plays_of = None
        if d.pending is not None:
            index, _seat, play, skip = d.pending
            spec = self.on_play[index].choose
            assert spec is not None
            st.ctx.seat, st.ctx.combo = seat, play
            value = checked(self._values(st, spec)[move.value], spec.target, spec.values)
            if spec.target is not None:
                spec.target.write(st, value)
            d.pending = None
            self._after_play(st, d, seat, play, index + 1, skip)
            return False
        if move.verb == "draw":
            ctx = st.ctx
            ctx.seat, ctx.combo = seat, None
            count = max(1, int(self.draw_count(ctx))) if self.draw_count is not None else 1
            ends = self.draw_ends is not None and bool(self.draw_ends(ctx))  # (judged before the draw)
            d.drawn += self._draw(st, seat, count)
            d.passed, d.stuck = [], []
            if self.on_draw:  # (a penalty paid: the count that made it is set back)
                ctx.seat, ctx.combo = seat, None
                run_effects(st, self.on_draw)
                if st.signal:
                    return False
            if ends:
                self._pass_turn(st, d, seat, 0)
            return False
        if move.verb == "pass":
            d.passed.append(seat)
            forced = len(moves) == 1  # (a pass by choice, where pass_when is always, blocks nothing)
            if forced:
                d.stuck.append(seat)
            if self.on_pass:  # (a pass that costs a chip)
                st.ctx.seat, st.ctx.combo = seat, None
                run_effects(st, self.on_pass)
                if st.signal:
                    return False
            holding = [s for s in st.order_from(seat) if st.hand(s) and s not in d.finished]
            if forced and all(s in d.stuck for s in holding):  # blocked: nobody can play or draw
                d.ended = True
                return False
            self._pass_turn(st, d, seat, 0)
            return False
        made = plays[moves.index(move)]
        assert made is not None
        zi = self._trick_zi
        if zi < 0:
            zi = self._trick_zi = st.zone_instance(self.trick_zone)
        for p in made.pieces:
            st.put(p, zi)
        d.last_player, d.last_pieces, d.passed, d.stuck = seat, made.pieces, [], []
        d.turns += 1
        self._after_play(st, d, seat, made, 0, 0)
        return False

    def _after_play(self, st: Board, d: ShedData, seat: int, play: Play, start: int, skip: int) -> None:
        """Run ``on_play`` from item ``start`` for the play just made; then the seat goes out if its hand
        is empty and the turn passes on. A ``choose`` item stops here until the player answers."""
        ctx = st.ctx
        for i in range(start, len(self.on_play)):
            e = self.on_play[i]
            ctx.seat, ctx.combo = seat, play
            if e.when is not None and not e.when(ctx):
                continue
            if e.counted:  # an item with an id is a rule: `fired` and --coverage count it
                st.note_fired(e.id)
            if e.skip is not None:
                skip += max(0, int(e.skip(ctx)))
            if e.reverse:
                d.backwards = not d.backwards
            if e.draw_count is not None:
                target = seat_of(e.draw_seat, ctx, st.rs.seats.count, f"on_play '{e.id}' draw seat") \
                    if e.draw_seat is not None else self._next(st, d, seat)
                self._draw(st, target, max(0, int(e.draw_count(ctx))))
            if e.effects:
                run_effects(st, e.effects)
                if st.signal:
                    return
            if e.choose is not None:
                if not self._values(st, e.choose):  # a decision with no move would stop the game
                    raise rule_failed(e.choose.values.pos, f"on_play '{e.id}' makes its player choose, but "
                                                           f"'{clip(e.choose.values.text, 100)}' gave no value")
                d.pending = (i, seat, play, skip)
                return
        if not st.hand(seat):
            self._went_out(st, d, seat)
            if d.ended:
                return
        ctx.seat, ctx.combo = seat, play
        if self.end_when is not None and self.end_when(ctx):
            d.ended = True
            return
        self._pass_turn(st, d, seat, skip)

    def _pass_turn(self, st: Board, d: ShedData, seat: int, skip: int) -> None:
        cur = self._next(st, d, seat)
        for _ in range(skip):
            cur = self._next(st, d, cur)
        d.cur, d.drawn = cur, 0

    def _went_out(self, st: Board, d: ShedData, seat: int) -> None:
        record_place(st, self.places_var, d.finished, seat)
        holding = [s for s in st.order_from(seat) if st.hand(s) and s not in d.finished]
        if len(holding) <= 1:  # the last seat holding pieces takes the last place
            for s in holding:
                record_place(st, self.places_var, d.finished, s)
            d.ended = True

    def public_view(self, st: Board) -> dict[str, Any] | None:
        d: ShedData = st.pdata
        ids = st.rs.pieces.type_id
        out: dict[str, Any] = {"last_player": d.last_player, "last_play": [ids(p) for p in d.last_pieces],
                               "passed": list(d.passed), "finished": list(d.finished)}
        if any(e.reverse for e in self.on_play):  # (said only where a play can turn the direction round)
            out["backwards"] = d.backwards
        out["naming"] = self.on_play[d.pending[0]].id if d.pending is not None else None
        return out

    def explain(self, st: Board, verb: str, value: str, piece_ids: list[str]) -> str:
        d: ShedData = st.pdata
        legal = self.legal(st)
        if d.pending is not None:
            spec = self.on_play[d.pending[0]].choose
            assert spec is not None
            return f"your play asks you to {spec.verb} one of: {', '.join(m.value for m in legal)}"
        if verb == "pass":
            return f"you may pass only when you can neither play nor draw; you may: {describe_legal(legal)}"
        if verb == "draw":
            if self.stock is None:
                return "this phase has no stock to draw from"
            if any(m.verb == "play" for m in legal) and self.draw_when != "always":
                also = f" or when {clip(self.draw_also.text, 80)}" if self.draw_also is not None else ""
                return f"you may draw only when you cannot play{also}"
            if not st.zones[st.zone_instance(self.stock)]:
                return f"the {self.stock} is empty"
            return f"you have drawn as many pieces as a turn allows; you may: {describe_legal(legal)}"
        if verb != "play":
            return f"play pieces{', draw' if self.stock else ''} or pass: {describe_legal(legal)}"
        _held, missing = pieces_held(st, st.to_act, piece_ids)
        if missing is not None:
            return f"you do not hold {missing}"
        key = sorted(piece_ids)
        pieces = st.rs.pieces
        for refused, r in self._options_now(st)[2].items():
            if sorted(pieces.type_id(x) for x in refused) == key:
                return str(r.message)
        return f"{' '.join(piece_ids)} is not a play here ({', '.join(c.id for c in self.combos)}); " \
               f"you may: {describe_legal(legal)}"


def _item(b: Builder, rs: Equipment, phase: Shed, raw: dict[str, Any], i: int, scope: Scope, what: str) -> ShedItem:
    pid = str(raw.get("id", f"on-play-{i + 1}"))
    w = f"{what} on_play '{pid}'"
    keys = ("skip", "reverse", "draw", "effects", "choose")
    if not any(raw.get(k) for k in keys):
        b.error(raw, f"{w} does nothing: give it 'skip', 'reverse: true', 'draw', 'effects' or 'choose'")
    draw = raw.get("draw")
    if draw is not None and phase.stock is None:
        b.error(draw, f"{w} draws, but the phase has no stock: give the phase 'draw: {{from: ZONE}}'")
    choose = raw.get("choose")
    choice = build_choice(b, rs, choose, scope, w, VERBS) if choose is not None else None
    return ShedItem(
        pid,
        b.expr(raw["when"], scope, T.BOOL, w) if "when" in raw else None,
        b.expr(raw["skip"], scope, T.NUMBER, w) if "skip" in raw else None,
        bool(raw.get("reverse", False)),
        b.expr(draw.get("count", 1), scope, T.NUMBER, f"{w} draw count") if draw is not None else None,
        b.expr(draw["seat"], scope, T.NUMBER, f"{w} draw seat") if draw is not None and "seat" in draw else None,
        compile_effects(b, rs, raw.get("effects", ()), scope, w),
        choice,
        "id" in raw,
    )


__all__ = ["Shed", "ShedData", "ShedItem", "shed_scope"]
