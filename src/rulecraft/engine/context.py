"""The evaluation context compiled expressions read, and the names every game scope offers.

Compiled expressions are closures taking one ``Ctx``. The engine keeps one ``Ctx`` per state and
sets its slots (the seat being asked about, the candidate play, loop bindings) before evaluating,
so an evaluation allocates nothing. Which names an expression may use is decided at load time by
the ``Scope`` it is compiled in: the base scope here (seats, roles, variables, zones, knowledge),
extended by each phase kind with its own names (the lead, the candidate play, the trick winner...).
"""

from __future__ import annotations

from typing import Any

from rulecraft.dsl import Scope, T
from rulecraft.engine.board import Ctx
from rulecraft.engine.combos import enumerate_plays
from rulecraft.engine.equipment import Equipment
from rulecraft.engine.pieces import PieceTable


def piece_attribute_functions(scope: Scope, pieces: PieceTable, reserved: set[str]) -> None:
    """Each piece attribute ``a`` becomes a function ``a(p)``; ``pid(p)`` gives the type id."""
    for aname in [*pieces.attr_names, "id"]:
        fname = "pid" if aname == "id" else aname
        if fname in reserved:
            continue
        column = pieces.columns[aname]
        sample = next((v for v in column if v is not None), None)
        rtype = T.BOOL if isinstance(sample, bool) else T.NUMBER if isinstance(sample, (int, float)) else (
            T.STRING if isinstance(sample, str) else T.ANY
        )

        def impl(ctx: Ctx, p: Any, _col: list[Any] = column) -> Any:
            return None if p is None else _col[p]

        scope.add_function(fname, params=[T.PIECE], returns=rtype, impl=impl, doc=f"the piece's '{aname}' attribute",
                           pure=True, table=column)


def add_piece_constants(scope: Scope, pieces: PieceTable) -> None:
    def by_id(ctx: Ctx, pid: str) -> Any:
        t = pieces.by_type_id.get(pid)
        if t is None:
            return None
        return pieces.instances[t][0]

    scope.add_function(
        "piece", params=[T.STRING], returns=T.PIECE, impl=by_id, doc="the piece with this id (first copy)",
        pure=True,
    )

    def copies(ctx: Ctx, pid: str) -> list[int]:
        t = pieces.by_type_id.get(pid)
        return [] if t is None else list(pieces.instances[t])

    scope.add_function("copies", params=[T.STRING], returns=T.LIST, impl=copies, doc="every copy of a piece type",
                       pure=True)
    every = list(range(pieces.count))
    scope.add_function("pieces", params=[], returns=T.LIST, impl=lambda ctx: every, doc="every piece in play")

    def same_type(ctx: Ctx, a: Any, b: Any) -> bool:
        return a is not None and b is not None and pieces.type_of[a] == pieces.type_of[b]

    scope.add_function("same_type", params=[T.PIECE, T.PIECE], returns=T.BOOL, impl=same_type,
                       doc="whether two pieces are identical copies", pure=True)

    cache: dict[tuple[str, str], list[list[int]]] = {}

    def higher(ctx: Ctx, p: Any, group: str, order: str) -> list[int]:
        """Pieces sharing p's `group` attribute with a larger `order` attribute, precomputed."""
        key = (group, order)
        table = cache.get(key)
        if table is None:
            gcol, ocol = pieces.columns.get(group), pieces.columns.get(order)
            table = []
            for q in range(pieces.count):
                if gcol is None or ocol is None or gcol[q] is None or ocol[q] is None:
                    table.append([])
                    continue
                table.append(
                    sorted(
                        (r for r in range(pieces.count)
                         if gcol[r] == gcol[q] and ocol[r] is not None and ocol[r] > ocol[q]),
                        key=lambda r: ocol[r],
                    )
                )
            cache[key] = table
        return [] if p is None else table[p]

    scope.add_function("higher", params=[T.PIECE, T.STRING, T.STRING], returns=T.LIST, impl=higher,
                       doc="pieces with the same GROUP attribute and a larger ORDER attribute, lowest first", pure=True)


