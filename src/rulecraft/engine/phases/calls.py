"""Phases of single decisions: an auction (bids or named calls), an exchange with a side zone, naming a value."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rulecraft.dsl import CompiledExpr, Scope, T
from rulecraft.engine.effects import Effect, compile_effects, run_effects
from rulecraft.engine.moves import Move
from rulecraft.engine.phases.base import Phase, describe_legal, seat_of
from rulecraft.engine.phases.values import Target, build_target, check_items, checked, value_text
from rulecraft.rules.located import pos_of

if TYPE_CHECKING:
    from rulecraft.engine.board import Board
    from rulecraft.engine.builder import Builder
    from rulecraft.engine.equipment import Equipment


def _seat_scope(parent: Scope, what: str) -> Scope:
    s = Scope(parent=parent, name=what)
    s.add_name("seat", T.SEAT, code="ctx.seat", doc="the seat deciding")
    return s


@dataclass(slots=True)
class AuctionData:
    order: Sequence[int]
    turn: int = 0
    passed: list[int] = field(default_factory=list)
    high: int | None = None
    high_seat: int | None = None
    done: bool = False
    # Extra calls open to any seat (``by: any_seat``): the seats still to be asked before the seat
    # whose turn it is decides (a tuple: clones share it), and the turn they were asked for.
    asking: tuple[int, ...] = ()
    asked_for: int = -1

    def copy(self) -> AuctionData:
        return AuctionData(self.order, self.turn, list(self.passed), self.high, self.high_seat, self.done,
                           self.asking, self.asked_for)


EXTRA_BY = ("turn", "any_seat")


@dataclass(frozen=True, slots=True)
class ExtraCall:
    id: str
    when: CompiledExpr
    effects: tuple[Effect, ...]
    by: str = "turn"  # who may make it: the seat whose turn it is, or any seat before every turn


class Auction(Phase):
    """Calls in turn. Numeric ``bids`` (min, max, step) rise; a named call in ``calls`` wins at once.

    Passing is final (``pass_final: false``: a pass holds only until the next bid, which brings every
    seat back in, so a seat that passed may bid again when its turn comes round; ``passes`` then marks
    the seats that passed since the last bid). The auction ends when one bidder is left, at the first
    named call, or when everyone has passed (``all_pass`` effects run; by default the hand is void). ``extra_calls`` are
    calls with their own condition and effects (a redeal request). ``winner``, ``amount`` and
    ``passes`` name variables that receive the winning seat, the winning bid and, per seat, whether
    it passed (rules later ask "did the first player pass?").

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
        self.bids: tuple[int, int, int] | None = None
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
        self._fixed_moves: dict[int, list[Move]] = {}  # by lowest bid allowed: the moves that need no condition
        self._extra_moves: list[Move] = []  # each extra call's move, made at first use

    @classmethod
    def build(cls, b: Builder, rs: Equipment, raw: dict[str, Any], scope: Scope) -> Phase:
        a = cls(str(raw.get("id", "auction")), pos_of(raw))
        sscope = _seat_scope(scope, f"auction '{a.id}'")
        a.first = b.expr(raw.get("first", "0"), scope, T.NUMBER, f"auction '{a.id}' first seat")
        if "bids" in raw:
            bid = raw["bids"]
            a.bids = (int(bid["min"]), int(bid["max"]), int(bid.get("step", 1)))
            if a.bids[0] > a.bids[1]:
                b.error(bid, f"the lowest bid {a.bids[0]} is above the highest {a.bids[1]}")
            a.max_wins = bool(bid.get("max_wins", False))
        a.calls = tuple(str(c) for c in raw.get("calls", ()))
        if not a.bids and not a.calls:
            b.error(raw, "an auction needs 'bids' or 'calls' (or both)")
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
        for key, attr in (("winner", "winner_var"), ("amount", "amount_var"), ("passes", "passes_var")):
            if key in raw and b.ref(raw[key], rs.var_index, "variable"):
                setattr(a, attr, rs.var_index[str(raw[key])])
        a.all_pass = compile_effects(b, rs, raw.get("all_pass", [{"void_hand": True}]), scope, f"auction '{a.id}'")
        a.on_end = compile_effects(b, rs, raw.get("on_end", ()), scope, f"auction '{a.id}'")
        a.pass_final = bool(raw.get("pass_final", True))
        if a.passes_var >= 0 and rs.variables[a.passes_var].per != "seat":
            b.error(raw.get("passes"), f"'passes' names a variable with one value per seat; '{raw['passes']}' is not")
        return a

    def begin(self, st: Board) -> None:
        first = seat_of(self.first, st.ctx, st.rs.seats.count, f"phase '{self.id}' first") if self.first else 0
        st.pdata = AuctionData(st.order_from(first))

    def step(self, st: Board) -> bool:
        d: AuctionData = st.pdata
        if d.done:
            return False
        order, passed = d.order, d.passed
        if len(passed) + 1 >= len(order):  # (a seat passes once, and only a seat of the order passes)
            live = [s for s in order if s not in passed]
            if not live:
                run_effects(st, self.all_pass)
                d.done = True
                return False
            if d.high_seat is not None and live == [d.high_seat]:
                self._finish(st, d)
                return False
        return self._next_turn(st, d)

    def _next_turn(self, st: Board, d: AuctionData) -> bool:
        """The next seat still in, from the turn pointer, to act (or first a seat asked out of turn)."""
        order, passed = d.order, d.passed
        n = len(order)
        for _ in range(n):
            seat = order[d.turn % n]
            if seat not in passed:
                if self.anytime:
                    if d.asked_for != d.turn:  # a new turn: the other seats may first make a call
                        d.asked_for = d.turn
                        d.asking = st.order_from(seat)[1:]
                    if d.asking:
                        seat = d.asking[0]
                st.to_act = seat
                st.ctx.seat = seat
                return True
            d.turn += 1
        return False  # pragma: no cover

    def _finish(self, st: Board, d: AuctionData) -> None:
        if self.winner_var >= 0:
            st.vars[self.winner_var] = d.high_seat
        if self.amount_var >= 0 and d.high is not None:
            st.vars[self.amount_var] = d.high
        d.done = True
        run_effects(st, self.on_end)

    def legal(self, st: Board) -> list[Move]:
        d: AuctionData = st.pdata
        if d.asking:  # a seat asked out of turn: a call whose condition holds for it, or none
            st.ctx.seat = st.to_act
            return [st.rs.moves.get("pass"), *(st.rs.moves.get("call", (), e.id) for e in self.anytime
                                               if e.when(st.ctx))]
        start = -1
        if self.bids:
            lo, _hi, step = self.bids
            start = lo if d.high is None else d.high + step
        moves = self._fixed_moves.get(start)
        if moves is None:  # pass, the bids from `start` up and the named calls, made once
            book = st.rs.moves
            moves = [book.get("pass")]
            if self.bids:
                moves.extend(book.get("bid", (), str(v)) for v in range(start, self.bids[1] + 1, self.bids[2]))
            moves.extend(book.get("call", (), c) for c in self.calls)
            self._fixed_moves[start] = moves
        if not self.extra:
            return list(moves)
        ctx = st.ctx
        ctx.seat = st.to_act
        calls = self._extra_moves
        if not calls:
            calls.extend(st.rs.moves.get("call", (), e.id) for e in self.extra)
        out = list(moves)
        for e, m in zip(self.extra, calls, strict=True):
            if e.when(ctx):
                out.append(m)
        return out

    def apply(self, st: Board, move: Move) -> bool:
        d: AuctionData = st.pdata
        seat = st.to_act
        assert seat is not None
        if d.asking:  # an answer out of turn: the turn itself is still to come
            d.asking = d.asking[1:]
            if move.verb == "pass":
                return _step_on(self, st)
            return self._extra_call(st, seat, move)
        d.turn += 1
        # After a pass or a bid nothing runs but the auction's own step: it is taken here, sparing
        # the flow's loop (a False from it, the auction over, sends the flow on as before).
        verb = move.verb
        if verb == "pass":
            d.passed.append(seat)
            if self.passes_var >= 0:
                st.vars[self.passes_var][seat] = True
        elif verb == "bid":
            d.high, d.high_seat = int(move.value), seat
            if self.max_wins and self.bids is not None and d.high + self.bids[2] > self.bids[1]:
                self._finish(st, d)  # the highest bid: nobody can go over it
                return False
            if not self.pass_final and d.passed:  # a bid brings the seats that passed back in
                if self.passes_var >= 0:
                    marks = st.vars[self.passes_var]
                    for s in d.passed:
                        marks[s] = False
                d.passed = []
        else:
            if any(e.id == move.value for e in self.extra):
                return self._extra_call(st, seat, move)
            # A named call wins the auction at once.
            d.high_seat = seat
            self._finish(st, d)
            return False
        st.to_act = None
        if len(d.passed) + 1 >= len(d.order):
            return self.step(st)  # (the auction may be over)
        return self._next_turn(st, d)  # what step does then

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
        return {"asking": d.asking[0], "before_turn_of": d.order[d.turn % len(d.order)],
                "calls_any_seat": [e.id for e in self.anytime]}

    def explain(self, st: Board, verb: str, value: str, piece_ids: list[str]) -> str:
        d: AuctionData = st.pdata
        if d.asking:
            turn = d.order[d.turn % len(d.order)]
            if verb == "call" and any(e.id == value for e in self.anytime):
                return f"you may not call '{value}' now: its condition does not hold for your seat"
            return (f"it is seat {turn}'s turn in the auction; before it you may only "
                    f"{' or '.join(repr(m.text) for m in self.legal(st))} ('pass': no call now)")
        if verb == "bid" and self.bids:
            lo, hi, step = self.bids
            try:
                v = int(value)
            except ValueError:
                return f"a bid is a number, not '{value}'"
            least = lo if d.high is None else d.high + step
            if v < least:
                why = f"the high bid is {d.high}" if d.high is not None else "that is the opening minimum"
                return f"a bid must be at least {least} ({why}; bids go up in steps of {step})"
            if v > hi:
                return f"the highest bid allowed is {hi}"
            return f"bids go up in steps of {step} from {lo}"
        if verb == "call" and any(e.id == value for e in self.extra):
            return f"you may not call '{value}' now: its condition does not hold for your seat"
        return f"not allowed in the auction; you may: {describe_legal(self.legal(st))}"


