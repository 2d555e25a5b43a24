"""Make the LALR tables rulecraft ships for its two grammars (``src/rulecraft/_parser_tables/``).

    python scripts/parser_tables.py

Run it after changing ``dsl/grammar.lark``, ``rules/rulefile.lark`` or a parser's options, or to ship
tables for another version of lark: ``tests/dsl/test_parser_tables.py`` fails until the shipped tables
are those of the grammars (the first line of each file: their key, then the version of lark that made
them). With another lark installed rulecraft still works: it builds its tables at first use and keeps
them in the user's cache directory (``parser_cache``).
"""

from __future__ import annotations

from rulecraft.dsl import larkparse
from rulecraft.rules import textload


def main() -> None:
    for write in (larkparse.write_shipped_tables, textload.write_shipped_tables):
        path = write()
        print(f"wrote {path} ({path.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
