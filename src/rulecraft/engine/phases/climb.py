"""Climbing rounds: each play must beat the one before it; a seat may pass; the last player leads next.

A rule file writes it as ``kind: climb``::

    - id: play
      kind: climb
      combinations: [single, pair, five]   # default: all
      first: "first(s for s in seats() if holds(s, piece('my-lowest')))"
      lead: {restrictions: [...]}          # as in a trick phase
      follow: {restrictions: [...]}
      pass_final: false                    # a seat that passed may still play later in the round
      same_size: true                      # a play has as many pieces as the lead (default)
      zone: table                          # where plays lie during a round (default: trick)
      discard: played                      # where a round's pieces go when it ends (default: they stay)
      places: place                        # per-seat variable: 1, 2, ... as seats go out
      end_when: "count(finished) >= 1"     # the hand ends after a play when this holds
      on_round: [...]                      # effects when a round ends (trick_winner: the last player)
      on_play:                             # what a play does, in order, when its condition holds
        - {id: my-clearing-rank, when: "any(rank(p) == 8 for p in play)", clear: true}
        - {id: my-skipping-rank, skip: "count(p for p in play if rank(p) == 5)"}
        - {id: my-upset, when: "size == 4", effects: [{set: {upset: "not upset"}}]}

The leader plays any combination the lead restrictions allow. Then, in the direction of play, each
seat still holding pieces either plays a combination of the lead's class (and size) that *beats the
previous play* — the same class, a higher strength — or passes. When play comes back to the seat
that made the last play, every other seat has passed since: the round ends, its pieces go to
``discard``, and that seat leads a new round (if it has gone out, the next seat still holding
pieces). With ``pass_final: true`` a seat that passed is left out for the rest of the round.

A seat that plays its last piece goes out: its place (1 for the first) goes into ``places`` and its
seat onto ``finished``. The hand ends when ``end_when`` holds after a play, or when one seat is left
holding pieces (it takes the last place). The names of a trick round are available (``lead`` is the
round's first play, ``best`` the seat that played last), and also ``finished``, ``passed`` (the
seats that passed since the last play), ``last_player``, ``last_play`` (the pieces of the round's
latest play) and ``play_before`` (those of the play before it).

``on_play`` items run after each play, in order, each when its ``when`` holds (``play``, ``size``,
``top``... name the play just made, ``seat`` its player): ``clear`` ends the round at once (the
player won it, as if every other seat had passed), ``skip`` passes over that many of the seats
that would act next, and ``effects`` are ordinary effects. After them the play is rated again, so a
strength that reads a variable the play changed (an order reversed) applies to the play itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rulecraft.dsl import CompiledExpr, Scope, T
from rulecraft.engine.combos import Play, enumerate_all
from rulecraft.engine.effects import Effect, compile_effects, run_effects
from rulecraft.engine.moves import Move
from rulecraft.engine.phases.base import Phase, describe_legal, pieces_held, places_variable, record_place
from rulecraft.engine.phases.tricks import TrickData, Tricks, apply_restrictions, build_restrictions
from rulecraft.rules.located import pos_of

if TYPE_CHECKING:
    from rulecraft.engine.board import Board
    from rulecraft.engine.builder import Builder
    from rulecraft.engine.equipment import Equipment


@dataclass(slots=True)
class ClimbData(TrickData):
    cur: int = -1  # the seat whose turn it is once the round has a play
    passed: list[int] = field(default_factory=list)  # seats that passed since the last play (final: this round)
    finished: list[int] = field(default_factory=list)  # seats out, in the order they went out
    moves: list[Move] | None = None  # the seat to act's legal moves, made once per decision
    plays_of: list[Play | None] | None = None

    def copy(self) -> ClimbData:
        return ClimbData(self.leader, self.round_no, self.order, list(self.seats), list(self.plays),
                         list(self.classes), list(self.strengths), self.best, set(self.barred), self.last,
                         self.winner, self.value, self.ended, None, (), self.cur, list(self.passed),
                         list(self.finished), self.moves, self.plays_of)


@dataclass(frozen=True, slots=True)
class PlayEffect:
    """One item of ``on_play``: when ``when`` holds for the play just made, ``clear`` the round,
    ``skip`` seats and run ``effects``."""

    id: str
    when: CompiledExpr | None
    clear: bool
    skip: CompiledExpr | None
    effects: tuple[Effect, ...]


def _play_at(c: Any, back: int) -> list[int]:
    plays = c.st.pdata.plays
    return list(plays[-back].pieces) if len(plays) >= back else []


def climb_scope(parent: Scope) -> Scope:
    s = Scope(parent=parent, name="climbing round")
    s.add_name("finished", T.LIST, getter=lambda c: list(c.st.pdata.finished), elem=T.SEAT,
               doc="the seats that have gone out, in order")
    s.add_name("passed", T.LIST, getter=lambda c: list(c.st.pdata.passed), elem=T.SEAT,
               doc="the seats that passed since the last play (with pass_final: this round)")
    s.add_name("last_player", T.SEAT,
               getter=lambda c: c.st.pdata.seats[-1] if c.st.pdata.seats else None,
               doc="the seat that made the last play of the round")
    s.add_name("last_play", T.LIST, getter=lambda c: _play_at(c, 1), elem=T.PIECE,
               doc="the pieces of the round's latest play (empty before the lead)")
    s.add_name("play_before", T.LIST, getter=lambda c: _play_at(c, 2), elem=T.PIECE,
               doc="the pieces of the play before the round's latest one (empty if there is none)")
    return s


class Climb(Tricks):
    kind = "climb"

    def __init__(self, pid: str, pos: Any) -> None:
        super().__init__(pid, pos)
        self.pass_final = False
        self.same_size = True
        self.discard: str | None = None
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
        t.trick_zone = str(raw.get("zone", "trick"))
        t.discard = str(raw["discard"]) if raw.get("discard") is not None else None
        b.shared_zone(t.trick_zone, rs.zone_by_name, "the zone a round is played to")
        if t.discard is not None:
            b.shared_zone(t.discard, rs.zone_by_name, "the zone a finished round is put in")
        t.places_var = places_variable(b, rs, raw)
        if "end_when" in raw:
            t.end_when = b.expr(raw["end_when"], cscope, T.BOOL, f"{what} end_when")
        t.on_round = compile_effects(b, rs, raw.get("on_round", ()), cscope, what)
        t.on_lead = compile_effects(b, rs, raw.get("on_lead", ()), cscope, what)
        t.on_play = tuple(_play_effect(b, rs, item, i, cscope, what) for i, item in enumerate(raw.get("on_play") or ()))
        t.track_barred = False
        return t

    # ------------------------------------------------------------------ flow
    def begin(self, st: Board) -> None:
        assert self.first is not None
        leader = int(self.first(st.ctx))
        st.pdata = ClimbData(leader, 1, st.order_from(leader))

    def step(self, st: Board) -> bool:
        d: ClimbData = st.pdata
        if d.ended:
            return False
        if d.plays and d.cur == d.seats[-1]:  # play came back to the last player: all others passed
            self._end_round(st, d)
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
        st.ctx.seat, st.ctx.combo = winner, d.plays[0]
        round_pieces = [p for play in d.plays for p in play.pieces]
        if self.discard is not None:
            st.gather(round_pieces, st.zone_instance(self.discard))
        st.history.append({"type": "round", "winner": winner, "value": 1})
        if self.on_round:
            run_effects(st, self.on_round)
            if st.signal:
                return
        holding = self._holding(st)
        if len(holding) <= 1:
            d.ended = True
            return
        leader = winner if st.hand(winner) else next(s for s in st.order_from(winner) if st.hand(s))
        d.leader, d.round_no, d.order = leader, d.round_no + 1, st.order_from(leader)
        d.seats, d.plays, d.classes, d.strengths = [], [], [], []
        d.best, d.passed, d.cur = -1, [], -1
        d.winner, d.value, d.moves, d.plays_of = None, 0, None, None

    # ------------------------------------------------------------------ decisions
    def _choices(self, st: Board) -> tuple[list[Move], list[Play | None]]:
        d: ClimbData = st.pdata
        if d.moves is not None and d.plays_of is not None:
            return d.moves, d.plays_of
        moves, plays, _removed = self._options_now(st)
        d.moves, d.plays_of = moves, plays
        return moves, plays

    def _options_now(self, st: Board) -> tuple[list[Move], list[Play | None], dict[Play, Any]]:
        d: ClimbData = st.pdata
        seat = st.to_act
        assert seat is not None
        hand = st.hand(seat)
        st.ctx.seat = seat
        size = len(d.plays[0].pieces) if d.plays and self.same_size else None
        # (the same pieces may make two combinations: each reading is a play of its own, named in its move)
        cands = enumerate_all(self.combos, hand, st.rs.pieces, size)
        if not d.plays:
            allowed, removed = apply_restrictions(st, self.lead_rules, cands)
        else:
            beating = [p for p in cands if self._beats(d, *self._rate(st, p))]
            allowed, removed = apply_restrictions(st, self.follow_rules, beating)
        if removed and self.observer is not None:
            self.observer({r.id for r in removed.values()})
        moves, offered = self._offered(st, cands, allowed)
        plays: list[Play | None] = list(offered)
        if d.plays:
            moves.insert(0, st.rs.moves.get("pass"))
            plays.insert(0, None)
        return moves, plays, removed

    def legal(self, st: Board) -> list[Move]:
        return list(self._choices(st)[0])

    def apply(self, st: Board, move: Move) -> bool:
        d: ClimbData = st.pdata
        seat = st.to_act
        assert seat is not None
        moves, plays = self._choices(st)
        play = plays[moves.index(move)]
        d.moves = d.plays_of = None
        if play is None:  # a pass
            d.passed.append(seat)
            d.cur = self._next(st, d, seat)
            return False
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
        if not self.pass_final:  # a pass counts until the next play; with final passing, for the round
            d.passed = []
        if len(d.plays) == 1 and self.on_lead:
            st.ctx.seat, st.ctx.combo = seat, play
            run_effects(st, self.on_lead)
            if st.signal:
                return False
        skip, clear = 0, False
        if self.on_play:
            skip, clear = self._run_on_play(st, d, seat, play)
            if st.signal:
                return False
        if not st.hand(seat):
            self._went_out(st, d, seat)
            if d.ended:
                return False
        d.cur = self._next(st, d, seat)
        if clear:  # as if every other seat had passed: step() ends the round
            d.cur = seat
        for _ in range(skip):
            if d.cur == seat:
                break
            d.cur = self._next(st, d, d.cur)
        return False

    def _run_on_play(self, st: Board, d: ClimbData, seat: int, play: Play) -> tuple[int, bool]:
        """Run ``on_play`` for the play just made; (seats to skip, whether the round is cleared)."""
        ctx = st.ctx
        skip, clear = 0, False
        for e in self.on_play:
            ctx.seat, ctx.combo = seat, play
            if e.when is not None and not e.when(ctx):
                continue
            clear = clear or e.clear
            if e.skip is not None:
                skip += max(0, int(e.skip(ctx)))
            if e.effects:
                run_effects(st, e.effects)
                if st.signal:
                    return skip, clear
        # Rated again: an effect may have changed what the strength reads (an order reversed by this play).
        ctx.seat = seat
        d.classes[-1], d.strengths[-1] = self._rate(st, play)
        return skip, clear

    def _went_out(self, st: Board, d: ClimbData, seat: int) -> None:
        record_place(st, self.places_var, d.finished, seat)
        holding = self._holding(st)
        if len(holding) == 1:  # the last seat holding pieces takes the last place
            record_place(st, self.places_var, d.finished, holding[0])
        st.ctx.seat = seat
        if len(holding) <= 1 or (self.end_when is not None and self.end_when(st.ctx)):
            d.ended = True

    def public_view(self, st: Board) -> dict[str, Any] | None:
        d: ClimbData = st.pdata
        return {"last_player": d.seats[-1] if d.seats else None, "passed": list(d.passed),
                "finished": list(d.finished)}

    def explain(self, st: Board, verb: str, value: str, piece_ids: list[str]) -> str:
        d: ClimbData = st.pdata
        if verb == "pass":
            return "the leader of a round must play"
        if verb != "play":
            return f"play pieces or pass: {describe_legal(self.legal(st))}"
        pieces = st.rs.pieces
        _held, missing = pieces_held(st, st.to_act, piece_ids)
        if missing is not None:  # as in a trick round: a piece not in the hand is the first thing to say
            return f"you do not hold {missing}"
        key = sorted(piece_ids)
        for refused, r in self._options_now(st)[2].items():
            if sorted(pieces.type_id(x) for x in refused.pieces) == key and value in ("", refused.combo):
                return str(r.message)
        if not d.plays:
            return f"{' '.join(piece_ids)} may not be led here ({', '.join(c.id for c in self.combos)})"
        last = " ".join(st.rs.pieces.type_id(x) for x in d.plays[-1].pieces)
        k = len(d.plays[0].pieces)
        if self.same_size and len(piece_ids) != k:
            return f"you must play {k} piece{'s' if k != 1 else ''}, as many as were led, or pass"
        return f"{' '.join(piece_ids)} does not beat the last play ({last}); beat it or pass"


def _play_effect(b: Builder, rs: Equipment, raw: dict[str, Any], i: int, scope: Scope, what: str) -> PlayEffect:
    pid = str(raw.get("id", f"on-play-{i + 1}"))
    w = f"{what} on_play '{pid}'"
    if not (raw.get("clear") or "skip" in raw or raw.get("effects")):
        b.error(raw, f"{w} does nothing: give it 'clear: true', 'skip' or 'effects'")
    return PlayEffect(
        pid,
        b.expr(raw["when"], scope, T.BOOL, w) if "when" in raw else None,
        bool(raw.get("clear", False)),
        b.expr(raw["skip"], scope, T.NUMBER, w) if "skip" in raw else None,
        compile_effects(b, rs, raw.get("effects", ()), scope, w),
    )


__all__ = ["Climb", "ClimbData", "PlayEffect", "climb_scope"]
