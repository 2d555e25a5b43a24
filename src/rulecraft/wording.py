"""What a game's things are called in words, for every face that shows a game to people.

The terminal table (``cli/table.py``) and the browser table (``web/render.py``, ``web/look.py``)
say the same things: a seat, a piece, a move, a variable's value, a zone, a team, a log event, a
hand sorted and grouped as the rule file's ``display`` section asks, each named in a language from
the ruleset's names table (``NAME (id)``: a name is shown beside its id and never replaces it).
Those words are made here, once, so the two faces cannot drift apart; each face keeps only its own
layout (columns and padding at the terminal, HTML in the browser).

Everything here reads static facts of the ruleset and values taken from a seat's view or a redacted
log event, never the state itself, so nothing said here can tell a seat what it may not see.
``lang`` is one of the ruleset's language codes; None is the default language.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rulecraft.engine.pieces import NameTable
from rulecraft.engine.views import HIDDEN_PIECE
from rulecraft.errors import UsageError, clip

if TYPE_CHECKING:
    from rulecraft.engine.equipment import VarSpec
    from rulecraft.engine.pieces import PieceType
    from rulecraft.engine.ruleset import Ruleset

NO_VALUE = "–"  # what is shown for a seat or value that is not there


@dataclass(frozen=True, slots=True)
class Seats:
    """How to name seats: who is who ("you", "random", "mc" ...), per seat."""

    labels: tuple[str, ...]  # per seat, e.g. ("you", "random", "random", "random")

    def name(self, seat: Any) -> str:
        """``seat 2 (random)``; ``seat 2`` for a seat without a label; ``–`` for no seat."""
        if seat is None:
            return NO_VALUE
        try:
            s = int(seat)
        except (TypeError, ValueError):  # not a seat at all: say so rather than fail a whole page
            return NO_VALUE
        label = self.labels[s] if 0 <= s < len(self.labels) else ""
        return f"seat {s} ({label})" if label else f"seat {s}"


# ---------------------------------------------------------------------- names in a language
def names_of(rs: Ruleset) -> NameTable:
    """The ruleset's names table (an empty one, with only the default language, when it has none)."""
    return rs.display.names if rs.display else NameTable()


def language(rs: Ruleset, code: str | None) -> str | None:
    """A language code a person asked for, checked against the ruleset's (a usage error lists them); None stays None."""
    if code is None:
        return None
    names = names_of(rs)
    if code not in names.languages:
        known = ", ".join(names.described(c) for c in names.languages)
        raise UsageError(f"{rs.name} has no names in '{clip(code)}': its languages are {known}")
    return code


def named(rs: Ruleset, category: str, key: str, lang: str | None) -> str:
    """``NAME (id)`` when ``key`` (a phase, a rule, an option, a verb ...) has a name in ``lang``, else the id."""
    local = names_of(rs).term(category, key, lang)
    return f"{local} ({key})" if local and local != key else key


def value_name(rs: Ruleset, attribute: str, value: Any, lang: str | None) -> str:
    """What a value of a piece attribute (a suit, a kind) is called in ``lang``, alone; else the value."""
    local = names_of(rs).value(attribute, value, lang)
    return str(local) if local else str(value)


def named_value(rs: Ruleset, attribute: str, value: Any, lang: str | None) -> str:
    """``NAME (value)`` when the value has a name in ``lang``, else the value."""
    local = value_name(rs, attribute, value, lang)
    return f"{local} ({value})" if local != str(value) else str(value)


def label(rs: Ruleset, category: str, key: str, lang: str | None) -> str:
    """What a player reads for a phase, a variable, a verb ...: its name in ``lang``, else in the rule file's
    default language, else its id in words (``dealer_terms`` is "dealer terms"). A label alone, without
    the id beside it: for a table, where nothing is typed (the terminal keeps ``named``, ids beside)."""
    names = names_of(rs)
    return names.term(category, key, lang) or names.term(category, key, names.default) or words_of(key)


def value_label(rs: Ruleset, attribute: str, value: Any, lang: str | None) -> str:
    """What a piece attribute's value (a suit) is called in ``lang``, else in the default language, else the value."""
    names = names_of(rs)
    return str(names.value(attribute, value, lang) or names.value(attribute, value, names.default) or value)


