"""One seat's table as HTML, from that seat's view and the log as that seat may read it.

The only inputs are ``State.view(seat)`` (which leaves out other hands and face-down pieces), the
redacted events (``views.redact_event``) and static facts of the ruleset (names, the display
section), so a page cannot show what its seat may not see. The same function draws replays. The
words (seats, values, zones, moves and log lines, named in the table's language) are the terminal's
(``rulecraft.wording``); what is here is how they are laid out as HTML.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from markupsafe import Markup, escape

from rulecraft.web.look import back_html, piece_html
from rulecraft.wording import (
    Seats,
    event_text,
    hand_groups,
    move_text,
    named,
    public_rows,
    result_words,
    short,
    variable_text,
    zone_label,
)

if TYPE_CHECKING:
    from rulecraft.engine.ruleset import Ruleset

HAND_ZONE = "hand"
LOG_SHOWN = 60  # log lines on the page
BACKS_SHOWN = 16  # backs drawn for a hidden zone before "+N"
PIECE_VERBS = ("play", "down", "give", "claim")
ROUND_BREAKS = frozenset({"hand", "round", "flush", "reveal", "hand_end"})


# ---------------------------------------------------------------------- the log
def round_plays(events: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[dict[str, Any]], Any]:
    """The plays of the round in progress, of the round before it, and who won that one."""
    current: list[dict[str, Any]] = []
    last: list[dict[str, Any]] = []
    winner = None
    for e in events:
        kind = e.get("type")
        if kind in ROUND_BREAKS:
            if current:
                last, current = current, []
                winner = e.get("winner") if kind == "round" else None
            if kind == "hand":
                last, winner = [], None
            continue
        if kind == "move" and str(e.get("move", "")).split(" ")[0] in ("play", "down", "claim"):
            current.append(e)
    return current, last, winner


def _play_html(rs: Ruleset, text: str, lang: str | None) -> Markup:
    words = text.split()
    verb, rest = words[0], words[1:]
    head = Markup("")
    if verb == "claim" and rest:
        head = Markup('<span class="claim">claims {}</span>').format(rest[0].rstrip(":"))
        rest = rest[1:]
    pieces = Markup("").join(
        back_html() if w == "?" else (piece_html(rs, w, lang) if w in rs.pieces.by_type_id else escape(w))
        for w in rest)
    down = Markup('<span class="note">face down</span>') if verb == "down" else Markup("")
    return head + pieces + down


# ---------------------------------------------------------------------- values
def variables_html(rs: Ruleset, variables: dict[str, Any], seats: Seats, lang: str | None) -> Markup:
    rows = []
    for spec in rs.variables:
        if spec.name not in variables:
            continue  # nobody may see it
        rows.append(Markup('<tr data-var="{}"><th>{}</th><td>{}</td></tr>').format(
            spec.name, named(rs, "variables", spec.name, lang), variable_text(rs, spec, variables[spec.name], seats)))
    return Markup('<table class="vars">{}</table>').format(Markup("").join(rows)) if rows else Markup("")


def public_html(public: dict[str, Any], seats: Seats) -> Markup:
    """What the phase shows everyone (claims made, who answers ...), key by key."""
    rows = [Markup("<tr><th>{}</th><td>{}</td></tr>").format(key, text) for key, text in public_rows(public, seats)]
    return Markup('<table class="public">{}</table>').format(Markup("").join(rows)) if rows else Markup("")


# ---------------------------------------------------------------------- zones
def zones_html(rs: Ruleset, view: dict[str, Any], lang: str | None) -> Markup:
    viewer = view.get("seat")
    out = []
    for label, entry in view["zones"].items():
        name = label.partition("[")[0]
        if name == HAND_ZONE and label == f"{HAND_ZONE}[{viewer}]":
            continue  # drawn below, grouped and sorted
        count = int(entry.get("count", 0))
        shown = list(entry.get("pieces", []))
        hidden = count - len(shown)
        if count == 0 and not (rs.zone_by_name[name].per == "none" and rs.zone_by_name[name].visibility == "all"):
            continue
        pieces = Markup("").join(piece_html(rs, t, lang) for t in shown)
        backs = back_html(min(hidden, BACKS_SHOWN)) if hidden else Markup("")
        more = Markup('<span class="note">+{}</span>').format(hidden - BACKS_SHOWN) if hidden > BACKS_SHOWN else ""
        empty = Markup('<span class="note">(empty)</span>') if count == 0 else ""
        out.append(Markup('<div class="zone" data-zone="{}"><span class="zlabel">{} ({})</span>{}{}{}{}</div>').format(
            label, zone_label(rs, label), count, pieces, backs, more, empty))
    return Markup("").join(out)


# ---------------------------------------------------------------------- controls
def moves_html(rs: Ruleset, view: dict[str, Any], lang: str | None) -> Markup:
    """The seat's legal moves: plain ones as buttons; moves with pieces by selecting, then a verb button."""
    legal: list[str] = list(view.get("legal", []))
    plain = [m for m in legal if m.split(" ")[0] not in PIECE_VERBS]
    verbs = sorted({m.split(" ")[0] for m in legal if m.split(" ")[0] in PIECE_VERBS},
                   key=PIECE_VERBS.index)
    buttons = [Markup('<button class="move" data-move="{}">{}</button>').format(m, move_text(rs, m, lang))
               for m in plain]
    pick = []
    for verb in verbs:
        if verb == "claim":
            public = view.get("public") or {}
            values = [str(v) for v in public.get("may_claim") or []] or sorted(
                {m.split(" ")[1].rstrip(":") for m in legal if m.startswith("claim ")})
            options = Markup("").join(Markup('<option value="{}">{}</option>').format(v, v) for v in values)
            pick.append(Markup('<label>claim <select id="claim-value">{}</select></label>').format(options))
        if verb == "claim" and any(m.startswith("claim ") and not m.split(" ")[1].endswith(":") for m in legal):
            # A claim that puts down no pieces (about what the seats hold): made with nothing selected.
            pick.append(Markup('<button class="confirm" data-verb="claim" data-none="1">{}</button>').format(
                named(rs, "verbs", verb, lang)))
            continue
        pick.append(Markup('<button class="confirm" data-verb="{}" disabled>{} selected</button>').format(
            verb, named(rs, "verbs", verb, lang)))
    more = ""
    if "legal_count" in view:
        more = Markup('<p class="note">{} possible plays: choose pieces, then confirm.</p>').format(
            view["legal_count"])
    with_pieces = any(len(m.split(" ")) > (2 if m.startswith("claim ") else 1) for m in legal
                      if m.split(" ")[0] in PIECE_VERBS)
    hint = Markup('<p class="note">Select pieces in your hand, then confirm.</p>') if with_pieces else ""
    return Markup('<div id="moves" data-legal="{}">{}{}<div class="confirms">{}</div>{}</div>').format(
        json.dumps(legal, ensure_ascii=False), Markup(" ").join(buttons), hint, Markup(" ").join(pick), more)


