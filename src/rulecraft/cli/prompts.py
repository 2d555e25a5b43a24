"""What the seat to act is asked, in one line and in the game's words: the prompt of ``rulecraft play``.

``give 5 to the nest: 2 of 5``, ``trick 3: your lead``, ``your bid (high bid 75 by seat 3)``. Each
phase kind says what its decision is from the kind's own settings in the ruleset (how many pieces an
exchange gives back, which variable a choice sets), the seat's view and the hand's log events as the
seat may read them (who led, the bids so far, how many pieces the seat has given): nothing a seat
may not see. A phase the rule file names in the table's language is introduced by that name. A kind
this module does not know yet (one added later) is asked generically, by the verbs of its moves.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from rulecraft.wording import Seats, move_label, move_text, named, names_of, piece_text, round_word, zone_label

if TYPE_CHECKING:
    from rulecraft.engine.phases.base import Phase
    from rulecraft.engine.ruleset import Ruleset

Events = list[dict[str, Any]]
CHOICES_SAID = 8  # a choice among more is asked by how many there are (the moves list them all)


def hand_events(history: Sequence[dict[str, Any]], seat: int | None) -> Events:
    """The current hand's events as ``seat`` may read them (everything since the last ``hand`` event)."""
    from rulecraft.engine.views import redact_event

    start = max((i for i, e in enumerate(history) if e.get("type") == "hand"), default=-1) + 1
    out = []
    for event in history[start:]:
        shown = redact_event(event, seat)
        if shown is not None:
            out.append(shown)
    return out


class Ask:
    """What one prompt is made from: the ruleset, the seat's view, the hand's events, names and language."""

    def __init__(self, rs: Ruleset, view: dict[str, Any], events: Events, seats: Seats, lang: str | None) -> None:
        self.rs = rs
        self.view = view
        self.events = events
        self.seats = seats
        self.lang = lang
        self.public: dict[str, Any] = view.get("public") or {}
        self.seat = view.get("to_act")

    def moves(self) -> list[str]:
        return [str(m) for m in self.view.get("legal", [])]

    def verbs(self) -> list[str]:
        return list(dict.fromkeys(m.split(" ", 1)[0] for m in self.moves()))

    def verb(self, verb: str) -> str:
        return named(self.rs, "verbs", verb, self.lang)

    def pieces(self, ids: list[str]) -> str:
        return " ".join(piece_text(self.rs, i, lang=self.lang) for i in ids)

    def variable(self, index: int) -> str:
        return named(self.rs, "variables", self.rs.variables[index].name, self.lang)

    def moves_made(self, verbs: tuple[str, ...] = ("play", "down", "revoke")) -> list[tuple[int, list[str]]]:
        """(seat, piece ids) of the plays since the last round ended (or the hand began)."""
        plays: list[tuple[int, list[str]]] = []
        for e in self.events:
            if e.get("type") == "round":
                plays = []
            elif e.get("type") == "move":
                words = str(e.get("move", "")).split()
                if words and words[0] in verbs:
                    plays.append((int(e.get("seat", -1)), words[1:]))
        return plays

    def rounds_done(self) -> int:
        return sum(1 for e in self.events if e.get("type") == "round")

    def given_in_a_row(self, per_turn: int) -> int:
        """How many pieces the seat to act has given one after another just now (modulo ``per_turn``)."""
        n = 0
        for e in reversed(self.events):
            if e.get("type") != "move":
                continue
            if e.get("seat") != self.seat or not str(e.get("move", "")).startswith("give "):
                break
            n += 1
        return n % per_turn if per_turn else n


def decision_prompt(rs: Ruleset, view: dict[str, Any], events: Events, seats: Seats, lang: str | None = None) -> str:
    """One line saying what the seat to act in ``view`` decides now ('' when nobody is to act)."""
    if view.get("to_act") is None or "result" in view:
        return ""
    ask = Ask(rs, view, events, seats, lang)
    phase = next((p for p in rs.phases if p.id == view.get("phase")), None)
    words = KINDS.get(phase.kind, _generic)(phase, ask) if phase is not None else _generic(None, ask)
    label = names_of(rs).term("phases", phase.id, lang) if phase is not None else None
    playing_for = view.get("playing_for")  # (a dummy's decision, made by its partner)
    if playing_for is not None:
        words = f"for {seats.name(playing_for)}: {words}"
    return f"{label}: {words}" if label else words


# ---------------------------------------------------------------------- each kind's question
def _generic(phase: Phase | None, ask: Ask) -> str:
    return "your move: " + ", ".join(ask.verb(v) for v in ask.verbs())