def words_of(key: str) -> str:
    """An id as words: ``qin_payer`` is "qin payer", ``heaven-pair`` "heaven pair"."""
    return key.replace("_", " ").replace("-", " ")


# ---------------------------------------------------------------------- pieces and moves
def piece_type(rs: Ruleset, type_id: str) -> PieceType:
    return rs.pieces.types[rs.pieces.by_type_id[type_id]]


def piece_name(rs: Ruleset, type_id: str, lang: str | None = None) -> str:
    """What a piece is called: its name in ``lang``, else in the default language, else its id."""
    t = piece_type(rs, type_id)
    names = names_of(rs)
    return names.term("pieces", t.id, lang) or names.term("pieces", t.id, names.default) or t.name or t.id


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
    name = piece_name(rs, type_id)
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
    for i, word in enumerate(words[1:], 1):
        if i >= 2 and words[i - 1] == "as" and word in rs.combinations:  # a reading: the combination's name
            out.append(named(rs, "rules", word, lang))
        elif word in rs.pieces.by_type_id:
            out.append(piece_text(rs, word, lang=lang))
        else:
            out.append(named(rs, "calls", word, lang))
    return " ".join(out)


def move_label(rs: Ruleset, text: str, lang: str | None) -> str:
    """A move as a player reads it on a table: verb, call and pieces by their labels alone (``bid nil``,
    ``play 天``); the move's own text stays with the button that sends it."""
    words = text.split(" ")
    out = [label(rs, "verbs", words[0], lang)]
    for word in words[1:]:
        bare = word.rstrip(":")
        if bare in rs.pieces.by_type_id:
            out.append(piece_name(rs, bare, lang))
        else:
            out.append(label(rs, "calls", bare, lang) + word[len(bare):])
    return " ".join(out)


# ---------------------------------------------------------------------- a hand in order
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
    """(group value, sorted ids) by ``display.group_by``; one unlabelled group when the ruleset groups nothing.

    The value is the attribute's as text ("" for pieces without it), for a face to name with ``named_value``.
    """
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


def hand_groups(rs: Ruleset, type_ids: list[str], lang: str | None) -> list[tuple[str, list[str]]]:
    """(label, sorted ids) for a hand: its groups named in ``lang`` (``NAME (value)``); "" labels no group."""
    group_by = rs.display.group_by if rs.display else None
    return [(named_value(rs, group_by, g, lang) if group_by and g else g, ids) for g, ids in group_pieces(rs, type_ids)]


# ---------------------------------------------------------------------- values, teams, zones
def short(value: Any) -> str:
    """A value in a few words: yes/no, a list comma-separated (``–`` when empty), a dict as "key value" pairs."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(short(v) for v in value) if value else NO_VALUE
    if isinstance(value, dict):
        return ", ".join(f"{words_of(str(k))} {short(v)}" for k, v in value.items())
    return str(value)


def value_text(rs: Ruleset, var_name: str | None, value: Any, seats: Seats) -> str:
    """A variable's value (or one seat's or team's entry, ``var_name`` None): a seat-valued one names the seat."""
    if value is None or value == "":
        return NO_VALUE
    if var_name is not None:
        spec = rs.variables[rs.var_index[var_name]]
        calls = doubling_calls(rs, var_name)
        if calls and isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= len(calls):
            # how far the bid is doubled: by the call that did it ("redouble"); nothing when none did
            return label(rs, "verbs", calls[value - 1], None) if value else NO_VALUE
        if spec.expr_type.value == "seat" and isinstance(value, int):
            return seats.name(value)
        if spec.value_type.value == "piece" and isinstance(value, int) and not isinstance(value, bool) \
                and 0 <= value < rs.pieces.count:  # (a piece is kept as its number: it is shown as the piece)
            return piece_text(rs, rs.pieces.type_id(value))
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, list):
        return ", ".join(value_text(rs, None, v, seats) for v in value) if value else NO_VALUE
    if isinstance(value, dict):
        return ", ".join(f"{words_of(str(k))} {value_text(rs, None, v, seats)}" for k, v in value.items())
    return str(value)


