"""Rule data to its canonical ``.rules`` text (``rulecraft convert``, ``rulecraft fmt``).

Canonical: the text depends only on the data, its comments and its blank lines (``comments``), so
printing what was read from a printed text gives the same text again. Reading the text gives back
the same data (the tests check this on every bundled file and on generated ones). The choices, in order:

- a string is written unquoted when it reads back as itself (a name, an expression), else quoted;
  a list of two or more strings that are words (``A``, ``10``, ``6-6``) is written as its words,
  ``values A 2 3 J``, where it ends its line or its table cell (never followed by ``,``);
- a list item that is a mapping with a string ``id`` is written ``ID: entries``, its one-line
  ``description`` first as the quoted text after ``ID:``;
- a list of mappings, or a mapping of mappings, whose items each fit on a line is written as a table
  (``key | col | col`` and a row per item) when that is shorter: each key is written once, not once
  per item, and that is most of what YAML spends on such lists;
- below the top level, a chain of two or more mappings of one entry (or lists of one item with an
  id and one other entry) is written as a path key: ``patch.hand.phases[play].claim {rule falling}``
  (a single step stays nested: ``challenge {order clockwise}``); at any level, one step is enough
  when the chain leads to a block (``hand.phases``), which then sits a level less deep;
- a mapping or list goes on one line (``{key value, ...}``, ``[a, b]``) when it has no mappings in a
  list, no comments and fits in :data:`WIDTH` columns; an item's leading short entries stay on its
  ``ID:`` line and the rest are indented below;
- a string of one line stays on its line however long (a paragraph: editors wrap it); one with line
  breaks inside is written as quoted lines in a block, a line each.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from rulecraft.rules.comments import Notes, opens_block, write_end, write_leads
from rulecraft.rules.textload import read_back_value

WIDTH = 110
"""Longest line the printer aims for (a single word or string may be longer)."""
INDENT = "  "
_HEADER_VALUE = 40  # an entry stays on its item's ID line when its value is at most this long
_KEY = re.compile(r"[A-Za-z0-9_$][A-Za-z0-9_$-]*(\([^()\n]*\))?")
_STEP = re.compile(r"[A-Za-z0-9_$][A-Za-z0-9_$-]*")
_ID_STEP = re.compile(r"[A-Za-z0-9_$-]+")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\\\"]")


def print_rules(data: Any, notes: Notes | None = None) -> str:
    """The ``.rules`` text of ``data`` (a mapping, as a rule file is; or a list)."""
    p = _Printer(notes or Notes())
    if isinstance(data, dict):
        p.mapping(data, 0)
    elif isinstance(data, list):
        p.items(data, 0)
    elif data is not None:
        raise ValueError("a rule file's text form holds a mapping or a list")
    write_end(p.lines, p.notes.end)
    return "\n".join(p.lines) + "\n" if p.lines else ""


def quote(text: str) -> str:
    """``text`` as a double-quoted string of the text form."""
    return '"' + _CONTROL.sub(_escape, text) + '"'


_SIMPLE = {"\n": "\\n", "\t": "\\t", "\r": "\\r", "\\": "\\\\", '"': '\\"'}


def _escape(m: re.Match[str]) -> str:
    ch = m.group()
    if ch in _SIMPLE:
        return _SIMPLE[ch]
    return f"\\x{ord(ch):02x}" if ord(ch) < 0x100 else f"\\u{ord(ch):04x}"


def key_text(key: str) -> str:
    return key if _KEY.fullmatch(key) else quote(key)


def scalar(value: Any) -> str:
    """A number, true/false/none or a string as written on one line."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(int(value))
    if isinstance(value, float):
        return repr(float(value))
    text = str(value)
    if _bare(text):
        return text
    return quote(text)


def _bare(text: str) -> bool:
    if not text or text != text.strip() or "\n" in text or len(text) > 2000:
        return False
    back = read_back_value(text)
    return isinstance(back, str) and not isinstance(back, bool) and str(back) == text


def _is_scalar(value: Any) -> bool:
    return not isinstance(value, dict | list)


