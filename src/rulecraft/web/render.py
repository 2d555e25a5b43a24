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

from rulecraft.engine.views import HIDDEN_PIECE
from rulecraft.web.look import back_html, piece_html
from rulecraft.wording import (
    Seats,
    event_text,
    group_pieces,
    label,
    log_lines,
    move_label,
    placed_rows,
    public_rows,
    result_words,
    round_word,
    seat_badges,
    short,
    value_label,
    words_of,
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
        back_html() if w == HIDDEN_PIECE else (piece_html(rs, w, lang) if w in rs.pieces.by_type_id else escape(w))
        for w in rest)
    down = Markup('<span class="note">face down</span>') if verb == "down" else Markup("")
    return head + pieces + down


# ---------------------------------------------------------------------- values
def rows_html(rows: list[tuple[str, str]], cls: str) -> Markup:
    """(label, value) pairs as a definition list; a label alone (a badge) when the value is empty."""
    items = [Markup("<div><dt>{}</dt><dd>{}</dd></div>").format(what, text) for what, text in rows]
    return Markup('<dl class="{}">{}</dl>').format(cls, Markup("").join(items)) if items else Markup("")


def public_html(public: dict[str, Any], seats: Seats) -> Markup:
    """What the phase shows everyone (claims made, who answers ...), in a player's words."""
    return rows_html(public_rows(public, seats), "public")


# ---------------------------------------------------------------------- zones
def zones_html(rs: Ruleset, view: dict[str, Any], lang: str | None, in_play: list[str] | None = None,
               below: str = "") -> Markup:
    """Every zone the seat may see something of, other than its own hand (drawn at the bottom): face-up
    pieces by their face, hidden ones as backs with a count. A zone holding exactly the round shown
    above it (``in_play``: its pieces' words, ``?`` for one face down) is not drawn twice, nor the hand
    drawn at the bottom for the seat to play from (``below``: a dummy's)."""
    viewer = view.get("seat")
    same_as_round = sorted(in_play or [])
    out = []
    for zlabel, entry in view["zones"].items():
        name = zlabel.partition("[")[0]
        if zlabel in (f"{HAND_ZONE}[{viewer}]", below) or (name == HAND_ZONE and not entry.get("pieces")):
            continue  # one's own hand below; another's hand is a count at its seat
        count = int(entry.get("count", 0))
        shown = list(entry.get("pieces", []))
        hidden = count - len(shown)
        if count == 0 or (same_as_round and sorted([*shown, *[HIDDEN_PIECE] * hidden]) == same_as_round):
            continue
        pieces = Markup("").join(piece_html(rs, t, lang) for t in shown)
        backs = back_html(min(hidden, BACKS_SHOWN)) if hidden else Markup("")
        more = Markup('<span class="note">+{}</span>').format(hidden - BACKS_SHOWN) if hidden > BACKS_SHOWN else ""
        out.append(Markup('<div class="zone" data-zone="{}"><span class="zlabel">{}: {}</span>{}{}{}</div>').format(
            zlabel, words_of(zone_label(rs, zlabel)), count, pieces, backs, more))
    return Markup("").join(out)


# ---------------------------------------------------------------------- controls
def moves_html(rs: Ruleset, view: dict[str, Any], lang: str | None) -> Markup:
    """The seat's legal moves: plain ones as buttons; moves with pieces by selecting, then a verb button."""
    legal: list[str] = list(view.get("legal", []))
    plain = [m for m in legal if m.split(" ")[0] not in PIECE_VERBS]
    verbs = sorted({m.split(" ")[0] for m in legal if m.split(" ")[0] in PIECE_VERBS},
                   key=PIECE_VERBS.index)
    buttons = [Markup('<button class="move" data-move="{}">{}</button>').format(m, move_label(rs, m, lang))
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
                label(rs, "verbs", verb, lang)))
            continue
        pick.append(Markup('<button class="confirm" data-verb="{}" disabled>{} selected</button>').format(
            verb, label(rs, "verbs", verb, lang)))
    # (With too many moves to send, view["legal_count"] says how many: the pieces chosen are checked when
    # confirmed. A player has no use for that number, so the hint is the same.)
    hint = Markup('<span class="note">Choose pieces (click, or Tab and Enter), then confirm.</span>') if (
        verbs or "legal_count" in view) else ""
    return Markup('<div id="moves" data-legal="{}">{}{}{}</div>').format(
        json.dumps(legal, ensure_ascii=False), Markup(" ").join(buttons), Markup(" ").join(pick), hint)


