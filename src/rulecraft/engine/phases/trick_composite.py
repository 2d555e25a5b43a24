"""Composite leads: a leader plays several combinations of one group at once, claiming none can be beaten.

A trick phase's ``lead.composite`` (a "throw") lets the leader lead several plays of the
combinations it names (``of``) together, all of their pieces sharing one value of ``together`` (one
suit). The claim, that no other seat could beat any of them, is checked after the play against the
other seats' hands: a component is beaten when another seat holds a play of the same combination and
class, all of the same ``together`` value, that is stronger (each rated as a lead). When one is beaten
the composite fails: the leader leads only the smallest beaten component (fewest pieces, then the
weakest), keeps the rest, and the ``penalty`` effects run (``seat`` the leader, ``play`` and ``size``
the pieces taken back). Either way the outcome is a public ``composite`` event: the pieces led, and for
a failure the component led instead and the play that beat it, which is shown to every seat for the
rest of the hand (the pieces taken back too: they were on the table). Nothing else of the hands is told.

A composite is cut into components greedily, the largest plays first (a tractor before its pairs), then
the strongest. The leader is offered, per ``together`` value held, the strongest two, three, ... of the
components of everything held of it (components ranked by strength, then size): a handful of moves per
group, never every subset.

A follow of a composite that holds pieces of one ``together`` value cut into components of the same
classes has the composite's class; its strength (and the lead's) is that of its strongest component of
the largest size. So a follower void in the led suit who plays the same shape in trumps wins (the
highest such), and any other follow wins nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rulecraft.dsl import CompiledExpr
from rulecraft.engine.board import SHOWN
from rulecraft.engine.combos import ComboSpec, Play, enumerate_all
from rulecraft.engine.effects import Effect

if TYPE_CHECKING:
    from rulecraft.engine.board import Board

Rate = Callable[[Play], tuple[Any, Any]]  # a play's (class, strength) as a lead, ctx.seat set


@dataclass(frozen=True, slots=True)
class CompositeLead:
    """``lead.composite`` of a trick phase (see the module docstring)."""

    id: str
    of: tuple[ComboSpec, ...]
    together: CompiledExpr
    penalty: tuple[Effect, ...]

    def group_of(self, st: Board, p: int) -> Any:
        """The ``together`` value of a piece (its suit)."""
        ctx = st.ctx
        saved = ctx.piece
        ctx.piece = p
        try:
            return self.together(ctx)
        finally:
            ctx.piece = saved

    def components(self, st: Board, ps: Sequence[int], rate: Rate) -> list[tuple[Play, Any, Any]]:
        """``ps`` cut into plays of ``of`` (largest first, then strongest), each with its class and strength;
        pieces no play takes are left out (a caller compares the pieces covered)."""
        cands = enumerate_all(self.of, list(ps), st.rs.pieces, ctx=st.ctx)
        rated = [(c, *rate(c)) for c in cands]
        rated.sort(key=lambda r: (-r[0].size, -_num(r[2])))
        free = set(ps)
        out = []
        for play, cls, strength in rated:
            if all(p in free for p in play.pieces):
                free.difference_update(play.pieces)
                out.append((play, cls, strength))
        return out

    def shape(self, st: Board, ps: Sequence[int], rate: Rate) -> tuple[Any, Any] | None:
        """(class, strength) of ``ps`` as a composite: None when its pieces do not share one group or
        do not cut wholly into two or more components."""
        if len(ps) < 2 or len({self.group_of(st, p) for p in ps}) != 1:
            return None
        parts = self.components(st, ps, rate)
        if len(parts) < 2 or sum(c.size for c, _, _ in parts) != len(ps):
            return None
        cls = (self.id, tuple(sorted((repr(c) for _, c, _ in parts))))
        biggest = max(c.size for c, _, _ in parts)
        strength = max(_num(s) for c, _, s in parts if c.size == biggest)
        return cls, strength

    def offers(self, st: Board, hand: Sequence[int], rate: Rate) -> list[Play]:
        """The composite leads offered from ``hand``: per group, the strongest 2, 3, ... components."""
        groups: dict[Any, list[int]] = {}
        for p in hand:
            groups.setdefault(self.group_of(st, p), []).append(p)
        out: list[Play] = []
        for ps in groups.values():
            if len(ps) < 2:
                continue
            parts = self.components(st, ps, rate)
            parts.sort(key=lambda r: (-_num(r[2]), -r[0].size))
            chosen: list[int] = []
            for i, (c, _, _) in enumerate(parts):
                chosen.extend(c.pieces)
                if i >= 1:
                    out.append(Play(self.id, tuple(sorted(chosen))))
        return out

    def beaten(self, st: Board, leader: int, play: Play, rate: Rate,
               hands: Sequence[tuple[int, Sequence[int]]] | None = None) -> tuple[Play, int, Play] | None:
        """The check after the lead: None when no other seat could beat any component, else the component
        the leader must lead instead, the seat that beats it and its play (the strongest it holds).
        ``hands``: each other seat with the pieces it holds, in the order of play; by default their hands
        (an agent, which may not read them, passes the pieces it cannot rule out: a throw sure to hold)."""
        ctx = st.ctx
        saved = ctx.seat
        group = self.group_of(st, play.pieces[0])
        failed: list[tuple[Play, Any, int, Play]] = []
        if hands is None:
            hands = [(s, st.hand(s)) for s in st.order_from(leader) if s != leader]
        try:
            ctx.seat = leader
            parts = self.components(st, play.pieces, rate)
            # Each other seat's pieces of the group, in the order of play (only they can make a beating play).
            others = [(s, [p for p in held if self.group_of(st, p) == group]) for s, held in hands]
            for comp, cls, strength in parts:
                spec = [s for s in self.of if s.id == comp.combo]
                for seat, held in others:
                    if len(held) < comp.size:
                        continue
                    ctx.seat = seat
                    best: tuple[Any, Play] | None = None
                    for cand in enumerate_all(spec, held, st.rs.pieces, comp.size, ctx):
                        c_cls, c_strength = rate(cand)
                        if c_cls == cls and _num(c_strength) > _num(strength) and (
                                best is None or _num(c_strength) > best[0]):
                            best = (_num(c_strength), cand)
                    if best is not None:
                        failed.append((comp, strength, seat, best[1]))
                        break
        finally:
            ctx.seat = saved
        if not failed:
            return None
        comp, _, seat, by = min(failed, key=lambda f: (f[0].size, _num(f[1])))
        return comp, seat, by

    def record(self, st: Board, leader: int, play: Play, outcome: tuple[Play, int, Play] | None) -> None:
        """The public event of the check; a failure shows the beating play and the pieces taken back."""
        ids = st.rs.pieces.type_id
        event: dict[str, Any] = {"type": "composite", "id": self.id, "seat": leader,
                                 "pieces": [ids(p) for p in play.pieces], "held": outcome is None}
        if outcome is not None:
            comp, seat, by = outcome
            event.update({"led": [ids(p) for p in comp.pieces], "beaten_by": seat,
                          "beating": [ids(p) for p in by.pieces]})
            shown = st.marks.setdefault(SHOWN, set())
            shown.update(by.pieces)
            shown.update(p for p in play.pieces if p not in comp.pieces)
        st.history.append(event)


def _num(x: Any) -> float:
    """A strength as a number to compare (a strength that is none ranks lowest)."""
    return float(x) if isinstance(x, (int, float)) else float("-inf")
