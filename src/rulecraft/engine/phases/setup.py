"""Phases that need no decision: shuffling, dealing, and running a list of effects (scoring)."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from rulecraft.dsl import CompiledExpr, Scope, T
from rulecraft.engine.board import grouped_targets
from rulecraft.engine.context import bound_scope
from rulecraft.engine.effect_code import Runner
from rulecraft.engine.effects import Effect, compile_effects, runner
from rulecraft.engine.phases.base import Phase, rule_failed, seat_of
from rulecraft.engine.phases.deal_window import Window, WindowData
from rulecraft.errors import clip
from rulecraft.rules.located import pos_of

if TYPE_CHECKING:
    from rulecraft.engine.board import Board
    from rulecraft.engine.builder import Builder
    from rulecraft.engine.equipment import Equipment
    from rulecraft.engine.moves import Move


class Shuffle(Phase):
    """Put a zone's pieces in random order (a chance event, logged; fixed by scenarios and replays)."""

    kind = "shuffle"

    def __init__(self, pid: str, pos: Any, zone: str) -> None:
        super().__init__(pid, pos)
        self.zone = zone
        self._zi = -1  # the zone's one instance (a shared zone), looked up at first use

    @classmethod
    def build(cls, b: Builder, rs: Equipment, raw: dict[str, Any], scope: Scope) -> Phase:
        zone = raw.get("zone", rs.start_zone)
        b.shared_zone(zone, rs.zone_by_name, "the zone a shuffle shuffles")
        return cls(str(raw.get("id", "shuffle")), pos_of(raw), zone)

    def step(self, st: Board) -> bool:
        zi = self._zi
        if zi < 0:
            zi = self._zi = st.zone_instance(self.zone)
        st.zones[zi][:] = st.chance_shuffle(list(st.zones[zi]))
        return False


