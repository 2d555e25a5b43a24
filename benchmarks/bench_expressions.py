"""How fast compiled rule expressions run, against hand-written Python lambdas of the same formulas.

Run:  .venv/bin/python benchmarks/bench_expressions.py [--number N] [--repeat R]

Each expression is compiled the way the engine compiles rule files: names read the evaluation
context through getters (``tricks`` is a variable of the state, as in ``engine/context.py``),
functions of the game take the context, piece attributes are pure functions, and rule-file
functions (``is_trump``) are inlined macros. The baseline is a Python lambda computing the same
formula from the same context directly. Timings are the best of R runs of N evaluations each
(``timeit``), in nanoseconds per evaluation; the ratio compiled / baseline is measured in the same
run, so it is comparable across machines. See benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import platform
import sys
import timeit
from collections.abc import Callable
from typing import Any

from rulecraft.dsl import Scope, T, compile_expr
from rulecraft.engine.context import Ctx

# A Rook-like deck: 4 suits x 10 ranks, then the bird (piece 40).
SUITS = [s for s in ("red", "yellow", "green", "black") for _ in range(10)] + ["bird"]
BIRD = 40
TRICKS, TRUMP = 0, 1  # variable indices


class _State:
    """Just what the getters read: variables and hands, laid out as the engine's State has them."""

    def __init__(self) -> None:
        self.vars: list[Any] = [11, "green"]
        self.hands: list[list[int]] = [[0, 5, 12, 21, 22, 25, 33, 38, 40], [1, 2, 3, 4, 6, 7, 8, 9, 10]]

    def hand_view(self, seat: int) -> list[int]:
        return self.hands[seat]


def build_scope() -> Scope:
    root = Scope(name="constants")
    root.add_function("piece", [T.STRING], T.PIECE, lambda c, pid: BIRD if pid == "rook-bird" else None, pure=True)

    def suit(ctx: Ctx, p: Any, _col: list[str] = SUITS) -> Any:  # as piece_attribute_functions builds them
        return None if p is None else _col[p]

    root.add_function("suit", [T.PIECE], T.STRING, suit, pure=True)
    root.add_user_function("bird", [], "piece('rook-bird')")
    root.add_user_function("is_trump", ["p"], "p == bird() or suit(p) == trump")
    game = Scope(parent=root, name="game")
    game.add_name("tricks", T.NUMBER, getter=lambda c: c.st.vars[TRICKS])
    game.add_name("trump", T.STRING, getter=lambda c: c.st.vars[TRUMP])
    game.add_name("s", T.SEAT, getter=lambda c: c.seat)
    game.add_function("hand", [T.SEAT], T.LIST, lambda c, x: c.st.hand_view(x))
    return game


CASES: list[tuple[str, str, Callable[[Any], Any]]] = [
    (
        "formula",
        "max(0, tricks - 5) * (2 if tricks >= 10 else 1)",
        lambda c: max(0, c.st.vars[TRICKS] - 5) * (2 if c.st.vars[TRICKS] >= 10 else 1),
    ),
    (
        "generator + macro",
        "count(q for q in hand(s) if is_trump(q))",
        lambda c: sum(1 for q in c.st.hands[c.seat] if q == BIRD or SUITS[q] == c.st.vars[TRUMP]),
    ),
]


def ns_per_call(fn: Callable[[Any], Any], ctx: Ctx, number: int, repeat: int) -> float:
    timer = timeit.Timer("fn(ctx)", globals={"fn": fn, "ctx": ctx})
    return min(timer.repeat(repeat=repeat, number=number)) / number * 1e9


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--number", type=int, default=200_000, help="evaluations per timing run")
    ap.add_argument("--repeat", type=int, default=7, help="timing runs; the fastest is reported")
    args = ap.parse_args(argv)

    scope = build_scope()
    state = _State()  # kept here: the context refers to its state weakly, as the engine's does
    ctx = Ctx(state)  # type: ignore[arg-type]
    ctx.seat = 0
    print(f"Python {platform.python_version()} ({platform.python_implementation()}), "
          f"best of {args.repeat} x {args.number:,} evaluations")
    print(f"{'case':<19} {'compiled ns':>12} {'baseline ns':>12} {'ratio':>7}   expression")
    for name, text, baseline in CASES:
        fn = compile_expr(text, scope, what=name)
        got, want = fn(ctx), baseline(ctx)
        if got != want:
            print(f"{name}: compiled gives {got!r}, baseline {want!r}", file=sys.stderr)
            return 1
        compiled_ns = ns_per_call(fn, ctx, args.number, args.repeat)
        baseline_ns = ns_per_call(baseline, ctx, args.number, args.repeat)
        print(f"{name:<19} {compiled_ns:>12.1f} {baseline_ns:>12.1f} {compiled_ns / baseline_ns:>6.2f}x   {text}")
        print(f"{'':<19} generated: {fn.python}")  # type: ignore[attr-defined]
    return 0


if __name__ == "__main__":
    sys.exit(main())