def doubling_calls(rs: Ruleset, var_name: str) -> tuple[str, ...]:
    """The calls an auction's ``doubles`` counts into this variable (``double``, ``redouble``): its value is
    how many of them were made on the bid, 0 none. Empty for any other variable."""
    index = rs.var_index.get(var_name)
    for phase in rs.phases:
        if index is not None and getattr(phase, "doubling_var", -1) == index:
            return tuple(getattr(phase, "doubles", ()))
    return ()


def team_label(rs: Ruleset, team: int) -> str:
    """``team 0+2``: a team by its seats."""
    members = rs.seats.teams[team] if team < len(rs.seats.teams) else (team,)
    return "team " + "+".join(str(s) for s in members)


def variable_text(rs: Ruleset, spec: VarSpec, value: Any, seats: Seats) -> str:
    """A declared variable's value; a per-seat or per-team one spelled out (``seat 0: 5, seat 1: 3``)."""
    if spec.per in ("seat", "team") and isinstance(value, list):
        labels = [f"seat {i}" if spec.per == "seat" else team_label(rs, i) for i in range(len(value))]
        texts = [value_text(rs, None, v, seats) for v in value]
        # entries that are lists themselves (each seat's dice) are told apart by semicolons
        between = "; " if any(", " in t for t in texts) else ", "
        return between.join(f"{labels[i]}: {t}" for i, t in enumerate(texts))
    return value_text(rs, spec.name, value, seats)


def zone_label(rs: Ruleset, label: str) -> str:
    """A view's zone key as words: ``captured[1]`` is ``captured (seat 1)``, or ``captured (team 1+3)``."""
    name, _, rest = label.partition("[")
    if not rest:
        return name
    index = int(rest.rstrip("]"))
    zone = rs.zone_by_name[name]
    return f"{name} ({team_label(rs, index) if zone.per == 'team' else f'seat {index}'})"


def variable_label(rs: Ruleset | None, label: str) -> str:
    """A variable, or one entry of it, as words: ``cup[1]`` is ``cup (seat 1)`` (or ``(team 1+3)``)."""
    name, _, rest = label.partition("[")
    if not rest or rs is None or name not in rs.var_index:
        return label
    index = int(rest.rstrip("]"))
    per = rs.variables[rs.var_index[name]].per
    return f"{name} ({team_label(rs, index) if per == 'team' else f'seat {index}'})"


def _shown_parts(event: dict[str, Any], seats: Seats, rs: Ruleset | None, lang: str | None) -> list[str]:
    """What a ``show`` event made public: pieces with where they lie, variables with their values."""
    parts = []
    by_place: dict[str, list[str]] = {}  # the place said once for all its pieces (a dummy's thirteen cards)
    for type_id, where in event.get("pieces") or ():
        what = piece_text(rs, str(type_id), lang=lang) if rs is not None else str(type_id)
        by_place.setdefault(str(where), []).append(what)
    for where, pieces in by_place.items():
        parts.append(f"{', '.join(pieces)} in {zone_label(rs, where) if rs is not None else where}")
    for label, value in (event.get("variables") or {}).items():
        name = label.partition("[")[0]
        spec = rs.variables[rs.var_index[name]] if rs is not None and name in rs.var_index else None
        if rs is not None and spec is not None and "[" not in label:
            parts.append(f"{name}: {variable_text(rs, spec, value, seats)}")
        else:
            parts.append(f"{variable_label(rs, label)}: {short(value)}")
    return parts


# What a phase's public picture (``public_view`` of its kind) means, key by key, in a player's words;
# None: bookkeeping the log or the rest of the table already says (whose claim may be challenged is
# said by "challengeable", the reveals by the log). Keys not listed are shown as their words.
PUBLIC_WORDS: dict[str, str | None] = {
    "to_play": "to play", "responding": "to answer", "asking": "asking", "before_turn_of": "before the turn of",
    "last_player": "last played", "last_play": "last play", "passed": "passed", "finished": "out",
    "decided": "have chosen", "claims": "claims on the pile", "challengeable": "may be challenged",
    "may_claim": "may claim", "turn_value": "claim now", "previous": "last claim", "pile": "pieces in the pile",
    "removed": "removed", "backwards": "order reversed", "may_pass": "may pass", "counts": "pieces a claim",
    "attribute": None, "challenge_until": None, "asked_after": None, "naming": None, "calls_any_seat": None,
    "reveals": None, "totals": None,
    "over_claims": "may claim more than exist",
}
SEAT_KEYS = frozenset({"to_play", "responding", "last_player", "asking", "before_turn_of"})
SEAT_LISTS = frozenset({"passed", "finished", "decided"})