def playable_pieces(view: dict[str, Any]) -> set[str] | None:
    """The pieces of the hand that some legal move uses; None when every piece may be (no list of plays:
    too many to send, or a phase whose moves take no piece), so nothing is dimmed by mistake."""
    legal: list[str] = list(view.get("legal", []))
    if "legal_count" in view or not any(m.split(" ")[0] in PIECE_VERBS for m in legal):
        return None
    return {w for m in legal if m.split(" ")[0] in PIECE_VERBS for w in m.split(" ")[1:]}


def hand_html(rs: Ruleset, pieces: list[str], lang: str | None, clickable: bool,
              playable: set[str] | None = None) -> Markup:
    """The seat's own hand, grouped and sorted as the rule file asks; pieces no legal move uses are dimmed."""
    rows = []
    for group, ids in group_pieces(rs, pieces):
        drawn = []
        for t in ids:
            usable = playable is None or t in playable
            attrs = ('role="button" tabindex="0" aria-pressed="false"' if clickable else "") + (
                "" if usable or not clickable else ' aria-disabled="true"')
            drawn.append(piece_html(rs, t, lang, attrs, "" if usable or not clickable else "unplayable"))
        group_by = rs.display.group_by if rs.display else None
        name = value_label(rs, group_by, group, lang) if group_by and group else ""
        head = Markup('<span class="glabel">{}</span>').format(name) if name else ""
        rows.append(Markup('<div class="group">{}{}</div>').format(head, Markup("").join(drawn)))
    return Markup("").join(rows) or Markup('<span class="note">(empty)</span>')


# ---------------------------------------------------------------------- the seats around the table
def seat_position(seat: int, viewer: int | None, count: int) -> str:
    """Where a seat sits on the viewer's screen: the viewer at the bottom, the next seat to the left, the
    last to the right, the others across the top (as at a real table, play going round)."""
    k = (seat - (viewer or 0)) % count
    if k == 0:
        return "bottom"
    if k == 1:
        return "left"
    if k == count - 1:
        return "right" if count > 2 else "top"
    return "top"


def seats_html(rs: Ruleset, view: dict[str, Any], seats: Seats, lang: str | None) -> Markup:
    viewer, to_act = view.get("seat"), view.get("to_act")
    active = view.get("active", [])
    variables = view.get("variables", {})
    tricks = view.get("tricks", []) if rs.counts_rounds else []
    cells = []
    for s in range(rs.seats.count):
        hand = view["zones"].get(f"{HAND_ZONE}[{s}]", {})
        cls = "seat pos-" + seat_position(s, viewer, rs.seats.count) + (" acting" if s == to_act else "") + (
            " me" if s == viewer else "") + ("" if s in active else " out")
        badges: list[tuple[str, str]] = [("pieces in hand", str(hand.get("count", 0)))]
        if s < len(tricks):
            badges.append((round_word(rs, plural=True), short(tricks[s])))  # tricks, or a climbing game's rounds
        badges += seat_badges(rs, variables, s, seats, lang)
        team = rs.seats.teams[rs.seats.team_of[s]] if s < len(rs.seats.team_of) else (s,)
        partners = [p for p in team if p != s]
        if partners:
            badges.append(("partner", ", ".join(seats.name(p) for p in partners)))
        flags = Markup("").join(Markup('<span class="badge">{}</span>').format(w) for w, v in badges if not v)
        rows = rows_html([(w, v) for w, v in badges if v], "badges")
        turn = Markup('<span class="turn">to play</span>') if s == to_act else ""
        cells.append(Markup('<li class="{}" data-seat="{}"><b>{}</b>{}{}{}</li>').format(
            cls, s, seats.name(s), turn, flags, rows))
    return Markup('<ul class="ring" aria-label="players">{}</ul>').format(Markup("").join(cells))