class _Printer:
    def __init__(self, notes: Notes) -> None:
        self.notes = notes
        self.lines: list[str] = []

    # -- one-line forms (None when the value does not go on one line)
    def inline(self, value: Any, words: bool = False) -> str | None:
        """``value`` on one line; with ``words``, a list of words as its words (the printer does so only where
        the value ends its line or its table cell, so that no ',' follows the words)."""
        if _is_scalar(value):
            return scalar(value)
        if self.notes.inside(value):
            return None
        if words and isinstance(value, list) and _words(value):
            return " ".join(value)
        if isinstance(value, dict):
            parts = []
            for k, v in value.items():
                head, v = self.path(str(k), v)
                one = self.inline(v)
                if one is None:
                    return None
                parts.append(f"{head} {one}")
            return "{" + ", ".join(parts) + "}"
        out = []
        for v in value:
            if isinstance(v, dict):
                return None  # a mapping in a list is an item of a block
            one = self.inline(v)
            if one is None:
                return None
            out.append(one)
        return "[" + ", ".join(out) + "]"

    def emit(self, indent: int, text: str, trail: str) -> None:
        self.lines.append(INDENT * indent + text + (f"  {trail}" if trail else ""))

    def leads(self, container: Any, key: Any, indent: int) -> str:
        write_leads(self.lines, self.notes.before(container, key), INDENT * indent, opens_block(container, key))
        return self.notes.after(container, key)

    # -- blocks
    def path(self, key: str, value: Any) -> tuple[str, Any]:
        """The key written as a path through single-entry mappings and single-item lists, and what it leads to."""
        head = key_text(key)
        if not _STEP.fullmatch(key):
            return head, value
        notes = self.notes
        start, steps = (head, value), 0
        while True:
            if isinstance(value, dict) and len(value) == 1:
                (k, v), = value.items()
                if not _STEP.fullmatch(str(k)) or notes.before(value, k) or notes.after(value, k):
                    break
                head, value, steps = f"{head}.{k}", v, steps + 1
                continue
            if isinstance(value, list) and len(value) == 1 and isinstance(value[0], dict) and len(value[0]) == 2 \
                    and not notes.before(value, 0) and not notes.after(value, 0):
                item = value[0]
                ident = item.get("id")
                other = next((k for k in item if k != "id"), None)
                if not isinstance(ident, str) or not _ID_STEP.fullmatch(ident) or other is None \
                        or not _STEP.fullmatch(str(other)) or any(notes.before(item, k) or notes.after(item, k)
                                                                 for k in item):
                    break
                head, value, steps = f"{head}[{ident}].{other}", item[other], steps + 2
                continue
            break
        return (head, value) if steps >= 2 else start

    def block_path(self, key: str, value: Any, indent: int) -> tuple[str, Any]:
        """The key of a block entry: a path through single-entry mappings (one step is enough: ``hand.phases``
        then the phases one level less deep) when what it leads to is still a block; else as :meth:`path`."""
        head = key_text(key)
        whole = self.inline(value)
        fits = whole is not None and len(INDENT * indent) + len(head) + 1 + len(whole) <= WIDTH
        if _STEP.fullmatch(key) and isinstance(value, dict) and len(value) == 1 and not fits:
            (k, v), = value.items()
            if _STEP.fullmatch(str(k)) and not self.notes.before(value, k) and not self.notes.after(value, k) \
                    and isinstance(v, dict | list) and v:
                deeper, v2 = self.block_path(str(k), v, indent)
                one = self.inline(v2)
                if one is None or len(INDENT * indent) + len(head) + len(deeper) + 2 + len(one) > WIDTH:
                    return f"{head}.{deeper}", v2
        return self.path(key, value) if indent else (head, value)

    def mapping(self, data: dict[str, Any], indent: int, keys: list[str] | None = None) -> None:
        line = ""  # below the top level, short entries share a line: 'key value, key value'
        for k in data if keys is None else keys:
            v = data[k]
            before = len(self.lines)
            trail = self.leads(data, k, indent)
            head, v = self.block_path(str(k), v, indent)
            one = self.short(data, k, v, indent)
            if len(self.lines) > before:
                line = ""  # a comment before an entry starts its line
            if one is not None and line and len(line) + 2 + len(head) + 1 + len(one) <= WIDTH:
                line += f", {head} {one}"
                self.lines[-1] = line
                continue
            if one is not None and not trail:
                line = f"{INDENT * indent}{head} {one}"
                self.lines.append(line)
                continue
            line = ""
            self.entry(head, v, indent, trail)

    def short(self, data: dict[str, Any], key: str, value: Any, indent: int) -> str | None:
        """The one-line form of an entry that may share its line with others (None if it may not): below the
        top level, short, no function's definition, with no comment after it (one before it starts its line)."""
        if not indent or self.notes.after(data, key) or "(" in str(key) or (isinstance(value, list) and _words(value)):
            return None  # a function's definition keeps its line, and a list of words too
        one = self.inline(value)
        if one is None or len(one) > _HEADER_VALUE or _multiline(value):
            return None
        # A word, a number, a quoted string or a list: never a formula with spaces, whose end would be hard
        # to see before the next entry, nor a mapping (its entries would read as the line's).
        plain = " " not in one or isinstance(value, list) or (isinstance(value, str) and one == quote(value))
        return one if plain else None

    def entry(self, head: str, value: Any, indent: int, trail: str) -> None:
        """``head value`` on one line, or ``head`` and the value as a table or a block under it."""
        one = self.inline(value, words=True)
        room = WIDTH - len(INDENT * indent) - len(head) - 1
        if one is not None and (len(one) <= room or (_is_scalar(value) and not _multiline(value))):
            self.emit(indent, f"{head} {one}", trail)
            return
        table = self.table(head, value, indent, trail) if head != "-" else None  # a table's header needs a key
        if table is not None:
            self.lines.extend(table)
            return
        if isinstance(value, dict) and not value:
            self.emit(indent, f"{head} {{}}", trail)
            return
        if isinstance(value, list) and not value:
            self.emit(indent, f"{head} []", trail)
            return
        self.emit(indent, head, trail)
        self.block(value, indent + 1)

    def table(self, head: str, value: Any, indent: int, trail: str) -> list[str] | None:
        """The lines of ``value`` as a table (see the module's docstring) when it is one and that is shorter."""
        rows = self.rows(value)
        if rows is None:
            return None
        named = isinstance(value, dict)
        if not named and any(len(item) < 2 for _, item in rows):
            return None  # a list of one-entry mappings reads better as it is
        flat = set() if any("." in str(k) for _, item in rows for k in item) else \
            {k for _, i in rows for k, v in i.items()
             if isinstance(v, dict) and _flat(k, [r[k] for _, r in rows if k in r])}
        rows = [(slot, _flatten(item if named else _as_item_line(item), flat)) for slot, item in rows]
        cols = _columns([list(item) for _, item in rows])
        order = {k: i for i, k in enumerate(cols)}
        if any([order[k] for k in item] != sorted(order[k] for k in item) for _, item in rows):
            return None  # a row's entries in another order than the columns: the table would reorder them
        one_line = [{k: self.inline(v, words=True) for k, v in item.items()} for _, item in rows]
        if any(one is None for row in one_line for one in row.values()):
            return None  # a flattened cell that is no longer one line (a list of mappings): it would be lost
        saved, self.lines = self.lines, []
        try:
            self.emit(indent, " | ".join([head, *(c if "." in c and c.split(".")[0] in flat else key_text(c)
                                                  for c in cols)]), trail)
            for (slot, _), row in zip(rows, one_line, strict=True):
                cells = [row.get(k) or "" for k in cols]
                while cells and not cells[-1]:
                    cells.pop()
                text = cells[0] if cells else ""
                for cell in cells[1:]:
                    text += " |" + (f" {cell}" if cell else "")
                if named:
                    text = f"{key_text(str(slot))}: {text}".rstrip()
                t = self.leads(value, slot, indent + 1)
                self.emit(indent + 1, text.lstrip(), t)
            table = self.lines
            self.lines = []
            self.emit(indent, head, trail)
            self.block(value, indent + 1)
            plain = self.lines
        finally:
            self.lines = saved
        return table if sum(map(len, table)) < sum(map(len, plain)) else None

    def rows(self, value: Any) -> list[tuple[Any, dict[str, Any]]] | None:
        """The rows of a table: two or more non-empty mappings, each on one line, with no comment inside."""
        pairs = list(value.items()) if isinstance(value, dict) else list(enumerate(value)) \
            if isinstance(value, list) else []
        if len(pairs) < 2:
            return None
        for _, item in pairs:
            if not isinstance(item, dict) or not item or self.notes.inside(item) \
                    or any(self.inline(v) is None for v in item.values()):
                return None
        return pairs

    def block(self, value: Any, indent: int) -> None:
        if isinstance(value, dict):
            self.mapping(value, indent)
        elif isinstance(value, list):
            self.items(value, indent)
        else:
            for piece in _text_pieces(str(value), WIDTH - len(INDENT * indent) - 2):
                self.emit(indent, quote(piece), "")

    def items(self, data: list[Any], indent: int) -> None:
        for i, v in enumerate(data):
            trail = self.leads(data, i, indent)
            ident = v.get("id") if isinstance(v, dict) else None
            if isinstance(ident, str) and not isinstance(ident, bool):
                self.id_item(v, ident, indent, trail)
            elif isinstance(v, dict) and v:
                one = self.inline(v)
                if one is not None and len(INDENT * indent) + 2 + len(one) <= WIDTH:
                    self.emit(indent, f"- {one}", trail)
                else:
                    self.emit(indent, "-", trail)
                    self.mapping(v, indent + 1)
            else:
                self.entry("-", v, indent, trail)

    def id_item(self, item: dict[str, Any], ident: str, indent: int, trail: str) -> None:
        # Comments on the id itself stand by the item (they share its line).
        write_leads(self.lines, self.notes.before(item, "id"), INDENT * indent, True)
        trail = " ".join(t for t in (trail, self.notes.after(item, "id")) if t)
        rest = [(k, v) for k, v in item.items() if k != "id"]
        head = INDENT * indent + key_text(ident) + ":"
        described = item.get("description")
        if isinstance(described, str) and not self.notes.before(item, "description") \
                and not self.notes.after(item, "description") and "\n" not in described.rstrip("\n"):
            # The item's description is the quoted text after its id, as a heading is followed by its summary.
            head += " " + quote(described)
            rest = [(k, v) for k, v in rest if k != "description"]
        kind = item.get("kind")
        if isinstance(kind, str) and _STEP.fullmatch(kind) and not self.notes.before(item, "kind") \
                and not self.notes.after(item, "kind"):
            # The item's kind as its head word, as a rule names what it does first: 'deal: deal, from deck'.
            head += ("," if head.endswith('"') else "") + " " + kind
            rest = [(k, v) for k, v in rest if k != "kind"]
        line, taken = self.header(item, head, rest, lambda v, one: True)
        if taken < len(rest):
            # Not all on one line: only short leading entries stay on the ID line; the others go below.
            line, taken = self.header(item, head, rest, lambda v, one: _is_scalar(v) and len(one) <= _HEADER_VALUE)
        self.lines.append(line + (f"  {trail}" if trail else ""))
        self.mapping(item, indent + 1, [k for k, _ in rest[taken:]])


    def header(self, item: dict[str, Any], line: str, rest: list[tuple[str, Any]],
               short: Callable[[Any, str], bool]) -> tuple[str, int]:
        """The ID line with as many leading entries as fit and pass ``short``, and how many it took."""
        taken = 0
        for k, v in rest:
            head, v = self.path(str(k), v)
            one = None if self.notes.before(item, k) or self.notes.after(item, k) else self.inline(v)
            if one is None or not short(v, one):
                break
            piece = f"{' ' if line.endswith(':') else ', '}{head} {one}"
            if len(line) + len(piece) > WIDTH:
                break
            line += piece
            taken += 1
        return line, taken


