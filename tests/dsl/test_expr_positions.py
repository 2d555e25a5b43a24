"""Errors inside rule files point at the character in the file: plain, quoted and block YAML scalars.

Each case is checked twice: with an LStr built by hand (``pos`` and ``segments`` as the loader sets
them) and through the real loader, rulecraft.rules.yamlload.
"""

from __future__ import annotations

import pytest
from expr_helpers import make_scope

from rulecraft.dsl import compile_expr
from rulecraft.errors import Diagnostic, RuleFileError, SourcePos
from rulecraft.rules.located import LStr


def fpos(line: int, col: int) -> SourcePos:
    return SourcePos("variants/test/base.yaml", line, col)


def located(value: str, pos: SourcePos, segments: tuple[tuple[int, SourcePos], ...] = (), style: str = "") -> LStr:
    s = LStr(value, pos, style)
    if segments:
        s.segments = segments  # type: ignore[attr-defined]
    return s


def compile_error(text: object, source_text: str | None = None) -> Diagnostic:
    with pytest.raises(RuleFileError) as info:
        compile_expr(text, make_scope(), what="rule", source_text=source_text)
    (d,) = info.value.diagnostics
    return d


FILE = """\
rules:
  plain: tricks + (2 * )
  single: 'tricks + (2 * )'
  double: "tricks + \\"a\\" + (2 * )"
  block: |
    tricks +
      (2 * )
  folded: >
    tricks +
    (2 * )
  quoted_lines: "tricks +
    (2 * )"
  unknown: "1 + nope"
"""


def test_hand_built_plain_scalar() -> None:
    d = compile_error(located("tricks + (2 * )", fpos(2, 10)), FILE)
    assert (d.pos, d.message) == (fpos(2, 24), "unexpected ')'")
    assert d.context == ("    2 |   plain: tricks + (2 * )", " " * 8 + " " * 23 + "^")


def test_hand_built_single_quoted_scalar() -> None:
    d = compile_error(located("tricks + (2 * )", fpos(3, 12), style="'"), FILE)
    assert d.pos == fpos(3, 26)
    assert d.context[1].index("^") == len("    3 | ") + 25


def test_hand_built_double_quoted_scalar_with_escapes() -> None:
    # value: tricks + "a" + (2 * )  -- each \" is two characters in the file, one in the value
    value = 'tricks + "a" + (2 * )'
    segments = ((0, fpos(4, 12)), (10, fpos(4, 23)), (12, fpos(4, 26)))
    d = compile_error(located(value, fpos(4, 12), segments, '"'), FILE)
    assert d.pos == fpos(4, 34)
    line = FILE.splitlines()[3]
    assert line[d.pos.col - 1] == ")"


def test_hand_built_block_scalar() -> None:
    value = "tricks +\n  (2 * )\n"
    segments = ((0, fpos(6, 5)), (9, fpos(7, 5)))
    d = compile_error(located(value, fpos(6, 5), segments, "|"), FILE)
    assert d.pos == fpos(7, 12)
    assert d.context == ("    7 |       (2 * )", " " * 8 + " " * 11 + "^")


def test_hand_built_folded_scalar() -> None:
    value = "tricks + (2 * )\n"
    segments = ((0, fpos(9, 5)), (9, fpos(10, 5)))
    d = compile_error(located(value, fpos(9, 5), segments, ">"), FILE)
    assert d.pos == fpos(10, 10)


def test_without_segments_a_string_is_one_line_from_pos() -> None:
    d = compile_error(located("1 + nope", fpos(13, 13), style='"'), FILE)
    assert (d.pos, d.message) == (fpos(13, 17), "unknown name 'nope'")
    assert d.format() == (
        "variants/test/base.yaml:13:17: error: unknown name 'nope'\n"
        '   13 |   unknown: "1 + nope"\n'
        "                        ^"
    )


def test_without_the_file_text_the_expression_is_shown() -> None:
    d = compile_error(located("1 + nope", fpos(13, 13)))
    assert d.format() == (
        "variants/test/base.yaml:13:17: error: unknown name 'nope'\n"
        "    1 + nope\n"
        "        ^"
    )


# ----------------------------------------------------------------------------- through the real loader
@pytest.mark.parametrize(("key", "line", "col"), [
    ("plain", 2, 24),
    ("single", 3, 26),
    ("double", 4, 34),
    ("block", 7, 12),
    ("folded", 10, 10),
    ("quoted_lines", 12, 10),
    ("unknown", 13, 17),
])
def test_yaml_scalar_positions(key: str, line: int, col: int) -> None:
    yamlload = pytest.importorskip("rulecraft.rules.yamlload")
    data = yamlload.load_yaml_text(FILE, "variants/test/base.yaml")
    d = compile_error(data["rules"][key], FILE)
    assert d.pos == fpos(line, col)
    source_line = FILE.splitlines()[line - 1]
    assert source_line[col - 1] == (")" if key != "unknown" else "n")
    gutter = f"{line:>5} | "
    assert d.context == (gutter + source_line, " " * (len(gutter) + col - 1) + "^")


def test_yaml_macro_body_error_points_into_the_functions_section() -> None:
    yamlload = pytest.importorskip("rulecraft.rules.yamlload")
    text = 'functions:\n  is_high(p): "points(p) >= tens"\nrule: "is_high(led) and flag"\n'
    data = yamlload.load_yaml_text(text, "f.yaml")
    s = make_scope()
    body = data["functions"]["is_high(p)"]
    s.add_user_function("is_high", ["p"], body, pos=body.pos)
    with pytest.raises(RuleFileError) as info:
        compile_expr(data["rule"], s, source_text=text)
    assert str(info.value) == (
        "f.yaml:2:29: error: in function 'is_high': unknown name 'tens'\n"
        '    2 |   is_high(p): "points(p) >= tens"\n'
        "                                    ^"
    )