class Deal(Phase):
    """Deal from a zone to each seat's instance of another, a packet at a time, in the direction of play.

    ``count`` is per seat (an expression over ``seat``, or ``all`` to deal the zone out). ``side``
    interleaves a side zone: after every ``every`` rounds put ``count`` pieces there until it holds
    ``total`` (a nest dealt during the deal). With ``window`` the deal pauses after each packet
    dealt to a seat, which may show pieces or pass (``deal_window``).
    """

    kind = "deal"

    def __init__(self, pid: str, pos: Any) -> None:
        super().__init__(pid, pos)
        self.src = "deck"
        self.dst = "hand"
        self.first: CompiledExpr | None = None
        self.count: CompiledExpr | None = None  # None: deal everything
        self.packet = 1
        self.active_only = False
        self.side: tuple[str, int, int, int] | None = None  # zone, every, count, total
        self.record_dealt = True
        self.window: Window | None = None  # decisions while the deal pauses (deal_window.py)
        # Where each piece goes, by seats, counts and what the pile holds (see step): the same every
        # hand for the same seats and counts, so worked out once, grouped by destination.
        self._plans: dict[tuple[Any, ...], tuple[int, list[tuple[int, bool, tuple[int, ...]]]]] = {}
        self._dst_zis: list[int] = []  # each seat's instance of the destination, looked up at first use
        self._src_side: tuple[int, int] | None = None  # the instances of the (shared) source and side zones
        self._seats: dict[tuple[int, tuple[int, ...] | None], tuple[int, ...]] = {}  # by first seat (and active)

    @classmethod
    def build(cls, b: Builder, rs: Equipment, raw: dict[str, Any], scope: Scope) -> Phase:
        d = cls(str(raw.get("id", "deal")), pos_of(raw))
        d.src = raw.get("from", rs.start_zone)
        d.dst = raw.get("to", "hand")
        b.shared_zone(d.src, rs.zone_by_name, "the zone a deal deals from")
        b.ref(d.dst, rs.zone_by_name, "zone")
        if d.dst in rs.zone_by_name and rs.zone_by_name[d.dst].per != "seat":
            b.error(raw.get("to", raw), f"a deal goes to a zone with one instance per seat; '{d.dst}' is not one")
        d.first = b.expr(raw.get("first", "0"), scope, T.NUMBER, f"deal '{d.id}' first seat")
        count = raw.get("count", "all")
        if str(count) != "all":
            d.count = b.expr(count, bound_scope(scope, ["seat"], "deal count"), T.NUMBER, f"deal '{d.id}' count")
        d.packet = int(raw.get("packet", 1))
        d.active_only = str(raw.get("seats", "all")) == "active"
        side = raw.get("side")
        if side:
            b.shared_zone(side.get("zone"), rs.zone_by_name, "a deal's side zone")
            d.side = (str(side["zone"]), int(side.get("every", 1)), int(side.get("count", 1)), int(side["total"]))
        d.record_dealt = bool(raw.get("record_dealt", True))
        if "window" in raw:
            d.window = Window.build(b, rs, raw["window"] or {}, scope, f"deal '{d.id}'")
        return d

    def step(self, st: Board) -> bool:
        window = self.window
        if window is not None and isinstance(st.pdata, WindowData):  # a paused deal goes on
            if window.step(st, st.zone_instance(self.src)):
                return True
            self._record(st)
            return False
        ctx = st.ctx
        zis = self._src_side
        if zis is None:
            zis = self._src_side = (st.zone_instance(self.src), st.zone_instance(self.side[0]) if self.side else -1)
        src, side_zi = zis
        pile = st.zones[src]
        first = seat_of(self.first, ctx, st.rs.seats.count, f"phase '{self.id}' first") \
            if self.first is not None else 0
        turn = (first, st.active if self.active_only else None)
        seats = self._seats.get(turn)
        if seats is None:  # the seats dealt to, in order (a few orders a ruleset: kept)
            found = []
            s = first
            for _ in range(st.rs.seats.count):
                if not self.active_only or s in st.active:
                    found.append(s)
                s = st.seat_after(s, 1)
            seats = self._seats[turn] = tuple(found)
        if self.count is None:
            need = [len(pile)] * len(seats)
        else:
            need = []
            for s in seats:
                ctx.bind["seat"] = s
                need.append(self._count_for(ctx, s))
            ctx.bind.pop("seat", None)
        side_have = len(st.zones[side_zi]) if self.side else 0
        if self.count is not None:
            self._check_enough(need, side_have, len(pile))
        key = (seats, tuple(need), len(pile), side_have)
        plan = self._plans.get(key)
        if plan is None:
            targets = self._plan(st, list(seats), need, len(pile), side_zi, side_have)
            plan = self._plans[key] = (len(targets), grouped_targets(targets))
        if window is not None:  # the same pieces to the same places, a packet at a time
            targets = self._plan(st, list(seats), need, len(pile), side_zi, side_have)
            dst = {self._dst_zi(st, s): s for s in range(st.rs.seats.count)}
            window.begin(st, targets, dst)
            return self.step(st)
        st.put_from_top_grouped(src, *plan)
        self._record(st)
        return False

    def _dst_zi(self, st: Board, seat: int) -> int:
        return st.hand_instance(seat) if self.dst == "hand" else st.zone_instance(self.dst, seat)

    def legal(self, st: Board) -> list[Move]:
        return self.window.legal(st) if self.window is not None else []

    def apply(self, st: Board, move: Move) -> bool:
        assert self.window is not None
        return self.window.apply(st, move)

    def explain(self, st: Board, verb: str, value: str, piece_ids: list[str]) -> str:
        if self.window is None:
            return super().explain(st, verb, value, piece_ids)
        return self.window.explain(st, verb, piece_ids)

    def public_view(self, st: Board) -> dict[str, Any] | None:
        return self.window.public_view(st) if self.window is not None and isinstance(st.pdata, WindowData) else None

    def _record(self, st: Board) -> None:
        """Who each piece of the destination zone was dealt to (``dealt_to``)."""
        if self.record_dealt:
            dealt_owner, zones = st.dealt_owner, st.zones
            dst_zis = self._dst_zis
            if not dst_zis:
                dst_zis.extend(st.zone_instance(self.dst, s) for s in range(st.rs.seats.count))
            for s, zi in enumerate(dst_zis):
                for p in zones[zi]:
                    dealt_owner[p] = s

    def _count_for(self, ctx: Any, seat: int) -> int:
        assert self.count is not None
        value = self.count(ctx)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value != int(value) or value < 0:
            raise rule_failed(self.count.pos, f"deal '{self.id}' count: '{clip(self.count.text, 100)}' gave "
                                              f"{clip(repr(value), 100)} for seat {seat}, which is no number of "
                                              "pieces (a whole number, 0 or more)")
        return int(value)

    def _check_enough(self, need: list[int], side_have: int, held: int) -> None:
        """A deal that asks for more pieces than its zone holds is a rule problem, not a short deal: hands
        of 12 where the text says 13 would go unnoticed (``count: all`` deals a zone out, however many)."""
        side = max(0, self.side[3] - side_have) if self.side else 0
        wanted = sum(need) + side
        if wanted <= held:
            return
        counts = sorted(set(need))
        each = f"{counts[0]} pieces for each of {len(need)} seats" if len(counts) == 1 else \
            f"{sum(need)} pieces for {len(need)} seats"
        nest = f" and {side} for '{self.side[0]}'" if side and self.side else ""
        assert self.count is not None
        raise rule_failed(self.count.pos, f"deal '{self.id}' asks for {each}{nest} ({wanted} in all), but "
                                          f"'{self.src}' holds {held}: deal fewer, or 'count: all' to deal it out")

    def _plan(self, st: Board, seats: list[int], need: list[int], left: int, side_zi: int,
              side_have: int) -> list[tuple[int, bool]]:
        """Where each piece from the top of the pile goes, in dealing order: (zone instance, face down)."""
        to = [(st.hand_instance(s) if self.dst == "hand" else st.zone_instance(self.dst, s), False) for s in seats]
        need = list(need)
        targets: list[tuple[int, bool]] = []
        packet = self.packet
        _zone, side_every, side_count, side_total = self.side or ("", 0, 0, 0)
        rounds = 0
        while left > 0 and max(need) > 0:
            for i, n in enumerate(need):
                n = min(packet, n, left)
                if n > 0:
                    targets.extend([to[i]] * n)
                    need[i] -= n
                    left -= n
            rounds += 1
            if side_every and rounds % side_every == 0:
                for _ in range(side_count):
                    if left and side_have < side_total:
                        targets.append((side_zi, True))
                        side_have += 1
                        left -= 1
        while self.side and left and side_have < side_total:
            targets.append((side_zi, True))
            side_have += 1
            left -= 1
        return targets


class Effects(Phase):
    """Run a list of effects (scoring, payments, role changes) and move on."""

    kind = "effects"

    def __init__(self, pid: str, pos: Any, effects: tuple[Effect, ...]) -> None:
        super().__init__(pid, pos)
        self.effects = effects

    @functools.cached_property
    def _run(self) -> Runner:
        return runner(self.effects)  # (the list's generated function, kept)

    @classmethod
    def build(cls, b: Builder, rs: Equipment, raw: dict[str, Any], scope: Scope) -> Phase:
        pid = str(raw.get("id", "effects"))
        return cls(pid, pos_of(raw), compile_effects(b, rs, raw.get("effects", ()), scope, f"phase '{pid}'"))

    def step(self, st: Board) -> bool:
        if self.effects:
            self._run(st)
        return False
