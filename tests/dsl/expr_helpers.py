"""Helpers for the expression tests: a small scope shaped like the engine's (names, functions, macros).

The evaluation context in these tests is a plain dict; getters read it the way the engine's read ``Ctx``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from rulecraft.dsl import Scope, T, compile_expr
from rulecraft.errors import Diagnostic, RuleFileError

SUITS = ["red", "red", "green", "green", "bird"]  # piece i has suit SUITS[i]; piece 4 is the bird
POINTS = [5, 10, 0, 10, 20]


def make_scope() -> Scope:
    root = Scope(name="constants")
    root.add_constant("target", T.NUMBER, 300)
    root.add_constant("colours", T.LIST, ["red", "green"])
    root.add_function("suit", [T.PIECE], T.STRING, lambda c, p: SUITS[p], pure=True, param_names=("p",))
    root.add_function("points", [T.PIECE], T.NUMBER, lambda c, p: POINTS[p], pure=True, param_names=("p",))
    root.add_function("piece", [T.STRING], T.PIECE, lambda c, pid: {"bird": 4}.get(pid), pure=True)
    root.add_user_function("bird", [], "piece('bird')")
    root.add_user_function("is_trump", ["p"], "p == bird() or suit(p) == trump")
    root.add_user_function("counters", ["s"], "sum(points(p) for p in hand(s))")
    root.add_user_function("double", ["x"], "x + x")

    game = Scope(parent=root, name="game")
    for name, type_ in (("tricks", T.NUMBER), ("xs", T.LIST), ("trump", T.STRING), ("seat", T.SEAT),
                        ("flag", T.BOOL), ("n", T.NUMBER), ("led", T.PIECE)):
        game.add_name(name, type_, getter=_reader(name))
    game.add_function("hand", [T.SEAT], T.LIST, lambda c, s: c["hands"][s], param_names=("seat",))
    game.add_function("team_of", [T.SEAT], T.NUMBER, lambda c, s: s % 2, param_names=("seat",))
    return game


def _reader(name: str) -> Callable[[dict[str, Any]], Any]:
    return lambda c: c[name]


CTX: dict[str, Any] = {
    "tricks": 7, "xs": [3, 1, 2], "trump": "green", "seat": 1, "flag": True, "n": 0, "led": 0,
    "hands": [[0, 1], [2, 3, 4]],
}



def ev(text: str, scope: Scope | None = None, **ctx: Any) -> Any:
    """Compile ``text`` in the test scope and evaluate it with CTX (overridden by keyword arguments)."""
    fn = compile_expr(text, scope or make_scope(), what="test rule")
    return fn({**CTX, **ctx})


def diag(text: Any, scope: Scope | None = None, expect: T | None = None, source_text: str | None = None) -> Diagnostic:
    """The one diagnostic compiling ``text`` produces."""
    with pytest.raises(RuleFileError) as info:
        compile_expr(text, scope or make_scope(), expect=expect, what="test rule", source_text=source_text)
    assert len(info.value.diagnostics) == 1
    return info.value.diagnostics[0]


def where(text: Any, scope: Scope | None = None, expect: T | None = None) -> tuple[str, str]:
    """``('line:col', message)`` of the diagnostic, for compact assertions."""
    d = diag(text, scope, expect)
    return f"{d.pos.line}:{d.pos.col}", d.message
