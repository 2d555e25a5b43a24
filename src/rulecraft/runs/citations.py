"""Citations a reader cannot open: a rule file's ``source:`` or ``notes:`` naming a file not shipped with it.

A citation names a book, a published page or a rule book, or a file that travels with the rule file
(notes beside it, ``notes.md §3``). A file name that is not beside the rule file — a developer's notes,
a working copy of a text (``shared/RULES-NOTES.md``, ``seeds/003_….txt``) — points a reader at
something they do not have. ``validate`` warns about such a name: a warning, not an error, since the
rules themselves are sound.

What counts as a file name: a word ending in a document's extension (``.md``, ``.txt``, ``.yaml`` …)
that is not an address (``https://…``, ``www.…``, ``example.com/page.html``). It is looked for beside
the rule file; an absolute path is never shipped with it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rulecraft.errors import Diagnostic, SourcePos
from rulecraft.rules.located import LStr

# The keys whose text cites where a rule comes from, wherever they are (the file, its options, choices,
# presets, unsupported rules, display names).
CITING_KEYS = ("source", "notes")

# A word: what lies between spaces, list punctuation, brackets and quotes (Latin and CJK).
_WORD = re.compile(r"[^\s,;()\[\]{}'\"“”‘’「」『』（）、，；：]+")
_DOCUMENT = re.compile(r"\.(md|markdown|txt|rst|ya?ml|rules|json|csv|pdf|html?)$", re.IGNORECASE)
_HOST = re.compile(r"^(www\.|[^/]*\.[A-Za-z]{2,}/)")  # a site's address written without its scheme


def cited_files(text: str) -> Iterator[tuple[int, str]]:
    """Each word of ``text`` that names a file (where it starts, the name): see the module's docstring."""
    for m in _WORD.finditer(text):
        word = m.group().rstrip(".:")
        if "://" in word or _HOST.match(word) or not _DOCUMENT.search(word):
            continue
        yield m.start(), word


def unshipped_citations(data: Any, rule_file: str | Path, shown_as: str) -> list[Diagnostic]:
    """Warnings for every file a citation of ``data`` (a rule file's located data) names that is not beside
    ``rule_file``; each placed at the citation (``shown_as`` names the file in the message's place)."""
    folder = Path(rule_file).parent
    out: list[Diagnostic] = []
    for text in _citations(data):
        for offset, name in cited_files(text):
            if not Path(name).is_absolute() and (folder / name).is_file():
                continue
            where = "an absolute path" if Path(name).is_absolute() else f"no such file beside it in {folder}"
            out.append(Diagnostic(_position(text, offset, shown_as), f"the citation names '{name}', a file not "
                                  f"shipped with this rule file ({where}): a reader cannot open it",
                                  severity="warning"))
    return out


def _citations(data: Any) -> Iterator[str]:
    """Every string under a citing key, anywhere in the data."""
    if isinstance(data, dict):
        for key, value in data.items():
            if key in CITING_KEYS:
                yield from (v for v in (value if isinstance(value, list) else [value]) if isinstance(v, str))
            else:
                yield from _citations(value)
    elif isinstance(data, list):
        for item in data:
            yield from _citations(item)


def _position(text: str, offset: int, shown_as: str) -> SourcePos:
    """Where the word at ``offset`` of a located string stands in the file (``LStr.pos_at``), named as shown."""
    if not isinstance(text, LStr) or text.pos.line <= 0:
        return SourcePos(shown_as, 1, 1)
    at = text.pos_at(offset)  # type: ignore[attr-defined]
    return SourcePos(shown_as, at.line, at.col)
