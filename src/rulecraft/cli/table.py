"""The terminal picture of a game, as lines of text, for any ruleset.

Everything shown comes from a seat's view (``State.view(seat)``), never from the state itself, so a
rendering cannot show what the seat may not see: the view already leaves out other hands and
face-down pieces. The ruleset supplies only static facts (piece names, glyphs, attributes, the
``display`` section, which variables hold seats), so the same function serves play, replay and tests.

``lang`` is a language code of the ruleset (``--lang``): what has a name in it is shown as
``NAME (id)``, everything else as always; None shows the default language.
"""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING, Any

# The words are the browser table's too (rulecraft.wording); the ones other commands import from
# here are re-exported (``X as X``), so they stay importable from here.
from rulecraft.wording import Seats as Seats
from rulecraft.wording import event_text as event_text
from rulecraft.wording import hand_groups, piece_text, public_rows, result_words, short, variable_text, zone_label
from rulecraft.wording import language as language
from rulecraft.wording import named as named
from rulecraft.wording import names_of as names_of
from rulecraft.wording import piece_type as piece_type

if TYPE_CHECKING:
    from rulecraft.engine.ruleset import Ruleset

HAND_ZONE = "hand"  # the engine's per-seat holding zone (``State.hand``)
RECENT = 8  # events shown under "recent"
SUGGEST = 12  # legal moves suggested under the table when there are at most this many


