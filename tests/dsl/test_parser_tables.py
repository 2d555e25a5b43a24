"""The LALR tables shipped for the two grammars (``parser_cache``, ``scripts/parser_tables.py``): they are the
grammars' own, they parse exactly as tables built from the grammars do, and without them (another lark,
a damaged file) the parsers are built as before."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import lark
import pytest
from support import located, strings_in

from rulecraft import parser_cache
from rulecraft.dsl import larkparse as L
from rulecraft.dsl import parser as P
from rulecraft.dsl.syntax_error import ExprSyntaxError
from rulecraft.errors import RuleFileError
from rulecraft.rules import textload as TL
from rulecraft.rules.rulefiles import read_rule_file

ROOT = Path(__file__).resolve().parents[2]
RULE_FILES = sorted((ROOT / "variants").glob("*/*.rules"))
SHIPPED = parser_cache.SHIPPED_DIR  # as installed (the tests below point the parsers elsewhere)
BROKEN_TEXTS = ["name (\n", "name x\n  constants\n", "a:\n\tb 1\n", "name [1, 2\n", "constants\n  x 1 +\n"]


def _forget() -> None:
    L._parser.cache_clear()
    TL._parser.cache_clear()
    P.parse.cache_clear()


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    """No user cache: a parser comes from the shipped tables or is built (and lark reads every expression:
    the hand-written reader, ``dsl/quickparse.py``, would read most without the tables)."""
    monkeypatch.setenv("RULECRAFT_NO_CACHE", "1")
    monkeypatch.setattr(P, "_quick", lambda text: None)
    _forget()
    yield tmp_path
    _forget()


def _built(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """From here on, parsers are built from the grammars (no shipped tables)."""
    monkeypatch.setattr(parser_cache, "SHIPPED_DIR", tmp_path / "none")
    _forget()



def _expression_texts() -> list[str]:
    """Every text of the bundled rule files (most are expressions; the others are syntax errors to word)."""
    texts: set[str] = set()
    for path in sorted((ROOT / "variants").glob("*/*.yaml")):
        texts.update(strings_in(read_rule_file(path).data))
    return [*sorted(texts), "max(0, tricks - 5) * (2 if tricks >= 10 else 1)", "(a", "a b", "1 +", "'\\x4'"]


def _parse_all() -> list[object]:
    out: list[object] = []
    for text in _expression_texts():
        P.parse.cache_clear()
        try:
            out.append(P._parse(text))
        except ExprSyntaxError as exc:
            out.append(("error", exc.offset, str(exc)))
    return out


def _read_all() -> list[object]:
    out: list[object] = []
    for path in RULE_FILES:
        doc, comments = TL.parse_rules_with_comments(path.read_text(encoding="utf-8"), path.name)
        out.append((located(doc.data), comments))
    for text in BROKEN_TEXTS:
        with pytest.raises(RuleFileError) as info:
            TL.parse_rules_text(text, "broken.rules")
        out.append(str(info.value))
    return out


@pytest.mark.parametrize("kind", ["expression-parser", "rulefile-parser"])
def test_the_shipped_tables_are_those_of_the_grammars(kind: str) -> None:
    # the inputs lalr_parser is given, read from the grammars now, with the lark that made the tables (a
    # newer lark installed does not fail this: it builds its own tables, as the next tests show)
    shipped = (parser_cache.SHIPPED_DIR / f"{kind}.tables").read_bytes().split(b"\n", 1)[0].decode("ascii")
    made_by = parser_cache.shipped_lark_version(kind)
    assert made_by is not None, "the shipped tables' first line names no lark version"
    if kind == "expression-parser":
        key = parser_cache.shipped_key(L._grammar(), (), None, L.PARSER_OPTIONS, made_by)
    else:
        grammar, imported = TL._grammars()
        key = parser_cache.shipped_key(grammar, imported, TL._Layout(), TL._options(), made_by)
    assert shipped == f"{key} {made_by}", (f"the shipped {kind} tables were not made from these grammars: "
                                           "run python scripts/parser_tables.py")


def test_shipped_tables_parse_as_built_ones(fresh: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if parser_cache.shipped_lark_version("expression-parser") != lark.__version__:
        pytest.skip(f"the shipped tables are lark {parser_cache.shipped_lark_version('expression-parser')}'s; "
                    f"lark {lark.__version__} builds its own (run python scripts/parser_tables.py to ship them)")
    assert parser_cache._from_shipped("expression-parser", parser_cache.shipped_key(
        L._grammar(), (), None, L.PARSER_OPTIONS), None) is not None  # the shipped tables are used
    shipped = (_parse_all(), _read_all())
    _built(monkeypatch, fresh)
    built = (_parse_all(), _read_all())
    assert len(shipped[0]) > 300 and len(shipped[1]) == len(RULE_FILES) + len(BROKEN_TEXTS)
    assert shipped == built  # trees, positions, comments and error messages alike


@pytest.mark.parametrize("damage", [lambda b: b[:200], lambda b: b"0" * 64 + b[64:], lambda b: b.replace(b"\n", b"", 1),
                                    lambda b: b.split(b"\n", 1)[0] + b"\ngarbage"])
def test_missing_other_or_damaged_tables_are_built_instead(fresh: Path, monkeypatch: pytest.MonkeyPatch,
                                                           damage: Any) -> None:
    _built(monkeypatch, fresh)
    expected = (_parse_all()[:40], _read_all())
    folder = fresh / "damaged"
    folder.mkdir()
    for kind in ("expression-parser", "rulefile-parser"):
        (folder / f"{kind}.tables").write_bytes(damage((SHIPPED / f"{kind}.tables").read_bytes()))
    monkeypatch.setattr(parser_cache, "SHIPPED_DIR", folder)
    _forget()
    assert parser_cache._from_shipped("expression-parser", parser_cache.shipped_key(
        L._grammar(), (), None, L.PARSER_OPTIONS), None) is None
    assert (_parse_all()[:40], _read_all()) == expected


def test_tables_of_another_lark_are_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    key = parser_cache.shipped_key(L._grammar(), (), None, L.PARSER_OPTIONS)
    monkeypatch.setattr(lark, "__version__", "0.0.1")
    assert parser_cache.shipped_key(L._grammar(), (), None, L.PARSER_OPTIONS) != key
