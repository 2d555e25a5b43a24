"""The hand-written reader of expressions (``dsl/quickparse.py``) makes lark's trees, or leaves the text to lark.

For every text it reads, its tree must be the one lark and ``larkparse._ToAst`` make, positions and
literal types included (compared by ``repr``: ``1 == True`` would hide a wrong literal); every text lark
refuses, it must leave to lark (so each syntax error keeps lark's place and words). Texts: every string
of the bundled and test rule files (expressions, and many that are not), changed copies of them, and
generated expressions.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from support import strings_in

from rulecraft.dsl import parser as P
from rulecraft.dsl.quickparse import quick_parse
from rulecraft.dsl.syntax_error import ExprSyntaxError
from rulecraft.rules.rulefiles import read_rule_file

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted([*(ROOT / "variants").glob("*/*.yaml"), *(ROOT / "variants").glob("*/*.rules"),
                *(ROOT / "tests" / "dogfood").glob("*/*.yaml"), *(ROOT / "tests" / "scenarios").glob("*/*.yaml")])


def _file_texts() -> list[str]:
    texts: dict[str, None] = {}
    for path in FILES:
        texts.update(dict.fromkeys(strings_in(read_rule_file(path).data)))
    return [t for t in texts if t.strip() and len(t) <= P.MAX_LENGTH.value]


def _by_lark(text: str, monkeypatch: pytest.MonkeyPatch) -> tuple[Any, ...]:
    """What ``parser._parse`` gives without the quick reader: the tree's repr, or the syntax error."""
    with monkeypatch.context() as m:
        m.setattr(P, "_quick", lambda t: None)
        try:
            return ("tree", repr(P._parse(text)))
        except ExprSyntaxError as exc:
            return ("error", exc.offset, exc.message)


PIECES = ["(", ")", "[", "]", ",", " ", "\n", "\t", "-", "+", "*", "/", "//", "%", "==", "!=", "<", "<=", ">", ">=",
          " if ", " else ", " for ", " in ", " and ", " or ", " not ", "not ", " not in ", "true", "false", "none", "x",
          "f(", "1", "1.5", ".5", "1e3", "2E-2", "'s'", '"t"', "'a\\'b'", "'\\x41'", "'\\q'", "'\\x4'", "'\\0'",
          "'\x00'", "\x0b", "\xa0", "é", "if", "iffy", "in2", "_", "9" * 5000, "'\r'", "=", "!", "&", ".", "x[0]",
          "f(x for x in y)", "[x for x in y if z]", "f()", "[]", "[1,]", "f(a,)", "١٢", "'親'"]


def _changed(rng: random.Random, texts: list[str]) -> str:
    chars = list(rng.choice(texts))
    for _ in range(rng.choice([1, 1, 2, 3, 5])):
        at = rng.randrange(len(chars) + 1)
        r = rng.random()
        if r < 0.35 and chars:
            del chars[min(at, len(chars) - 1)]
        elif r < 0.8:
            chars[at:at] = list(rng.choice(PIECES))
        else:
            chars[at:at] = list(rng.choice(texts)[:rng.randrange(1, 30)])
    return "".join(chars)


def _made(rng: random.Random, depth: int = 0) -> str:
    if depth > 6 or rng.random() < 0.25:
        return rng.choice(["x", "y", "1", "2.5", "'s'", "true", "none", "f()", "[]", "a_b", ".5e1", "'\\n'"])
    a, b = _made(rng, depth + 1), _made(rng, depth + 1)
    return rng.choice([f"{a} + {b}", f"{a}-{b}", f"{a} * {b} // {a}", f"({a})", f"-{a}", f"+ {a}", f"not {a}",
                       f"{a} and {b} and {a}", f"{a} or {b}", f"{a} if {b} else {a}", f"{a} < {b} <= {a}",
                       f"{a} not in {b}", f"{a} in {b}", f"f({a}, {b})", f"g({a},)", f"[{a}, {b}]",
                       f"[{a} for v in {b}]", f"h({a} for v in {b} if {a})", f"{a}[{b}]", f"(({a}))[0]",
                       f"{a} == {b} != {a}", f"not not {a}", f"- -{a}", f"{a} % {b} / {a}"])


def _agrees(text: str, monkeypatch: pytest.MonkeyPatch) -> bool | None:
    """Whether the quick reader read ``text`` (as lark does: asserted), None when lark has it (or refuses it)."""
    try:
        P._check_brackets(text)
    except ExprSyntaxError:
        return None  # refused before either reader sees it
    quick = quick_parse(text)
    expected = _by_lark(text, monkeypatch)
    if quick is None:
        return False if expected[0] == "tree" else None
    assert expected == ("tree", repr(quick)), text
    return True


def test_every_expression_of_the_rule_files_is_read_as_lark_reads_it(monkeypatch: pytest.MonkeyPatch) -> None:
    read = [_agrees(t, monkeypatch) for t in _file_texts()]
    assert read.count(True) > 1000
    assert read.count(False) == 0  # every text lark reads, the quick reader reads too: it is the one used


@pytest.mark.parametrize("seed", range(4))
def test_changed_and_made_texts_are_read_as_lark_reads_them_or_left_to_it(monkeypatch: pytest.MonkeyPatch,
                                                                           seed: int) -> None:
    rng = random.Random(seed)
    texts = _file_texts()
    cases = [_changed(rng, texts) for _ in range(1000)] + [_made(rng) for _ in range(300)]
    read = [_agrees(t, monkeypatch) for t in cases if t.strip() and len(t) <= P.MAX_LENGTH.value]
    assert read.count(True) > 200 and read.count(None) > 200  # both kinds met


@pytest.mark.parametrize("text", [
    "(a + b) * c", "-(1)", "((x))[0]", "f((x))", "[(a), b]", "a if (b) else (c)", "not (a)", "(a) not in (b)",
    "f(x for x in (y) if (z))", "[x for x in y]", "f(a,)", "[1, 2,]", "x[1][2]", "a < b <= c", "a // b % c",
    "1.5e3 * .5", "'親' + \"x\"", "'a\\'b'", "'\\x41'", "true or false and none", "- - + 1", "not not x",
])
def test_positions_and_values_are_larks(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    assert _agrees(text, monkeypatch) is True


@pytest.mark.parametrize("text", [
    "8 ifis_trump(led) else 2",  # lark's contextual lexer reads 'if' and 'is_trump' here
    "a orb", "a notin b", "not not١٢ + 1", "1١", "x\x0b", "'\\x4'", "'a\x00'", "9" * 5000,
    " - " * 60 + "1",  # may nest past the depth limit: lark measures it
    "f(" * 26 + "1, 2" + ")" * 26,  # 27 levels for lark; counted as 52 here, to be safe
])
def test_what_lark_reads_differently_or_refuses_is_left_to_lark(monkeypatch: pytest.MonkeyPatch,
                                                                 text: str) -> None:
    assert quick_parse(text) is None
    _by_lark(text, monkeypatch)  # and lark says what it says, a tree or a syntax error
