"""An auction: calls in turn over a set of bids the rule file orders, until the bidding ends.

A rule file writes it as ``kind: auction``::

    - id: auction
      kind: auction
      first: dealer
      bids:                                   # numbers {min, max, step}, a table {values: [...]} or tuples:
        product: {level: [1, 2, 3, 4, 5, 6, 7], strain: [C, D, H, S, NT]}
        text: "{level}{strain}"               # moves read 'bid 4S'
      pass_final: false                       # a pass holds until the next call
      doubles: {calls: [double, redouble], set: doubled}
      record: calls                           # every call, in order: [seat, what, value]
      winner: high_bidder
      amount: contract                        # [4, 'S']

    - id: bidding
      kind: auction
      bids: {values: bid_values}              # a constant list: 18, 20, 22, 23 ...
      duels: "[left_of(dealer), next(dealer, 2), dealer]"   # seats by seniority: two bid at a time
      holds: true                             # the senior answers 'hold' (the same value) or passes

A bid must rise above the standing bid in the set's order. **Holds**: a seat senior to the high bidder
may call the standing bid again (``hold``), and stands on it. **Duels**: seats bid two at a time in
the order of seniority ``duels`` gives — the second speaks (bids or passes), the first answers (holds,
or, without ``holds``, bids higher) or passes; the survivor meets the next seat, which speaks to it;
a survivor left with no bid made may still bid or pass. **Doubles**: each of ``doubles.calls`` answers
the one before it — the first is made by an opponent of the high bidder's side on a bid not yet doubled,
the second by that side on the first, and so on; a new bid clears them. Every call but a pass (a bid, a
hold, a double) brings the seats that passed back in when passes are not final, so the bidding ends
when every other seat has passed since the last such call. ``record`` keeps the whole history for the
rules that need it (Bridge's declarer is the first of the winning side to have named the final strain).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rulecraft.dsl import CompiledExpr, Scope, T
from rulecraft.dsl.types import accepts, describe
from rulecraft.engine.effects import Effect, compile_effects, run_effects
from rulecraft.engine.moves import Move, verb_problem
from rulecraft.engine.phases.base import Phase, describe_legal, rule_failed, seat_of
from rulecraft.engine.phases.ordered_values import OrderedValues, ordered_values
from rulecraft.errors import clip
from rulecraft.rules.located import pos_of

if TYPE_CHECKING:
    from rulecraft.engine.board import Board
    from rulecraft.engine.builder import Builder
    from rulecraft.engine.equipment import Equipment


def seat_scope(parent: Scope, what: str) -> Scope:
    s = Scope(parent=parent, name=what)
    s.add_name("seat", T.SEAT, code="ctx.seat", doc="the seat deciding")
    return s


def _data(c: Any) -> AuctionData | None:
    d = c.st.pdata
    return d if isinstance(d, AuctionData) else None


def _high_bid(c: Any) -> Any:
    d = _data(c)
    phase = c.st.rs.phases[c.st.pidx]
    if d is None or d.high < 0 or not isinstance(phase, Auction) or phase.ladder is None:
        return None
    return phase.ladder.value(d.high)


def auction_scope(parent: Scope, what: str, bid_type: T) -> Scope:
    """What a call's condition sees: the seat, and the bidding so far."""
    s = seat_scope(parent, what)
    s.add_name("high_bid", bid_type, getter=_high_bid, doc="the standing bid (none before the first)")
    s.add_name("high_bidder", T.SEAT, getter=lambda c: d.high_seat if (d := _data(c)) is not None else None,
               doc="the seat that made or last held the standing bid (none before the first)")
    s.add_name("passed", T.LIST, getter=lambda c: list(d.passed) if (d := _data(c)) is not None else [],
               elem=T.SEAT, doc="the seats that have passed (passes not final: since the last call)")
    s.add_name("doubling", T.NUMBER, getter=lambda c: d.doubling if (d := _data(c)) is not None else 0,
               doc="how many doubling calls stand on the standing bid (0, 1 for a double, 2 for a redouble)")
    return s


