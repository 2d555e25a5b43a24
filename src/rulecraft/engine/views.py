"""What one seat may see, derived from zone visibility and placement alone.

A piece is visible to a seat when it lies face up in a zone everyone sees, when it is in a zone
the seat owns (its hand), when it lies face down and the seat itself put it there, when the seat
passed it to the hand it still lies in (``Board.known``), or when a rule showed it to the table (a
``show`` effect: the card that must lead is known to all). Everything
else shows as a count. Views and redacted logs both come from ``visible``. (``State.view`` adds what depends on the
procedure: the phase, what it shows everyone, the legal moves, the result.)
"""

from __future__ import annotations

from typing import Any

from rulecraft.engine.board import SHOWN, Board

SECRET_VERBS = frozenset({"down", "give", "claim"})
# A play that broke a follow restriction (recorded at a table) looks like any play to the other seats
# until it is found, at the end of its round (a public 'revoke' event then).
SEEN_AS = {"revoke": "play"}
LEGAL_LISTED = 200  # at most this many legal moves are listed in a view


def visible(st: Board, piece: int, viewer: int | None) -> bool:
    if viewer is None:
        return True
    shown = st.marks.get(SHOWN)
    if shown and piece in shown:  # a rule showed it to the table (the card that must lead)
        return True
    if st.face_down[piece]:
        return st.downed_by[piece] == viewer
    zi = st.loc[piece]
    if st.known:
        knows = st.known.get(piece)
        if knows is not None and knows[0] == viewer and knows[1] == zi:  # it passed the piece there
            return True
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


def visible_variables(st: Board, viewer: int | None) -> dict[str, Any]:
    """The variables ``viewer`` may see (None: all of them), by each variable's declared visibility.

    A variable nobody may see is left out; a per-seat or per-team one shows only the viewer's own
    entry (the others as None); a single value with an owner shows only to the seat it names.
    """
    out: dict[str, Any] = {}
    for i, v in enumerate(st.rs.variables):
        value = st.vars[i]
        if viewer is None or v.visibility == "all":
            out[v.name] = value
        elif v.visibility == "owner":
            if v.per == "seat":
                out[v.name] = [x if k == viewer else None for k, x in enumerate(value)]
            elif v.per == "team":
                mine = st.rs.seats.team_of[viewer]
                out[v.name] = [x if k == mine else None for k, x in enumerate(value)]
            elif v.owner is not None and v.owner(st.ctx) == viewer:
                out[v.name] = value
    return out


def board_view(st: Board, seat: int | None) -> dict[str, Any]:
    """What ``seat`` sees of the board (None: everything): zones, variables, tricks, payments."""
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
    return {
        "seat": seat,
        "hand_number": st.hand_no,
        "phase": None,
        "to_act": st.to_act,
        "active": list(st.active),
        "tricks": list(st.tricks),
        "variables": visible_variables(st, seat),
        "zones": zones,
        "payments": list(st.payments),
    }


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
        if words and words[0] in SEEN_AS:
            return {**event, "move": " ".join([SEEN_AS[words[0]], *words[1:]])}
    return event
