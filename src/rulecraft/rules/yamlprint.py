"""Rule data to YAML text with its comments (``rulecraft convert FILE.rules FILE.yaml``).

PyYAML's dumper forgets comments and quotes by YAML 1.1's rules; this writes block YAML in the
style of the bundled files (short mappings and lists of plain values on one line, in flow style),
keeps each comment by the entry it was written by, and quotes every string the strict loader
(``yamlload``: the YAML 1.2 core schema) would not read back as that same string.
"""

from __future__ import annotations

import json
import re
from typing import Any

from rulecraft.rules.comments import Notes, opens_block, write_end, write_leads

WIDTH = 110
INDENT = "  "
# A plain scalar the core schema reads as a string, in block and in flow context alike.
_PLAIN = re.compile(r"[A-Za-z_$][A-Za-z0-9_$ ()\-.'/]*")
_NOT_PLAIN = re.compile(r"^(?:true|false|null|yes|no|on|off|y|n|~)$", re.I)
_UNSAFE = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\ufeff]")


def print_yaml(data: Any, notes: Notes | None = None) -> str:
    """The YAML text of ``data`` (a mapping or list), comments from ``notes`` in place."""
    p = _Printer(notes or Notes())
    if isinstance(data, dict) and data:
        p.mapping(data, 0)
    elif isinstance(data, list) and data:
        p.items(data, 0)
    elif data is not None:
        p.lines.append(p.flow(data))
    write_end(p.lines, p.notes.end)
    return "\n".join(p.lines) + "\n" if p.lines else ""


def scalar(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(int(value))
    if isinstance(value, float):
        return repr(float(value))
    text = str(value)
    if _PLAIN.fullmatch(text) and not _NOT_PLAIN.match(text) and text == text.strip() and " #" not in text:
        return text
    quoted = json.dumps(text, ensure_ascii=False)  # a JSON string is a YAML double-quoted scalar
    return _UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", quoted)


class _Printer:
    def __init__(self, notes: Notes) -> None:
        self.notes = notes
        self.lines: list[str] = []

    def flow(self, value: Any) -> str:
        if isinstance(value, dict):
            return "{" + ", ".join(f"{scalar(str(k))}: {self.flow(v)}" for k, v in value.items()) + "}"
        if isinstance(value, list):
            return "[" + ", ".join(self.flow(v) for v in value) + "]"
        return scalar(value)

    def fits(self, value: Any, room: int) -> str | None:
        """``value`` in flow style when it is short, holds no list of mappings and no comment."""
        if not isinstance(value, dict | list):
            return scalar(value)
        if self.notes.inside(value) or _deep(value) > 2:
            return None
        text = self.flow(value)
        return text if len(text) <= room else None

    def leads(self, container: Any, key: Any, indent: int) -> str:
        write_leads(self.lines, self.notes.before(container, key), INDENT * indent, opens_block(container, key))
        trail = self.notes.after(container, key)
        return f"  {trail}" if trail else ""

    def mapping(self, data: dict[str, Any], indent: int, first: str = "") -> None:
        """Entries at ``indent``; ``first`` is written before the first one (a list item's '- ')."""
        for n, (k, v) in enumerate(data.items()):
            trail = self.leads(data, k, indent)
            pad = first if n == 0 and first else INDENT * indent
            head = f"{pad}{scalar(str(k))}:"
            self.value(head, v, indent, trail)

    def value(self, head: str, v: Any, indent: int, trail: str) -> None:
        one = self.fits(v, WIDTH - len(head) - 1)
        if one is not None or not isinstance(v, dict | list) or not v:
            self.lines.append(f"{head} {one if one is not None else self.flow(v)}{trail}")
        elif isinstance(v, dict):
            self.lines.append(head + trail)
            self.mapping(v, indent + 1)
        else:
            self.lines.append(head + trail)
            self.items(v, indent + 1)

    def items(self, data: list[Any], indent: int) -> None:
        for i, v in enumerate(data):
            trail = self.leads(data, i, indent)
            pad = INDENT * indent + "- "
            one = self.fits(v, WIDTH - len(pad))
            if one is not None or not v:
                self.lines.append(f"{pad}{one if one is not None else self.flow(v)}{trail}")
            elif isinstance(v, dict):
                # The first entry shares the dash's line; its trailing comment joins the item's.
                start = len(self.lines)
                self.mapping(v, indent + 1, first=pad)
                if trail:
                    dash = next(j for j in range(start, len(self.lines)) if self.lines[j].startswith(pad))
                    self.lines[dash] += trail
            else:
                self.lines.append(pad.rstrip() + trail)
                self.items(v, indent + 1)


def _deep(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + max((_deep(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((_deep(v) for v in value), default=0) + (1 if any(isinstance(v, dict) for v in value) else 0)
    return 0
