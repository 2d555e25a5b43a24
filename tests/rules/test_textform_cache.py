"""Without shipped tables that fit (another lark), the text form's parser tables are kept in the user's cache
directory; what is read never depends on it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support import located

from rulecraft import parser_cache
from rulecraft.errors import RuleFileError
from rulecraft.parser_cache import table_file
from rulecraft.rules import textload as TL

TEXT = """\
# a game
name my-game
seats {count 4, direction clockwise}  # four at the table
constants
  limit max(0, tricks - 5) * (2 if tricks >= 10 else 1)
  order [a, b, "c d"]
zones
  hand: per seat, visibility owner
"""

@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(parser_cache, "SHIPPED_DIR", tmp_path / "no-shipped-tables")
    TL._parser.cache_clear()
    yield tmp_path / "rulecraft"
    TL._parser.cache_clear()


def _only_file(folder: Path) -> Path:
    files = list(folder.glob("rulefile-parser-*.lark"))
    assert len(files) == 1, files
    return files[0]



def _read() -> tuple[Any, list[Any], str]:
    TL._parser.cache_clear()
    doc, comments = TL.parse_rules_with_comments(TEXT, "f.rules")
    with pytest.raises(RuleFileError) as info:
        TL.parse_rules_text("name (\n", "g.rules")  # the layout's bracket tracking runs from the cache too
    return located(doc.data), list(comments), str(info.value)


def test_tables_from_the_cache_read_as_built_ones(fresh: Path) -> None:
    built = _read()
    file = _only_file(fresh)
    assert _read() == built  # read back from the file: the same data, positions and comments
    file.write_bytes(file.read_bytes()[:100])  # a file cut short (another process was writing it)
    assert _read() == built


def test_no_writable_cache_directory(fresh: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "file"))  # a directory cannot be made under a file
    assert _read()[0]


def test_each_version_of_the_grammars_has_its_own_file(fresh: Path) -> None:
    # The text form's grammar and the expression grammar it imports both name the file.
    _read()
    mine = _only_file(fresh)
    rules = (Path(TL.__file__).parent / "rulefile.lark").read_text(encoding="utf-8")
    expressions = (TL._DSL_DIR / "grammar.lark").read_text(encoding="utf-8")
    assert table_file("rulefile-parser", rules, expressions) == mine
    for changed in ((rules + "\n", expressions), (rules, expressions + "\n")):
        other = table_file("rulefile-parser", *changed)
        assert other is not None and other != mine and other.parent == mine.parent