def _claim_words(claim: dict[str, Any], seats: Seats) -> str:
    """A claim as words: ``seat 1: 2 × 5`` (who claimed how many of what)."""
    who = seats.name(claim.get("seat")) if "seat" in claim else ""
    what = f"{claim.get('count', 1)} × {claim.get('value')}" if "value" in claim else ", ".join(
        f"{words_of(str(k))} {short(v)}" for k, v in claim.items() if k != "seat")
    return f"{who}: {what}" if who else what


def public_rows(public: dict[str, Any], seats: Seats) -> list[tuple[str, str]]:
    """The phase's public picture (claims made, who must answer ...) in words: (what, value); never a
    raw structure, and nothing a player has no use for (see ``PUBLIC_WORDS``)."""
    out = []
    for key, value in public.items():
        what = PUBLIC_WORDS.get(key, words_of(key))
        if what is None or value in (None, [], {}):
            continue
        if key in SEAT_KEYS and isinstance(value, int):
            text = seats.name(value)
        elif key in SEAT_LISTS and isinstance(value, list):
            text = ", ".join(seats.name(v) for v in value)
        elif key == "counts" and isinstance(value, list) and len(value) == 2:
            text = f"{value[0]} to {value[1]}" if value[0] != value[1] else str(value[0])
        elif isinstance(value, dict):
            text = _claim_words(value, seats)
        elif isinstance(value, list) and value and all(isinstance(x, dict) for x in value):
            text = "; ".join(_claim_words(x, seats) for x in value[-6:])
            if len(value) > 6:
                text = f"… {text}"
        elif isinstance(value, list) and value and all(isinstance(x, list) for x in value):
            text = "; ".join(" ".join(map(str, x)) for x in value)
        else:
            text = short(value)
        out.append((what, text))
    return out


# ---------------------------------------------------------------------- where a table shows a variable
def placement(rs: Ruleset) -> dict[str, str]:
    """Each variable's place on a table: "seat", "centre", "details" or "hidden", as ``display.show`` says.

    A ruleset without ``show`` has its per-seat and per-team variables at the seats and the others in the
    centre; with it, what it does not list is under details (so a new variable never crowds the table).
    """
    show = rs.display.show if rs.display else {}
    out = {}
    for spec in rs.variables:
        default = ("seat" if spec.per in ("seat", "team") else "centre") if not show else "details"
        out[spec.name] = show.get(spec.name, default)
    return out


def seat_badges(rs: Ruleset, variables: dict[str, Any], seat: int, seats: Seats,
                lang: str | None) -> list[tuple[str, str]]:
    """What a table shows beside one seat: (label, value) for each variable placed at the seats that this
    seat's view holds: its entry of a per-seat one, its team's of a per-team one, and a seat-valued one
    that names this seat as a badge alone (label, "") — the dealer, the declarer."""
    out = []
    places = placement(rs)
    for spec in rs.variables:
        if places[spec.name] != "seat" or spec.name not in variables:
            continue
        value = variables[spec.name]
        if spec.per in ("seat", "team") and isinstance(value, list):
            index = seat if spec.per == "seat" else rs.seats.team_of[seat] if seat < len(rs.seats.team_of) else seat
            if 0 <= index < len(value) and value[index] is not None:
                entry = value[index]
                named_call = chosen_into(rs, spec.name) and not isinstance(entry, bool) and \
                    names_of(rs).term("calls", str(entry), names_of(rs).default)
                text = label(rs, "calls", str(entry), lang) if named_call else value_text(rs, None, entry, seats)
                out.append((label(rs, "variables", spec.name, lang), text))
        elif spec.expr_type.value == "seat" and value == seat and not isinstance(value, bool):
            out.append((label(rs, "variables", spec.name, lang), ""))
    return out


