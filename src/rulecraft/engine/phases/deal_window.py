"""Decision windows during a deal: the deal pauses after each packet, and the seat that received it
may show pieces of its hand (declare a trump by a card of the trump rank as it arrives, overcall with
a pair) or pass; then the deal goes on.

A deal with a ``window`` deals the same pieces to the same places, in the same order, as without
one; it only stops after each packet dealt to a seat (a side zone's pieces come and go silently) and
asks that seat. Every seat is asked after each of its packets, whatever it holds: being asked shows
nothing. A show is one of the window's ``shows``: a play of a combination (``combination``) from the
seat's hand that ``allow`` accepts; the pieces stay in the hand, seen by every seat from then on, and
the show's ``effects`` run (with ``seat`` the seat that showed, ``play`` the pieces shown). The seat is
asked again (it may show more), until it passes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rulecraft.dsl import CompiledExpr, Scope, T
from rulecraft.engine.board import SHOWN
from rulecraft.engine.combos import ComboSpec, Play, enumerate_all
from rulecraft.engine.effects import Effect, compile_effects, run_effects
from rulecraft.engine.moves import Move
from rulecraft.engine.phases.base import describe_legal

if TYPE_CHECKING:
    from rulecraft.engine.board import Board
    from rulecraft.engine.builder import Builder
    from rulecraft.engine.equipment import Equipment


@dataclass(frozen=True, slots=True)
class Show:
    """One kind of show: plays of ``combo`` that ``allow`` accepts; ``effects`` run when one is made."""

    id: str
    combo: ComboSpec
    allow: CompiledExpr | None
    effects: tuple[Effect, ...]


@dataclass(slots=True)
class WindowData:
    """A paused deal: where each piece goes (``targets``, in dealing order) and how far it has gone."""

    targets: list[tuple[int, bool]]
    owners: list[int]  # the seat whose packet each target is (-1: a side zone)
    done: int = 0
    # the decision of the seat asked: its moves and the show and play behind each (None: pass)
    options: tuple[list[Move], list[tuple[Show, Play] | None]] | None = None
    shown: list[tuple[int, str]] = field(default_factory=list)  # (seat, show id), in order

    def copy(self) -> WindowData:
        return WindowData(self.targets, self.owners, self.done, self.options, list(self.shown))


def window_scope(parent: Scope) -> Scope:
    """Names a show's ``allow`` and ``effects`` read: the seat asked and the pieces it would show."""
    s = Scope(parent=parent, name="a deal's window")
    s.add_name("seat", T.SEAT, code="ctx.seat", doc="the seat asked (it received the last packet)")
    s.add_name("play", T.LIST, elem=T.PIECE, getter=lambda c: list(c.combo.pieces) if c.combo else [],
               doc="the pieces the seat would show (or showed)")
    s.add_name("piece", T.PIECE, code="ctx.combo.pieces[0] if ctx.combo else None",
               doc="the first piece of the show")
    s.add_name("size", T.NUMBER, getter=lambda c: len(c.combo.pieces) if c.combo else 0,
               doc="how many pieces the show has")
    return s


class Window:
    """The ``window`` of a deal phase: its shows, and the decisions it makes while the deal pauses."""

    def __init__(self, shows: tuple[Show, ...]) -> None:
        self.shows = shows

    @classmethod
    def build(cls, b: Builder, rs: Equipment, raw: dict[str, Any], scope: Scope, what: str) -> Window:
        wscope = window_scope(scope)
        shows = []
        for i, r in enumerate(raw.get("shows") or ()):
            sid = str(r.get("id", f"show-{i + 1}"))
            name = r.get("combination")
            if not b.ref(name, rs.combinations, "combination"):
                continue
            allow = b.expr(r["allow"], wscope, T.BOOL, f"{what} show '{sid}' allow") if "allow" in r else None
            effects = compile_effects(b, rs, r.get("effects", ()), wscope, f"{what} show '{sid}'")
            shows.append(Show(sid, rs.combinations[str(name)], allow, effects))
        if not shows:
            b.error(raw, f"{what}: a window needs at least one show ('shows', each with a 'combination')")
        return cls(tuple(shows))

    def begin(self, st: Board, targets: list[tuple[int, bool]], seat_of_zi: dict[int, int]) -> None:
        st.pdata = WindowData(targets, [seat_of_zi.get(zi, -1) if not down else -1 for zi, down in targets])

    def step(self, st: Board, src: int) -> bool:
        """Deal on to the end of the next packet dealt to a seat; True when that seat is asked."""
        d: WindowData = st.pdata
        targets, owners = d.targets, d.owners
        pile = st.zones[src]
        n = len(targets)
        while d.done < n:
            i = d.done
            zi, down = targets[i]
            st.put(pile[0], zi, down)
            d.done = i + 1
            seat = owners[i]
            # A packet ends where the next piece goes elsewhere (or the deal ends).
            if seat >= 0 and (i + 1 == n or targets[i + 1] != targets[i]):
                st.to_act = seat
                st.ctx.seat = seat
                d.options = None
                return True
        return False

    def _options(self, st: Board) -> tuple[list[Move], list[tuple[Show, Play] | None]]:
        d: WindowData = st.pdata
        if d.options is not None:
            return d.options
        seat = st.to_act
        assert seat is not None
        ctx = st.ctx
        hand = st.hand(seat)
        moves: list[Move] = [st.rs.moves.get("pass")]
        found: list[tuple[Show, Play] | None] = [None]
        seen: set[Move] = set(moves)
        for show in self.shows:
            ctx.seat = seat
            for play in enumerate_all((show.combo,), hand, st.rs.pieces, ctx=ctx):
                ctx.seat, ctx.combo = seat, play
                if show.allow is not None and not show.allow(ctx):
                    continue
                move = st.rs.moves.get("play", play.pieces)
                if move in seen:
                    continue  # (the same pieces as an earlier show: that one is the move)
                seen.add(move)
                moves.append(move)
                found.append((show, play))
        ctx.combo = None
        d.options = (moves, found)
        return d.options

    def legal(self, st: Board) -> list[Move]:
        return self._options(st)[0]

    def apply(self, st: Board, move: Move) -> bool:
        d: WindowData = st.pdata
        moves, found = self._options(st)
        chosen = found[moves.index(move)]
        d.options = None
        if chosen is None:  # pass: the deal goes on
            return False
        show, play = chosen
        seat = st.to_act
        assert seat is not None
        st.marks.setdefault(SHOWN, set()).update(play.pieces)
        for p in play.pieces:
            st.seen_public[p] = 1
        d.shown.append((seat, show.id))
        st.note_fired(show.id)
        ctx = st.ctx
        ctx.seat, ctx.combo = seat, play
        run_effects(st, show.effects)
        ctx.combo = None
        if st.signal:
            return False
        st.ctx.seat = seat  # asked again: it may show more, or pass
        return True

    def explain(self, st: Board, verb: str, piece_ids: list[str]) -> str:
        if verb not in ("play", "pass"):
            return f"while the deal pauses you show pieces or pass: {describe_legal(self.legal(st))}"
        return (f"{' '.join(piece_ids)} is no show allowed now "
                f"({', '.join(s.id for s in self.shows)}); you may: {describe_legal(self.legal(st))}")

    def public_view(self, st: Board) -> dict[str, Any]:
        d: WindowData = st.pdata
        return {"shown": [{"seat": s, "show": sid} for s, sid in d.shown]}
