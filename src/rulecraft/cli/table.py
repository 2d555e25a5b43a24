"""The terminal picture of a game, as lines of text, for any ruleset.

Everything shown comes from a seat's view (``State.view(seat)``), never from the state itself, so a
rendering cannot show what the seat may not see: the view already leaves out other hands and
face-down pieces. The ruleset supplies only static facts (piece names, glyphs, attributes, the
``display`` section, which variables hold seats), so the same function serves play, replay and tests.

``lang`` is a language code of the ruleset (``--lang``): what has a name in it is shown as
``NAME (id)``, everything else as always; None shows the default language.
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rulecraft.engine.pieces import NameTable
from rulecraft.errors import UsageError

if TYPE_CHECKING:
    from rulecraft.engine.pieces import PieceType
    from rulecraft.engine.ruleset import Ruleset

HAND_ZONE = "hand"  # the engine's per-seat holding zone (``State.hand``)
RECENT = 8  # events shown under "recent"
SUGGEST = 12  # legal moves suggested under the table when there are at most this many


@dataclass(frozen=True, slots=True)
class Seats:
    """How to name seats in the picture: who is who ("you", "random"...), and whose view it is."""

    labels: tuple[str, ...]  # per seat, e.g. ("you", "random", "random", "random")

    def name(self, seat: Any) -> str:
        if seat is None:
            return "–"
        s = int(seat)
        label = self.labels[s] if 0 <= s < len(self.labels) else ""
        return f"seat {s} ({label})" if label else f"seat {s}"


# ---------------------------------------------------------------------- languages
def names_of(rs: Ruleset) -> NameTable:
    return rs.display.names if rs.display else NameTable()


def language(rs: Ruleset, code: str | None) -> str | None:
    """The ``--lang`` code checked against the ruleset's languages (a usage error lists them); None stays None."""
    if code is None:
        return None
    names = names_of(rs)
    if code not in names.languages:
        known = ", ".join(names.described(c) for c in names.languages)
        raise UsageError(f"{rs.name} has no names in '{code}': its languages are {known}")
    return code


def named(rs: Ruleset, category: str, key: str, lang: str | None) -> str:
    """``NAME (id)`` when ``key`` (a phase, a rule, an option ...) has a name in ``lang``, else the id."""
    local = names_of(rs).term(category, key, lang)
    return f"{local} ({key})" if local and local != key else key


def named_value(rs: Ruleset, attribute: str, value: Any, lang: str | None) -> str:
    local = names_of(rs).value(attribute, value, lang)
    return f"{local} ({value})" if local and local != str(value) else str(value)


def width(text: str) -> int:
    """Columns a text takes in a terminal: CJK characters take two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def pad(text: str, columns: int) -> str:
    return text + " " * max(0, columns - width(text))


# ---------------------------------------------------------------------- pieces
def piece_type(rs: Ruleset, type_id: str) -> PieceType:
    return rs.pieces.types[rs.pieces.by_type_id[type_id]]


def piece_text(rs: Ruleset, type_id: str, in_hand: bool = False, lang: str | None = None) -> str:
    """A piece as the ruleset's ``display.label`` asks; in a hand the id is kept, since moves are typed by it.

    In a language other than the default, a piece named there is shown ``NAME (id)`` wherever it is.
    """
    t = piece_type(rs, type_id)
    names = names_of(rs)
    if lang is not None and lang != names.default:
        local = names.term("pieces", t.id, lang)
        if local:
            return f"{local} ({t.id})"
    label = rs.display.piece_label if rs.display else "id"
    name = names.term("pieces", t.id, names.default) or t.name
    if label == "glyph" and t.glyph:
        return f"{t.glyph}[{t.id}]" if in_hand else t.glyph
    if label == "name" and name != t.id:
        return f"{name} [{t.id}]" if in_hand else name
    return f"{t.glyph} {t.id}" if t.glyph else t.id


def move_text(rs: Ruleset | None, text: str, lang: str | None) -> str:
    """A move's text with its verb, call and pieces named in ``lang`` (``play 天 (6-6)``); ids stay beside them."""
    if rs is None or lang is None:
        return text
    words = text.split(" ")
    out = [named(rs, "verbs", words[0], lang)]
    for word in words[1:]:
        if word in rs.pieces.by_type_id:
            out.append(piece_text(rs, word, lang=lang))
        else:
            out.append(named(rs, "calls", word, lang))
    return " ".join(out)


