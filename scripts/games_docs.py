"""Write docs/games/<family>.md: a page per family of games, made from the bundled rule files.

    python scripts/games_docs.py

Run it after adding a game or changing a game's title, description, sources, options or presets:
``tests/rules/test_library.py`` fails until the pages are the rule files' own words again.
"""

from __future__ import annotations

from pathlib import Path

from rulecraft.rules.library import bundled_entries, by_family, family_page

DOCS = Path(__file__).resolve().parents[1] / "docs" / "games"


def pages() -> dict[str, str]:
    """Each family's page by its file name."""
    return {f"{family.id}.md": family_page(family, members) for family, members in by_family(bundled_entries())}


def main() -> None:
    DOCS.mkdir(exist_ok=True)
    wanted = pages()
    for stale in DOCS.glob("*.md"):
        if stale.name not in wanted:
            stale.unlink()
            print(f"removed {stale}")
    for name, text in wanted.items():
        (DOCS / name).write_text(text, encoding="utf-8")
        print(f"wrote {DOCS / name}")


if __name__ == "__main__":
    main()
