"""The source line under an error, with a caret: the context lines a Diagnostic prints below its message.

Kept apart from the loader so every stage (schema checks, composition, the expression compiler)
shows a problem the same way, from the raw file text the loader kept.
"""

from __future__ import annotations

from rulecraft.errors import SourcePos, source_window


def excerpt(text: str | None, pos: SourcePos, width: int = 1) -> tuple[str, ...]:
    """Two lines: the file's line ``pos.line`` and a caret under column ``pos.col`` (empty if unknown)."""
    if not text or pos.line < 1:
        return ()
    lines = text.split("\n", pos.line)  # no further than the line wanted: files may be long
    if pos.line > len(lines):
        return ()
    line = lines[pos.line - 1].rstrip("\r")
    # Tabs would shift the caret; show them as single spaces so columns line up.
    shown, col = source_window(line.replace("\t", " "), max(pos.col, 1))
    caret = " " * (col - 1) + "^" * max(width, 1)
    gutter = f"{pos.line:>4} | "
    return (gutter + shown, " " * (len(gutter) - 2) + "| " + caret)
