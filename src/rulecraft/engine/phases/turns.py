"""Each seat decides once, in turn: a value into its own entry of a variable, or pieces passed on.

A rule file writes it as ``kind: each_seat``::

    - id: bidding
      kind: each_seat
      first: "left_of(dealer)"
      skip: "blind[seat]"                   # a seat that does not decide this time (optional)
      choose:
        from: "range(hand_size + 1)"
        set: "bid[seat]"
        verb: bid                           # moves read 'bid 3' (default: 'name 3'); any word
        allow: "not (is_last and sum(bid) + value == tricks_total)"
        message: "the last bid may not make the bids add up to the tricks"

    - id: passing
      kind: each_seat
      first: "left_of(dealer)"
      give: {count: 3, to: "next(seat, 1)", zone: passing}

Every seat playing the hand decides once, in the direction of play from ``first``. ``allow`` is
judged per value with ``value``, ``seat``, ``turn`` (1 for the first seat to decide), ``is_last``
(this seat decides last) and ``decided`` (the seats that already decided, in order): a condition
may depend on what earlier seats chose. When no value passes, ``allow`` lapses for that seat.

Passing is as at a table: each seat puts ``count`` pieces, one ``give`` at a time, into its own
instance of the per-seat zone ``zone``; only when every seat has passed do they go to the hands of
the seats ``to`` names. What a seat can see of pieces passed to it before then follows the zone's
declared visibility (``owner``: only the giver sees them), so nobody sees incoming pieces before
passing their own; once delivered, each giver still knows where the pieces it passed lie, while they
stay in that hand (``Board.known``). Without ``to`` the pieces stay where each seat put them, laid aside (bid-cards
whose suits say the bid, a discard kept in front of the seat).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rulecraft.dsl import CompiledExpr, Scope, T
from rulecraft.engine.effects import Effect, compile_effects, run_effects
from rulecraft.engine.moves import Move, verb_problem
from rulecraft.engine.phases.base import Phase, rule_failed
from rulecraft.engine.phases.values import Target, build_target, check_items, checked, value_text
from rulecraft.rules.located import pos_of

if TYPE_CHECKING:
    from rulecraft.engine.board import Board
    from rulecraft.engine.builder import Builder
    from rulecraft.engine.equipment import Equipment

VERBS = ("name", "bid")  # what a shed phase's choice may be written with


@dataclass(slots=True)
class TurnData:
    order: tuple[int, ...]
    i: int = 0  # position in ``order`` of the seat deciding
    given: int = 0  # pieces the deciding seat has passed so far
    decided: list[int] = field(default_factory=list)
    done: bool = False

    def copy(self) -> TurnData:
        return TurnData(self.order, self.i, self.given, list(self.decided), self.done)


def turn_scope(parent: Scope, what: str) -> Scope:
    """Names of a seat's turn: who decides, where it is in the order, what was decided before."""
    s = Scope(parent=parent, name=what)
    s.add_name("seat", T.SEAT, code="ctx.seat", doc="the seat deciding")
    s.add_name("turn", T.NUMBER, getter=lambda c: c.st.pdata.i + 1,
               doc="the deciding seat's place in the order (1 for the first)")
    s.add_name("is_last", T.BOOL, getter=_is_last, doc="whether the deciding seat is the last to decide")
    s.add_name("decided", T.LIST, getter=lambda c: list(c.st.pdata.decided), elem=T.SEAT,
               doc="the seats that have decided so far in this phase, in order")
    return s


def _is_last(c: Any) -> bool:
    d: TurnData = c.st.pdata
    return d.i == len(d.order) - 1


