"""The limits the docs state are the code's: each figure is read from the constant that enforces it.

A failure names the constant and the page: change the sentence (or the table row) to what the code says.
"""

from __future__ import annotations

import re

from regenerate import ROOT

from rulecraft.dsl.builtins import MAX_RANGE
from rulecraft.dsl.compiler import MAX_EXPANDED_DEPTH, MAX_HELD, MAX_STEPS
from rulecraft.dsl.parser import MAX_DEPTH as MAX_EXPRESSION_DEPTH
from rulecraft.dsl.parser import MAX_LENGTH
from rulecraft.engine.pieces import MAX_PIECES
from rulecraft.errors import Limit
from rulecraft.rules.textload import MAX_BRACKETS, MAX_TOKENS
from rulecraft.rules.yamlload import MAX_BYTES, MAX_DEPTH, MAX_NODES


def text(page: str) -> str:
    """The page with its line ends as spaces (a figure may be split over two lines)."""
    return " ".join((ROOT / page).read_text(encoding="utf-8").split())


def said(limit: Limit) -> str:
    return f"{limit.value:,} {limit.unit}"


def test_the_expression_limits_table_is_the_compilers() -> None:
    page = (ROOT / "docs" / "expressions.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| ([\d,]+ \w+) \|", page, flags=re.M)
    limits = [MAX_LENGTH, MAX_EXPRESSION_DEPTH, MAX_EXPANDED_DEPTH, MAX_STEPS, MAX_HELD]
    assert rows == [said(limit) for limit in limits], "docs/expressions.md's table of limits is not the code's"
    assert f"{MAX_RANGE:,} (the most a range gives)" in text("docs/expressions.md")
    assert f"`range` gives at most {MAX_RANGE:,} numbers" in text("docs/expressions.md")


def test_the_rule_file_limits_are_the_readers() -> None:
    dsl = text("docs/rule-dsl.md")
    stated = (f"at most {MAX_BYTES:,} bytes, indentation at most {MAX_DEPTH.value} levels deep, brackets at most "
              f"{MAX_BRACKETS.value} levels deep, {MAX_NODES:,} values; and at most {MAX_TOKENS.value:,} tokens")
    assert stated in dsl, f"docs/rule-dsl.md's limits should read: {stated}"
    files = text("docs/rule-files.md")
    for sentence in (f"expands past {MAX_NODES:,} values", f"a file over {MAX_BYTES // (1024 * 1024)} MB",
                     f"more than {MAX_DEPTH.value} levels deep",
                     f"A rule file makes at most {MAX_PIECES.value:,} pieces"):
        assert sentence in files, f"docs/rule-files.md should say {sentence!r}, as the code does"
