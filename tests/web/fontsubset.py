"""Make the font the browser table ships for the games' own scripts (by hand, when a rule file gains a character):
``.venv/bin/python tests/web/fontsubset.py [NotoSansCJK-Regular.ttc]``.

A Debian machine without CJK fonts shows 天九 as empty boxes. The table ships Noto Sans CJK TC (SIL Open Font
License 1.1, OFL.txt beside it), cut down to the characters the bundled rule files write outside ASCII, so
the file stays small; ``tests/web/test_font.py`` fails when a rule file uses a character the font lacks.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "src" / "rulecraft" / "web" / "static" / "fonts" / "rulecraft-cjk.otf"
SOURCE = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")  # Debian: fonts-noto-cjk


def needed() -> set[str]:
    """Every character beyond ASCII and Latin-1 that a bundled rule file writes (names, sources, notes)."""
    chars: set[str] = set()
    for path in (ROOT / "variants").rglob("*"):
        if path.suffix in (".yaml", ".rules", ".md"):
            chars |= {c for c in path.read_text(encoding="utf-8") if ord(c) > 0x2FF}
    return chars


def main(source: Path) -> None:
    from fontTools import subset
    from fontTools.ttLib import TTCollection

    collection = TTCollection(str(source))
    index = next(i for i, f in enumerate(collection.fonts) if "TC" in f["name"].getDebugName(1))
    options = subset.Options()
    options.font_number = index
    options.name_IDs = ["*"]
    options.notdef_outline = True
    options.layout_features = ["*"]
    font = subset.load_font(str(source), options)
    sub = subset.Subsetter(options)
    sub.populate(text="".join(sorted(needed())))
    sub.subset(font)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    subset.save_font(font, str(OUT), options)
    print(OUT, OUT.stat().st_size, "bytes")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else SOURCE)