def _auction(phase: Any, ask: Ask) -> str:
    if "asking" in ask.public:  # a call any seat may make, asked before another seat's turn
        calls = [move_text(ask.rs, m, ask.lang) for m in ask.moves() if m != "pass"]
        return (f"before {ask.seats.name(ask.public.get('before_turn_of'))}'s turn: "
                f"{' or '.join(calls) or 'no call'}, or {ask.verb('pass')} (no call now)")
    high: tuple[int, str] | None = None
    for e in ask.events:
        words = str(e.get("move", "")).split() if e.get("type") == "move" else []
        if len(words) == 2 and words[0] == "bid":
            high = (int(e.get("seat", -1)), words[1])
    if not phase.bids:
        return "your call"
    status = f"high bid {high[1]} by {ask.seats.name(high[0])}" if high is not None else "no bid yet"
    return f"your {ask.verb('bid')} ({status})"


def _exchange(phase: Any, ask: Ask) -> str:
    give = int(phase.give)
    return f"{ask.verb('give')} {give} to the {zone_label(ask.rs, phase.to)}: {ask.given_in_a_row(give) + 1} of {give}"


def _choose(phase: Any, ask: Ask) -> str:
    # The variable set is named when a player would read it as a word ('trump', or its name in the rule
    # file's language); an identifier such as 'pickup_named' is not the game's word: say how many choices.
    name = ask.variable(phase.var) if phase.var >= 0 else ""
    if name and (name != ask.rs.variables[phase.var].name or name.isalpha()):
        return f"choose {name}"
    # Otherwise each choice is read by its label (its name in the rule file, else its id in words: "two
    # columns"), never as an identifier; a phase named in the rule file is said before it (decision_prompt).
    choices = [move_label(ask.rs, m, ask.lang).split(" ", 1)[-1] for m in ask.moves()]
    if not choices or len(choices) > CHOICES_SAID:
        return f"choose one of {len(choices)}"
    return f"choose one: {', '.join(choices)}"


def _each_seat(phase: Any, ask: Ask) -> str:
    if phase.give:
        give = int(phase.give)
        return f"{ask.verb('give')} {give}: {ask.given_in_a_row(give) + 1} of {give}"
    target = ask.variable(phase.target.var) if phase.target is not None else "one"
    return f"your {ask.verb('bid')}" if phase.verb == "bid" else f"choose {target}"


def _tricks(phase: Any, ask: Ask) -> str:
    where = f"{round_word(ask.rs)} {ask.rounds_done() + 1}"
    plays = ask.moves_made()
    if not plays:
        return f"{where}: your lead"
    return f"{where}: your play to {ask.seats.name(plays[0][0])}'s lead"


def _climb(phase: Any, ask: Ask) -> str:
    where = f"{round_word(ask.rs)} {ask.rounds_done() + 1}"
    plays = ask.moves_made(("play",))
    if not plays:
        return f"{where}: your lead"
    seat, ids = plays[-1]
    return f"{where}: beat {ask.seats.name(seat)}'s {ask.pieces(ids)}, or {ask.verb('pass')}"


def _shed(phase: Any, ask: Ask) -> str:
    naming = ask.public.get("naming")
    if naming is not None:  # a play asked its player to name a value before the turn passes on
        return f"your play asks you to {ask.verbs()[0] if ask.verbs() else 'choose'} one ({naming})"
    last, by = ask.public.get("last_play") or [], ask.public.get("last_player")
    if last and by is not None:
        return f"your turn: the last play is {ask.pieces(list(last))} by {ask.seats.name(by)}"
    return "your turn"


def _claims(phase: Any, ask: Ask) -> str:
    public = ask.public
    claim = public.get("challengeable") or {}
    challenge, accept = ask.verb("challenge"), ask.verb("accept")
    if public.get("responding") == ask.seat and claim:
        return (f"{ask.seats.name(claim.get('seat'))} claims {claim.get('count')} × {claim.get('value')}: "
                f"{challenge} or {accept}?")
    values = [str(v) for v in public.get("may_claim") or []]
    every = [str(v) for v in public.get("totals") or {}]
    lo, hi = (public.get("counts") or [1, 1])[:2]
    count = f"{lo}" if lo == hi else f"{lo} to {hi}"
    if public.get("turn_value") is not None:
        what = f"this turn's claim is {public['turn_value']}"
    elif len(values) > 1 and values == every:
        what = f"claim any {public.get('attribute') or 'value'}"
    elif len(values) > 4:
        what = f"claim {values[0]}, {values[1]} … {values[-1]}"
    else:
        what = f"claim {' or '.join(values)}" if values else "your claim"
    also = [ask.verb("pass")] if public.get("may_pass") else []
    if claim and "challenge" in ask.verbs():
        also.append(f"{challenge} {ask.seats.name(claim.get('seat'))}'s claim")
    return f"{what}: {count} face down" + (f", or {' or '.join(also)}" if also else "")


KINDS: dict[str, Callable[[Any, Ask], str]] = {
    "auction": _auction, "exchange": _exchange, "choose": _choose, "each_seat": _each_seat,
    "tricks": _tricks, "climb": _climb, "shed": _shed, "claims": _claims,
}
