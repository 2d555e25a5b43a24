"""What one seat may see, derived from zone visibility and placement alone.

A piece is visible to a seat when it lies face up in a zone everyone sees, when it is in a zone
the seat owns (its hand), or when it lies face down and the seat itself put it there. Everything
else shows as a count. Views and redacted logs both come from ``visible``.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rulecraft.engine.state import State

SECRET_VERBS = frozenset({"down", "give", "claim"})
LEGAL_LISTED = 200  # at most this many legal moves are listed in a view


def visible(st: State, piece: int, viewer: int | None) -> bool:
    if viewer is None:
        return True
    if st.face_down[piece]:
        return st.downed_by[piece] == viewer
    zi = st.loc[piece]
    zone = st.zone_of_instance(zi)
    if zone.visibility == "all":
        return True
    if zone.visibility == "owner":
        owner = zi - zone.base
        if zone.per == "seat":
            return bool(owner == viewer)
        if zone.per == "team":
            return bool(st.rs.seats.team_of[viewer] == owner)
    return False


def view(st: State, seat: int | None) -> dict[str, Any]:
    """A JSON-ready picture of the game from ``seat`` (None: everything, for replays and debugging)."""
    rs = st.rs
    names = rs.pieces.columns["id"]
    zones: dict[str, Any] = {}
    for z in rs.zones:
        for k in range(z.instances):
            zi = z.base + k
            label = z.name if z.per == "none" else f"{z.name}[{k}]"
            contents = st.zones[zi]
            shown = [names[p] for p in contents if visible(st, p, seat)]
            entry: dict[str, Any] = {"count": len(contents)}
            if shown:
                entry["pieces"] = shown
            zones[label] = entry
    phase = rs.phases[st.pidx].id if not st.is_over and st.pidx < len(rs.phases) else None
    out: dict[str, Any] = {
        "seat": seat,
        "hand_number": st.hand_no,
        "phase": phase,
        "to_act": st.to_act,
        "active": list(st.active),
        "tricks": list(st.tricks),
        "variables": {v.name: st.vars[i] for i, v in enumerate(rs.variables)},
        "zones": zones,
        "payments": list(st.payments),
    }
    if not st.is_over and st.pidx < len(rs.phases):
        public = rs.phases[st.pidx].public_view(st)
        if public is not None:
            out["public"] = public
    if st.is_over:
        out["result"] = st.result
    elif seat is not None and st.to_act == seat:
        # A combinatorial move set (any subset of a hand) is listed only in part, with its size.
        legal = st.legal_moves()
        out["legal"] = [m.text for m in itertools.islice(legal, LEGAL_LISTED)]
        if len(legal) > LEGAL_LISTED:
            out["legal_count"] = len(legal)
    return out


def redact_event(event: dict[str, Any], viewer: int | None) -> dict[str, Any] | None:
    """The log event as ``viewer`` may read it (None when the seat learns nothing from it)."""
    if viewer is None:
        return event
    if event.get("type") == "chance":
        return {"type": "chance", "kind": event.get("kind")} if event.get("kind") != "dice" else event
    if event.get("type") == "move" and event.get("seat") != viewer:
        words = str(event.get("move", "")).split()
        if words and words[0] in SECRET_VERBS:
            head = words[:2] if words[0] == "claim" else words[:1]
            hidden = ["?"] * (len(words) - len(head))
            return {**event, "move": " ".join([*head, *hidden])}
    return event
