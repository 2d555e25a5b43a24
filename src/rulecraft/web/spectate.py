"""What a spectator may see: only what every seat sees.

The engine draws each seat's view from the declared visibility of zones and variables; a spectator
is no seat, so its view is what all the seats' views have in common: a piece is shown where every
seat sees it, a value where every seat reads the same one, a log event where every seat other than
the one who made it reads it alike. Built from the seats' own views, it can show nothing a seat's
page would not, whatever the rule file declares (a zone of a team, a die only its roller sees).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from rulecraft.engine.views import redact_event

if TYPE_CHECKING:
    from rulecraft.engine.state import State

HIDDEN = None


def public_view(st: State) -> dict[str, Any]:
    """The view every seat shares (``seat`` None, no moves to make)."""
    views = [st.view(s) for s in range(st.rs.seats.count)]
    out: dict[str, Any] = _common(views)
    out["seat"] = None
    for key in ("legal", "legal_count"):
        out.pop(key, None)
    return out


def public_events(st: State) -> list[dict[str, Any]]:
    """The log as every seat reads it; an event seats read differently is left out."""
    seats = range(st.rs.seats.count)
    out = []
    for event in st.history:
        readers = [s for s in seats if s != event.get("seat")] or list(seats)
        shown = [redact_event(event, s) for s in readers]
        first = shown[0]
        if first is not None and all(x == first for x in shown[1:]):
            out.append(first)
    return out


def _common(values: list[Any]) -> Any:
    first = values[0]
    if all(isinstance(v, dict) for v in values):
        keys = [k for k in first if all(k in v for v in values[1:])]
        return {k: _pieces(values, k) if k == "pieces" else _common([v[k] for v in values]) for k in keys}
    if all(isinstance(v, list) for v in values) and all(len(v) == len(first) for v in values):
        return [_common([v[i] for v in values]) for i in range(len(first))]
    return first if all(v == first for v in values[1:]) else HIDDEN


def _pieces(zones: list[dict[str, Any]], key: str) -> list[str]:
    """The pieces of a zone every seat sees (each copy as often as the seat that sees it least often)."""
    least = Counter(zones[0][key])
    for zone in zones[1:]:
        least &= Counter(zone[key])
    out = []
    for piece in zones[0][key]:
        if least[piece] > 0:
            least[piece] -= 1
            out.append(piece)
    return out
