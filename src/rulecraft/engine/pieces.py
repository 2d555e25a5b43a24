"""Pieces as small ints with attribute tables.

A ruleset's ``pieces`` section lists generators (a product of attribute values, e.g. suit x rank)
and named pieces, each with attributes and an optional number of identical ``copies``. The engine
never handles piece objects in its hot paths: a piece is an index into the columns below.
Identical copies share a *type* (the id written in rule files and move text); each copy is its own
int so that it can be in exactly one place.

A piece (and a phase, a rule, a call ...) may also have names in the ruleset's languages. Ids never
change: moves, logs and scenarios use them in every language; a ``NameTable`` only says what to show
beside an id, and which id a typed name stands for.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rulecraft.errors import Diagnostic, Limit, SourcePos

# More pieces than any set of cards or tiles has, by far: a short `generate` (three lists of a hundred
# values) or a large `copies` must not make millions of pieces, each with its tables, before play begins.
MAX_PIECES = Limit(10_000, "pieces", "makes {n} pieces")


@dataclass(frozen=True, slots=True)
class PieceType:
    id: str
    name: str
    attrs: dict[str, Any]
    copies: int
    pos: SourcePos
    glyph: str = ""
    # Names in other languages, from the entry's ``names`` (templates filled like ``name``): code -> names.
    names: Mapping[str, tuple[str, ...]] = field(default_factory=dict)


@dataclass(slots=True)
class PieceTable:
    """All pieces of a ruleset. Index ``i`` is piece ``i`` (a copy of ``types[type_of[i]]``)."""

    types: list[PieceType] = field(default_factory=list)
    type_of: list[int] = field(default_factory=list)
    attr_names: list[str] = field(default_factory=list)
    columns: dict[str, list[Any]] = field(default_factory=dict)
    by_type_id: dict[str, int] = field(default_factory=dict)
    instances: list[list[int]] = field(default_factory=list)  # type index -> piece ints

    @property
    def count(self) -> int:
        return len(self.type_of)

    @property
    def has_copies(self) -> bool:
        """Whether some piece type has identical copies (then plays of the same types count once)."""
        return len(self.types) != len(self.type_of)

    def type_id(self, piece: int) -> str:
        return self.types[self.type_of[piece]].id

    def name(self, piece: int) -> str:
        return self.types[self.type_of[piece]].name

    def attr(self, name: str, piece: int) -> Any:
        return self.columns[name][piece]

    def add_type(self, ptype: PieceType) -> None:
        tindex = len(self.types)
        self.types.append(ptype)
        self.by_type_id[ptype.id] = tindex
        copies = []
        for _ in range(ptype.copies):
            copies.append(len(self.type_of))
            self.type_of.append(tindex)
        self.instances.append(copies)

    def finish(self) -> None:
        """Build the attribute columns once every type is known (missing attributes are None)."""
        names: list[str] = []
        for t in self.types:
            for a in t.attrs:
                if a not in names:
                    names.append(a)
        self.attr_names = names
        self.columns = {a: [self.types[t].attrs.get(a) for t in self.type_of] for a in names}
        self.columns["id"] = [self.types[t].id for t in self.type_of]

    def sort_key(self, piece: int) -> tuple[int, int]:
        return (self.type_of[piece], piece)


def _format_id(template: str, values: dict[str, Any]) -> str:
    try:
        return template.format(**values)
    except KeyError as exc:
        raise ValueError(f"cannot fill template {template!r}: the piece has no attribute {exc}") from exc
    except (IndexError, ValueError) as exc:
        raise ValueError(f"cannot fill template {template!r}: {exc}") from exc


def build_piece_table(
    spec: Sequence[dict[str, Any]],
    derive: Callable[[str, dict[str, Any], SourcePos], Any],
    pos_of: Callable[[Any], SourcePos],
    diags: list[Diagnostic],
) -> PieceTable:
    """Build the table from the ``pieces`` list.

    ``derive(expr, names, pos)`` evaluates a derived-attribute expression at load time over the
    generated fields (the rules model passes a compiler bound to the ruleset's constants).
    """
    table = PieceTable()
    seen: dict[str, SourcePos] = {}
    made = 0
    # Generators whose 'where' kept none of what they made, with the attributes they would have given.
    kept_none: list[tuple[Any, int, list[str]]] = []
    for entry in spec:
        entry_pos = pos_of(entry)
        copies = int(entry.get("copies", 1))
        here = copies * (math.prod(len(v) for v in entry["generate"].values()) if "generate" in entry else 1)
        made += here
        if MAX_PIECES.exceeded(made):  # counted before any is made ('where' may keep fewer, but asks of each)
            subject = "this entry" if made == here else "with this entry the file"
            diags.append(Diagnostic(entry_pos, MAX_PIECES.message(subject, made, "each combination generated, "
                                                                   "times its copies, is a piece"), "pieces"))
            return table
        if "generate" in entry:
            gen: dict[str, list[Any]] = entry["generate"]
            keys = list(gen)
            combos: Iterable[tuple[Any, ...]] = itertools.product(*(gen[k] for k in keys))
            before = len(table.types)
            attr_names = [*keys, *entry.get("attributes", {}), *entry.get("derive", {})]
            for values in combos:
                fields = dict(zip(keys, values, strict=True))
                attrs = dict(fields)
                attrs.update(entry.get("attributes", {}))
                for aname, expr in entry.get("derive", {}).items():
                    attrs[aname] = derive(expr, dict(attrs), pos_of(expr))
                if not _kept(entry.get("where"), attrs, derive, pos_of, diags):
                    continue
                try:
                    pid = _format_id(entry.get("id", "-".join(f"{{{k}}}" for k in keys)), attrs)
                    pname = _format_id(entry.get("name", entry.get("id", pid)), attrs)
                    glyph = _format_id(entry.get("glyph", ""), attrs)
                    names = _entry_names(entry.get("names"), attrs)
                except ValueError as exc:
                    diags.append(Diagnostic(entry_pos, str(exc), "pieces"))
                    return table
                _add(table, PieceType(pid, pname, attrs, copies, entry_pos, glyph, names), seen, diags)
            if len(table.types) == before and here and entry.get("where") is not None:
                kept_none.append((entry["where"], here // copies, attr_names))
        else:
            attrs = dict(entry.get("attributes", {}))
            for aname, expr in entry.get("derive", {}).items():
                attrs[aname] = derive(expr, dict(attrs), pos_of(expr))
            pid = str(entry["id"])
            try:
                names = _entry_names(entry.get("names"), None)
            except ValueError as exc:  # pragma: no cover - a listed piece's names are not templates
                diags.append(Diagnostic(entry_pos, str(exc), "pieces"))
                names = {}
            _add(
                table,
                PieceType(pid, str(entry.get("name", pid)), attrs, copies, entry_pos, str(entry.get("glyph", "")),
                          names),
                seen,
                diags,
            )
    table.finish()
    _explain_vanished_attributes(table, kept_none, pos_of, diags)
    return table


def _explain_vanished_attributes(
    table: PieceTable,
    kept_none: list[tuple[Any, int, list[str]]],
    pos_of: Callable[[Any], SourcePos],
    diags: list[Diagnostic],
) -> None:
    """A generator whose ``where`` keeps none of its pieces is allowed (an option may leave out a
    whole kind of piece), but when no other piece has its attributes every rule reading them would
    say "unknown function 'suit'" far from the cause: say it at the ``where``, and build nothing on it."""
    for where, count, attr_names in kept_none:
        gone = [a for a in dict.fromkeys(attr_names) if a not in table.columns]
        if not gone:
            continue
        listed = ", ".join(f"'{a}'" for a in gone)
        msg = (f"this 'where' keeps none of the {count} pieces its generator makes, so no piece has the "
               f"attribute{'s' if len(gone) > 1 else ''} {listed} that rules would read")
        diags.append(Diagnostic(pos_of(where), msg, "pieces"))
        table.columns.pop("id", None)  # unfinished: the build stops at the pieces (build.py)


def _kept(
    where: Any,
    attrs: dict[str, Any],
    derive: Callable[[str, dict[str, Any], SourcePos], Any],
    pos_of: Callable[[Any], SourcePos],
    diags: list[Diagnostic],
) -> bool:
    """Whether a generated combination is a piece: a product of values is not always the set (a
    double-six set of dominoes is the pairs with high >= low), so ``where`` keeps those it holds for."""
    if where is None:
        return True
    keep = derive(where, dict(attrs), pos_of(where))
    if isinstance(keep, bool):
        return keep
    if keep is not None:  # None: the expression failed, and the deriver has said why
        msg = f"where must be a condition (true or false), but gives {keep!r} for the piece with {attrs}"
        if not any(d.pos == pos_of(where) and d.message == msg for d in diags):
            diags.append(Diagnostic(pos_of(where), msg, "pieces"))
    return False


def name_list(value: Any) -> tuple[str, ...]:
    """A name as written in a rule file: one text, or a list whose first item is shown and the rest are
    other names for the same thing (accepted when typed, listed by ``explain``)."""
    if isinstance(value, (list, tuple)):
        return tuple(str(v) for v in value)
    return (str(value),)


def _entry_names(raw: Any, attrs: dict[str, Any] | None) -> dict[str, tuple[str, ...]]:
    """A piece entry's ``names``: each language's name(s); a generator's are templates filled from ``attrs``."""
    if not isinstance(raw, Mapping):
        return {}
    return {str(lang): tuple(_format_id(n, attrs) if attrs is not None else n for n in name_list(value))
            for lang, value in raw.items()}


def _add(table: PieceTable, ptype: PieceType, seen: dict[str, SourcePos], diags: list[Diagnostic]) -> None:
    if ptype.id in seen:
        first = seen[ptype.id]
        diags.append(
            Diagnostic(ptype.pos, f"duplicate piece id '{ptype.id}' (first defined at line {first.line})", "pieces")
        )
        return
    seen[ptype.id] = ptype.pos
    table.add_type(ptype)


# ---------------------------------------------------------------------- names in languages
# What may be named beside its id, and the key it is named by. ``values`` (attribute values such as
# suits) are kept apart: they are keyed by attribute, then value.
NAME_CATEGORIES = ("pieces", "phases", "variables", "options", "rules", "calls", "verbs")


@dataclass(frozen=True, slots=True)
class NameTable:
    """The languages of a ruleset and what things are called in each, beside their ids.

    ``default`` is the language of the rule file's own ``name`` fields: a piece's name in it is its
    ``name`` unless ``names`` gives another. A name is a tuple: the first is shown, the others are
    other names for the same thing.
    """

    languages: dict[str, str] = field(default_factory=lambda: {"en": "en"})  # code -> the language's own name
    default: str = "en"
    terms: dict[str, dict[str, dict[str, tuple[str, ...]]]] = field(default_factory=dict)  # category -> id -> lang
    values: dict[str, dict[str, dict[str, tuple[str, ...]]]] = field(default_factory=dict)  # attribute -> value -> lang
    # A typed name -> the (category, id) pairs it names in any language (several: ambiguous).
    by_name: dict[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)

    def described(self, code: str) -> str:
        """``zh (中文)``: a code with the language's own name, for messages and listings."""
        label = self.languages.get(code, "")
        return f"{code} ({label})" if label and label != code else code

    def term(self, category: str, key: str, lang: str | None) -> str | None:
        """What ``key`` of ``category`` is called in ``lang`` (None: no name there, show the id)."""
        if lang is None:
            return None
        names = self.terms.get(category, {}).get(key, {}).get(lang)
        return names[0] if names else None

    def value(self, attribute: str, value: Any, lang: str | None) -> str | None:
        """What a value of a piece attribute (a suit, a kind) is called in ``lang``."""
        if lang is None:
            return None
        names = self.values.get(attribute, {}).get(str(value), {}).get(lang)
        return names[0] if names else None

    def all_names(self, category: str, key: str) -> dict[str, tuple[str, ...]]:
        return self.terms.get(category, {}).get(key, {})

    def lookup(self, name: str, category: str) -> list[str]:
        """The ids of ``category`` that ``name`` names in some language (more than one: ambiguous)."""
        return [key for cat, key in self.by_name.get(name, ()) if cat == category]


def make_name_table(languages: dict[str, str], default: str,
                    terms: dict[str, dict[str, dict[str, tuple[str, ...]]]],
                    values: dict[str, dict[str, dict[str, tuple[str, ...]]]]) -> NameTable:
    """A NameTable with its reverse index (typed name -> what it names)."""
    reverse: dict[str, list[tuple[str, str]]] = {}
    for category, table in terms.items():
        for key, per_lang in table.items():
            for names in per_lang.values():
                for n in names:
                    if (category, key) not in reverse.setdefault(n, []):
                        reverse[n].append((category, key))
    return NameTable(languages, default, terms, values, {n: tuple(v) for n, v in reverse.items()})