def width(text: str) -> int:
    """Columns a text takes in a terminal: CJK characters take two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def pad(text: str, columns: int) -> str:
    return text + " " * max(0, columns - width(text))


# ---------------------------------------------------------------------- pieces
def hand_lines(rs: Ruleset, type_ids: list[str], indent: str = "  ", lang: str | None = None) -> list[str]:
    groups = hand_groups(rs, type_ids, lang)
    columns = max((width(label) for label, _ in groups), default=0)
    # Names with spaces in them ("天 (6-6)") read better two spaces apart.
    sep = "  " if lang is not None and lang != names_of(rs).default else " "
    out = []
    for label, ids in groups:
        shown = sep.join(piece_text(rs, t, in_hand=True, lang=lang) for t in ids)
        out.append(f"{indent}{pad(label + ':', columns + 1)} {shown}" if label else f"{indent}{shown}")
    return out or [f"{indent}(empty)"]


# ---------------------------------------------------------------------- values
def variable_lines(rs: Ruleset, variables: dict[str, Any], seats: Seats, scope: str | None = None,
                   lang: str | None = None, only_given: bool = False) -> list[str]:
    """Each declared variable, per-seat and per-team ones spelled out by seat and team (``only_given``:
    only those in ``variables``, as a seat's visible variables leave out what it may not see)."""
    out = []
    for spec in rs.variables:
        if (scope is not None and spec.scope != scope) or (only_given and spec.name not in variables):
            continue
        text = variable_text(rs, spec, variables.get(spec.name), seats)
        out.append(f"  {named(rs, 'variables', spec.name, lang)}: {text}")
    return out


# ---------------------------------------------------------------------- the table
def zone_lines(rs: Ruleset, view: dict[str, Any], seats: Seats, lang: str | None = None) -> list[str]:
    """Every zone but the viewer's own hand: visible pieces by name, the rest as a count."""
    viewer = view.get("seat")
    out = []
    for label, entry in view["zones"].items():
        name = label.partition("[")[0]
        if name == HAND_ZONE and (viewer is None or label == f"{HAND_ZONE}[{viewer}]"):
            continue  # hands the viewer sees are drawn on their own, grouped and sorted
        count = int(entry.get("count", 0))
        shown = list(entry.get("pieces", []))
        hidden = count - len(shown)
        zone = rs.zone_by_name[name]
        if count == 0:
            if zone.per == "none" and zone.visibility == "all":
                out.append(f"  {zone_label(rs, label)}: (empty)")
            continue
        if name == HAND_ZONE and viewer is not None:
            # another seat's hand: a count, and the pieces the viewer may see in it (shown to the
            # table, or passed there by the viewer)
            known = f", known: {' '.join(piece_text(rs, t, lang=lang) for t in shown)}" if shown else ""
            out.append(f"  {zone_label(rs, label)}: {count} piece{'s' if count != 1 else ''}{known}")
            continue
        # In the order they were put there: a trick or pile reads in the order it was played.
        parts = [" ".join(piece_text(rs, t, lang=lang) for t in shown)] if shown else []
        if hidden:
            down = "face down" if zone.visibility == "all" else "hidden"
            parts.append(f"{'+ ' if shown else ''}{hidden} {down} ({' '.join(['??'] * min(hidden, 4))}"
                         f"{' …' if hidden > 4 else ''})")
        out.append(f"  {zone_label(rs, label)}: {' '.join(parts)}")
    return out


def render_table(rs: Ruleset, view: dict[str, Any], seats: Seats, recent: list[str] | None = None,
                 lang: str | None = None) -> list[str]:
    """The whole picture for one seat (or everything, when the view's seat is None), as lines."""
    viewer = view.get("seat")
    phase = named(rs, "phases", view["phase"], lang) if view.get("phase") else (
        "game over" if "result" in view else "–")
    lines = [f"=== {rs.title} — hand {view.get('hand_number')}, {phase} ==="]
    if rs.chosen:
        lines.append("options: " + options_text(rs, lang))
    who = "  ".join(f"{s}:{seats.labels[s]}" if s < len(seats.labels) else str(s) for s in range(rs.seats.count))
    teams = [t for t in rs.seats.teams if len(t) > 1]
    lines.append(f"seats: {who}" + (f"   teams: {', '.join('+'.join(map(str, t)) for t in teams)}" if teams else ""))
    active = view.get("active", [])
    out_seats = [s for s in range(rs.seats.count) if s not in active]
    if out_seats:
        lines.append(f"sitting out: {', '.join(seats.name(s) for s in out_seats)}")
    if rs.counts_rounds:
        lines.append("tricks: " + "  ".join(f"seat {s}: {short(n)}" for s, n in enumerate(view.get("tricks", []))))
    var_lines = variable_lines(rs, view.get("variables", {}), seats, lang=lang)
    if var_lines:
        lines.append("variables:")
        lines.extend(var_lines)
    zl = zone_lines(rs, view, seats, lang)
    if zl:
        lines.append("table:")
        lines.extend(zl)
    public = view.get("public")
    if public:
        lines.append(f"{phase}:")
        lines.extend(f"  {key}: {text}" for key, text in public_rows(public, seats))
    if recent:
        lines.append("recent:")
        lines.extend(f"  {r}" for r in recent[-RECENT:])
    if viewer is None:
        for s in range(rs.seats.count):
            entry = view["zones"].get(f"{HAND_ZONE}[{s}]")
            if entry is not None:
                lines.append(f"hand of {seats.name(s)} ({entry.get('count', 0)}):")
                lines.extend(hand_lines(rs, list(entry.get("pieces", [])), "    ", lang))
    else:
        entry = view["zones"].get(f"{HAND_ZONE}[{viewer}]", {})
        n = entry.get("count", 0)
        lines.append(f"your hand (seat {viewer}, {n} piece{'' if n == 1 else 's'}):")
        lines.extend(hand_lines(rs, list(entry.get("pieces", [])), lang=lang))
    if "result" in view:
        lines.extend(result_lines(view["result"], seats))
    elif view.get("to_act") is not None:
        you = " — your move" if viewer is not None and view.get("to_act") == viewer else ""
        playing_for = view.get("playing_for")  # (another seat's decision: a dummy's, made by its partner)
        for_whom = f", for {seats.name(playing_for)}" if playing_for is not None else ""
        lines.append(f"to act: {seats.name(view.get('to_act'))}{for_whom}{you}")
        legal = view.get("legal", [])
        if legal and len(legal) <= SUGGEST and "legal_count" not in view:
            lines.append(f"you may: {', '.join(legal)}")
    return lines


def options_text(rs: Ruleset, lang: str | None = None) -> str:
    """``bunmu_son=off, ...`` with the options' names in ``lang`` where they have one."""
    return ", ".join(f"{named(rs, 'options', k, lang)}={v}" for k, v in sorted(rs.chosen.items()))


def result_lines(result: dict[str, Any], seats: Seats) -> list[str]:
    who, scores, hands = result_words(result, seats)
    return [f"result: {who}", f"  scores: {scores}", f"  hands played: {hands}"]
