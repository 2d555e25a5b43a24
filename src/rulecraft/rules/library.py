"""The bundled games as a user meets them: grouped by family, and each family's page of the docs.

A rule file's top-level ``family`` says what kind of game it is (``FAMILIES``: the same names the
schema's ``family`` accepts). ``rulecraft list`` groups the bundled rulesets by it, and
``docs/games/<family>.md`` is one page per family, every game on it with what it is, where its rules
come from and what each of its options and presets means, made by ``family_page`` from the rule files
alone (``python scripts/games_docs.py``; a test keeps the pages the rule files' own words).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from rulecraft.rules.compose import Composed, compose
from rulecraft.rules.registry import list_bundled


@dataclass(frozen=True, slots=True)
class Family:
    id: str
    title: str  # the heading of its group and its page
    what: str  # what the games of the family have in common, in a sentence or two


FAMILIES: dict[str, Family] = {f.id: f for f in (
    Family("trick-taking", "Trick-taking games",
           "Each seat in turn plays to a round (a trick); the best play takes it, and hands are scored by the "
           "tricks or the pieces taken. Most have a rule to follow the suit led, and many a trump suit, bids or "
           "contracts."),
    Family("climbing", "Climbing games",
           "Each play must beat the last one of the same kind (a single, a pair, a run...) or pass; when all "
           "others pass, the last player leads anew. The first to be rid of its pieces does best."),
    Family("shedding", "Shedding games",
           "Seats take turns playing a piece that fits the last one (or a layout), drawing or passing when they "
           "cannot; the first to be rid of its hand wins."),
    Family("claiming", "Claiming and bluffing games",
           "Pieces are played face down with a claim of what they are, which may be a lie; another seat may "
           "challenge, and whoever was wrong is penalized."),
)}
OTHER = Family("other", "Other games", "Games whose rule file names no family.")


@dataclass(frozen=True, slots=True)
class Entry:
    """A bundled ruleset as the library shows it."""

    name: str  # its bundled name (``game``, or ``game/overlay``)
    composed: Composed | None  # None: it does not compose
    error: str = ""

    @property
    def family(self) -> Family:
        found = str(self.composed.data.get("family", "")) if self.composed is not None else ""
        return FAMILIES.get(found, OTHER)


def bundled_entries(names: Iterable[str] | None = None) -> list[Entry]:
    """Every bundled ruleset (or those named), composed with its defaults; one that does not compose is kept
    with its error, so a list shows it as broken."""
    from rulecraft.errors import RulecraftError

    out = []
    for name in list_bundled() if names is None else names:
        try:
            out.append(Entry(name, compose(name)))
        except RulecraftError as exc:
            out.append(Entry(name, None, str(exc).splitlines()[0]))
    return out


def by_family(entries: Iterable[Entry]) -> list[tuple[Family, list[Entry]]]:
    """The entries grouped by family, in the order of ``FAMILIES`` (then those of no known family), each
    group in the order given."""
    groups: dict[str, list[Entry]] = {}
    for e in entries:
        groups.setdefault(e.family.id, []).append(e)
    order = [*FAMILIES.values(), OTHER]
    return [(f, groups[f.id]) for f in order if f.id in groups]


def family_page(family: Family, entries: list[Entry]) -> str:
    """``docs/games/<family>.md``: the family's games, each with its sources, options and presets, in the
    rule files' own words."""
    games = [e for e in entries if e.composed is not None and "/" not in e.name]
    lines = [f"# {family.title}", "", family.what, "",
             "Made from the rule files by `python scripts/games_docs.py` (a test keeps it so): what each "
             "game is, where its rules come from, and what its options and presets choose. `rulecraft list` "
             "lists them too; `rulecraft explain GAME -o OPTION=CHOICE` shows the rules a choice changes.", ""]
    lines += [f"- [{_title(e)}](#{e.name}) (`{e.name}`)" for e in games]
    for e in games:
        lines += ["", *_game(e, [o for o in entries if o.name.startswith(e.name + "/") and o.composed is not None])]
    return "\n".join(lines) + "\n"


def _title(e: Entry) -> str:
    assert e.composed is not None
    return e.composed.title


def _game(e: Entry, overlays: list[Entry]) -> list[str]:
    c = e.composed
    assert c is not None
    out = [f'<a id="{e.name}"></a>', f"## {c.title}", "", f"`rulecraft play {e.name}`", ""]
    if c.data.get("description"):
        out += [_text(c.data["description"]), ""]
    out += ["Sources:", "", *[f"- {_text(s)}" for s in _items(c.data.get("source"))]]
    if c.options:
        out += ["", "Options (the default first, marked *):", ""]
        for o in c.options:
            out.append(f"- `-o {o.id}=...`: {_text(o.description)}")
            for ch in sorted(o.choices, key=lambda ch: ch.id != o.default):
                star = "*" if ch.id == o.default else ""
                named = f" (also {', '.join(f'`{n}`' for n in ch.other_names)})" if ch.other_names else ""
                out.append(f"  - `{ch.id}`{star}{named}: {_text(ch.description)}")
    if c.presets:
        out += ["", "Presets:", ""]
        for p in c.presets:
            chosen = ", ".join(f"{k}={v}" for k, v in p.options.items())
            out.append(f"- `--preset {p.id}`: {_text(p.description)} ({chosen})")
    if overlays:
        out += ["", "Variants in files of their own:", ""]
        for overlay in overlays:
            assert overlay.composed is not None
            out.append(f"- `{overlay.name}`: {_text(overlay.composed.title)}")
    return out


def _items(value: Any) -> list[Any]:
    if value is None:
        return []
    return list(value) if isinstance(value, list) else [value]


def _text(value: Any) -> str:
    """A rule file's text on one line of Markdown (YAML's folded text keeps a newline at its end)."""
    return " ".join(str(value).split())
