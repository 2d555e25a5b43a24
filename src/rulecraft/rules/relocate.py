"""Give a position (and the source line) to semantic errors that lost them.

Some builder checks receive a name as a plain ``str`` (``str(raw["zone"])``), so the Diagnostic
has no position. Rather than print ``<unknown>:0:0``, look for the name the message quotes in the
composed rule data and point at the first place it is written. A fallback only: errors that carry
their own position are left alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from rulecraft.errors import Diagnostic, SourcePos
from rulecraft.rules.excerpt import excerpt
from rulecraft.rules.located import LStr

_QUOTED = re.compile(r"'([^']+)'")


def _strings(value: Any) -> Iterator[Any]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)
    elif isinstance(value, LStr):
        yield value


def relocate(diags: list[Diagnostic], data: Any, source_text: dict[str, str] | None = None) -> list[Diagnostic]:
    out = []
    texts = source_text or {}
    for d in diags:
        if d.pos.line > 0:
            if not d.context and texts.get(d.pos.file):
                d = Diagnostic(d.pos, d.message, d.rule_path, d.severity, excerpt(texts[d.pos.file], d.pos))
            out.append(d)
            continue
        m = _QUOTED.search(d.message)
        pos = _find(data, m.group(1)) if m else None
        if pos is None:
            out.append(d)
            continue
        context = excerpt((source_text or {}).get(pos.file), pos)
        out.append(Diagnostic(pos, d.message, d.rule_path, d.severity, context or d.context))
    return out


def _find(data: Any, name: str) -> SourcePos | None:
    word = re.compile(rf"^{re.escape(name)}(?![\w-])")
    for s in _strings(data):
        if isinstance(s, LStr) and s.pos.line > 0 and word.match(str(s)):
            return s.pos
    return None