def _step_on(phase: Phase, st: Board) -> bool:
    """What the flow does after a move that runs nothing else: the phase's step, no seat to act before it."""
    st.to_act = None
    return phase.step(st)


@dataclass(slots=True)
class Counter:
    n: int = 0
    # A choice's values as its decision worked them out (the text of each move -> the value), kept
    # for the move that follows; never changed once made, so clones share it.
    values: dict[str, Any] | None = None

    def copy(self) -> Counter:
        return Counter(self.n, self.values)


@dataclass(slots=True)
class Giving:
    """An exchange under way: how many pieces were given back, and by whom (once the seat has taken)."""

    n: int = 0
    seat: int = -1

    def copy(self) -> Giving:
        return Giving(self.n, self.seat)


class Exchange(Phase):
    """A seat takes every piece of a zone into its hand, then gives back ``give`` pieces one at a time."""

    kind = "exchange"

    def __init__(self, pid: str, pos: Any) -> None:
        super().__init__(pid, pos)
        self.seat: CompiledExpr | None = None
        self.take = ""
        self.to = ""
        self.give = 0
        self.when: CompiledExpr | None = None
        self._give_moves: list[Move] = []  # by piece, made at first use
        self._to_zi = -1  # the instance of the zone given to, looked up at first use

    @classmethod
    def build(cls, b: Builder, rs: Equipment, raw: dict[str, Any], scope: Scope) -> Phase:
        x = cls(str(raw.get("id", "exchange")), pos_of(raw))
        x.seat = b.expr(raw["seat"], scope, T.NUMBER, f"exchange '{x.id}' seat")
        x.take = raw.get("take", "")
        x.to = raw.get("to", x.take)
        if x.take:
            b.shared_zone(x.take, rs.zone_by_name, "the zone an exchange takes from")
        if x.to:
            b.shared_zone(x.to, rs.zone_by_name, "the zone an exchange gives to")
        x.give = int(raw.get("give", 0))
        return x

    def begin(self, st: Board) -> None:
        st.pdata = Giving()

    def step(self, st: Board) -> bool:
        d: Giving = st.pdata
        seat = d.seat
        if seat < 0:  # the exchange starts: its seat is named once, and takes the zone
            assert self.seat is not None
            seat = d.seat = seat_of(self.seat, st.ctx, st.rs.seats.count, f"phase '{self.id}' seat")
            if self.take:
                zi = st.zone_instance(self.take)
                hand = st.rs.hand_base + seat
                for p in list(st.zones[zi]):
                    st.put(p, hand)
        if d.n >= self.give:
            return False
        st.to_act = seat
        return True

    def legal(self, st: Board) -> list[Move]:
        seat = st.to_act
        assert seat is not None
        give = self._give_moves
        if not give:  # each piece's 'give' move, made once
            give.extend(st.rs.moves.get("give", (p,)) for p in range(st.rs.pieces.count))
        pieces = st.rs.pieces
        hand = st.zones[st.rs.hand_base + seat]
        if len(pieces.types) == len(pieces.type_of):  # (pieces.has_copies, not asked through a property)
            return [give[p] for p in sorted(hand)]
        seen: set[int] = set()
        out = []
        for p in sorted(hand):
            t = pieces.type_of[p]
            if t not in seen:
                seen.add(t)
                out.append(give[p])
        return out

    def apply(self, st: Board, move: Move) -> bool:
        d: Giving = st.pdata
        zi = self._to_zi
        if zi < 0:
            zi = self._to_zi = st.zone_instance(self.to)
        st.put(move.pieces[0], zi, True, d.seat)
        d.n += 1
        if d.n < self.give:  # the same seat gives the next piece: nothing else runs (what step would do)
            return True
        st.to_act = None
        return False  # done: the flow moves on (as it did after stepping the phase once more)

    def explain(self, st: Board, verb: str, value: str, piece_ids: list[str]) -> str:
        left = self.give - st.pdata.n
        if verb != "give":
            example = piece_ids[0] if piece_ids else "X"
            return f"put {left} more piece(s) into the {self.to} first, e.g. 'give {example}'"
        return f"you do not hold {' '.join(piece_ids)}; give one piece from your hand"


