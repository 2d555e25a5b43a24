"""Game functions that generated code computes inline (``FunctionBinding.code``) agree with their ``impl``.

The knowledge functions (``seen``, ``holds``, ``discarded_by``, ``dealt_to``) and ``tricks`` are read
many times per decision by rule functions such as Luk Fu's ``old(p)``; compiled expressions compute
them from their ``code`` instead of calling ``impl``. Both must give the same value, ``None``
arguments included, at every point of real games: a template that read the wrong table, compared
with the wrong seat or gave a number where ``impl`` gives a bool would fail here.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from rulecraft.dsl.bindings import FunctionBinding
from rulecraft.dsl.types import T
from rulecraft.engine.game import Game
from rulecraft.load import load_ruleset

INLINED = {"seen", "holds", "discarded_by", "dealt_to", "tricks"}


def _inline(code: str, ctx: Any, args: tuple[Any, ...]) -> Any:
    names = [f"a{i}" for i in range(len(args))]
    return eval(code.format(*names), {"__builtins__": {}}, {"ctx": ctx, **dict(zip(names, args, strict=True))})


@pytest.mark.parametrize("ref", ["luk-fu", "tien-gow"])
def test_inline_code_gives_what_impl_gives(ref: str) -> None:
    rs = load_ruleset(ref)
    functions = {f.name: f for f in rs.scope.functions() if isinstance(f, FunctionBinding) and f.code is not None}
    assert set(functions) >= INLINED
    rng = random.Random(3)
    checked = 0
    for seed in range(6):
        st = Game(rs, seed, 1).new_state()
        while not st.is_over:
            ctx = st.ctx
            for f in functions.values():
                for _ in range(8):
                    args = tuple(
                        rng.randrange(rs.seats.count) if t is T.SEAT
                        else (None if rng.random() < 0.1 else rng.randrange(rs.pieces.count)) if t is T.PIECE
                        else None for t in f.params)
                    if f.name == "tricks" and args[0] is None:
                        continue
                    want = f.impl(ctx, *args)
                    got = _inline(f.code or "", ctx, args)
                    assert got == want and type(got) is type(want), (f.name, args, got, want)
                    checked += 1
            moves = st.legal_moves()
            st.apply(moves[rng.randrange(len(moves))])
    assert checked > 1000


def test_old_cards_compile_to_inline_reads() -> None:
    """Luk Fu's lead rule reads what the leader knows inline: no call per card of the suit."""
    rs = load_ruleset("luk-fu")
    phase = next(p for p in rs.phases if p.kind == "tricks")
    rule = next(r for r in phase.lead_rules if r.id == "no-old-single-lead")
    select = rule.allow.select  # type: ignore[attr-defined]
    # old(p) runs as a function of its own (dsl/loops.py), called from the restriction's loop
    made = [f.python for k, f in select.__globals__.items() if k.startswith("_rf") and hasattr(f, "python")]
    assert made and all(f"{k}(" in select.python for k in select.__globals__ if k.startswith("_rf") and k[3:].isdigit())
    source = select.python + "".join(made)
    # (the function reads the state's tables into locals once: _st_loc = _st.loc)
    assert "_st_seen_public[" in source and "_st_downed_by[" in source and "_st_loc[" in source
