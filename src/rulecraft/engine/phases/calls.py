"""Phases of single decisions: an exchange with a side zone, naming a value. (The auction: ``auction.py``.)"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rulecraft.dsl import CompiledExpr, Scope, T
from rulecraft.engine.moves import Move, verb_problem
from rulecraft.engine.phases.auction import Auction, seat_scope
from rulecraft.engine.phases.base import Phase, seat_of
from rulecraft.engine.phases.values import Target, build_target, check_items, checked, value_text
from rulecraft.rules.located import pos_of

if TYPE_CHECKING:
    from rulecraft.engine.board import Board
    from rulecraft.engine.builder import Builder
    from rulecraft.engine.equipment import Equipment


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
    one entry of a per-seat one (``bid[seat]``). The value keeps its type (``engine/phases/values``).
    Moves read ``name VALUE``, or with the verb the rule file gives (``verb: declare``: ``declare grand``)."""

    kind = "choose"

    def __init__(self, pid: str, pos: Any) -> None:
        super().__init__(pid, pos)
        self.seat: CompiledExpr | None = None
        self.options: CompiledExpr | None = None
        self.var = -1
        self.target: Target | None = None
        self.item_kind = T.ANY  # how values are written in moves (a piece by its id)
        self.verb = "name"
        self._named: dict[tuple[str, ...], list[Move]] = {}  # the moves of each list of values' texts

    @classmethod
    def build(cls, b: Builder, rs: Equipment, raw: dict[str, Any], scope: Scope) -> Phase:
        c = cls(str(raw.get("id", "choose")), pos_of(raw))
        c.seat = b.expr(raw["seat"], scope, T.NUMBER, f"choice '{c.id}' seat")
        sscope = seat_scope(scope, f"choice '{c.id}'")
        c.options = b.expr(raw["from"], sscope, T.LIST, f"choice '{c.id}' values")
        c.target = build_target(b, rs, raw.get("set"), sscope, f"choice '{c.id}' set")
        if c.target is not None:
            c.var = c.target.var
        check_items(b, c.target, c.options, raw["from"], rs)
        c.item_kind = c.target.type if c.target is not None and c.target.type is not T.ANY else c.options.item_type
        if "verb" in raw:
            c.verb = str(raw["verb"])
            problem = verb_problem(c.verb, True, {})
            if problem:
                b.error(raw["verb"], problem)
        return c

    def verbs(self) -> dict[str, bool]:
        return {self.verb: True}

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
            moves = [st.rs.moves.get(self.verb, (), text) for text in values]
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
        return f"{self.verb} one of: {', '.join(m.value for m in self.legal(st))}"


__all__ = ["Auction", "Choose", "Exchange"]
