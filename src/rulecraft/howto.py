"""How to play a ruleset, in plain language, generated from its rule file.

A newcomer asks what a game is played with, what happens in a hand and in what order, what each move
means, how a trick or a claim is won, how the score is kept and which options were chosen. Everything
here is read from the composed rule file (its ``description`` fields, the restrictions' own messages,
the options' descriptions) and the built ruleset (seats, teams, pieces, variables), and put in words by
what a phase *kind* does: nothing names a game. The terminal (``rulecraft explain --how-to-play``) prints
``text()``; the browser lays out the same sections as HTML, so the two cannot say different things.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rulecraft.rules.nested import nested_values
from rulecraft.wording import label, value_label, words_of

if TYPE_CHECKING:
    from rulecraft.engine.ruleset import Ruleset
    from rulecraft.rules.compose import Composed

# What a move of each phase kind means, for a player (the phase's own description, when it has one,
# comes first; these say what the player does there).
KIND_WORDS: dict[str, str] = {
    "shuffle": "The pieces are shuffled.",
    "deal": "The pieces are dealt.",
    "dice": "Dice are rolled.",
    "wall": "The pieces are built into a wall.",
    "pickup": "Each seat picks up its pieces from the wall.",
    "effects": "",
    "each_seat": "Each seat in turn makes its choice.",
    "auction": "Seats bid in turn; a seat that passes is out of the bidding, and the highest bid wins.",
    "exchange": "The seat named takes pieces up and gives the same number back.",
    "choose": "The seat named makes a choice.",
    "tricks": "Seats play in turn to a trick; the trick's winner takes it and leads the next.",
    "claims": "Seats play pieces face down, saying what they are; a claim may be challenged, and the pieces "
              "are turned up: whoever was wrong takes the pile.",
    "climb": "Each play must beat the last one, or the seat passes; when everyone else has passed, the last "
             "to play wins the round and leads again.",
    "shed": "Seats play in turn on the pile, or draw when they cannot; the aim is to get rid of every piece.",
}


@dataclass(slots=True)
class Section:
    heading: str
    paragraphs: list[str] = field(default_factory=list)
    items: list[str] = field(default_factory=list)
    numbered: bool = False  # steps in order, not a list


@dataclass(slots=True)
class HowTo:
    title: str
    sections: list[Section]

    def text(self) -> str:
        """The whole page as plain text, as the terminal prints it."""
        out = [self.title, "=" * len(self.title)]
        for s in self.sections:
            out += ["", s.heading, "-" * len(s.heading)]
            out += s.paragraphs
            out += [f"  {f'{i}.' if s.numbered else '-'} {item}" for i, item in enumerate(s.items, 1)]
        return "\n".join(out) + "\n"


def _plain(value: Any) -> str:
    return " ".join(str(value).split())


def _sentence(text: str) -> str:
    """A description as a sentence: a capital first, a full stop last."""
    text = text.strip()
    if not text:
        return text
    return text[:1].upper() + text[1:] + ("" if text[-1] in ".!?)" else ".")


def _pieces_section(rs: Ruleset, data: dict[str, Any], lang: str | None) -> Section:
    s = Section("Players and pieces")
    n = rs.seats.count
    teams = [t for t in rs.seats.teams if len(t) > 1]
    who = f"{n} players"
    if teams:
        who += ", in partnerships: " + "; ".join(" and ".join(f"seat {x}" for x in t) for t in teams) + \
            " (partners sit opposite)" * (n == 4 and len(teams) == 2)
    s.paragraphs.append(who + ".")
    s.paragraphs.append(f"{rs.pieces.count} pieces.")
    for entry in data.get("pieces") or []:
        gen = entry.get("generate")
        copies = int(entry.get("copies", 1))
        if gen:
            parts = []
            for attr, values in gen.items():
                words = [value_label(rs, attr, v, lang) for v in values]
                shown = ", ".join(words) if len(words) <= 8 else f"{words[0]}, {words[1]} … {words[-1]}"
                parts.append(f"{words_of(str(attr))}: {shown}")
            line = "; ".join(parts)
        else:
            line = str(entry.get("name") or entry.get("id"))
        if entry.get("description"):
            line += f" — {_plain(entry['description'])}"
        s.items.append(line + (f" ({copies} of each)" if copies > 1 else ""))
    return s


def _restrictions(phase: dict[str, Any]) -> list[str]:
    """The messages of a phase's restrictions: each is a rule, written for players by the rule's author."""
    out = [_plain(v["message"]) for v in nested_values(phase)
           if isinstance(v, dict) and "allow" in v and v.get("message")]
    return list(dict.fromkeys(out))


def _phase_items(rs: Ruleset, data: dict[str, Any], lang: str | None) -> list[Section]:
    phases = (data.get("hand") or {}).get("phases") or []
    steps = Section("A hand, step by step", numbered=True)
    won = Section("How a trick or a claim is won")
    for ph in phases:
        kind = str(ph.get("kind", "effects"))
        pid = str(ph.get("id", kind))
        what = _plain(ph.get("description", "")) or KIND_WORDS.get(kind, "")
        if not what and kind == "effects":
            effects = [words_of(str(e["id"])) for e in ph.get("effects") or [] if isinstance(e, dict) and e.get("id")]
            what = ("The scores are counted: " + ", ".join(effects) + ".") if effects else "The table is set."
        line = f"{label(rs, 'phases', pid, lang)}: {_sentence(what)}"
        rules = _restrictions(ph)
        if rules:
            line += " Rules: " + "; ".join(r.rstrip(".") for r in rules) + "."
        steps.items.append(line)
        if kind in ("tricks", "claims", "climb", "shed") and KIND_WORDS[kind]:
            won.items.append(f"{label(rs, 'phases', pid, lang)}: {KIND_WORDS[kind]}")
            trump = ph.get("trump")
            if trump:
                won.items.append(f"Trump: {_plain(trump)}.")
    return [steps] + ([won] if won.items else [])


def _scoring(rs: Ruleset, lang: str | None) -> Section:
    s = Section("Scoring")
    for spec in rs.variables:
        if spec.description and spec.visibility != "nobody":
            s.items.append(f"{label(rs, 'variables', spec.name, lang)}: {_plain(spec.description)}")
    return s


def _options(composed: Composed) -> Section:
    s = Section("Options chosen")
    for opt in composed.options:
        chosen = composed.chosen.get(opt.id, opt.default)
        choice = opt.choice(chosen)
        meaning = f" — {_plain(choice.description)}" if choice is not None and choice.description else ""
        s.items.append(f"{_plain(opt.description).rstrip('.') or words_of(opt.id)}: {chosen}{meaning}")
    if not s.items:
        s.paragraphs.append("This game has no options.")
    return s


def how_to_play(composed: Composed, rs: Ruleset, lang: str | None = None) -> HowTo:
    """The how-to-play page of a composed, built ruleset, in ``lang`` where the rule file names things."""
    data: dict[str, Any] = composed.data
    about = Section("The game")
    if data.get("description"):
        about.paragraphs.append(_plain(data["description"]))
    return HowTo(rs.title, [about, _pieces_section(rs, data, lang), *_phase_items(rs, data, lang), _scoring(rs, lang),
                            _options(composed)])
