"""Climbing rounds: each play must beat the one before it; a seat may pass; the last player leads next.

A rule file writes it as ``kind: climb``::

    - id: play
      kind: climb
      combinations: [single, pair, five]   # default: all
      first: "first(s for s in seats() if holds(s, piece('my-lowest')))"
      lead: {restrictions: [...]}          # as in a trick phase
      follow: {restrictions: [...]}        # a restriction with `compel: true` may forbid passing
      pass_final: false                    # a seat that passed may still play later in the round
      same_size: true                      # a play has as many pieces as the one it beats (default)
      equal: "true"                        # a play of the same class and strength may follow too
      zone: table                          # where plays lie during a round (default: trick)
      discard: played                      # where a round's pieces go when it ends (default: they stay)
      capture: {to: won}                   # ... or to the winner's own zone (see climb_rules)
      close_round: true                    # a round in play when the hand ends ends too
      interrupt: {combinations: [bomb]}    # plays any seat may make out of turn, after each play
      calls: [{id: my-call, when: "...", effects: [...]}]   # said on a seat's turn: 'call my-call'
      places: place                        # per-seat variable: 1, 2, ... as seats go out
      end_when: "count(finished) >= 1"     # the hand ends after a play when this holds
      on_round: [...]                      # effects when a round ends (trick_winner: the last player)
      on_play:                             # what a play does, in order, when its condition holds
        - {id: my-clearing-rank, when: "any(rank(p) == 8 for p in play)", clear: true}
        - {id: my-skipping-rank, skip: "count(p for p in play if rank(p) == 5)"}
        - {id: my-upset, when: "size == 4", effects: [{set: {upset: "not upset"}}]}
        - {id: my-gift, when: "any(rank(p) == 7 for p in play)", give: {count: 1, to: "next(seat, 1)"}}

The leader plays any combination the lead restrictions allow. Then, in the direction of play, each
seat still holding pieces either plays a combination that *beats the previous play* — the same class
and a higher strength (or an equal one, where ``equal`` holds), or a combination whose ``beats`` holds
for it (a bomb on any other play) — or passes. When play comes back to the seat that made the last
play, every other seat has passed since: the round ends, its pieces go to ``discard`` (or to the
``capture`` zone of the winner, or of the seat it names), and that seat leads a new round (if it has
gone out, the next seat still holding pieces). With ``pass_final: true`` a seat that passed is left
out for the rest of the round.

A seat that plays its last piece goes out: its place (1 for the first) goes into ``places`` and its
seat onto ``finished``. The hand ends when ``end_when`` holds after a play, or when one seat is left
holding pieces (it takes the last place); with ``close_round`` a round still in play then ends as
if all had passed (captured, given away, ``on_round``). The names of a trick round are available
(``lead`` is the round's first play, ``best`` the seat that played last), and also ``finished``,
``passed``, ``last_player``, ``last_play``, ``play_before``, ``equalled`` and ``out_of_turn``.

``on_play`` items run after each play, in order, each when its ``when`` holds (``play``, ``size``,
``top``... name the play just made, ``seat`` its player): ``clear`` ends the round at once (the
player won it, as if every other seat had passed), ``skip`` passes over that many of the seats that
would act next, ``effects`` are ordinary effects, ``choose`` makes the player name a value, ``give``
makes it pass pieces on (to a seat's hand or onto a zone) before the turn moves on, and ``lead`` names
who leads the next round. After them the play is rated again, so a strength that reads a variable the
play changed (an order reversed) applies to the play itself.

``interrupt`` plays are made out of turn: after each play (and its items), every seat still holding
pieces is asked in turn — from the one after the seat whose turn is next round to the player, those
two left out (the next seat answers on its turn, and a seat does not interrupt itself) — and answers
with an interrupting play that beats the last play or ``pass`` ("none now"). Every such seat is asked,
whatever it holds, so being asked shows nothing. An interrupting play is the round's last play; the
turn goes on from the seat after it, and a new window opens.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rulecraft.dsl import CompiledExpr, Scope, T
from rulecraft.engine.combos import ComboSpec, Play, enumerate_plays
from rulecraft.engine.effects import compile_effects, run_effects
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
from rulecraft.engine.phases.climb_rules import (
    CaptureSpec,
    PlayEffect,
    TurnCall,
    build_calls,
    build_capture,
    build_interrupt,
    build_play_effect,
    climb_scope,
)
from rulecraft.engine.phases.tricks import Restriction, TrickData, Tricks, apply_restrictions, build_restrictions
from rulecraft.engine.phases.values import checked, choice_values
from rulecraft.errors import clip
from rulecraft.rules.located import pos_of

if TYPE_CHECKING:
    from rulecraft.engine.board import Board
    from rulecraft.engine.builder import Builder
    from rulecraft.engine.equipment import Equipment

# A decision a play (or a round's end) leaves its player before the turn moves on, a plain tuple so a
# clone shares it: (what, seat, play, item index, seats to skip, clear, pieces left to give).
# ``what``: "choose" or "give" (an on_play item), "capture" (naming where the round's pieces go).
Pending = tuple[str, int, Play | None, int, int, bool, int]


@dataclass(slots=True)
class ClimbData(TrickData):
    cur: int = -1  # the seat whose turn it is once the round has a play
    passed: list[int] = field(default_factory=list)  # seats that passed since the last play (final: this round)
    finished: list[int] = field(default_factory=list)  # seats out, in the order they went out
    moves: list[Move] | None = None  # the seat to act's legal moves, made once per decision
    plays_of: list[Play | None] | None = None
    pending: Pending | None = None
    asking: tuple[int, ...] = ()  # seats still to be asked whether they play out of turn
    lead_next: int | None = None  # who leads the next round, when a play said so (on_play lead)
    interrupted: bool = False  # whether the latest play was made out of turn
    closed: bool = False  # the round in play when the hand ended has been ended (close_round)
    compelled: Restriction | None = None  # a restriction that forbids the seat to act to pass now

    def copy(self) -> ClimbData:
        return ClimbData(self.leader, self.round_no, self.order, list(self.seats), list(self.plays),
                         list(self.classes), list(self.strengths), self.best, set(self.barred), self.last,
                         self.winner, self.value, self.ended, None, (), self.cur, list(self.passed),
                         list(self.finished), self.moves, self.plays_of, self.pending, self.asking,
                         self.lead_next, self.interrupted, self.closed, self.compelled)


class Climb(Tricks):
    kind = "climb"

    def __init__(self, pid: str, pos: Any) -> None:
        super().__init__(pid, pos)
        self.pass_final = False
        self.same_size = True
        self.discard: str | None = None
        self.capture: CaptureSpec | None = None
        self.close_round = False
        self.equal: CompiledExpr | None = None
        self.interrupts: tuple[ComboSpec, ...] = ()
        self.calls: tuple[TurnCall, ...] = ()
        self.places_var = -1
        self.on_play: tuple[PlayEffect, ...] = ()
        self.decide = self.legal
        self.play = self.apply

    @classmethod
    def build(cls, b: Builder, rs: Equipment, raw: dict[str, Any], scope: Scope) -> Phase:
        t = cls(str(raw.get("id", cls.kind)), pos_of(raw))
        assert rs.trick_scope is not None
        cscope = climb_scope(rs.trick_scope)
        what = f"climb phase '{t.id}'"
        combos = [rs.combinations[str(n)] for n in raw.get("combinations", list(rs.combinations))
                  if b.ref(n, rs.combinations, "combination")]
        if not combos:
            b.error(raw, "a climb phase needs at least one combination (e.g. a 'single')")
        t.combos = tuple(combos)
        t.combo_by_id = {c.id: c for c in combos}
        t.first = b.expr(raw.get("first", "0"), scope, T.NUMBER, f"{what} first leader")
        t.lead_rules = build_restrictions(b, (raw.get("lead") or {}).get("restrictions", ()), cscope, what)
        t.follow_rules = build_restrictions(b, (raw.get("follow") or {}).get("restrictions", ()), cscope, what)
        t.face_up = "beating"
        t.pass_final = bool(raw.get("pass_final", False))
        t.same_size = bool(raw.get("same_size", True))
        if "equal" in raw:
            t.equal = b.expr(raw["equal"], cscope, T.BOOL, f"{what} equal")
        t.trick_zone = str(raw.get("zone", "trick"))
        t.discard = str(raw["discard"]) if raw.get("discard") is not None else None
        b.shared_zone(t.trick_zone, rs.zone_by_name, "the zone a round is played to")
        if t.discard is not None:
            b.shared_zone(t.discard, rs.zone_by_name, "the zone a finished round is put in")
        if raw.get("capture") is not None:
            if t.discard is not None:
                b.error(raw["capture"], f"{what}: a round's pieces go to 'discard' or to a seat's 'capture' zone, "
                                        "not both")
            t.capture = build_capture(b, rs, raw["capture"], cscope, what)
        t.close_round = bool(raw.get("close_round", False))
        if raw.get("interrupt") is not None:
            t.interrupts = build_interrupt(b, rs, raw["interrupt"], t.combo_by_id, what)
        t.calls = build_calls(b, rs, raw.get("calls"), cscope, what)
        t.places_var = places_variable(b, rs, raw)
        if "end_when" in raw:
            t.end_when = b.expr(raw["end_when"], cscope, T.BOOL, f"{what} end_when")
        t.on_round = compile_effects(b, rs, raw.get("on_round", ()), cscope, what)
        t.on_lead = compile_effects(b, rs, raw.get("on_lead", ()), cscope, what)
        t.on_play = tuple(build_play_effect(b, rs, item, i, cscope, what)
                          for i, item in enumerate(raw.get("on_play") or ()))
        t.track_barred = False
        return t

    # ------------------------------------------------------------------ flow
    def begin(self, st: Board) -> None:
        assert self.first is not None
        leader = int(self.first(st.ctx))
        st.pdata = ClimbData(leader, 1, st.order_from(leader))

    def blank_data(self, st: Board) -> ClimbData:
        """A round's data before its first play, its leader not asked (an agent weighing pieces before
        the phase begins: who leads may not be known yet)."""
        return ClimbData(0, 1, st.order_from(0))

    def step(self, st: Board) -> bool:
        d: ClimbData = st.pdata
        if d.pending is not None:  # a choice or a gift the last play (or the round's end) asks for
            st.to_act = st.ctx.seat = d.pending[1]
            return True
        if d.ended:
            return False
        if d.asking:  # a seat asked whether it plays out of turn
            st.to_act = st.ctx.seat = d.asking[0]
            return True
        if d.plays and d.cur == d.seats[-1]:  # play came back to the last player: all others passed
            self._end_round(st, d)
            if d.pending is not None:
                return self.step(st)
            if d.ended or st.signal:
                return False
        seat = d.leader if not d.plays else d.cur
        st.to_act = st.ctx.seat = seat
        return True

    def _holding(self, st: Board) -> list[int]:
        return [s for s in st.order_from(0) if st.hand(s)]

    def _next(self, st: Board, d: ClimbData, after: int) -> int:
        """The next seat to decide after ``after``: one still holding pieces (and, with final passing,
        that has not passed), or the last player, which ends the round."""
        last = d.seats[-1]
        order = st.order_from(after)
        for s in order[1:] + order[:1]:
            if s == last:
                return s
            if st.hand(s) and not (self.pass_final and s in d.passed):
                return s
        return last

    def _end_round(self, st: Board, d: ClimbData) -> None:
        winner = d.seats[-1]
        d.winner, d.value = winner, 1
        st.tricks[winner] += 1
        cap = self.capture
        if cap is not None and cap.choose is not None and cap.choose_when is not None:
            st.ctx.seat, st.ctx.combo = winner, d.plays[0]
            if cap.choose_when(st.ctx):  # the winner names (say) who takes the round: asked before it moves
                if not choice_values(st, cap.choose):
                    raise rule_failed(cap.choose.values.pos, f"the capture of climb phase '{self.id}' makes its "
                                                             f"winner choose, but its list gave no value")
                d.pending = ("capture", winner, None, -1, 0, False, 0)
                return
        self._settle_round(st, d)

    def _settle_round(self, st: Board, d: ClimbData) -> None:
        """The round's pieces to where they go, its record and effects, and the next round's leader."""
        winner = d.seats[-1]
        st.ctx.seat, st.ctx.combo = winner, d.plays[0]
        round_pieces = [p for play in d.plays for p in play.pieces]
        if self.discard is not None:
            st.gather(round_pieces, st.zone_instance(self.discard))
        elif self.capture is not None:
            cap = self.capture
            to = seat_of(cap.seat, st.ctx, st.rs.seats.count, f"climb phase '{self.id}' capture seat") \
                if cap.seat is not None else winner
            st.gather(round_pieces, st.zone_instance(cap.to, to))
        st.history.append({"type": "round", "winner": winner, "value": 1})
        if self.on_round:
            st.ctx.seat, st.ctx.combo = winner, d.plays[0]
            run_effects(st, self.on_round)
            if st.signal:
                return
        holding = self._holding(st)
        if len(holding) <= 1:
            d.ended = True
        if d.ended:
            return
        first = d.lead_next if d.lead_next is not None else winner
        leader = first if st.hand(first) else next(s for s in st.order_from(first) if st.hand(s))
        d.leader, d.round_no, d.order = leader, d.round_no + 1, st.order_from(leader)
        d.seats, d.plays, d.classes, d.strengths = [], [], [], []
        d.best, d.passed, d.cur = -1, [], -1
        d.winner, d.value, d.moves, d.plays_of = None, 0, None, None
        d.lead_next, d.interrupted, d.asking = None, False, ()

    def _end_hand(self, st: Board, d: ClimbData) -> None:
        """The hand is over: with ``close_round`` the round in play ends too (it may ask its winner first)."""
        d.ended = True
        d.asking = ()
        if self.close_round and d.plays and not d.closed:
            d.closed = True
            self._end_round(st, d)

    # ------------------------------------------------------------------ decisions
    def _choices(self, st: Board) -> tuple[list[Move], list[Play | None]]:
        d: ClimbData = st.pdata
        if d.moves is not None and d.plays_of is not None:
            return d.moves, d.plays_of
        moves, plays, _removed = self._options_now(st)
        d.moves, d.plays_of = moves, plays
        return moves, plays

    def _options_now(self, st: Board) -> tuple[list[Move], list[Play | None], dict[tuple[int, ...], Any]]:
        d: ClimbData = st.pdata
        seat = st.to_act
        assert seat is not None
        book = st.rs.moves
        if d.pending is not None:  # (no play behind these moves: a piece given, a value named)
            pending = self._pending_options(st, d)
            return pending, [None] * len(pending), {}
        hand = st.hand(seat)
        st.ctx.seat = seat
        if d.asking:  # out of turn: an interrupting play that beats the last play, or none now
            bombs = self._strongest_readings(st, [p for spec in self.interrupts for p in
                                                  enumerate_plays(spec, hand, st.rs.pieces, ctx=st.ctx)
                                                  if self._answers(st, d, p)])
            return [book.get("pass"), *(p.move or self._move_of(st, p) for p in bombs)], [None, *bombs], {}
        # With same_size a play has as many pieces as the one it answers, unless its combination beats
        # plays of other classes (a bomb): those are looked for at every size.
        size = d.plays[-1].size if d.plays and self.same_size else None
        cands: list[Play] = []
        seen: dict[tuple[int, ...], str | None] = {}
        readings = False
        for spec in self.combos:
            for p in enumerate_plays(spec, hand, st.rs.pieces, size=None if spec.beats else size, ctx=st.ctx):
                key = tuple(sorted(p.pieces))
                first = seen.get(key)
                if first is None:
                    seen[key] = p.combo
                    cands.append(p)
                elif first == p.combo:  # another reading of the same pieces by the same combination
                    readings = True
                    cands.append(p)
                # (the same pieces making two combinations are offered as the first)
        d.compelled = None
        if not d.plays:
            allowed, removed = apply_restrictions(st, self.lead_rules, cands)
        else:
            beating = [p for p in cands if self._answers(st, d, p)]
            allowed, removed = apply_restrictions(st, self.follow_rules, beating)
            d.compelled = self._compelling(st, allowed)
        if readings:
            allowed = self._strongest_readings(st, allowed)
        if removed and self.observer is not None:
            self.observer({r.id for r in removed.values()})
        moves: list[Move] = [p.move or self._move_of(st, p) for p in allowed]
        plays: list[Play | None] = list(allowed)
        if d.plays and d.compelled is None:
            moves.insert(0, book.get("pass"))
            plays.insert(0, None)
        for call in self.calls:
            st.ctx.seat, st.ctx.combo = seat, None
            if call.when(st.ctx):
                moves.append(book.get("call", (), call.id))
                plays.append(None)
        return moves, plays, removed

    def _pending_options(self, st: Board, d: ClimbData) -> list[Move]:
        what, seat, play, index, _skip, _clear, _left = d.pending  # type: ignore[misc]
        book = st.rs.moves
        st.ctx.seat, st.ctx.combo = seat, play
        if what == "give":
            give = self.on_play[index].give
            assert give is not None
            moves = [book.get("give", (p,)) for p in _lowest_copies(st, st.hand(seat))]
            return [book.get("pass"), *moves] if give.up_to else moves
        spec = self.on_play[index].choose if what == "choose" else self.capture.choose  # type: ignore[union-attr]
        assert spec is not None
        if what == "capture":
            st.ctx.combo = st.pdata.plays[0]
        return [book.get(spec.verb, (), text) for text in choice_values(st, spec)]

    def _compelling(self, st: Board, allowed: list[Play]) -> Restriction | None:
        """A follow restriction with ``compel`` that some allowed play satisfies: then passing is refused."""
        for r in self.follow_rules:
            if not r.compel or not allowed:
                continue
            applies = allowed if r.when is None else r.when.select(st.ctx, allowed)
            if applies and r.allow.select(st.ctx, applies):
                return r
        return None

    def _answers(self, st: Board, d: ClimbData, play: Play) -> bool:
        """Whether ``play`` beats the play before it: of its class and stronger (or, where ``equal``
        holds, as strong), or of a combination whose ``beats`` holds for it (a bomb on any other play)."""
        cls, strength = self._rate(st, play)
        if cls == d.classes[d.best]:
            best = d.strengths[d.best]
            if strength > best:
                return True
            if strength == best and self.equal is not None:
                st.ctx.combo = play
                return bool(self.equal(st.ctx))
            return False
        beats = self.combo_by_id[play.combo or ""].beats
        if beats is None:
            return False
        st.ctx.combo = play
        return bool(beats(st.ctx))

    def _strongest_readings(self, st: Board, plays: list[Play]) -> list[Play]:
        """One play per set of pieces: where a combination reads the same pieces in several ways (a wild
        piece at either end of a run), the strongest of them, in the place of the first."""
        best: dict[tuple[int, ...], int] = {}
        out: list[Play] = []
        for p in plays:
            key = tuple(sorted(p.pieces))
            i = best.get(key)
            if i is None:
                best[key] = len(out)
                out.append(p)
            elif self._rate(st, p)[1] > self._rate(st, out[i])[1]:
                out[i] = p
        return out

    def legal(self, st: Board) -> list[Move]:
        return list(self._choices(st)[0])

    def apply(self, st: Board, move: Move) -> bool:
        d: ClimbData = st.pdata
        seat = st.to_act
        assert seat is not None
        moves, plays = self._choices(st)
        d.moves = d.plays_of = None
        if d.pending is not None:
            self._answer_pending(st, d, move)
            return False
        if d.asking:
            d.asking = d.asking[1:]
            play = plays[moves.index(move)]
            if play is not None:
                d.asking = ()
                self._made(st, d, seat, play, out_of_turn=True)
            return False
        if move.verb == "call":
            call = next(c for c in self.calls if c.id == move.value)
            st.note_fired(call.id)
            st.ctx.seat, st.ctx.combo = seat, None
            run_effects(st, call.effects)
            return False
        play = plays[moves.index(move)]
        if play is None:  # a pass
            d.passed.append(seat)
            d.cur = self._next(st, d, seat)
            return False
        self._made(st, d, seat, play, out_of_turn=False)
        return False

    def _made(self, st: Board, d: ClimbData, seat: int, play: Play, out_of_turn: bool) -> None:
        """A play made (on the seat's turn or out of it): to the round, then what it does."""
        trick_zi = self._trick_zi
        if trick_zi < 0:
            trick_zi = self._trick_zi = st.zone_instance(self.trick_zone)
        for p in play.pieces:
            st.put(p, trick_zi)
        st.ctx.seat = seat
        cls, strength = self._rate(st, play)
        d.seats.append(seat)
        d.plays.append(play)
        d.classes.append(cls)
        d.strengths.append(strength)
        d.best = len(d.plays) - 1
        d.interrupted = out_of_turn
        if not self.pass_final:  # a pass counts until the next play; with final passing, for the round
            d.passed = []
        if len(d.plays) == 1 and self.on_lead:
            st.ctx.seat, st.ctx.combo = seat, play
            run_effects(st, self.on_lead)
            if st.signal:
                return
        self._run_items(st, d, seat, play, 0, 0, False)

    def _run_items(self, st: Board, d: ClimbData, seat: int, play: Play, start: int, skip: int, clear: bool) -> None:
        """Run ``on_play`` from item ``start`` for the play just made; an item that asks the player
        something (``choose``, ``give``) stops here until it has answered. Then the turn moves on."""
        ctx = st.ctx
        for i in range(start, len(self.on_play)):
            e = self.on_play[i]
            ctx.seat, ctx.combo = seat, play
            if e.when is not None and not e.when(ctx):
                continue
            if e.counted:  # an item with an id is a rule: `fired` and --coverage count it
                st.note_fired(e.id)
            clear = clear or e.clear
            if e.skip is not None:
                skip += max(0, int(e.skip(ctx)))
            if e.lead is not None:
                d.lead_next = seat_of(e.lead, ctx, st.rs.seats.count, f"on_play '{e.id}' lead")
            if e.effects:
                run_effects(st, e.effects)
                if st.signal:
                    return
            if e.choose is not None:
                ctx.seat, ctx.combo = seat, play
                if not choice_values(st, e.choose):  # a decision with no move would stop the game
                    raise rule_failed(e.choose.values.pos, f"on_play '{e.id}' makes its player choose, but "
                                                           f"'{clip(e.choose.values.text, 100)}' gave no value")
                d.pending = ("choose", seat, play, i, skip, clear, 0)
                return
            if e.give is not None:
                ctx.seat, ctx.combo = seat, play
                count = min(max(0, int(e.give.count(ctx))), len(st.hand(seat)))
                if count > 0:
                    d.pending = ("give", seat, play, i, skip, clear, count)
                    return
        self._after_play(st, d, seat, play, skip, clear)

    def _answer_pending(self, st: Board, d: ClimbData, move: Move) -> None:
        assert d.pending is not None
        what, seat, play, index, skip, clear, left = d.pending
        ctx = st.ctx
        if what == "capture":
            spec = self.capture.choose  # type: ignore[union-attr]
            assert spec is not None
            ctx.seat, ctx.combo = seat, d.plays[0]
            value = checked(choice_values(st, spec)[move.value], spec.target, spec.values)
            if spec.target is not None:
                spec.target.write(st, value)
            d.pending = None
            self._settle_round(st, d)
            return
        assert play is not None
        item = self.on_play[index]
        if what == "choose":
            spec = item.choose
            assert spec is not None
            ctx.seat, ctx.combo = seat, play
            value = checked(choice_values(st, spec)[move.value], spec.target, spec.values)
            if spec.target is not None:
                spec.target.write(st, value)
            d.pending = None
            self._run_items(st, d, seat, play, index + 1, skip, clear)
            return
        give = item.give  # a piece given (or, with up_to, giving stopped)
        assert give is not None
        if move.verb == "give":
            ctx.seat, ctx.combo = seat, play
            p = move.pieces[0]
            if give.zone is not None:
                st.put(p, st.zone_instance(give.zone))
            else:
                assert give.to is not None
                to = seat_of(give.to, ctx, st.rs.seats.count, f"on_play '{item.id}' give to")
                hand = st.hand_instance(to)
                st.put(p, hand)
                st.known[p] = (seat, hand)  # the giver still knows where the piece it passed lies
            left -= 1
        if move.verb == "give" and left > 0 and st.hand(seat):
            d.pending = (what, seat, play, index, skip, clear, left)
            return
        d.pending = None
        self._run_items(st, d, seat, play, index + 1, skip, clear)

    def _after_play(self, st: Board, d: ClimbData, seat: int, play: Play, skip: int, clear: bool) -> None:
        # Rated again: an effect may have changed what the strength reads (an order reversed by this play),
        # as it was rated when made: against the play before it (`best_strength`).
        if self.on_play:  # (the round as it stood when the play was made: without it)
            st.ctx.seat = seat
            made = d.seats.pop(), d.plays.pop(), d.classes.pop(), d.strengths.pop()
            d.best = len(d.plays) - 1
            cls, strength = self._rate(st, play)
            d.seats.append(made[0])
            d.plays.append(made[1])
            d.classes.append(cls)
            d.strengths.append(strength)
            d.best = len(d.plays) - 1
        if not st.hand(seat):
            self._went_out(st, d, seat)
            if d.ended:
                self._end_hand(st, d)
                return
        if self.end_when is not None:  # asked after every play, not only when a seat goes out
            st.ctx.seat, st.ctx.combo = seat, play
            if self.end_when(st.ctx):
                self._end_hand(st, d)
                return
        d.cur = self._next(st, d, seat)
        if clear:  # as if every other seat had passed: step() ends the round
            d.cur = seat
            return
        for _ in range(skip):
            if d.cur == seat:
                break
            d.cur = self._next(st, d, d.cur)
        if self.interrupts and d.cur != seat:
            d.asking = tuple(s for s in st.order_from(d.cur)[1:] if s != seat and st.hand(s))

    def _went_out(self, st: Board, d: ClimbData, seat: int) -> None:
        record_place(st, self.places_var, d.finished, seat)
        holding = self._holding(st)
        if len(holding) == 1:  # the last seat holding pieces takes the last place
            record_place(st, self.places_var, d.finished, holding[0])
        if len(holding) <= 1:
            d.ended = True

    def public_view(self, st: Board) -> dict[str, Any] | None:
        d: ClimbData = st.pdata
        out: dict[str, Any] = {"last_player": d.seats[-1] if d.seats else None, "passed": list(d.passed),
                               "finished": list(d.finished)}
        if self.interrupts:  # (said only where plays may be made out of turn)
            out["asking"] = d.asking[0] if d.asking else None
        if d.pending is not None:
            out["deciding"] = d.pending[0]
        return out

    def explain(self, st: Board, verb: str, value: str, piece_ids: list[str]) -> str:
        d: ClimbData = st.pdata
        if d.pending is not None:
            return f"your play asks you to {d.pending[0]} first: {describe_legal(self.legal(st))}"
        if d.asking:
            return f"out of turn you may only interrupt or pass: {describe_legal(self.legal(st))}"
        if verb == "pass":
            if d.compelled is not None:
                return str(d.compelled.message)
            return "the leader of a round must play"
        if verb == "call":
            return f"you may not call '{value}' now: {describe_legal(self.legal(st))}"
        if verb != "play":
            return f"play pieces or pass: {describe_legal(self.legal(st))}"
        pieces = st.rs.pieces
        _held, missing = pieces_held(st, st.to_act, piece_ids)
        if missing is not None:  # as in a trick round: a piece not in the hand is the first thing to say
            return f"you do not hold {missing}"
        key = sorted(piece_ids)
        for refused, r in self._options_now(st)[2].items():
            if sorted(pieces.type_id(x) for x in refused) == key:
                return str(r.message)
        if not d.plays:
            return f"{' '.join(piece_ids)} may not be led here ({', '.join(c.id for c in self.combos)})"
        last = " ".join(st.rs.pieces.type_id(x) for x in d.plays[-1].pieces)
        k = d.plays[-1].size
        if self.same_size and len(piece_ids) != k:
            many = "as many as were led" if k == d.plays[0].size else "as many as the last play"
            return f"you must play {k} piece{'s' if k != 1 else ''}, {many}, or pass"
        return f"{' '.join(piece_ids)} does not beat the last play ({last}); beat it or pass"


def _lowest_copies(st: Board, hand: list[int]) -> list[int]:
    """The hand's pieces, identical copies once (the lowest), in order."""
    type_of = st.rs.pieces.type_of
    seen: set[int] = set()
    out = []
    for p in sorted(hand):
        if type_of[p] not in seen:
            seen.add(type_of[p])
            out.append(p)
    return out


__all__ = ["Climb", "ClimbData", "PlayEffect", "climb_scope"]
