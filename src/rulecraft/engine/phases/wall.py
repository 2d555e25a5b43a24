"""Walls: building a wall of pieces, and picking hands up from it by a pattern (dice: ``phases.dice``).

- ``wall``: lay a zone's pieces, in order, into a grid zone (``grid: {columns, tiers}``): the first
  ``tiers`` pieces make column 1 from the top tier down, the next column 2, and so on.
- ``pickup``: hand the wall out by a *pattern*: a list of takes, one per seat in turn, each naming
  columns and tiers. Columns are numbered from the end chosen by ``end`` (1: the near end, 2: the
  far one), so "two columns at a time from the end" is ``[{columns: [1, 2]}, {columns: [3, 4]}, ...]``.
  Every pattern is rule data: a new way of picking up is one more entry, no Python.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rulecraft.dsl import CompiledExpr, Scope, T
from rulecraft.engine.phases.base import Phase, rule_failed, seat_of
from rulecraft.errors import clip
from rulecraft.rules.located import pos_of

if TYPE_CHECKING:
    from rulecraft.engine.board import Board
    from rulecraft.engine.builder import Builder
    from rulecraft.engine.equipment import Equipment

ORDERS = ("play", "clockwise", "counter-clockwise")


class Wall(Phase):
    """Lay every piece of ``from`` (in its current order) into the grid zone ``to``."""

    kind = "wall"

    def __init__(self, pid: str, pos: Any, src: str, dst: str) -> None:
        super().__init__(pid, pos)
        self.src = src
        self.dst = dst

    @classmethod
    def build(cls, b: Builder, rs: Equipment, raw: dict[str, Any], scope: Scope) -> Phase:
        src, dst = raw.get("from", rs.start_zone), raw.get("to", "wall")
        b.shared_zone(src, rs.zone_by_name, "the zone a wall is built from")
        b.ref(dst, rs.zone_by_name, "zone")
        zone = rs.zone_by_name.get(dst)
        if zone is not None and (zone.grid is None or zone.per != "none"):
            b.error(raw.get("to", raw), f"a wall is a shared zone with a grid ({{columns, tiers}}); '{dst}' is not")
        return cls(str(raw.get("id", "wall")), pos_of(raw), src, dst)

    def step(self, st: Board) -> bool:
        zone = st.rs.zone_by_name[self.dst]
        assert zone.grid is not None
        columns, tiers = zone.grid
        src = st.zone_instance(self.src)
        dst = st.zone_instance(self.dst)
        pile = list(st.zones[src])
        if len(pile) > columns * tiers:
            raise rule_failed(self.pos, f"wall '{self.id}': {len(pile)} pieces do not fit a wall of "
                                          f"{columns} x {tiers}")
        cells = pile + [-1] * (columns * tiers - len(pile))
        st.put_from_top_grouped(src, len(pile), [(dst, True, tuple(range(len(pile))))])  # (all, face down, in order)
        st.cells[dst] = cells
        return False


@dataclass(frozen=True, slots=True)
class Take:
    columns: tuple[int, ...]  # 1-based, counted from the chosen end
    tiers: tuple[int, ...]  # 1-based from the top
    by_tier: bool  # walk tier by tier (a row) rather than column by column


@dataclass(frozen=True, slots=True)
class Pattern:
    id: str
    takes: tuple[Take, ...]
    order: str
    first: CompiledExpr | None  # the first taker, if not the seat counted by the dice
    description: str


class Pickup(Phase):
    """Give each seat in turn the cells of one take of the chosen pattern, from the chosen end."""

    kind = "pickup"

    def __init__(self, pid: str, pos: Any) -> None:
        super().__init__(pid, pos)
        self.wall = "wall"
        self.to = "hand"
        self.first: CompiledExpr | None = None
        self.end: CompiledExpr | None = None
        self.method: CompiledExpr | None = None
        self.patterns: dict[str, Pattern] = {}
        # (pattern, from the far end) -> per take, the cells it takes as (index in the wall's cells, column,
        # tier), in order: worked out at first use.
        self._taken: dict[tuple[str, bool], list[list[tuple[int, int, int]]]] = {}

    @classmethod
    def build(cls, b: Builder, rs: Equipment, raw: dict[str, Any], scope: Scope) -> Phase:
        p = cls(str(raw.get("id", "pickup")), pos_of(raw))
        what = f"pickup '{p.id}'"
        p.wall, p.to = raw.get("wall", "wall"), raw.get("to", "hand")
        b.shared_zone(p.wall, rs.zone_by_name, "the wall a pickup takes from")
        b.ref(p.to, rs.zone_by_name, "zone")
        wall = rs.zone_by_name.get(p.wall)
        grid = wall.grid if wall is not None and wall.grid is not None else (0, 0)
        if wall is not None and wall.grid is None:
            b.error(raw.get("wall", raw), f"zone '{p.wall}' has no grid to pick up from")
        p.first = b.expr(raw.get("first", "0"), scope, T.NUMBER, f"{what} first")
        p.end = b.expr(raw.get("end", "1"), scope, T.NUMBER, f"{what} end")
        counted = Scope(parent=scope, name=f"{what} pattern")
        counted.add_name("counted", T.SEAT, getter=lambda c: c.bind["counted"],
                         doc="the seat the dice counted to (the usual first taker)")
        for item in raw.get("patterns", ()):
            pat = _pattern(b, item, grid, counted, what)
            if pat.id in p.patterns:
                b.error(item.get("id", item), f"duplicate pickup pattern '{pat.id}'")
            p.patterns[pat.id] = pat
        if not p.patterns:
            b.error(raw, "a pickup needs at least one pattern")
        p.method = b.expr(raw.get("method", repr(next(iter(p.patterns), ""))), scope, T.STRING, f"{what} method")
        return p

    def step(self, st: Board) -> bool:
        assert self.first is not None and self.end is not None and self.method is not None
        ctx = st.ctx
        name = str(self.method(ctx))
        pattern = self.patterns.get(name)
        if pattern is None:
            raise rule_failed(self.method.pos, f"pickup '{self.id}': the method is '{clip(name, 100)}', which is "
                                                 f"none of its patterns ({', '.join(self.patterns)})")
        counted = seat_of(self.first, ctx, st.rs.seats.count, f"pickup '{self.id}' first")
        ctx.bind["counted"] = counted
        first = seat_of(pattern.first, ctx, st.rs.seats.count, f"pickup '{self.id}' pattern '{name}' first") \
            if pattern.first is not None else counted
        ctx.bind.pop("counted", None)
        end = self.end(ctx)
        if end not in (1, 2):
            raise rule_failed(self.end.pos, f"pickup '{self.id}': the end is {clip(repr(end), 100)}; it is 1 (the "
                                              "near end) or 2 (the far end)")
        far_end = end == 2
        wall = st.rs.zone_by_name[self.wall]
        assert wall.grid is not None
        columns, tiers = wall.grid
        wi = st.zone_instance(self.wall)
        cells = st.cells.get(wi)
        if cells is None:
            raise rule_failed(self.pos, f"pickup '{self.id}': the wall '{self.wall}' was not built this hand "
                                          "(a wall phase builds it, before the pickup)")
        taken = self._taken.get((name, far_end))
        if taken is None:
            taken = self._taken[(name, far_end)] = [
                [((columns - col if far_end else col - 1) * tiers + (tier - 1), col, tier)
                 for col, tier in _cells(take, tiers, columns)] for take in pattern.takes]
        # Each piece face up into the taker's hand, as st.put(piece, hand) puts it, without a call per piece.
        zones, loc, face_down, dealt = st.zones, st.loc, st.face_down, st.dealt_owner
        public, seen = st.rs.public_instance, st.seen_public
        seat = first
        for take_cells in taken:
            hand = st.zone_instance(self.to, seat)
            pile, shown = zones[hand], public[hand]
            for index, col, tier in take_cells:
                piece = cells[index]
                if piece < 0:  # an empty cell: the wall was built with fewer pieces than it has cells
                    raise rule_failed(self.pos, f"pickup '{self.id}': pattern '{name}' takes column {col}, tier "
                                                  f"{tier}, where the wall has no piece")
                cells[index] = -1
                old = loc[piece]
                if old != hand:
                    zones[old].remove(piece)
                    pile.append(piece)
                    loc[piece] = hand
                face_down[piece] = 0
                if shown:
                    seen[piece] = 1
                dealt[piece] = seat
            seat = _next(st, seat, pattern.order)
        return False


def _cells(take: Take, tiers: int, columns: int) -> list[tuple[int, int]]:
    cols = take.columns or tuple(range(1, columns + 1))
    rows = take.tiers or tuple(range(1, tiers + 1))
    if take.by_tier:
        return [(c, t) for t in rows for c in cols]
    return [(c, t) for c in cols for t in rows]


def _next(st: Board, seat: int, order: str) -> int:
    if order == "clockwise":
        return (seat + 1) % st.rs.seats.count
    if order == "counter-clockwise":
        return (seat - 1) % st.rs.seats.count
    return st.seat_after(seat, 1)


def _pattern(b: Builder, raw: dict[str, Any], grid: tuple[int, int], scope: Scope, what: str) -> Pattern:
    columns, tiers = grid
    pid = str(raw.get("id", "pattern"))
    takes = []
    for t in raw.get("takes", ()):
        cols = tuple(int(c) for c in t.get("columns", ()))
        rows = tuple(int(r) for r in t.get("tiers", ()))
        for c in cols:
            if not 1 <= c <= columns:
                b.error(t, f"pattern '{pid}': column {c} is outside the wall's 1..{columns}")
        for r in rows:
            if not 1 <= r <= tiers:
                b.error(t, f"pattern '{pid}': tier {r} is outside the wall's 1..{tiers}")
        takes.append(Take(cols, rows, by_tier=bool(rows) and not cols))
    taken: dict[tuple[int, int], int] = {}
    for n, take in enumerate(takes):
        for cell in _cells(take, tiers, columns):
            if cell in taken:
                b.error(raw["takes"][n], f"pattern '{pid}' takes column {cell[0]}, tier {cell[1]} twice "
                                         f"(in takes {taken[cell] + 1} and {n + 1})")
                break
            taken[cell] = n
        else:
            continue
        break
    if not takes:
        b.error(raw, f"pattern '{pid}' has no takes")
    order = str(raw.get("order", "play"))
    if order not in ORDERS:
        b.error(raw.get("order"), f"a pickup order is one of {', '.join(ORDERS)}, not '{order}'")
    first = b.expr(raw["first"], scope, T.NUMBER, f"{what} pattern '{pid}' first") if "first" in raw else None
    return Pattern(pid, tuple(takes), order, first, str(raw.get("description", "")))