def chosen_into(rs: Ruleset, var_name: str) -> bool:
    """Whether a seat's choice (a bid) is written into this variable: its values are then the calls chosen,
    shown by their names (a bid of 0 named "nil" reads "nil")."""
    data = rs.composed.data if rs.composed is not None else {}
    for ph in (data.get("hand") or {}).get("phases") or []:
        choice = ph.get("choose") if isinstance(ph.get("choose"), dict) else {}
        if str(choice.get("set", "")).split("[")[0].strip() == var_name:
            return True
    return False


def placed_rows(rs: Ruleset, variables: dict[str, Any], place: str, seats: Seats,
                lang: str | None) -> list[tuple[str, str]]:
    """(label, value) of each variable a seat can read that the table shows at ``place`` ("centre",
    "details"); a seat-valued variable placed at the seats is shown at them, not here."""
    places = placement(rs)
    rows = [(label(rs, "variables", spec.name, lang), variable_text(rs, spec, variables[spec.name], seats))
            for spec in rs.variables if places[spec.name] == place and spec.name in variables]
    # A value that says nothing yet (no trick won "by" anything, a bid nobody doubled) is left out, as
    # players leave it unsaid, rather than shown as a dash beside its label.
    return [(what, text) for what, text in rows if text != NO_VALUE]


# ---------------------------------------------------------------------- rounds
# What one round of play is called, by the phase kind that plays it: players of trick games say
# "trick"; climbing games (each play beats the last until all pass) say "round".
ROUND_WORDS = {"tricks": "trick", "climb": "round"}


def round_word(rs: Ruleset | None, plural: bool = False) -> str:
    """The word for a round won (``trick``, ``round``), from the kind of the ruleset's phase that counts them."""
    kind = next((p.kind for p in rs.phases if p.counts_rounds), "") if rs is not None else ""
    word = ROUND_WORDS.get(kind, "round")
    return word + "s" if plural else word


# ---------------------------------------------------------------------- the log
def event_text(event: dict[str, Any], seats: Seats, rs: Ruleset | None = None, lang: str | None = None) -> str | None:
    """One line for a (redacted) log event, or None for events not worth a line (shuffles).

    With the ruleset and a language, a move's verb, call and pieces are named in it.
    """
    kind = event.get("type")
    if kind == "move":
        made_for = event.get("for")  # (another seat's decision: a dummy's card, played by its partner)
        by = seats.name(event.get("seat")) + (f" for {seats.name(made_for)}" if isinstance(made_for, int) else "")
        hidden = hidden_count(event)
        if hidden:  # pieces the viewer may not see: how many, never a row of question marks
            verb = move_text(rs, str(event.get("move")).split(" ")[0], lang)
            return f"{by}: {verb} {'a piece' if hidden == 1 else f'{hidden} pieces'}, unseen"
        return f"{by}: {move_text(rs, str(event.get('move')), lang)}"
    if kind == "round":
        value = event.get("value")
        worth = f" (worth {short(value)})" if value not in (1, None) else ""
        return f"{seats.name(event.get('winner'))} wins the {round_word(rs)}{worth}"
    if kind == "hand":
        return f"— hand {event.get('number')} —"
    if kind == "hand_end":
        return f"— hand {event.get('number')} ends{' (voided)' if event.get('voided') else ''} —"
    if kind == "result":
        return f"— game over: winners {', '.join(seats.name(w) for w in event.get('winners', []))} —"
    if kind == "reveal":
        verdict = "a lie" if event.get("lie") else "true"
        return (f"{seats.name(event.get('challenger'))} challenges {seats.name(event.get('claimant'))}'s claim of "
                f"{event.get('claim')}: {' '.join(map(str, event.get('pieces', [])))} — {verdict}; "
                f"{seats.name(event.get('picker'))} picks up {event.get('taken')}")
    if kind == "flush":
        return f"everyone let it stand: the pile of {event.get('count')} is removed unseen"
    if kind == "revoke":
        return (f"{seats.name(event.get('seat'))}'s play of {' '.join(map(str, event.get('pieces', [])))} "
                f"broke the rule '{event.get('rule')}': a revoke, found after the round")
    if kind == "composite":  # a composite lead checked against the other hands (trick_composite)
        thrown = " ".join(map(str, event.get("pieces", [])))
        led = f"{seats.name(event.get('seat'))} leads {thrown} as a {event.get('id')}"
        if event.get("held"):
            return f"{led}: nobody can beat any part of it"
        return (f"{led}: {seats.name(event.get('beaten_by'))} holds {' '.join(map(str, event.get('beating', [])))}, "
                f"which beats {' '.join(map(str, event.get('led', [])))}; that is led instead")
    if kind == "out":
        return f"{seats.name(event.get('seat'))} is out (place {event.get('place')})"
    if kind == "chance":
        if event.get("kind") != "dice":
            return None
        into = f" into {variable_label(rs, str(event['set']))}" if rs is not None and event.get("set") else ""
        if "dice" in event:
            return f"dice{into}: {' '.join(str(d) for d in event['dice'])}"
        count = event.get("count")
        return f"{count} {'die' if count == 1 else 'dice'} rolled{into}, hidden"
    if kind == "show":
        return "shown to all: " + "; ".join(_shown_parts(event, seats, rs, lang))
    rest = ", ".join(f"{k} {short(v)}" for k, v in event.items() if k != "type")
    return f"{kind}: {rest}" if rest else str(kind)