class EachSeat(Phase):
    """Every seat in turn chooses a value (``choose``) or passes pieces on (``give``); see the module."""

    kind = "each_seat"

    def __init__(self, pid: str, pos: Any) -> None:
        super().__init__(pid, pos)
        self.first: CompiledExpr | None = None
        self.skip: CompiledExpr | None = None
        self.values: CompiledExpr | None = None
        self.target: Target | None = None
        self.allow: CompiledExpr | None = None
        self.message = ""
        self.verb = "name"
        self.item_kind = T.ANY
        self.give = 0
        self.give_to: CompiledExpr | None = None
        self.zone = ""
        self.on_each: tuple[Effect, ...] = ()
        self.on_end: tuple[Effect, ...] = ()
        self._give_moves: list[Move] = []

    @classmethod
    def build(cls, b: Builder, rs: Equipment, raw: dict[str, Any], scope: Scope) -> Phase:
        x = cls(str(raw.get("id", cls.kind)), pos_of(raw))
        what = f"phase '{x.id}'"
        tscope = turn_scope(scope, what)
        x.first = b.expr(raw.get("first", "0"), scope, T.NUMBER, f"{what} first")
        if "skip" in raw:
            x.skip = b.expr(raw["skip"], tscope, T.BOOL, f"{what} skip")
        choose: dict[str, Any] | None = raw.get("choose")
        give: dict[str, Any] = raw.get("give") or {}
        if (choose is None) == (not give):
            b.error(raw, "an each_seat phase has either 'choose' (a value per seat) or 'give' (pieces passed on)")
            return x
        if choose is not None:
            x.values = b.expr(choose["from"], tscope, T.LIST, f"{what} values")
            x.target = build_target(b, rs, choose.get("set"), tscope, f"{what} set")
            check_items(b, x.target, x.values, choose["from"], rs)
            x.item_kind = x.target.type if x.target is not None and x.target.type is not T.ANY else \
                x.values.item_type
            if "allow" in choose:
                vscope = Scope(parent=tscope, name=f"{what} allow")
                vscope.add_name("value", x.item_kind, code="ctx.bind['value']", doc="the value being judged")
                x.allow = b.expr(choose["allow"], vscope, T.BOOL, f"{what} allow")
            x.message = str(choose.get("message", "that value is not allowed now"))
            x.verb = str(choose.get("verb", "name"))
            problem = verb_problem(x.verb, True, {})
            if problem:
                b.error(choose.get("verb"), problem)
        else:
            x.give = int(give.get("count", 1))
            if "to" in give:  # without it the pieces stay laid aside in the seat's own zone
                # A seat, or a list of seats: the first piece given goes to the first, and so on (one to
                # each other player).
                x.give_to = b.expr(give["to"], tscope, None, f"{what} to")
                if x.give_to.type not in (T.NUMBER, T.SEAT, T.LIST, T.ANY):
                    b.error(give["to"], f"{what} 'to' is a seat, or a list of seats (one for each piece given)")
            x.zone = str(give.get("zone", ""))
            if b.ref(give.get("zone"), rs.zone_by_name, "zone") and rs.zone_by_name[x.zone].per != "seat":
                b.error(give.get("zone"), f"'{x.zone}' must be a per-seat zone: each seat's passed pieces wait in "
                                          "its own instance until every seat has passed")
        x.on_each = compile_effects(b, rs, raw.get("on_each", ()), tscope, what)
        x.on_end = compile_effects(b, rs, raw.get("on_end", ()), scope, what)
        return x

    def verbs(self) -> dict[str, bool]:
        return {self.verb: True} if self.values is not None else {}

    # ------------------------------------------------------------------ flow
    def begin(self, st: Board) -> None:
        first = int(self.first(st.ctx)) if self.first is not None else 0
        st.pdata = TurnData(st.order_from(first))

    def step(self, st: Board) -> bool:
        d: TurnData = st.pdata
        if d.done:
            return False
        ctx = st.ctx
        while d.i < len(d.order):
            seat = d.order[d.i]
            ctx.seat = seat
            if d.given == 0 and self.skip is not None and self.skip(ctx):
                d.i += 1
                continue
            if self.give and (d.given >= self.give or not st.hand(seat)):
                self._decided(st, d, seat)
                if st.signal:
                    return False
                continue
            st.to_act = seat
            return True
        d.done = True
        if self.give:
            self._deliver(st, d)
        run_effects(st, self.on_end)
        return False

    def _decided(self, st: Board, d: TurnData, seat: int) -> None:
        d.decided.append(seat)
        if self.on_each:
            st.ctx.seat = seat
            run_effects(st, self.on_each)
        d.i += 1
        d.given = 0

    def _deliver(self, st: Board, d: TurnData) -> None:
        """Every seat has passed: each seat's pieces go to the hand of the seat ``to`` names (if any)."""
        if self.give_to is None:
            return
        ctx = st.ctx
        moves = []
        for seat in d.decided:
            ctx.seat = seat
            to = self.give_to(ctx)
            zi = st.zone_instance(self.zone, seat)
            targets = [int(t) for t in to] if isinstance(to, (list, tuple)) else [int(to)] * len(st.zones[zi])
            if len(targets) < len(st.zones[zi]):
                raise rule_failed(self.give_to.pos, f"each_seat phase '{self.id}' gives {len(st.zones[zi])} "
                                                    f"pieces, but 'to' names {len(targets)} seats")
            moves.append((zi, targets))
        for (zi, targets), giver in zip(moves, d.decided, strict=True):
            for p, to in zip(list(st.zones[zi]), targets, strict=False):  # in the order given
                hand = st.hand_instance(to)
                st.put(p, hand)
                st.known[p] = (giver, hand)

    # ------------------------------------------------------------------ decisions
    def _values(self, st: Board) -> dict[str, Any]:
        assert self.values is not None
        ctx = st.ctx
        ctx.seat = st.to_act
        ids = st.rs.pieces.columns["id"]
        out: dict[str, Any] = {}
        for v in self.values(ctx):
            out.setdefault(value_text(v, self.item_kind, ids), v)
        if self.allow is None:
            return out
        allowed = {}
        missing = object()
        saved = ctx.bind.get("value", missing)
        try:
            for text, v in out.items():
                ctx.bind["value"] = v
                if self.allow(ctx):
                    allowed[text] = v
        finally:
            if saved is missing:
                ctx.bind.pop("value", None)
            else:
                ctx.bind["value"] = saved
        return allowed or out  # the condition lapses when no value passes: the seat must decide something

    def legal(self, st: Board) -> list[Move]:
        seat = st.to_act
        assert seat is not None
        if self.values is not None:
            return [st.rs.moves.get(self.verb, (), text) for text in self._values(st)]
        give = self._give_moves
        if not give:
            give.extend(st.rs.moves.get("give", (p,)) for p in range(st.rs.pieces.count))
        seen: set[int] = set()
        out = []
        type_of = st.rs.pieces.type_of
        for p in sorted(st.hand(seat)):
            if type_of[p] not in seen:
                seen.add(type_of[p])
                out.append(give[p])
        return out

    def apply(self, st: Board, move: Move) -> bool:
        d: TurnData = st.pdata
        seat = st.to_act
        assert seat is not None
        if self.values is not None:
            value = checked(self._values(st)[move.value], self.target, self.values)
            if self.target is not None:
                st.ctx.seat = seat
                self.target.write(st, value)
            self._decided(st, d, seat)
            return False
        st.put(move.pieces[0], st.zone_instance(self.zone, seat), by=seat)
        d.given += 1
        return False

    def public_view(self, st: Board) -> dict[str, Any] | None:
        d: TurnData = st.pdata
        return {"decided": list(d.decided)}

    def explain(self, st: Board, verb: str, value: str, piece_ids: list[str]) -> str:
        if self.values is not None:
            if verb == self.verb and value not in self._values(st):
                ctx = st.ctx
                everything = [value_text(v, self.item_kind, st.rs.pieces.columns["id"]) for v in self.values(ctx)]
                if value in everything:
                    return self.message
            return f"{self.verb} one of: {', '.join(m.value for m in self.legal(st))}"
        left = self.give - st.pdata.given
        example = self.legal(st)[0].text if self.legal(st) else "give X"
        if verb == "give" and piece_ids:
            held = {st.rs.pieces.type_id(p) for p in st.hand(st.to_act)} if st.to_act is not None else set()
            missing = [pid for pid in piece_ids if pid not in held]
            if missing:  # the piece is named, but is not the seat's to give
                return f"you do not hold {' '.join(missing)}: pass {left} more piece(s) from your hand, " \
                       f"e.g. '{example}'"
            if len(piece_ids) > 1:
                return f"give one piece at a time: pass {left} more piece(s), e.g. '{example}'"
        return f"pass {left} more piece(s): 'give' a piece from your hand, e.g. '{example}'"