def _attr_key(rs: Ruleset, attr: str, value: Any) -> tuple[int, Any]:
    """Numbers sort by value; words (suits...) in the order the rule file lists them, so the author decides."""
    if isinstance(value, (int, float)):
        return (0, value)
    if value is None:
        return (2, 0)
    order = rs.pieces.columns.get(attr, [])
    try:
        return (1, order.index(value))
    except ValueError:
        return (1, len(order))


def sort_pieces(rs: Ruleset, type_ids: list[str]) -> list[str]:
    """Type ids ordered by the ruleset's ``display.sort_by`` (rule-file order when it names nothing)."""
    sort_by = rs.display.sort_by if rs.display else ()

    def key(tid: str) -> tuple[Any, ...]:
        attrs = piece_type(rs, tid).attrs
        return (*(_attr_key(rs, a, attrs.get(a)) for a in sort_by), rs.pieces.by_type_id[tid])

    return sorted(type_ids, key=key)


def group_pieces(rs: Ruleset, type_ids: list[str]) -> list[tuple[str, list[str]]]:
    """(group label, sorted ids) by ``display.group_by``; one unlabelled group when the ruleset groups nothing."""
    ordered = sort_pieces(rs, type_ids)
    group_by = rs.display.group_by if rs.display else None
    if not group_by:
        return [("", ordered)] if ordered else []
    groups: dict[str, list[str]] = {}
    for tid in ordered:
        groups.setdefault(str(piece_type(rs, tid).attrs.get(group_by, "")), []).append(tid)
    first = {g: min(_attr_key(rs, group_by, piece_type(rs, t).attrs.get(group_by)) for t in ids)
             for g, ids in groups.items()}
    return sorted(groups.items(), key=lambda kv: first[kv[0]])


def hand_lines(rs: Ruleset, type_ids: list[str], indent: str = "  ", lang: str | None = None) -> list[str]:
    groups = group_pieces(rs, type_ids)
    group_by = rs.display.group_by if rs.display else None
    labels = [named_value(rs, group_by, g, lang) if group_by and g else g for g, _ in groups]
    columns = max((width(label) for label in labels), default=0)
    # Names with spaces in them ("天 (6-6)") read better two spaces apart.
    sep = "  " if lang is not None and lang != names_of(rs).default else " "
    out = []
    for label, (_, ids) in zip(labels, groups, strict=True):
        shown = sep.join(piece_text(rs, t, in_hand=True, lang=lang) for t in ids)
        out.append(f"{indent}{pad(label + ':', columns + 1)} {shown}" if label else f"{indent}{shown}")
    return out or [f"{indent}(empty)"]


