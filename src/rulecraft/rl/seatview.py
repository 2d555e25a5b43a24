"""One viewer's observation of one game, brought up to date from what changed since it was last asked.

The observation (``rl.encoding``) is mostly the same from one step to the next: a card moved from a
hand to the trick, the seat to act changed, one more move joined the record. ``SeatView`` keeps the
vector of one viewer and, when asked again, compares the state with what it saw last and rewrites
only what differs:

* each piece adds 1 to its zone's count and, if the viewer sees it, 1 to its type in that zone. A
  piece whose place, face, who put it down, who passed it there, or shown mark changed has its
  contribution moved (the comparisons of whole lists run in C, so a step where nothing moved costs
  almost nothing);
* the variables are written again only when their values changed (or when one shows only to a seat
  a rule names: that seat may change without the value);
* the moves of the record since last time are read as rows of ``recent`` (each distinct move once,
  ``Encoding.move_row``), the older rows shifted down; a new hand clears them. A state that does not
  continue the one seen last (another game, a resampled world) is read afresh.

Visibility is the engine's (``engine.views``): ``Encoding.zone_sees`` is ``visible`` for a piece
lying face up where nobody showed, put down or passed it, and the exceptions are checked here in
``visible``'s order. tests/rl/test_observations.py holds the result to a plain rebuild of the whole
vector from ``visible``, ``visible_variables`` and ``redact_event`` (tests/rl/rl_reference.py).
"""

from __future__ import annotations

from array import array
from itertools import compress
from operator import ne
from typing import Any

import numpy as np

from rulecraft.engine.board import SHOWN, Board
from rulecraft.engine.views import visible_variables
from rulecraft.rl.encoding import PUBLIC, Encoding, Vector


def observe(enc: Encoding, st: Board, viewer: int | None, selection: tuple[int, ...] = (),
            recall: bool = False) -> Vector:
    """The observation of ``st`` by ``viewer`` (a seat, None for everything, PUBLIC for no seat), made
    afresh: a game followed step by step keeps a ``SeatView`` per viewer instead."""
    return SeatView(enc, viewer, recall).update(st, selection)