@dataclass(slots=True)
class AuctionData:
    order: Sequence[int]  # the seats in turn (with duels: by seniority, the most senior first)
    turn: int = 0  # turns taken (without duels, order[turn % n] is the next seat to call)
    passed: list[int] = field(default_factory=list)
    high: int = -1  # the standing bid's place in the set of bids (-1: none yet)
    high_seat: int | None = None
    last_caller: int | None = None  # the seat of the last call that was not a pass
    doubling: int = 0
    done: bool = False
    # Extra calls open to any seat (``by: any_seat``): the seats still to be asked before the seat
    # whose turn it is decides (a tuple: clones share it), and the turn they were asked for.
    asking: tuple[int, ...] = ()
    asked_for: int = -1
    # Duels: the pair bidding now (senior, junior), whether the senior answers, the seats still to
    # come in, and the survivor once every duel is over.
    duel: tuple[int, int] | None = None
    answering: bool = False
    waiting: tuple[int, ...] = ()
    alone: int = -1

    def copy(self) -> AuctionData:
        return AuctionData(self.order, self.turn, list(self.passed), self.high, self.high_seat, self.last_caller,
                           self.doubling, self.done, self.asking, self.asked_for, self.duel, self.answering,
                           self.waiting, self.alone)


EXTRA_BY = ("turn", "any_seat")


@dataclass(frozen=True, slots=True)
class ExtraCall:
    id: str
    when: CompiledExpr
    effects: tuple[Effect, ...]
    by: str = "turn"  # who may make it: the seat whose turn it is, or any seat before every turn