# ---------------------------------------------------------------------- values
def _value_text(rs: Ruleset, var_name: str | None, value: Any, seats: Seats) -> str:
    if value is None or value == "":
        return "–"
    if var_name is not None:
        spec = rs.variables[rs.var_index[var_name]]
        if spec.expr_type.value == "seat" and isinstance(value, int):
            return seats.name(value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def team_label(rs: Ruleset, team: int) -> str:
    members = rs.seats.teams[team] if team < len(rs.seats.teams) else (team,)
    return "team " + "+".join(str(s) for s in members)


def variable_lines(rs: Ruleset, variables: dict[str, Any], seats: Seats, scope: str | None = None,
                   lang: str | None = None) -> list[str]:
    """Each declared variable, per-seat and per-team ones spelled out by seat and team."""
    out = []
    for spec in rs.variables:
        if scope is not None and spec.scope != scope:
            continue
        value = variables.get(spec.name)
        label = named(rs, "variables", spec.name, lang)
        if spec.per in ("seat", "team") and isinstance(value, list):
            labels = [f"seat {i}" if spec.per == "seat" else team_label(rs, i) for i in range(len(value))]
            parts = ", ".join(f"{labels[i]}: {_value_text(rs, None, v, seats)}" for i, v in enumerate(value))
            out.append(f"  {label}: {parts}")
        else:
            out.append(f"  {label}: {_value_text(rs, spec.name, value, seats)}")
    return out


def _public_lines(public: dict[str, Any], seats: Seats) -> list[str]:
    """The phase's public picture (claims made, who must answer...), generically: key, then value."""
    out = []
    for key, value in public.items():
        if value in (None, [], {}) or key == "totals":
            continue
        if isinstance(value, list) and value and all(isinstance(x, dict) for x in value):
            text = "; ".join(", ".join(f"{k} {_short(v)}" for k, v in x.items()) for x in value[-6:])
            if len(value) > 6:
                text = f"… {text}"
        elif key in ("to_play", "responding", "last_player") and isinstance(value, int):
            text = seats.name(value)
        else:
            text = _short(value)
        out.append(f"  {key.replace('_', ' ')}: {text}")
    return out


def _short(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(_short(v) for v in value) if value else "–"
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


# ---------------------------------------------------------------------- events
def event_text(event: dict[str, Any], seats: Seats, rs: Ruleset | None = None, lang: str | None = None) -> str | None:
    """One line for a (redacted) log event, or None for events not worth a line (shuffles).

    With the ruleset and a language, a move's verb, call and pieces are named in it.
    """
    kind = event.get("type")
    if kind == "move":
        return f"{seats.name(event.get('seat'))}: {move_text(rs, str(event.get('move')), lang)}"
    if kind == "round":
        value = event.get("value")
        worth = f" (worth {_short(value)})" if value not in (1, None) else ""
        return f"{seats.name(event.get('winner'))} wins the round{worth}"
    if kind == "hand":
        return f"— hand {event.get('number')} —"
    if kind == "hand_end":
        return f"— hand {event.get('number')} ends{' (voided)' if event.get('voided') else ''} —"
    if kind == "result":
        return f"— game over: winners {', '.join(seats.name(w) for w in event.get('winners', []))} —"
    if kind == "reveal":
        verdict = "a lie" if event.get("lie") else "true"
        return (f"{seats.name(event.get('challenger'))} challenges {seats.name(event.get('claimant'))}'s claim of "
                f"{event.get('claim')}: {' '.join(event.get('pieces', []))} — {verdict}; "
                f"{seats.name(event.get('picker'))} picks up {event.get('taken')}")
    if kind == "flush":
        return f"everyone let it stand: the pile of {event.get('count')} is removed unseen"
    if kind == "out":
        return f"{seats.name(event.get('seat'))} is out (place {event.get('place')})"
    if kind == "chance":
        if event.get("kind") == "dice" and "dice" in event:
            return f"dice: {' '.join(str(d) for d in event['dice'])}"
        return None
    rest = ", ".join(f"{k} {_short(v)}" for k, v in event.items() if k != "type")
    return f"{kind}: {rest}" if rest else str(kind)


# ---------------------------------------------------------------------- the table
def _zone_label(rs: Ruleset, label: str) -> str:
    name, _, rest = label.partition("[")
    if not rest:
        return name
    index = int(rest.rstrip("]"))
    zone = rs.zone_by_name[name]
    return f"{name} ({team_label(rs, index) if zone.per == 'team' else f'seat {index}'})"


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
                out.append(f"  {_zone_label(rs, label)}: (empty)")
            continue
        if name == HAND_ZONE and viewer is not None:
            out.append(f"  {_zone_label(rs, label)}: {count} piece{'s' if count != 1 else ''}")
            continue
        # In the order they were put there: a trick or pile reads in the order it was played.
        parts = [" ".join(piece_text(rs, t, lang=lang) for t in shown)] if shown else []
        if hidden:
            down = "face down" if zone.visibility == "all" else "hidden"
            parts.append(f"{'+ ' if shown else ''}{hidden} {down} ({' '.join(['??'] * min(hidden, 4))}"
                         f"{' …' if hidden > 4 else ''})")
        out.append(f"  {_zone_label(rs, label)}: {' '.join(parts)}")
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
    lines.append("tricks: " + "  ".join(f"seat {s}: {_short(n)}" for s, n in enumerate(view.get("tricks", []))))
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
        lines.extend(_public_lines(public, seats))
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
        lines.append(f"to act: {seats.name(view.get('to_act'))}{you}")
        legal = view.get("legal", [])
        if legal and len(legal) <= SUGGEST and "legal_count" not in view:
            lines.append(f"you may: {', '.join(legal)}")
    return lines


def options_text(rs: Ruleset, lang: str | None = None) -> str:
    """``bunmu_son=off, ...`` with the options' names in ``lang`` where they have one."""
    return ", ".join(f"{named(rs, 'options', k, lang)}={v}" for k, v in sorted(rs.chosen.items()))


def result_lines(result: dict[str, Any], seats: Seats) -> list[str]:
    scores = result.get("scores", [])
    out = ["result: winner" + ("s" if len(result.get("winners", [])) != 1 else "") + " "
           + ", ".join(seats.name(w) for w in result.get("winners", []))]
    out.append("  scores: " + "  ".join(f"seat {s}: {_short(v)}" for s, v in enumerate(scores)))
    hands = result.get("hands")
    out.append(f"  hands played: {hands}" + (" (stopped early: hand limit)" if result.get("truncated") else ""))
    return out