# ---------------------------------------------------------------------- the end of a hand
def hand_sheet(rs: Ruleset, view: dict[str, Any], events: list[dict[str, Any]], seats: Seats,
               lang: str | None) -> Markup:
    """The sheet shown between two hands: who took what in the hand just ended (rounds won, pieces
    taken as the log shows them), who paid whom, and the running scores. Shown by the page until the
    player closes it; the game goes on behind it."""
    ended = [i for i, e in enumerate(events) if e.get("type") == "hand_end"]
    if not ended:
        return Markup("")
    end = ended[-1]
    start = max((i for i, e in enumerate(events[:end]) if e.get("type") == "hand"), default=0)
    number = events[end].get("number")
    won = [0] * rs.seats.count
    for e in events[start:end]:
        w = e.get("winner")
        if e.get("type") == "round" and isinstance(w, int) and 0 <= w < rs.seats.count:
            won[w] += 1
    lines = [line for e in events[start:end + 1] if e.get("type") in ("out", "revoke", "hand_end", "flush")
             and (line := event_text(e, seats, rs, lang)) is not None]
    paid = [Markup("<li>{} pays {} {}</li>").format(seats.name(p.get("from")), seats.name(p.get("to")),
                                                    short(p.get("amount")))
            for p in view.get("payments", []) if isinstance(p, dict)]
    rows = []
    for s in range(rs.seats.count):
        cells = [seats.name(s)] + ([str(won[s])] if rs.counts_rounds else []) + [
            v or "✓" for _, v in seat_badges(rs, view.get("variables", {}), s, seats, lang)]
        rows.append(Markup("<tr>{}</tr>").format(Markup("").join(Markup("<td>{}</td>").format(c) for c in cells)))
    heads = ["seat"] + ([f"{round_word(rs, plural=True)} won"] if rs.counts_rounds else []) + [
        w for w, _ in seat_badges(rs, view.get("variables", {}), 0, seats, lang)]
    head = Markup("").join(Markup('<th scope="col">{}</th>').format(h) for h in heads)
    return Markup('<section class="sheet" id="sheet" data-ended="{}" role="dialog" aria-modal="false" '
                  'aria-labelledby="sheet-title" hidden><h2 id="sheet-title">Hand {} is over</h2>'
                  '<table><thead><tr>{}</tr></thead><tbody>{}</tbody></table>{}{}'
                  '<button id="sheet-close">next hand</button></section>').format(
        number, number, head, Markup("").join(rows),
        Markup("<ul>{}</ul>").format(Markup("").join(paid)) if paid else "",
        Markup("<ul>{}</ul>").format(Markup("").join(Markup("<li>{}</li>").format(x) for x in lines)) if lines else "")