NAMED_KEPT = 256  # lists of values whose moves a choice keeps (values read from the game may vary)


class Choose(Phase):
    """A seat names one value from a list (``from``, an expression) into a variable (trump), or into
    one entry of a per-seat one (``bid[seat]``). The value keeps its type (``engine/phases/values``)."""

    kind = "choose"

    def __init__(self, pid: str, pos: Any) -> None:
        super().__init__(pid, pos)
        self.seat: CompiledExpr | None = None
        self.options: CompiledExpr | None = None
        self.var = -1
        self.target: Target | None = None
        self.item_kind = T.ANY  # how values are written in moves (a piece by its id)
        self._named: dict[tuple[str, ...], list[Move]] = {}  # the moves of each list of values' texts

    @classmethod
    def build(cls, b: Builder, rs: Equipment, raw: dict[str, Any], scope: Scope) -> Phase:
        c = cls(str(raw.get("id", "choose")), pos_of(raw))
        c.seat = b.expr(raw["seat"], scope, T.NUMBER, f"choice '{c.id}' seat")
        sscope = _seat_scope(scope, f"choice '{c.id}'")
        c.options = b.expr(raw["from"], sscope, T.LIST, f"choice '{c.id}' values")
        c.target = build_target(b, rs, raw.get("set"), sscope, f"choice '{c.id}' set")
        if c.target is not None:
            c.var = c.target.var
        check_items(b, c.target, c.options, raw["from"], rs)
        c.item_kind = c.target.type if c.target is not None and c.target.type is not T.ANY else c.options.item_type
        return c

    def begin(self, st: Board) -> None:
        st.pdata = Counter()

    def step(self, st: Board) -> bool:
        if st.pdata.n:
            return False
        assert self.seat is not None
        st.to_act = st.ctx.seat = seat_of(self.seat, st.ctx, st.rs.seats.count, f"phase '{self.id}' seat")
        return True

    def _values(self, st: Board) -> dict[str, Any]:
        assert self.options is not None
        st.ctx.seat = st.to_act
        ids = st.rs.pieces.columns["id"]
        out: dict[str, Any] = {}
        for v in self.options(st.ctx):
            out.setdefault(value_text(v, self.item_kind, ids), v)
        return out

    def legal(self, st: Board) -> list[Move]:
        values = st.pdata.values = self._values(st)  # (the move that follows reads them: nothing changed)
        key = tuple(values)
        moves = self._named.get(key)
        if moves is None:  # each list of values' moves, made once (a few lists: the same every hand)
            moves = [st.rs.moves.get("name", (), text) for text in values]
            if len(self._named) < NAMED_KEPT:
                self._named[key] = moves
        return list(moves)

    def apply(self, st: Board, move: Move) -> bool:
        assert self.options is not None
        values = st.pdata.values
        if values is None:
            values = self._values(st)
        value = checked(values.get(move.value, move.value), self.target, self.options)
        if self.target is not None:
            st.ctx.seat = st.to_act
            self.target.write(st, value)
        st.pdata.n = 1
        st.pdata.values = None
        return False

    def explain(self, st: Board, verb: str, value: str, piece_ids: list[str]) -> str:
        return f"name one of: {', '.join(m.value for m in self.legal(st))}"