class SeatView:
    """The observation vector of ``viewer`` (a seat, None: everything, PUBLIC: no seat), kept up to date."""

    __slots__ = ("_active", "_at", "_cells", "_cnt_at", "_db", "_fd", "_hand", "_hlast", "_hlen", "_known", "_loc",
                 "_owned", "_owners", "_phase", "_rows", "_seen", "_sel", "_shown", "_shown_vars", "_slots", "_to_act",
                 "_tricks", "_vars", "_vis_at", "_zero", "enc", "mv", "recall", "vec", "viewer")

    def __init__(self, enc: Encoding, viewer: int | None, recall: bool = False) -> None:
        self.enc = enc
        self.viewer = viewer
        self.recall = recall
        self.vec: Vector = np.zeros(enc.recall_size if recall else enc.size, np.float32)
        # Item by item, a memoryview is three times quicker than the array (typed Any: typeshed knows
        # memoryviews of bytes only); ``_zero`` is a source of zeros for clearing a section.
        self.mv: Any = memoryview(self.vec)  # type: ignore[arg-type]
        self._zero: Any = memoryview(np.zeros(self.vec.size, np.float32))  # type: ignore[arg-type]
        self._at = enc.offsets(recall)
        self._cells = enc.piece_cells(viewer)
        self._slots = enc.var_slots()
        # Variables that show only to a seat a rule names: that seat may change while the value does not.
        self._owned = viewer is not None and any(v.visibility == "owner" and v.per not in ("seat", "team")
                                                 for v in enc.rs.variables)
        self._owners: tuple[Any, ...] = ()  # the seats those variables' rules named when last read
        if viewer is not None and 0 <= viewer < enc.seats:
            self.mv[self._at["seat"] + viewer] = 1.0
        n = enc.rs.pieces.count
        self._cnt_at = [-1] * n  # per piece: where it adds to a zone's count, and where to a type it shows (-1: none)
        self._vis_at = [-1] * n
        # What was seen last (None: nothing yet).
        self._loc: list[int] | None = None
        self._fd: bytes = b""
        self._db: list[int] = []
        self._known: dict[int, tuple[int, int]] = {}
        self._shown: frozenset[int] = frozenset()
        self._seen: bytes = bytes(n)
        self._vars: list[Any] | None = None
        self._shown_vars: frozenset[tuple[int, int | None]] = frozenset()  # variables a show made public
        self._to_act = self._phase = -1
        self._active: tuple[int, ...] = ()
        self._tricks: list[int] = []
        self._hand = 0
        self._hlen = 0
        self._hlast: Any = None
        self._rows = 0  # rows of ``recent`` filled
        self._sel = False  # whether the selection section holds anything

    def update(self, st: Board, selection: tuple[int, ...] = ()) -> Vector:
        """The observation of ``st`` now (the view's own vector: copy it to keep it)."""
        mv, at, enc = self.mv, self._at, self.enc
        i = at["to_act"] + (st.to_act if st.to_act is not None else enc.seats)
        if i != self._to_act:
            if self._to_act >= 0:
                mv[self._to_act] = 0.0
            mv[i] = 1.0
            self._to_act = i
        phases = len(enc.rs.phases)
        i = at["phase"] + (phases if st.is_over else min(st.pidx, phases))
        if i != self._phase:
            if self._phase >= 0:
                mv[self._phase] = 0.0
            mv[i] = 1.0
            self._phase = i
        if st.active != self._active:
            base = at["active"]
            mv[base:base + enc.seats] = self._zero[:enc.seats]
            for s in st.active:
                mv[base + s] = 1.0
            self._active = st.active
        if st.tricks != self._tricks:
            base = at["tricks"]
            mv[base:base + enc.seats] = array("f", st.tricks)
            self._tricks = list(st.tricks)
        if st.hand_no != self._hand:
            mv[at["hand"]] = float(st.hand_no)
            self._hand = st.hand_no
        self._pieces(st)
        if (st.vars != self._vars or st.shown_vars != self._shown_vars
                or (self._owned and self._owners_of(st) != self._owners)):  # (a value, a show, a seat a rule names)
            self._variables(st)
        self._recent(st)
        if selection or self._sel:
            base = at["selection"]
            width = enc.head_count + 3 + enc.types
            mv[base:base + width] = self._zero[:width]
            for k, x in enc.selection_cells(selection).items():
                mv[base + k] = x
            self._sel = bool(selection)
        if self.recall and st.seen_public != self._seen:
            self._memory(st)
        return self.vec

    # -------------------------------------------------------------- zones
    def _pieces(self, st: Board) -> None:
        loc, viewer, every = st.loc, self.viewer, range(len(st.loc))
        old = self._loc
        changed: list[int] = []
        if old is None or loc != old:  # (lists compared in C: a step that moved nothing costs little)
            changed = list(every) if old is None else list(compress(every, map(ne, loc, old)))
            self._loc = list(loc)
        if viewer is not None:  # (everything is seen by None: how a piece lies changes nothing)
            # Each kept only when it changed: most steps turn, show, put down and pass nothing.
            if st.face_down != self._fd:
                changed += compress(every, map(ne, st.face_down, self._fd)) if self._fd else every
                self._fd = bytes(st.face_down)
            if st.downed_by != self._db:
                changed += compress(every, map(ne, st.downed_by, self._db)) if self._db else every
                self._db = list(st.downed_by)
            if st.known != self._known:
                changed += (p for p in st.known.keys() | self._known.keys() if st.known.get(p) != self._known.get(p))
                self._known = dict(st.known)
            now: set[int] | frozenset[int] = st.marks.get(SHOWN) or frozenset()
            if now != self._shown:
                changed += now ^ self._shown
                self._shown = frozenset(now)
        if not changed:
            return
        mv, cnt_at, vis_at = self.mv, self._cnt_at, self._vis_at
        count_cell, seen_cells, vis_cells = self._cells
        face_down, downed_by, known = st.face_down, st.downed_by, st.known
        shown = st.marks.get(SHOWN)
        hides = viewer is not None
        for p in changed:
            zi = loc[p]
            c = count_cell[zi]
            if c != cnt_at[p]:
                if cnt_at[p] >= 0:
                    mv[cnt_at[p]] -= 1.0
                mv[c] += 1.0
                cnt_at[p] = c
            # engine.views.visible, in its order (None sees everything: its vis_cells are its seen_cells)
            if not hides or (shown and p in shown):
                v = seen_cells[p][zi]
            elif face_down[p]:
                v = seen_cells[p][zi] if downed_by[p] == viewer else -1
            elif known and (k := known.get(p)) is not None and k[0] == viewer and k[1] == zi:
                v = seen_cells[p][zi]
            else:
                v = vis_cells[p][zi]
            if v != vis_at[p]:
                if vis_at[p] >= 0:
                    mv[vis_at[p]] -= 1.0
                if v >= 0:
                    mv[v] += 1.0
                vis_at[p] = v

    # -------------------------------------------------------------- variables
    def _variables(self, st: Board) -> None:
        enc, mv = self.enc, self.mv
        shown = visible_variables(st, self.viewer)
        if self.viewer == PUBLIC:  # (visible_variables knows seats; no seat is in a team)
            for v in enc.rs.variables:
                if v.per == "team" and v.visibility == "owner":
                    shown.pop(v.name, None)
        old = self._vars
        if st.shown_vars != self._shown_vars:  # a show made a variable public: unchanged values, seen anew
            old, self._shown_vars = None, st.shown_vars
        base = self._at["variables"]
        slots = self._slots
        for i, value in enumerate(st.vars):
            if old is not None and value == old[i] and not (self._owned and enc.rs.variables[i].owner is not None):
                continue
            at = base + slots[i]
            width = enc.var_width(i)
            mv[at:at + width] = self._zero[:width]
            enc.write_variable(i, shown, mv, at)
        if old is None or st.vars != old:  # (a seat a rule names changed, not a value: the copy stands)
            self._vars = [list(v) if isinstance(v, list) else v for v in st.vars]
        if self._owned:
            self._owners = self._owners_of(st)

    def _owners_of(self, st: Board) -> tuple[Any, ...]:
        """The seats the rules of variables shown to one seat name now (``engine.views.sees_variable``)."""
        return tuple(v.owner(st.ctx) for v in self.enc.rs.variables if v.owner is not None)

    # -------------------------------------------------------------- the record
    def _recent(self, st: Board) -> None:
        entries = st.history.entries
        size, seen = len(entries), self._hlen
        if size == seen and (size == 0 or entries[size - 1] is self._hlast):
            return
        room = self.enc.recent
        keys: list[tuple[int, str]] = []  # the moves to add, (seat, text), oldest first
        fresh = False
        if seen and (size < seen or entries[seen - 1] is not self._hlast):  # not this game's continuation
            seen = 0
        if seen == 0:  # read back from the end to the start of the hand, as far as ``recent`` shows
            fresh = True
            for i in range(size - 1, -1, -1):
                e = entries[i]
                if isinstance(e, dict) and e.get("type") == "hand":
                    break
                key = _key(e)
                if key is not None:
                    keys.append(key)
                    if len(keys) == room:
                        break
            keys.reverse()
        else:
            for i in range(seen, size):
                e = entries[i]
                if isinstance(e, tuple):  # (a move, by far the most common entry)
                    if type(e[0]) is int:
                        keys.append((e[0], e[1].text))
                elif e.get("type") == "hand":
                    keys.clear()
                    fresh = True
                else:
                    key = _key(e)
                    if key is not None:
                        keys.append(key)
        self._hlen, self._hlast = size, entries[size - 1] if size else None
        mv, width = self.mv, self.enc.row_width
        base = self._at["recent"]
        if fresh:
            mv[base:base + room * width] = self._zero[:room * width]
            self._rows = 0
        if not keys:
            return
        new = min(len(keys), room)
        keep = min(self._rows, room - new)
        if keep:  # the older rows move down (memoryview slices copy as memmove does: overlap is safe)
            mv[base + new * width:base + (new + keep) * width] = mv[base:base + keep * width]
        move_row, viewer = self.enc.move_row, self.viewer
        at = base
        for seat, text in keys[:-new - 1:-1]:  # latest first; each row written whole
            mv[at:at + width] = move_row(viewer, seat, text)
            at += width
        self._rows = new + keep

    # -------------------------------------------------------------- public memory
    def _memory(self, st: Board) -> None:
        type_of = self.enc.rs.pieces.type_of
        base = self._at["seen"]
        now = st.seen_public
        for p in compress(range(len(now)), map(ne, now, self._seen)):
            self.mv[base + type_of[p]] += 1.0 if now[p] else -1.0
        self._seen = bytes(now)


def _key(entry: Any) -> tuple[int, str] | None:
    """(seat, text) of a move in the record (as recorded, or as an event: a move made for another seat)."""
    if type(entry) is tuple:
        seat, move = entry
        return (seat, move.text) if type(seat) is int else None
    if entry.get("type") == "move" and type(entry.get("seat")) is int:
        return int(entry["seat"]), str(entry["move"])
    return None