def base_scope(rs: Equipment, parent: Scope) -> Scope:
    """Names every expression that runs during a game may use."""
    s = Scope(parent=parent, name="game")

    s.add_name("num_seats", T.NUMBER, getter=lambda c: rs.seats.count, doc="number of seats at the table")
    s.add_name("hand_number", T.NUMBER, code="ctx.st.hand_no", doc="1 for the match's first hand")
    s.add_function("seats", params=[], returns=T.LIST, impl=lambda c: list(range(rs.seats.count)),
                   doc="every seat, 0 first", elem=T.SEAT)
    s.add_function("active", params=[], returns=T.LIST, impl=lambda c: list(c.st.active),
                   doc="seats playing this hand (not sitting out)", elem=T.SEAT)
    s.add_function("teams", params=[], returns=T.LIST, impl=lambda c: list(range(len(rs.seats.teams))),
                   doc="every team index")
    s.add_function("team_of", params=[T.SEAT], returns=T.NUMBER, impl=lambda c, x: rs.seats.team_of[x],
                   doc="the team a seat belongs to")
    s.add_function("members", params=[T.NUMBER], returns=T.LIST, impl=lambda c, t: list(rs.seats.teams[t]),
                   doc="the seats of a team", elem=T.SEAT)
    s.add_function("next", params=[T.SEAT, T.NUMBER], returns=T.SEAT,
                   impl=lambda c, x, n: c.st.seat_after(x, int(n)),
                   doc="the seat n places after a seat in the direction of play (negative: before)")
    s.add_function("next_active", params=[T.SEAT, T.NUMBER], returns=T.SEAT,
                   impl=lambda c, x, n: c.st.active_after(x, int(n)),
                   doc="like next(), counting only seats that play this hand")
    s.add_function("left_of", params=[T.SEAT], returns=T.SEAT,
                   impl=lambda c, x: (x + 1) % rs.seats.count,
                   doc="the seat to the left (clockwise neighbour) of a seat, whatever the direction of play")
    s.add_function("right_of", params=[T.SEAT], returns=T.SEAT,
                   impl=lambda c, x: (x - 1) % rs.seats.count,
                   doc="the seat to the right (counter-clockwise neighbour) of a seat")
    s.add_function("opposite", params=[T.SEAT], returns=T.SEAT,
                   impl=lambda c, x: (x + rs.seats.count // 2) % rs.seats.count, doc="the seat across the table")
    s.add_function("others", params=[T.SEAT], returns=T.LIST,
                   impl=lambda c, x: [y for y in c.st.active if y != x],
                   doc="the other seats playing this hand, in order of play from the seat", elem=T.SEAT)

    # Zones.
    s.add_function("zone", params=[T.STRING], returns=T.LIST, impl=lambda c, name: c.st.zone_view(name),
                   doc="the pieces in a shared zone: zone('nest')", elem=T.PIECE)
    s.add_function("zone_of", params=[T.STRING, T.NUMBER], returns=T.LIST,
                   impl=lambda c, name, owner: c.st.zone_view(name, owner),
                   doc="the pieces in a seat's or team's zone: zone_of('won', team_of(seat))", elem=T.PIECE)
    s.add_function("hand", params=[T.SEAT], returns=T.LIST, impl=lambda c, x: c.st.hand_view(x),
                   doc="the pieces in a seat's hand", elem=T.PIECE)
    s.add_function("holds", params=[T.SEAT, T.PIECE], returns=T.BOOL,
                   impl=lambda c, x, p: p is not None and c.st.holds(x, p),
                   code="ctx.st.loc[{1}] == ctx.st.rs.hand_base + {0} if {1} is not None else False",
                   doc="whether a seat holds a piece")
    s.add_function("tricks", params=[T.SEAT], returns=T.NUMBER, impl=lambda c, x: c.st.tricks[x],
                   code="ctx.st.tricks[{0}]", doc="tricks (rounds' worth) a seat has won this hand")

    # Knowledge.
    s.add_function("seen", params=[T.PIECE], returns=T.BOOL,
                   impl=lambda c, p: p is not None and bool(c.st.seen_public[p]),
                   code="ctx.st.seen_public[{0}] != 0 if {0} is not None else False",
                   doc="whether every seat has seen this piece face up this hand")
    s.add_function("dealt_to", params=[T.SEAT, T.PIECE], returns=T.BOOL,
                   impl=lambda c, x, p: p is not None and c.st.dealt_owner[p] == x,
                   code="ctx.st.dealt_owner[{1}] == {0} if {1} is not None else False",
                   doc="whether the piece was in the seat's hand as dealt")
    s.add_function("discarded_by", params=[T.SEAT, T.PIECE], returns=T.BOOL,
                   impl=lambda c, x, p: p is not None and c.st.downed_by[p] == x,
                   code="ctx.st.downed_by[{1}] == {0} if {1} is not None else False",
                   doc="whether the seat itself put this piece face down")
    s.add_function("marked", params=[T.STRING, T.PIECE], returns=T.BOOL,
                   impl=lambda c, name, p: p in c.st.marks.get(name, ()),
                   doc="whether an effect marked the piece with this name this hand")
    s.add_function("fired", params=[T.STRING], returns=T.NUMBER,
                   impl=lambda c, name: c.st.hand_fired.get(name, 0),
                   doc="how often the rule with this id fired this hand")

    def can_play(c: Ctx, combo: str, pieces: Any, size: Any) -> bool:
        spec = rs.combinations.get(combo)
        if spec is None:
            raise KeyError(f"there is no combination '{combo}' (known: {', '.join(rs.combinations)})")
        return bool(enumerate_plays(spec, list(pieces), rs.pieces, size=int(size), ctx=c))

    s.add_function("can_play", params=[T.STRING, T.LIST, T.NUMBER], returns=T.BOOL, impl=can_play,
                   doc="whether the pieces hold a play of that combination with that many pieces: "
                       "can_play('run', hand(seat), 4)")
    def option(c: Ctx | None, name: str) -> str:
        if name not in rs.chosen:
            known = ", ".join(sorted(rs.chosen)) or "none are declared"
            raise ValueError(f"there is no option '{name}' (options: {known})")
        return rs.chosen[name]

    # Worked out when the rules are loaded (the choice is fixed for a ruleset), from an id written
    # out in the text: the content hash finds the options the rules read by that text.
    s.add_function("option", params=[T.STRING], returns=T.STRING, impl=option, pure=True, literal_args=True,
                   doc="the chosen choice of an option, named by its id in quotes: option('trump-order')")

    # Variables: each declared variable is a name.
    for index, var in enumerate(rs.variables):
        s.add_name(var.name, var.expr_type, code=f"ctx.st.vars[{index}]",
                   doc=var.description or f"{var.scope} variable",
                   elem=var.value_type if var.per != "none" else T.ANY)
    return s


def bound_scope(parent: Scope, names: list[str], what: str) -> Scope:
    """A child scope where each of ``names`` reads ``ctx.bind[name]`` (loop and argument bindings)."""
    s = Scope(parent=parent, name=what)
    for n in names:
        s.add_name(n, T.ANY, code=f"ctx.bind[{n!r}]", doc="bound by the rule")
    return s


def piece_scope(parent: Scope) -> Scope:
    """A child scope where ``piece`` is the piece being read (``ctx.piece``): a combination's ``order``
    and ``wild``, asked of each piece of a hand."""
    s = Scope(parent=parent, name="a piece of a combination")
    s.add_name("piece", T.PIECE, code="ctx.piece", doc="the piece whose value or wildness is asked")
    return s