_WORD = re.compile(r"[A-Za-z0-9_$](?:[A-Za-z0-9_$-]*[A-Za-z0-9_$])?")
_KEYWORDS = frozenset(("if", "else", "for", "in", "and", "or", "not", "true", "false", "none"))


def _words(items: list[Any]) -> bool:
    """Whether a list is written as its words, ``A 2 3 J`` (two or more strings, each a word and no keyword)."""
    return len(items) >= 2 and all(isinstance(i, str) and _WORD.fullmatch(i) and i not in _KEYWORDS for i in items)


def _flat(key: str, values: list[Any]) -> bool:
    """Whether a column of mappings is written as a column per entry (``attributes.kind``): each row that has
    the key has a non-empty mapping of plain names there (not none, not {}: those would read back as no entry)."""
    return _STEP.fullmatch(key) is not None and all(
        isinstance(v, dict) and v and all(_STEP.fullmatch(str(k)) for k in v) for v in values)


def _flatten(item: dict[str, Any], keys: set[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in item.items():
        if k in keys:
            out.update({f"{k}.{sub}": x for sub, x in v.items()})
        else:
            out[k] = v
    return out


def _as_item_line(item: dict[str, Any]) -> dict[str, Any]:
    """``item`` in the order its line puts it (``ID: "description", kind, ...``, see ``id_item``): the order it
    reads back in, so that a table is chosen alike before and after a round trip (formatting is canonical)."""
    ident = item.get("id")
    if not isinstance(ident, str):
        return item
    front = ["id"]
    described = item.get("description")
    if isinstance(described, str) and "\n" not in described.rstrip("\n"):
        front.append("description")
    kind = item.get("kind")
    if isinstance(kind, str) and _STEP.fullmatch(kind):
        front.append("kind")
    return {**{k: item[k] for k in front}, **{k: v for k, v in item.items() if k not in front}}


def _columns(orders: list[list[str]]) -> list[str]:
    """The columns of a table: the rows' keys in their order, each new key after the one it follows in its row."""
    cols: list[str] = []
    for keys in orders:
        at = 0
        for k in keys:
            if k in cols:
                at = cols.index(k) + 1
            else:
                cols.insert(at, k)
                at += 1
    return cols


def _multiline(value: Any) -> bool:
    """A string of several lines (a line break before its end): too long for its line, it goes in a block,
    a line each. Other text stays on its line however long, as a paragraph does (editors wrap it)."""
    return isinstance(value, str) and "\n" in value.rstrip("\n")


def _text_pieces(text: str, width: int) -> list[str]:
    """A string cut into line-sized pieces: after each line break, then at spaces (spaces end a piece)."""
    width = max(width, 20)
    out: list[str] = []
    for para in re.findall(r"[^\n]*\n|[^\n]+", text) or [""]:
        while len(para) > width:
            cut = para.rfind(" ", 0, width)
            if cut <= 0:
                cut = para.find(" ", width)
                if cut == -1:
                    break
            out.append(para[:cut + 1])
            para = para[cut + 1:]
        if para:
            out.append(para)
    return out or [""]