# ---------------------------------------------------------------------- the whole table
def table_html(rs: Ruleset, view: dict[str, Any], events: list[dict[str, Any]], seats: Seats,
               lang: str | None = None, can_undo: bool = False, interactive: bool = True) -> Markup:
    """The table as players know it: the seats around it, what is played in the middle, the seat's hand
    pinned at the bottom with its moves and refusals beside them, the log and details at the side."""
    viewer = view.get("seat")
    phase = label(rs, "phases", view["phase"], lang) if view.get("phase") else (
        "game over" if "result" in view else "–")
    to_act = view.get("to_act")
    mine = interactive and viewer is not None and to_act == viewer and "result" not in view
    for_whom = "" if view.get("playing_for") is None else ", for " + seats.name(view["playing_for"])
    turn = (Markup(' — <span class="yourturn">your move{}</span>').format(for_whom) if mine else
            Markup(" — to play: {}{}").format(seats.name(to_act), for_whom) if to_act is not None else "")
    status = Markup('<header class="status" data-hand="{}" data-to-act="{}" data-over="{}"><h1>{}</h1>'
                    '<span>hand {} · {}{}</span></header>').format(
        view.get("hand_number"), "" if to_act is None else to_act, "1" if "result" in view else "0", rs.title,
        view.get("hand_number"), phase, turn)
    # The middle: the round being played (or the last one, and who won it), what lies face up or down,
    # what the phase shows everyone, and the variables placed in the centre.
    centre: list[Markup] = []
    current, last, winner = round_plays(events)
    plays = current or last
    if plays:
        word = round_word(rs)  # what the game's players call it: a trick, or a round of a climbing game
        title = f"this {word}" if current else f"last {word} — won by {seats.name(winner)}" if winner is not None else (
            f"last {word}")
        rows = Markup("").join(Markup('<div class="play" data-seat="{}"><span class="who">{}</span>{}</div>').format(
            e.get("seat"), seats.name(e.get("seat")), _play_html(rs, str(e.get("move")), lang)) for e in plays)
        centre.append(Markup('<div class="trick"><h2>{}</h2>{}</div>').format(title, rows))
    in_play = [w for e in current for w in str(e.get("move", "")).split(" ")[1:]
               if w == HIDDEN_PIECE or w in rs.pieces.by_type_id]
    played_for = view.get("playing_for") if mine else None
    centre.append(zones_html(rs, view, lang, in_play, f"{HAND_ZONE}[{played_for}]" if played_for is not None else ""))
    public = view.get("public")
    if public:
        centre.append(public_html(public, seats))
    centre.append(rows_html(placed_rows(rs, view.get("variables", {}), "centre", seats, lang), "vars"))
    middle = Markup('<section class="centre" aria-label="the table" tabindex="0">{}</section>').format(
        Markup("").join(centre))
    # The seat's own hand and its moves, pinned at the bottom; #action is where a refusal is shown.
    bottom = Markup("")
    if viewer is not None:
        hand = view["zones"].get(f"{HAND_ZONE}[{viewer}]", {})
        playable = playable_pieces(view) if mine else None
        controls = moves_html(rs, view, lang) if mine else Markup("")
        undo = Markup('<button id="undo">undo my last move</button>') if can_undo and interactive else ""
        played = view.get("playing_for") if mine else None
        own = hand_html(rs, list(hand.get("pieces", [])), lang, mine and played is None,
                        playable if played is None else None)
        if played is not None:  # deciding for another seat (a dummy): its hand, laid open, is the one to pick from
            theirs = view["zones"].get(f"{HAND_ZONE}[{played}]", {})
            picked = hand_html(rs, list(theirs.get("pieces", [])), lang, True, playable)
            bottom = Markup('<section class="hand" id="hand" aria-label="{}\'s hand, which you play ({} pieces)">'
                            '<h2>{}\'s hand, which you play</h2>{}<div class="action" id="action">{}{}</div>'
                            '<div id="own-hand"><h2>your hand ({} pieces)</h2>{}</div></section>').format(
                seats.name(played), theirs.get("count", 0), seats.name(played), picked, controls, undo,
                hand.get("count", 0), own)
        else:
            bottom = Markup('<section class="hand" id="hand" aria-label="your hand ({} pieces)">{}'
                            '<div class="action" id="action">{}{}</div></section>').format(
                hand.get("count", 0), own, controls, undo)
    side: list[Markup] = []
    if "result" in view:
        who, scores, hands = result_words(view["result"], seats)
        side.append(Markup('<section class="result" aria-label="result"><h2>Game over</h2><p>{}</p>'
                           '<p>scores: {}</p><p>hands played: {}</p></section>').format(who, scores, hands))
    details = placed_rows(rs, view.get("variables", {}), "details", seats, lang)
    if details:
        side.append(Markup('<details class="details"><summary>details</summary>{}</details>').format(
            rows_html(details, "vars")))
    lines = log_lines(events, seats, rs, lang)[-LOG_SHOWN:]
    side.append(Markup('<details class="log" open><summary>log</summary><ol>{}</ol></details>').format(
        Markup("").join(Markup("<li>{}</li>").format(line) for line in lines)))
    latest = lines[-1] if lines else ""
    side.append(Markup('<p id="latest" hidden>{}</p>').format(latest))
    aside = Markup('<aside class="side" aria-label="log and details" tabindex="0">{}</aside>').format(
        Markup("").join(side))
    sheet = hand_sheet(rs, view, events, seats, lang) if "result" not in view else Markup("")
    return Markup('<div class="board">{}{}{}{}{}{}</div>').format(
        status, seats_html(rs, view, seats, lang), middle, bottom, aside, sheet)
