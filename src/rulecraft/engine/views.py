"""What one seat may see, derived from zone visibility and placement alone.

A piece is visible to a seat when it lies face up in a zone everyone sees, when it is in a zone
the seat owns (its hand), when it lies face down and the seat itself put it there, when the seat
passed it to the hand it still lies in (``Board.known``), or when a rule showed it to the table (a
``show`` effect: the card that must lead is known to all). Everything
else shows as a count. Views and redacted logs both come from ``visible``. Variables follow their
declared visibility the same way (``sees_variable``), and so do dice: a roll into a variable some seat
may not see is recorded with the seats that may (``seen_by``), and every other seat's copy of the log
shows that dice were rolled, how many and where, never their faces. (``State.view`` adds what depends on the
procedure: the phase, what it shows everyone, the legal moves, the result.)
"""

from __future__ import annotations

from typing import Any

from rulecraft.engine.board import SHOWN, Board

HIDDEN_PIECE = "?"  # a piece of a move as a seat that may not see it reads it (redact_event)

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
        if zone.per == "team":  # (a viewer that is no seat, such as a public observer, is on no team)
            return 0 <= viewer < len(st.rs.seats.team_of) and st.rs.seats.team_of[viewer] == owner
    return False


def sees_variable(st: Board, var_index: int, entry: int | None, viewer: int | None) -> bool:
    """Whether ``viewer`` may see variable ``var_index`` (its entry ``entry``, for a per-seat or per-team one).

    By the variable's declared visibility, or because a ``show`` made it (or that entry) public for the
    rest of the hand (dice turned up for a challenge to be settled).
    """
    if viewer is None:
        return True
    v = st.rs.variables[var_index]
    if v.visibility == "all":
        return True
    shown = st.shown_vars
    if shown and ((var_index, None) in shown or (var_index, entry) in shown):
        return True
    if v.visibility != "owner":
        return False
    if v.per == "seat":
        return entry == viewer
    if v.per == "team":
        return 0 <= viewer < len(st.rs.seats.team_of) and entry == st.rs.seats.team_of[viewer]
    return v.owner is not None and v.owner(st.ctx) == viewer


def variable_viewers(st: Board, var_index: int, entry: int | None) -> list[int] | None:
    """The seats that may see a variable (or one entry of it) now; None when every seat may.

    What a chance outcome landing there records, so each seat's copy of the log shows it only to them.
    """
    seats = range(st.rs.seats.count)
    if all(sees_variable(st, var_index, entry, s) for s in seats):
        return None
    return [s for s in seats if sees_variable(st, var_index, entry, s)]


def visible_variables(st: Board, viewer: int | None) -> dict[str, Any]:
    """The variables ``viewer`` may see (None: all of them), by each variable's declared visibility.

    A variable nobody may see is left out; a per-seat or per-team one shows only the viewer's own
    entry (the others as None); a single value with an owner shows only to the seat it names. A
    ``show`` makes a variable, or one entry of it, public for the rest of the hand.
    """
    out: dict[str, Any] = {}
    for i, v in enumerate(st.rs.variables):
        value = st.vars[i]
        if viewer is None or v.visibility == "all":
            out[v.name] = value
        elif v.per in ("seat", "team"):
            seen = [sees_variable(st, i, k, viewer) for k in range(len(value))]
            if any(seen):  # (a viewer that is no seat sees no seat's own entry)
                out[v.name] = [x if s else None for x, s in zip(value, seen, strict=True)]
        elif sees_variable(st, i, None, viewer):
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
        **_shown(st),
    }


def _shown(st: Board) -> dict[str, Any]:
    """What ``show`` effects made public: this hand's, and the last hand's once the next has begun (a
    show as a hand ends, such as the dice turned up to settle it, would otherwise reach no view)."""
    out: dict[str, Any] = {}
    if st.shows:
        out["shown"] = [dict(r) for r in st.shows]
    if st.hand_results:
        last = st.hand_results[-1]
        if last.get("shown") and last.get("hand") != st.hand_no:
            out["shown_last_hand"] = {"hand": last.get("hand"), "shown": [dict(r) for r in last["shown"]]}
    return out


def redact_event(event: dict[str, Any], viewer: int | None) -> dict[str, Any] | None:
    """The log event as ``viewer`` may read it (None when the seat learns nothing from it)."""
    if viewer is None:
        return event
    if event.get("type") == "chance":
        if event.get("kind") != "dice":
            return {"type": "chance", "kind": event.get("kind")}
        seen_by = event.get("seen_by")
        if seen_by is None or viewer in seen_by:
            return event
        # Dice rolled where this seat may not look (another seat's cup): that they were rolled, how many
        # and where is public; the faces are not. The log keeps them, for exact replay.
        return {"type": "chance", "kind": "dice", "set": event.get("set"), "count": len(event.get("dice") or ()),
                "seen_by": seen_by}
    if event.get("type") == "move" and event.get("seat") != viewer:
        words = str(event.get("move", "")).split()
        if words and words[0] in SECRET_VERBS:
            head = words[:2] if words[0] == "claim" else words[:1]
            hidden = [HIDDEN_PIECE] * (len(words) - len(head))
            return {**event, "move": " ".join([*head, *hidden])}
        if words and words[0] in SEEN_AS:
            return {**event, "move": " ".join([SEEN_AS[words[0]], *words[1:]])}
    return event
