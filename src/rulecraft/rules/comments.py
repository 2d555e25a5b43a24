"""Comments of a rule file, tied to the entries they stand by, so converting or formatting keeps them.

Blank lines are kept the same way, as an empty comment: a line with nothing on it (outside a
multi-line string) stands before the next entry, so sections an author set apart stay apart. The
printers write at most one blank line in a row, none at the start of a block or of the file, none
at its end.

Loading keeps no comments (nothing downstream reads them); ``convert`` and ``fmt`` need them back in
the text they print. A comment on a line of its own belongs before the next entry or list item
(its *lead*); a comment after something on the same line belongs to the outermost entry that line
starts (its *trail*); comments after the last entry end the file. Entries are found by the positions
every located value carries, so the same rules serve YAML and ``.rules`` files.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from typing import Any

import yaml

Comment = tuple[int, int, str, bool]
"""(line, column, text from its '#', whether it stands on a line of its own)."""


@dataclass
class Notes:
    """Comments by entry: ``(id(container), key or index)`` -> lines before it / the comment after it."""

    lead: dict[tuple[int, Any], list[str]] = field(default_factory=dict)
    trail: dict[tuple[int, Any], str] = field(default_factory=dict)
    end: list[str] = field(default_factory=list)

    def before(self, container: Any, key: Any) -> list[str]:
        return self.lead.get((id(container), key), [])

    def after(self, container: Any, key: Any) -> str:
        return self.trail.get((id(container), key), "")

    def inside(self, value: Any) -> bool:
        """Whether any entry at or below ``value`` has a comment (it cannot then be written on one line)."""
        stack = [value]
        while stack:
            v = stack.pop()
            if isinstance(v, dict):
                keys: Any = v.keys()
                stack.extend(v.values())
            elif isinstance(v, list):
                keys = range(len(v))
                stack.extend(v)
            else:
                continue
            if any((id(v), k) in self.lead or (id(v), k) in self.trail for k in keys):
                return True
        return False


def _slots(data: Any) -> list[tuple[int, int, int, Any, Any]]:
    """Every entry and item as (line, col, order, container, key), in document order (outer first)."""
    out: list[tuple[int, int, int, Any, Any]] = []
    stack: list[Any] = [data]
    while stack:
        v = stack.pop()
        children: list[tuple[Any, Any, Any]] = []
        if isinstance(v, dict):
            key_pos = getattr(v, "key_pos", {})
            children = [(k, key_pos.get(k), v[k]) for k in v]
        elif isinstance(v, list):
            item_pos = getattr(v, "item_pos", [])
            children = [(i, item_pos[i] if i < len(item_pos) else None, x) for i, x in enumerate(v)]
        for k, pos, _ in children:
            if pos is not None and pos.line > 0:
                out.append((pos.line, pos.col, len(out), v, k))
        stack.extend(reversed([c for _, _, c in children]))
    out.sort(key=lambda s: (s[0], s[1], s[2]))
    return out


def attach(data: Any, comments: list[Comment]) -> Notes:
    """Tie each comment to the entry it stands by (see the module's docstring)."""
    notes = Notes()
    slots = _slots(data)
    keys = [(s[0], s[1]) for s in slots]
    for line, col, text, own_line in sorted(comments):
        if not own_line:
            i = bisect.bisect_left(keys, (line, 0))
            if i < len(slots) and slots[i][0] == line and slots[i][1] < col:
                slot = (id(slots[i][3]), slots[i][4])
                notes.trail[slot] = f"{notes.trail[slot]} {text}" if slot in notes.trail else text
                continue
        i = bisect.bisect_left(keys, (line + 1, 0))
        if i < len(slots):
            notes.lead.setdefault((id(slots[i][3]), slots[i][4]), []).append(text)
        else:
            notes.end.append(text)
    return notes


BLANK = ""
"""The text of a blank line's note (a comment's text always starts with '#')."""


def write_leads(lines: list[str], texts: list[str], pad: str, opens_block: bool) -> None:
    """Append an entry's lead (its comments, at ``pad``, and blank lines) to a printer's ``lines``.

    At most one blank line in a row, and none before the first line of a block (``opens_block``: the
    entry is its container's first and nothing of its lead is written yet) or of the file.
    """
    for text in texts:
        if text != BLANK:
            lines.append(pad + text)
            opens_block = False
        elif lines and lines[-1] != "" and not opens_block:
            lines.append("")


def write_end(lines: list[str], texts: list[str]) -> None:
    """Append the comments after a file's last entry; a blank line stays only between two of them."""
    write_leads(lines, texts, "", False)
    while lines and lines[-1] == "":
        lines.pop()


def opens_block(container: Any, key: Any) -> bool:
    """Whether ``key`` is the first entry or item of ``container``."""
    if isinstance(container, dict):
        return bool(next(iter(container), None) == key)
    return bool(key == 0)


def blank_lines(text: str, spans: list[tuple[int, int]] | None = None) -> list[Comment]:
    """A note for each blank line of ``text`` outside the sorted character ``spans`` (its multi-line strings)."""
    spans = spans or []
    starts = [s for s, _ in spans]
    out: list[Comment] = []
    offset = 0
    for n, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            i = bisect.bisect_right(starts, offset) - 1
            if not (i >= 0 and spans[i][0] <= offset < spans[i][1]):
                out.append((n, 1, BLANK, True))
        offset += len(line) + 1
    return out


def yaml_scalar_spans(text: str) -> list[tuple[int, int]]:
    """Where each scalar of a YAML text lies, as sorted (start, end) character offsets."""
    spans = [(tok.start_mark.index, tok.end_mark.index) for tok in yaml.scan(text, Loader=yaml.SafeLoader)
             if isinstance(tok, yaml.ScalarToken)]
    spans.sort()
    return spans


def yaml_comments(text: str, spans: list[tuple[int, int]] | None = None) -> list[Comment]:
    """The comments of a YAML text: each '#' outside a scalar, at a line's start or after a space."""
    if spans is None:
        spans = yaml_scalar_spans(text)
    starts = [s for s, _ in spans]
    out: list[Comment] = []
    offset = 0
    for n, line in enumerate(text.split("\n"), 1):
        k = line.find("#")
        while k != -1:
            at = offset + k
            i = bisect.bisect_right(starts, at) - 1
            inside = i >= 0 and spans[i][0] <= at < spans[i][1]
            if not inside and (k == 0 or line[k - 1] in " \t"):
                out.append((n, k + 1, line[k:].rstrip(), not line[:k].strip()))
                break
            k = line.find("#", k + 1)
        offset += len(line) + 1
    return out