def hand_html(rs: Ruleset, pieces: list[str], lang: str | None, clickable: bool) -> Markup:
    rows = []
    for label, ids in hand_groups(rs, pieces, lang):
        drawn = Markup("").join(piece_html(rs, t, lang, 'role="button" tabindex="0"' if clickable else "")
                                for t in ids)
        head = Markup('<span class="glabel">{}</span>').format(label) if label else ""
        rows.append(Markup('<div class="group">{}{}</div>').format(head, drawn))
    return Markup("").join(rows) or Markup('<span class="note">(empty)</span>')


# ---------------------------------------------------------------------- the whole table
def table_html(rs: Ruleset, view: dict[str, Any], events: list[dict[str, Any]], seats: Seats,
               lang: str | None = None, can_undo: bool = False, interactive: bool = True) -> Markup:
    viewer = view.get("seat")
    phase = named(rs, "phases", view["phase"], lang) if view.get("phase") else (
        "game over" if "result" in view else "–")
    to_act = view.get("to_act")
    mine = interactive and viewer is not None and to_act == viewer and "result" not in view
    parts: list[Markup] = []
    parts.append(Markup('<div class="status" data-hand="{}" data-to-act="{}" data-over="{}">'
                        '<b>{}</b> — hand {}, {}{}</div>').format(
        view.get("hand_number"), "" if to_act is None else to_act, "1" if "result" in view else "0", rs.title,
        view.get("hand_number"), phase,
        Markup(' — <span class="yourturn">your move{}</span>').format(
            "" if view.get("playing_for") is None else ", for " + seats.name(view["playing_for"])) if mine else
        (Markup(" — to act: {}{}").format(seats.name(to_act), "" if view.get("playing_for") is None else
                                          ", for " + seats.name(view["playing_for"]))
         if to_act is not None else "")))
    # Seats: who is who, how many pieces each holds, tricks, who is to act.
    active = view.get("active", [])
    cells = []
    for s in range(rs.seats.count):
        hand = view["zones"].get(f"{HAND_ZONE}[{s}]", {})
        cls = "seat" + (" acting" if s == to_act else "") + (" me" if s == viewer else "") + (
            "" if s in active else " out")
        tricks = view.get("tricks", []) if rs.counts_rounds else []
        cells.append(Markup('<div class="{}" data-seat="{}"><b>{}</b><br>{} in hand{}</div>').format(
            cls, s, seats.name(s), hand.get("count", 0),
            Markup(", tricks {}").format(short(tricks[s])) if s < len(tricks) else ""))
    parts.append(Markup('<div class="seats">{}</div>').format(Markup("").join(cells)))
    current, last, winner = round_plays(events)
    plays = current or last
    if plays:
        title = "this round" if current else f"last round — won by {seats.name(winner)}" if winner is not None else (
            "last round")
        rows = Markup("").join(Markup('<div class="play" data-seat="{}"><span class="who">{}</span>{}</div>').format(
            e.get("seat"), seats.name(e.get("seat")), _play_html(rs, str(e.get("move")), lang)) for e in plays)
        parts.append(Markup('<section class="trick"><h3>{}</h3>{}</section>').format(title, rows))
    parts.append(Markup('<section class="zones"><h3>table</h3>{}</section>').format(zones_html(rs, view, lang)))
    public = view.get("public")
    if public:
        parts.append(Markup('<section><h3>{}</h3>{}</section>').format(phase, public_html(public, seats)))
    parts.append(Markup('<section><h3>scores and variables</h3>{}</section>').format(
        variables_html(rs, view.get("variables", {}), seats, lang)))
    if viewer is not None:
        hand = view["zones"].get(f"{HAND_ZONE}[{viewer}]", {})
        played = view.get("playing_for") if mine else None
        if played is not None:  # deciding for another seat (a dummy): its hand, laid open, is the one to pick from
            theirs = view["zones"].get(f"{HAND_ZONE}[{played}]", {})
            parts.append(Markup('<section class="hand" id="hand"><h3>{}\'s hand, which you play ({})</h3>{}'
                                '</section>').format(seats.name(played), theirs.get("count", 0),
                                                     hand_html(rs, list(theirs.get("pieces", [])), lang, True)))
        parts.append(Markup('<section class="hand" id="{}"><h3>your hand (seat {}, {})</h3>{}</section>').format(
            "own-hand" if played is not None else "hand", viewer, hand.get("count", 0),
            hand_html(rs, list(hand.get("pieces", [])), lang, mine and played is None)))
    if "result" in view:
        who, scores, hands = result_words(view["result"], seats)
        parts.append(Markup('<section class="result"><h3>result</h3>{}<br>scores: {}<br>hands played: {}</section>')
                     .format(who, scores, hands))
    elif mine:
        parts.append(Markup('<section class="controls"><h3>your move</h3>{}</section>').format(
            moves_html(rs, view, lang)))
    if can_undo and interactive:
        parts.append(Markup('<button id="undo">undo my last move</button>'))
    lines = [line for e in events if (line := event_text(e, seats, rs, lang)) is not None][-LOG_SHOWN:]
    parts.append(Markup('<details class="log" open><summary>log</summary><ol>{}</ol></details>').format(
        Markup("").join(Markup("<li>{}</li>").format(line) for line in lines)))
    return Markup("").join(parts)
