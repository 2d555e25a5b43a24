"""Without shipped tables that fit (another lark), the expression parser's tables are kept in the user's cache
directory; what is parsed never depends on it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from rulecraft import parser_cache
from rulecraft.dsl import larkparse as L
from rulecraft.dsl import parser as P
from rulecraft.parser_cache import table_file

TEXTS = ["max(0, tricks - 5) * (2 if tricks >= 10 else 1)", "count(q for q in hand(s) if is_trump(q))",
         "[a, b][1] + -x // 2 not in [1, 2] and not y or z"]


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(parser_cache, "SHIPPED_DIR", tmp_path / "no-shipped-tables")
    monkeypatch.setattr(P, "_quick", lambda text: None)  # lark reads every text (dsl/quickparse.py would not)
    _forget()
    yield tmp_path / "rulecraft"
    _forget()


def _forget() -> None:
    """Nothing parsed or built in this process: the tables come from the cache folder or are made (the
    trees kept between runs are not written before the process ends, so lark parses every text again)."""
    L._parser.cache_clear()
    P.parse.cache_clear()
    P._trees.cache_clear()


def _only_file(folder: Path) -> Path:
    files = list(folder.glob("expression-parser-*.lark"))
    assert len(files) == 1, files
    return files[0]


def _trees() -> list[object]:
    _forget()
    return [P.parse(t) for t in TEXTS]


def test_tables_from_the_cache_parse_as_built_ones(fresh: Path) -> None:
    built = _trees()
    file = _only_file(fresh)
    assert _trees() == built  # read back from the file: the same trees, positions included
    file.write_bytes(file.read_bytes()[:100])  # a file cut short (another process was writing it)
    assert _trees() == built


def test_no_writable_cache_directory(fresh: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "file"))  # a directory cannot be made under a file
    assert _trees()


def test_each_version_of_the_grammar_has_its_own_file(fresh: Path) -> None:
    # Two installed versions of rulecraft (two checkouts) must not write their tables over each other's.
    _trees()
    mine = _only_file(fresh)
    grammar = (Path(P.__file__).parent / "grammar.lark").read_text(encoding="utf-8")
    assert table_file("expression-parser", grammar) == mine
    other = table_file("expression-parser", grammar + "\n// another version\n")
    assert other is not None and other != mine and other.parent == mine.parent


def test_files_of_other_versions_unused_for_a_month_go_when_a_new_one_is_made(fresh: Path) -> None:
    import os
    import time

    fresh.mkdir(parents=True)
    month = time.time() - (parser_cache.STALE_DAYS + 1) * 86400
    stale, recent, before_digests = (fresh / "expression-parser-0000.lark", fresh / "expression-parser-1111.lark",
                                     fresh / "expression-parser.lark")
    other_kind = fresh / "rulefile-parser-2222.lark"
    for path in (stale, recent, before_digests, other_kind):
        path.write_text("tables")
    for path in (stale, before_digests, other_kind):
        os.utime(path, (month, month))
    mine = table_file("expression-parser", "a grammar")
    assert mine is not None and not mine.exists()
    # Unused for a month, of this kind: gone; used lately (another installed version), or another kind: kept.
    assert sorted(p.name for p in fresh.iterdir()) == sorted([recent.name, other_kind.name])