class Auction(Phase):
    """Calls in turn. Bids rise through ``bids``; a named call in ``calls`` wins at once.

    Passing is final (``pass_final: false``: a pass holds only until the next call, which brings every
    seat back in, so a seat that passed may bid again when its turn comes round; ``passes`` then marks
    the seats that passed since the last call). The auction ends when one bidder is left, at the first
    named call, or when everyone has passed (``all_pass`` effects run; by default the hand is void).
    ``extra_calls`` are calls with their own condition and effects (a redeal request). ``winner``,
    ``amount`` and ``passes`` name variables that receive the winning seat, the winning bid and, per
    seat, whether it passed (rules later ask "did the first player pass?"). Holds, duels, doubles and
    the record: see the module.

    An extra call ``by: any_seat`` may also be made out of turn: before each turn every other seat is
    asked, in order from the seat whose turn it is, and answers with the call (offered only where its
    condition holds for that seat) or ``pass`` (no call now; not a pass in the auction). Every seat is
    asked whatever it holds: whose decision it is is public, so asking only the seats for which the
    condition holds would show everyone that it does (a hand without counters, say).
    """

    kind = "auction"

    def __init__(self, pid: str, pos: Any) -> None:
        super().__init__(pid, pos)
        self.first: CompiledExpr | None = None
        self.ladder: OrderedValues | None = None
        self.bid_verb = "bid"
        self.calls: tuple[str, ...] = ()
        self.extra: tuple[ExtraCall, ...] = ()
        self.anytime: tuple[ExtraCall, ...] = ()  # the extra calls any seat may make, before every turn
        self.winner_var = -1
        self.amount_var = -1
        self.all_pass: tuple[Effect, ...] = ()
        self.on_end: tuple[Effect, ...] = ()
        self.pass_final = True
        self.max_wins = False  # whether the highest bid wins at once (nobody can go over it)
        self.passes_var = -1  # a per-seat variable marking the seats that passed
        self.hold_verb = ""  # '' when holds are not allowed
        self.duels: CompiledExpr | None = None
        self.doubles: tuple[str, ...] = ()
        self.doubling_var = -1
        self.record_var = -1
        self._fixed_moves: dict[int, list[Move]] = {}  # by lowest bid allowed: the moves that need no condition
        self._extra_moves: list[Move] = []  # each extra call's move, made at first use

    @property
    def bids(self) -> tuple[int, int, int] | None:
        """(min, max, step) of bids written as numbers in steps, else None."""
        return self.ladder.steps if self.ladder is not None else None

    @classmethod
    def build(cls, b: Builder, rs: Equipment, raw: dict[str, Any], scope: Scope) -> Phase:
        a = cls(str(raw.get("id", "auction")), pos_of(raw))
        what = f"auction '{a.id}'"
        a.first = b.expr(raw.get("first", "0"), scope, T.NUMBER, f"{what} first seat")
        if "bids" in raw:
            a.ladder = ordered_values(b, raw["bids"], rs.constants, f"{what} bids")
            if isinstance(raw["bids"], dict) and "verb" in raw["bids"]:
                a.bid_verb = a._verb(b, raw["bids"]["verb"], True)
            a.max_wins = isinstance(raw["bids"], dict) and bool(raw["bids"].get("max_wins", False))
        a.calls = tuple(str(c) for c in raw.get("calls", ()))
        if "bids" not in raw and not a.calls:
            b.error(raw, "an auction needs 'bids' or 'calls' (or both)")
        sscope = auction_scope(scope, what, a.ladder.item_type if a.ladder is not None else T.ANY)
        a.extra = tuple(
            ExtraCall(str(e["id"]), b.expr(e.get("when", "true"), sscope, T.BOOL, f"call '{e['id']}'"),
                      compile_effects(b, rs, e.get("effects", ()), sscope, f"call '{e['id']}'"),
                      str(e.get("by", "turn")))
            for e in raw.get("extra_calls", ())
        )
        for e, x in zip(raw.get("extra_calls", ()), a.extra, strict=True):
            if x.by not in EXTRA_BY:
                b.error(e.get("by"), f"'by' is one of {', '.join(EXTRA_BY)}, not '{x.by}'")
        a.anytime = tuple(x for x in a.extra if x.by == "any_seat")
        for key, attr in (("winner", "winner_var"), ("amount", "amount_var"), ("passes", "passes_var"),
                          ("record", "record_var")):
            if key in raw and b.ref(raw[key], rs.var_index, "variable"):
                setattr(a, attr, rs.var_index[str(raw[key])])
        a.all_pass = compile_effects(b, rs, raw.get("all_pass", [{"void_hand": True}]), scope, what)
        a.on_end = compile_effects(b, rs, raw.get("on_end", ()), scope, what)
        a.pass_final = bool(raw.get("pass_final", True))
        if a.passes_var >= 0 and rs.variables[a.passes_var].per != "seat":
            b.error(raw.get("passes"), f"'passes' names a variable with one value per seat; '{raw['passes']}' is not")
        a._build_kinds(b, rs, raw, scope)
        a._check_targets(b, rs, raw)
        return a

    def _verb(self, b: Builder, raw: Any, takes_value: bool) -> str:
        verb = str(raw)
        problem = verb_problem(verb, takes_value, {})
        if problem:
            b.error(raw, problem)
        return verb

    def _build_kinds(self, b: Builder, rs: Equipment, raw: dict[str, Any], scope: Scope) -> None:
        """Holds, duels and doubles: each a way the bidding goes besides rising bids."""
        holds = raw.get("holds", False)
        if isinstance(holds, dict):
            self.hold_verb = self._verb(b, holds.get("verb", "hold"), False)
        elif holds:
            self.hold_verb = "hold"
        if "duels" in raw:
            self.duels = b.expr(raw["duels"], scope, T.LIST, f"auction '{self.id}' duels")
            if not self.pass_final:
                b.error(raw.get("pass_final"), "in duels a seat that passed is out: 'pass_final' must be true")
        doubles = raw.get("doubles")
        if doubles is not None:
            self.doubles = tuple(self._verb(b, v, False) for v in doubles.get("calls", ()))
            if not self.doubles:
                b.error(doubles, "'doubles.calls' names the doubling calls in order, e.g. [double, redouble]")
            if "set" in doubles and b.ref(doubles["set"], rs.var_index, "variable"):
                self.doubling_var = rs.var_index[str(doubles["set"])]
        if (self.hold_verb or self.doubles) and self.ladder is None:
            b.error(raw, "holds and doubles are calls on a bid: give the auction 'bids'")
        words = [self.bid_verb, self.hold_verb, *self.doubles]
        twice = next((w for i, w in enumerate(words) if w and w in words[:i]), None)
        if twice:
            b.error(raw, f"the auction's verb '{twice}' is given to two kinds of call")

    def _check_targets(self, b: Builder, rs: Equipment, raw: dict[str, Any]) -> None:
        """Refuse, when the rules load, a variable that cannot hold what the auction writes into it."""
        wants = ((self.amount_var, self.ladder.item_type if self.ladder is not None else T.ANY, "amount"),
                 (self.record_var, T.LIST, "record"), (self.doubling_var, T.NUMBER, "doubles"))
        for var, got, key in wants:
            if var < 0:
                continue
            spec = rs.variables[var]
            where = raw["doubles"]["set"] if key == "doubles" else raw[key]
            if spec.per != "none":
                b.error(where, f"'{spec.name}' holds one value per {spec.per}; the auction writes one value")
            elif spec.value_type is not T.ANY and got is not T.ANY and not accepts(spec.value_type, got):
                b.error(where, f"the auction writes {describe(got)} into '{spec.name}', which holds "
                               f"{describe(spec.value_type)}")

    def verbs(self) -> dict[str, bool]:
        out = {self.bid_verb: True} if self.ladder is not None else {}
        if self.hold_verb:
            out[self.hold_verb] = False
        out.update((v, False) for v in self.doubles)
        return out

    # ------------------------------------------------------------------ flow
    def begin(self, st: Board) -> None:
        if self.duels is not None:
            seats = self._seniority(st)
            d = AuctionData(seats)
            if len(seats) > 1:
                d.duel, d.waiting = (seats[0], seats[1]), seats[2:]
            else:
                d.alone = seats[0]
            st.pdata = d
            return
        first = seat_of(self.first, st.ctx, st.rs.seats.count, f"phase '{self.id}' first") if self.first else 0
        st.pdata = AuctionData(st.order_from(first))

    def _seniority(self, st: Board) -> tuple[int, ...]:
        assert self.duels is not None
        got = self.duels(st.ctx)
        n = st.rs.seats.count
        seats = tuple(got) if isinstance(got, (list, tuple)) else ()
        if not seats or len(set(seats)) != len(seats) or \
                any(isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < n for s in seats):
            raise rule_failed(self.duels.pos, f"phase '{self.id}' duels: '{clip(self.duels.text, 100)}' gave "
                                              f"{clip(repr(got), 100)}; it must list different seats (0 to {n - 1}), "
                                              "the most senior first")
        return tuple(int(s) for s in seats)

    def step(self, st: Board) -> bool:
        d: AuctionData = st.pdata
        if d.done:
            return False
        if self.duels is not None:
            if d.duel is not None:
                senior, junior = d.duel
                return self._turn_of(st, d, senior if d.answering else junior)
            if d.alone in d.passed:
                return self._all_passed(st, d)
            if d.high_seat is not None:
                self._finish(st, d)
                return False
            return self._turn_of(st, d, d.alone)  # left alone with no bid made: it may still bid
        order, passed = d.order, d.passed
        if len(passed) + 1 >= len(order):  # (a seat passes once, and only a seat of the order passes)
            live = [s for s in order if s not in passed]
            if not live:
                return self._all_passed(st, d)
            standing = d.high_seat if self.pass_final else d.last_caller
            if standing is not None and live == [standing]:
                self._finish(st, d)
                return False
        return self._next_turn(st, d)

    def _all_passed(self, st: Board, d: AuctionData) -> bool:
        run_effects(st, self.all_pass)
        d.done = True
        return False

    def _next_turn(self, st: Board, d: AuctionData) -> bool:
        """The next seat still in, from the turn pointer, to act (or first a seat asked out of turn)."""
        order, passed = d.order, d.passed
        n = len(order)
        for _ in range(n):
            seat = order[d.turn % n]
            if seat not in passed:
                return self._turn_of(st, d, seat)
            d.turn += 1
        return False  # pragma: no cover

    def _turn_of(self, st: Board, d: AuctionData, seat: int) -> bool:
        if self.anytime:
            if d.asked_for != d.turn:  # a new turn: the other seats may first make a call
                d.asked_for = d.turn
                d.asking = st.order_from(seat)[1:]
            if d.asking:
                seat = d.asking[0]
        st.to_act = seat
        st.ctx.seat = seat
        return True

    def _finish(self, st: Board, d: AuctionData) -> None:
        if self.winner_var >= 0:
            st.vars[self.winner_var] = d.high_seat
        if self.amount_var >= 0 and d.high >= 0 and self.ladder is not None:
            st.vars[self.amount_var] = self.ladder.value(d.high)
        d.done = True
        run_effects(st, self.on_end)

    # ------------------------------------------------------------------ decisions
    def _whose_turn(self, d: AuctionData) -> int:
        if self.duels is not None:
            if d.duel is None:
                return d.alone
            return d.duel[0] if d.answering else d.duel[1]
        return d.order[d.turn % len(d.order)]

    def legal(self, st: Board) -> list[Move]:
        d: AuctionData = st.pdata
        book = st.rs.moves
        if d.asking:  # a seat asked out of turn: a call whose condition holds for it, or none
            st.ctx.seat = st.to_act
            return [book.get("pass"), *(book.get("call", (), e.id) for e in self.anytime if e.when(st.ctx))]
        seat = st.to_act
        assert seat is not None
        answering = self.duels is not None and d.duel is not None and d.answering
        start = -1 if self.ladder is None or (answering and self.hold_verb) else d.high + 1
        moves = self._fixed_moves.get(start)
        if moves is None:  # pass, the bids from `start` up and the named calls, made once
            moves = [book.get("pass")]
            if start >= 0 and self.ladder is not None:
                moves.extend(book.get(self.bid_verb, (), t) for t in self.ladder.texts[start:])
            moves.extend(book.get("call", (), c) for c in self.calls)
            self._fixed_moves[start] = moves
        out = list(moves)
        if self.hold_verb and self._may_hold(d, seat, answering):
            out.insert(1, book.get(self.hold_verb))
        level = d.doubling
        if self.doubles and level < len(self.doubles) and self._may_double(st, d, seat):
            out.append(book.get(self.doubles[level]))
        if not self.extra:
            return out
        ctx = st.ctx
        ctx.seat = seat
        calls = self._extra_moves
        if not calls:
            calls.extend(book.get("call", (), e.id) for e in self.extra)
        for e, m in zip(self.extra, calls, strict=True):
            if e.when(ctx):
                out.append(m)
        return out

    def _may_hold(self, d: AuctionData, seat: int, answering: bool) -> bool:
        """A seat senior to the high bidder may call the standing bid again."""
        if d.high < 0 or d.high_seat is None or seat == d.high_seat:
            return False
        if self.duels is not None:
            return answering
        return d.order.index(seat) < d.order.index(d.high_seat)

    def _may_double(self, st: Board, d: AuctionData, seat: int) -> bool:
        """The next doubling call: by an opponent of the high bidder's side, then by that side, in turn."""
        if d.high < 0 or d.high_seat is None:
            return False
        team_of = st.rs.seats.team_of
        same_side = team_of[seat] == team_of[d.high_seat]
        return same_side if d.doubling % 2 else not same_side

    def apply(self, st: Board, move: Move) -> bool:
        d: AuctionData = st.pdata
        seat = st.to_act
        assert seat is not None
        if d.asking:  # an answer out of turn: the turn itself is still to come
            d.asking = d.asking[1:]
            if move.verb == "pass":
                st.to_act = None
                return self.step(st)
            return self._extra_call(st, seat, move)
        d.turn += 1
        verb = move.verb
        if verb == "pass":
            self._record(st, seat, "pass", None)
            d.passed.append(seat)
            if self.passes_var >= 0:
                st.vars[self.passes_var][seat] = True
            if d.duel is not None:
                self._duel_lost(d, seat)
        elif verb == "call":
            if any(e.id == move.value for e in self.extra):
                return self._extra_call(st, seat, move)
            self._record(st, seat, "call", move.value)
            d.high_seat = seat  # a named call wins the auction at once
            self._finish(st, d)
            return False
        else:
            self._call(st, d, seat, move)
            if self.max_wins and verb == self.bid_verb and self.ladder is not None and d.high == len(self.ladder) - 1:
                self._finish(st, d)  # the highest bid: nobody can go over it
                return False
        st.to_act = None
        # After a call nothing runs but the auction's own step: it is taken here, sparing the flow's
        # loop (a False from it, the auction over, sends the flow on as before).
        return self.step(st)

    def _call(self, st: Board, d: AuctionData, seat: int, move: Move) -> None:
        """A bid, a hold or a double: it stands until another call, and brings seats that passed back in."""
        assert self.ladder is not None
        verb = move.verb
        if verb == self.bid_verb:
            d.high = self.ladder.where[move.value]
            d.doubling = 0
            d.high_seat = seat
            self._record(st, seat, "bid", self.ladder.value(d.high))
        elif verb == self.hold_verb:
            d.high_seat = seat  # the holder stands on the bid: a junior must now go higher
            self._record(st, seat, "hold", self.ladder.value(d.high))
        else:  # a doubling call: the bid stands, doubled (its bidder is still the high bidder)
            d.doubling += 1
            self._record(st, seat, verb, self.ladder.value(d.high))
        if d.duel is not None:
            d.answering = not d.answering  # the junior speaks, the senior answers, and so on
        d.last_caller = seat
        if self.doubling_var >= 0:
            st.vars[self.doubling_var] = d.doubling
        if not self.pass_final and d.passed:  # a call brings the seats that passed back in
            if self.passes_var >= 0:
                marks = st.vars[self.passes_var]
                for s in d.passed:
                    marks[s] = False
            d.passed = []

    def _duel_lost(self, d: AuctionData, seat: int) -> None:
        """A seat in a duel passed: the other survives, and meets the next seat (or is left alone)."""
        assert d.duel is not None
        senior, junior = d.duel
        survivor = junior if seat == senior else senior
        d.answering = False
        if d.waiting:
            d.duel, d.waiting = (survivor, d.waiting[0]), d.waiting[1:]
        else:
            d.duel, d.alone = None, survivor

    def _record(self, st: Board, seat: int, what: str, value: Any) -> None:
        if self.record_var >= 0:  # a new list: clones share the old one
            st.vars[self.record_var] = [*st.vars[self.record_var], [seat, what, value]]

    def _extra_call(self, st: Board, seat: int, move: Move) -> bool:
        extra = next(e for e in self.extra if e.id == move.value)
        st.note_fired(extra.id)
        st.ctx.seat = seat
        run_effects(st, extra.effects)
        return False

    def public_view(self, st: Board) -> dict[str, Any] | None:
        d = st.pdata
        if not isinstance(d, AuctionData) or not d.asking:
            return None
        return {"asking": d.asking[0], "before_turn_of": self._whose_turn(d),
                "calls_any_seat": [e.id for e in self.anytime]}

    def explain(self, st: Board, verb: str, value: str, piece_ids: list[str]) -> str:
        d: AuctionData = st.pdata
        if d.asking:
            if verb == "call" and any(e.id == value for e in self.anytime):
                return f"you may not call '{value}' now: its condition does not hold for your seat"
            return (f"it is seat {self._whose_turn(d)}'s turn in the auction; before it you may only "
                    f"{' or '.join(repr(m.text) for m in self.legal(st))} ('pass': no call now)")
        ladder = self.ladder
        if verb == self.bid_verb and ladder is not None:
            return self._explain_bid(d, value, ladder)
        if verb and verb == self.hold_verb:
            if d.high < 0:
                return "there is no bid to hold yet"
            if self.duels is not None:
                return "only the senior seat of the pair answering a bid may hold it"
            return "only a seat senior to the high bidder (earlier in the order of bidding) may hold its bid"
        if verb in self.doubles:
            return self._explain_double(d, verb)
        if verb == "call" and any(e.id == value for e in self.extra):
            return f"you may not call '{value}' now: its condition does not hold for your seat"
        return f"not allowed in the auction; you may: {describe_legal(self.legal(st))}"

    def _explain_bid(self, d: AuctionData, value: str, ladder: OrderedValues) -> str:
        if self.duels is not None and d.duel is not None and d.answering and self.hold_verb:
            return f"you answer the bid: '{self.hold_verb}' or 'pass'"
        least = ladder.texts[d.high + 1] if d.high + 1 < len(ladder) else None
        why = f"the high bid is {ladder.texts[d.high]}" if d.high >= 0 else "that is the opening minimum"
        at = ladder.position(value)
        if ladder.steps is not None:  # numbers in steps: said as numbers
            lo, hi, step = ladder.steps
            try:
                v = int(value)
            except ValueError:
                return f"a bid is a number, not '{value}'"
            if least is not None and v < int(least):
                return f"a bid must be at least {least} ({why}; bids go up in steps of {step})"
            if v > hi:
                return f"the highest bid allowed is {hi}"
            if at is None:
                return f"bids go up in steps of {step} from {lo}"
        elif at is None:
            more = " …" if len(ladder) > 8 else ""
            return f"there is no bid '{value}'; bids are {', '.join(ladder.texts[:8])}{more}"
        if least is None:
            return "no bid is higher than the standing bid: you may pass"
        return f"a bid must be at least {least} ({why})"

    def _explain_double(self, d: AuctionData, verb: str) -> str:
        k = self.doubles.index(verb)
        if d.high < 0:
            return f"there is no bid to {verb} yet"
        by = "the high bidder's side" if k % 2 else "an opponent of the high bidder"
        on = f"after '{self.doubles[k - 1]}'" if k else "on a bid not yet doubled"
        return f"'{verb}' is called by {by}, {on}"


__all__ = ["Auction", "AuctionData", "ExtraCall", "auction_scope", "seat_scope"]
