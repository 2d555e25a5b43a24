"""The observation rebuilt whole, piece by piece, from the engine's own visibility: the reference the
incremental ``rl.seatview.SeatView`` is held to (it was the adapters' only encoding before).

Every piece through ``engine.views.visible``, every variable through ``visible_variables``, every move
of the hand's record through ``redact_event``, written into a zeroed vector laid out as ``Encoding``
says. Slow (every seat's whole vector at every step) and plain, which is its use.
"""

from __future__ import annotations

import numpy as np

from rulecraft.engine.board import Board
from rulecraft.engine.views import redact_event, visible, visible_variables
from rulecraft.rl.encoding import Encoding, Vector


def observe(enc: Encoding, st: Board, viewer: int | None, selection: tuple[int, ...] = (),
            recall: bool = False) -> Vector:
    vec = np.zeros(enc.recall_size if recall else enc.size, np.float32)
    sec = enc.offsets(recall)
    n, t = enc.seats, enc.types
    if viewer is not None and 0 <= viewer < n:
        vec[sec["seat"] + viewer] = 1
    vec[sec["to_act"] + (st.to_act if st.to_act is not None else n)] = 1
    vec[sec["phase"] + (len(enc.rs.phases) if st.is_over else min(st.pidx, len(enc.rs.phases)))] = 1
    for s in st.active:
        vec[sec["active"] + s] = 1
    type_of = enc.rs.pieces.type_of
    for zi, pieces in enumerate(st.zones):
        row = sec["zones"] + zi * (t + 1)
        for p in pieces:
            if visible(st, p, viewer):
                vec[row + type_of[p]] += 1
        vec[row + t] = len(pieces)
    for s, k in enumerate(st.tricks):
        vec[sec["tricks"] + s] = k
    shown = visible_variables(st, viewer)
    at = sec["variables"]
    for i in range(len(enc.rs.variables)):
        enc.write_variable(i, shown, vec, at)
        at += enc.var_width(i)
    _moves(enc, st, viewer, vec, sec["recent"])
    for k, x in enc.selection_cells(selection).items():
        vec[sec["selection"] + k] = x
    vec[sec["hand"]] = st.hand_no
    if recall:
        for p, seen in enumerate(st.seen_public):
            if seen:
                vec[sec["seen"] + type_of[p]] += 1
    return vec


def _moves(enc: Encoding, st: Board, viewer: int | None, vec: Vector, at: int) -> None:
    """The last moves of this hand, latest first, as ``viewer`` could read them."""
    width = enc.row_width
    history = st.history
    row = 0
    for i in range(len(history) - 1, -1, -1):
        event = history[i]
        kind = event.get("type")
        if kind == "hand":
            break
        if kind != "move" or not isinstance(event.get("seat"), int):
            continue
        seen = redact_event(event, viewer)
        assert seen is not None
        head, types, hidden = enc.read_move(str(seen["move"]))
        base = at + row * width
        vec[base + int(event["seat"])] = 1
        if head >= 0:
            vec[base + enc.seats + head] = 1
        for ty in types:
            vec[base + enc.seats + enc.head_count + 3 + ty] += 1
        vec[base + width - 1] = hidden
        row += 1
        if row == enc.recent:
            break