def hidden_count(event: dict[str, Any]) -> int:
    """How many pieces a move event hides from its reader: all its pieces are hidden, or 0 (a move shown)."""
    words = str(event.get("move", "")).split(" ")[1:] if event.get("type") == "move" else []
    return len(words) if words and all(w == HIDDEN_PIECE for w in words) else 0


def merge_hidden(events: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events with each run of hidden moves one seat makes one after another (three cards passed,
    one 'give' each) made one move of all their pieces, so the log says "give 3 pieces" once."""
    out: list[dict[str, Any]] = []
    for event in events:
        last = out[-1] if out else None
        if (last is not None and hidden_count(event) and hidden_count(last)
                and str(event.get("move")).split(" ")[0] == str(last.get("move")).split(" ")[0]
                and event.get("seat") == last.get("seat") and event.get("for") == last.get("for")):
            out[-1] = {**last, "move": f"{last.get('move')} {str(event.get('move')).split(' ', 1)[1]}"}
        else:
            out.append(event)
    return out


def log_lines(events: Sequence[dict[str, Any]], seats: Seats, rs: Ruleset | None = None,
              lang: str | None = None) -> list[str]:
    """The lines of a (redacted) log, hidden moves in a row told once (``merge_hidden``)."""
    return [line for e in merge_hidden(events) if (line := event_text(e, seats, rs, lang)) is not None]


def result_words(result: dict[str, Any], seats: Seats) -> tuple[str, str, str]:
    """A finished game's winners, scores and hands played, in the words every face shows them."""
    winners = result.get("winners", [])
    who = ("winner" if len(winners) == 1 else "winners") + " " + (", ".join(seats.name(w) for w in winners) or NO_VALUE)
    scores = "  ".join(f"seat {s}: {short(v)}" for s, v in enumerate(result.get("scores", [])))
    hands = f"{result.get('hands')}" + (" (stopped early: hand limit)" if result.get("truncated") else "")
    return who, scores, hands


# ---------------------------------------------------------------------- figures with their intervals
def scaled_ci(ci: dict[str, Any], key: str, index: int, factor: float = 1.0) -> list[float] | None:
    """One seat's interval of a per-seat figure in a comparison's ``ci95``, scaled (a rate as points)."""
    values = ci.get(key)
    if not values:
        return None
    lo, hi = values[index]
    return [factor * lo, factor * hi]


def with_ci(x: float, interval: Sequence[float] | None) -> str:
    """``x`` and its interval, to the precision the interval warrants (two significant digits of its half-width)."""
    if not interval:
        return f"{x:+.4g}"
    lo, hi = interval
    digits = decimals_for((hi - lo) / 2)
    return f"{x:+.{digits}f} [{lo:+.{digits}f}, {hi:+.{digits}f}]"


def decimals_for(half_width: float) -> int:
    if half_width <= 0 or not math.isfinite(half_width):
        return 1
    return max(0, min(4, 1 - math.floor(math.log10(half_width))))
