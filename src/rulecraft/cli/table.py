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
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rulecraft.cli.move_input import move_summary

# The words are the browser table's too (rulecraft.wording); the ones other commands import from
# here are re-exported (``X as X``), so they stay importable from here.
from rulecraft.wording import Seats as Seats
from rulecraft.wording import event_text as event_text
from rulecraft.wording import (
    hand_groups,
    piece_text,
    public_rows,
    result_words,
    round_word,
    short,
    sort_pieces,
    variable_text,
    zone_label,
)
from rulecraft.wording import language as language
from rulecraft.wording import log_lines as log_lines
from rulecraft.wording import named as named
from rulecraft.wording import names_of as names_of
from rulecraft.wording import piece_type as piece_type

if TYPE_CHECKING:
    from rulecraft.engine.ruleset import Ruleset

HAND_ZONE = "hand"  # the engine's per-seat holding zone (``State.hand``)
RECENT = 8  # events shown under "recent"


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
                   lang: str | None = None, only: set[str] | None = None, only_given: bool = False) -> list[str]:
    """Each declared variable (or those named in ``only``), per-seat and per-team ones spelled out by seat and
    team (``only_given``: only those in ``variables``, as a seat's visible variables leave out what it may not see)."""
    out = []
    for spec in rs.variables:
        if ((scope is not None and spec.scope != scope) or (only is not None and spec.name not in only)
                or (only_given and spec.name not in variables)):
            continue
        text = variable_text(rs, spec, variables.get(spec.name), seats)
        out.append(f"  {named(rs, 'variables', spec.name, lang)}: {text}")
    return out


# ---------------------------------------------------------------------- the table
def zone_lines(rs: Ruleset, view: dict[str, Any], seats: Seats, lang: str | None = None,
               only: set[str] | None = None) -> list[str]:
    """Every zone (or those labelled in ``only``) but the viewer's own hand: visible pieces by name, the rest
    as a count."""
    viewer = view.get("seat")
    out = []
    for label, entry in view["zones"].items():
        if only is not None and label not in only:
            continue
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


def rounds_line(rs: Ruleset, view: dict[str, Any]) -> str:
    """``tricks: seat 0: 2  seat 1: 1 ...``: the rounds each seat has won this hand, by the game's word for them."""
    counts = "  ".join(f"seat {s}: {short(n)}" for s, n in enumerate(view.get("tricks", [])))
    return f"{round_word(rs, plural=True)}: {counts}"


def piece_order(rs: Ruleset) -> Callable[[str], int]:
    """A sort key for piece ids: the order a hand shows them in (``display.sort_by``)."""
    rank = {tid: i for i, tid in enumerate(sort_pieces(rs, list(rs.pieces.by_type_id)))}
    return lambda tid: rank.get(tid, len(rank))


def table_header(rs: Ruleset, view: dict[str, Any], lang: str | None = None) -> str:
    """``=== TITLE — hand 2, PHASE ===``: the game, the hand and the phase."""
    phase = named(rs, "phases", view["phase"], lang) if view.get("phase") else (
        "game over" if "result" in view else "–")
    return f"=== {rs.title} — hand {view.get('hand_number')}, {phase} ==="


def render_table(rs: Ruleset, view: dict[str, Any], seats: Seats, recent: list[str] | None = None,
                 lang: str | None = None, moves: bool = True) -> list[str]:
    """The whole picture for one seat (or everything, when the view's seat is None), as lines.

    ``moves``: end with what the seat to act may do (``you may: ...``); a caller that says it in its own
    words (``rulecraft play``, which knows the whole set of moves) leaves it out.
    """
    viewer = view.get("seat")
    phase = named(rs, "phases", view["phase"], lang) if view.get("phase") else (
        "game over" if "result" in view else "–")
    lines = [table_header(rs, view, lang)]
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
        lines.append(rounds_line(rs, view))
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
        if legal and moves:
            lines.extend(move_summary(legal, view.get("legal_count"), piece_order(rs)))
    return lines


def changes(rs: Ruleset, before: dict[str, Any], after: dict[str, Any], seats: Seats,
            lang: str | None = None) -> list[str]:
    """What a seat sees differently in ``after`` than in ``before`` (two of its views), as the table's lines.

    What ``rulecraft play`` prints between a player's decisions instead of the whole table: the rounds
    won, the variables and the zones that changed (a zone now empty is left out: the log said who took
    it), the other hands' sizes in one line, and the player's own hand only when pieces came into it (a
    deal, a pass received, a pile picked up): the pieces it played, it knows. The phase's public picture
    (claims made, who passed) is left to the log, which told it as it happened, and to the prompt.
    """
    out: list[str] = []
    if rs.counts_rounds and before.get("tricks") != after.get("tricks"):
        out.append(f"  {rounds_line(rs, after)}")
    was, now = before.get("variables", {}), after.get("variables", {})
    changed = {k for k in now if now.get(k) != was.get(k)}
    if changed:
        out.extend(variable_lines(rs, now, seats, lang=lang, only=changed))
    viewer = after.get("seat")
    mine = f"{HAND_ZONE}[{viewer}]"
    old_zones, zones = before.get("zones", {}), after.get("zones", {})
    moved = {label for label, entry in zones.items() if entry != old_zones.get(label)}
    others = sorted((label for label in zones if label.partition("[")[0] == HAND_ZONE and label != mine), key=_instance)
    hands = others if moved & set(others) else []  # every other hand's size, when one changed
    shown = {label for label in moved - set(others) - {mine} if int(zones[label].get("count", 0))}
    out.extend(zone_lines(rs, after, seats, lang, only=shown))
    if hands:
        out.append("  hands: " + ", ".join(
            f"seat {_instance(label)}: {zones[label].get('count', 0)}"
            + (f" (known: {' '.join(piece_text(rs, t, lang=lang) for t in zones[label]['pieces'])})"
               if zones[label].get("pieces") else "")
            for label in hands))
    held = list(zones.get(mine, {}).get("pieces", []))
    kept = old_zones.get(mine, {}).get("pieces", []) if before.get("hand_number") == after.get("hand_number") else []
    came = Counter(held) - Counter(kept)  # (a new hand is all new, whatever the last one held)
    if came:
        new = " ".join(piece_text(rs, t, lang=lang) for t in sort_pieces(rs, list(came.elements())))
        what = "" if sum(came.values()) == len(held) else f"; new: {new}"  # (all new: a deal)
        out.append(f"your hand ({len(held)} piece{'' if len(held) == 1 else 's'}{what}):")
        out.extend(hand_lines(rs, held, lang=lang))
    return out


def _instance(label: str) -> int:
    return int(label.partition("[")[2].rstrip("]") or 0)


def options_text(rs: Ruleset, lang: str | None = None) -> str:
    """``bunmu_son=off, ...`` with the options' names in ``lang`` where they have one."""
    return ", ".join(f"{named(rs, 'options', k, lang)}={v}" for k, v in sorted(rs.chosen.items()))


def result_lines(result: dict[str, Any], seats: Seats) -> list[str]:
    who, scores, hands = result_words(result, seats)
    return [f"result: {who}", f"  scores: {scores}", f"  hands played: {hands}"]
