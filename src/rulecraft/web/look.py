"""How pieces look in the browser: cards and tiles drawn from the rule file's ``display`` section.

Nothing here knows a game. ``display.draw`` says the shape (a card with a corner value and a caption,
or a tile of two halves of pips read from the piece id), which attributes to print, the inks, and
which pips are red; a hand is ordered and named as at the terminal (``rulecraft.wording``). Without a
``draw`` section a piece is a card showing its name. Every piece in a page is drawn here, with its
type id in ``data-piece``, so a test can find every piece a page shows.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from markupsafe import Markup, escape

from rulecraft.wording import piece_name, piece_type, value_name

if TYPE_CHECKING:
    from rulecraft.engine.pieces import PieceType
    from rulecraft.engine.ruleset import Ruleset

RED = "#d32f2f"
INK = "#212121"
FACE = "#ffffff"
# Pip positions on a 3x3 grid (columns, rows 0..2) for one to six pips, as on dice and dominoes.
PIPS: dict[int, list[tuple[int, int]]] = {
    0: [], 1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)],
    4: [(0, 0), (2, 0), (0, 2), (2, 2)], 5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)],
    6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)],
}


def draw_spec(rs: Ruleset) -> dict[str, Any]:
    return dict(rs.display.draw) if rs.display else {}


def piece_html(rs: Ruleset, type_id: str, lang: str | None = None, attrs: str = "", extra: str = "") -> Markup:
    """One piece, face up: an inline SVG tile or a CSS card, with its name as a tooltip."""
    spec = draw_spec(rs)
    name = piece_name(rs, type_id, lang)
    title = f"{name} ({type_id})" if name != type_id else type_id
    if spec.get("shape") == "tile":
        halves = _halves(spec, type_id)
        if halves is not None:
            body = _tile_svg(spec, type_id, halves)
            return Markup('<span class="piece tile {}" data-piece="{}" title="{}" {}>{}</span>').format(
                extra, type_id, title, Markup(attrs), body)
    t = piece_type(rs, type_id)
    corner_attr = spec.get("corner")
    labels = spec.get("labels") or {}
    corner = labels.get(type_id) or (str(t.attrs.get(corner_attr, "")) if corner_attr else type_id) or type_id
    caption_attr = spec.get("caption")
    caption, caption_title = "", ""
    if caption_attr and type_id not in labels:
        raw = t.attrs.get(caption_attr)
        caption_title = value_name(rs, caption_attr, raw, lang)
        caption = str((spec.get("symbols") or {}).get(str(raw), caption_title))
    elif not corner_attr:
        caption = name if name != type_id else ""
    ink = _ink(spec, t)
    style = f"color:{ink};background:{spec.get('face', FACE)}"
    return Markup('<span class="piece card {}" data-piece="{}" title="{}" style="{}" {}>'
                  '<span class="corner">{}</span><span class="caption" title="{}">{}</span></span>').format(
        extra, type_id, title, style, Markup(attrs), corner, caption_title, caption)


def back_html(count: int = 1, attrs: str = "") -> Markup:
    """Pieces lying face down (or hidden): backs, never a name."""
    return Markup("").join(Markup('<span class="piece back" {}></span>').format(Markup(attrs))
                           for _ in range(count))


def _ink(spec: dict[str, Any], t: PieceType) -> str:
    by = spec.get("ink_by")
    inks = spec.get("inks") or {}
    if by:
        value = t.attrs.get(by)
        key = str(value).lower() if isinstance(value, bool) else str(value)
        if key in inks:
            return str(inks[key])
    return str(spec.get("ink", INK))


def _halves(spec: dict[str, Any], type_id: str) -> tuple[int, int] | None:
    pattern = str(spec.get("halves", ""))
    regex = re.escape(pattern)
    regex = re.sub(r"\\\{[a-z_]+\\\}", r"(\\d+)", regex)
    m = re.fullmatch(regex, type_id)
    if not m or len(m.groups()) != 2:
        return None
    a, b = int(m.group(1)), int(m.group(2))
    return (a, b) if a in PIPS and b in PIPS else None


def _tile_svg(spec: dict[str, Any], type_id: str, halves: tuple[int, int]) -> Markup:
    face, ink = spec.get("face", FACE), spec.get("ink", INK)
    red = spec.get("red", RED)
    red_pips = set(spec.get("red_pips") or ())
    half_red = type_id in set(spec.get("half_red") or ())
    parts = [f'<rect x="1" y="1" width="38" height="78" rx="5" fill="{escape(face)}" stroke="#888"/>']
    for h, n in enumerate(halves):
        top = 40 * h
        for col, row in PIPS[n]:
            colour = red if n in red_pips or (half_red and h == 0) else ink
            cx, cy = 8 + 12 * col, top + 8 + 12 * row
            parts.append(f'<circle cx="{cx}" cy="{cy}" r="4.2" fill="{escape(colour)}"/>')
    return Markup('<svg viewBox="0 0 40 80" width="40" height="80" role="img" aria-label="{}">{}</svg>').format(
        type_id, Markup("".join(parts)))
