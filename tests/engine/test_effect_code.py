"""An effect list's generated function (engine/effect_code.py) does what the step-by-step walk does.

Seeded random matches of every bundled game (and the Rook options whose effects differ) are played
twice: with every effect list run by its generated function, and with every list walked effect by
effect (``run_effects_generic``). The records, hand results, variables and fired counts must be the
same; the generated functions must have run lists with loops, conditions and assignments.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from support import ruleset

from rulecraft import load
from rulecraft.engine import effects
from rulecraft.engine.game import Game
from rulecraft.errors import ExpressionRuntimeError
from rulecraft.load import load_ruleset

GAMES = [("big-two", {}), ("doubt", {}), ("hearts", {}), ("luk-fu", {}), ("rook", {}), ("spades", {}),
         ("tien-gow", {}), ("yukushi", {}), ("rook", {"nest_to": "bidder"}), ("rook", {"redeal": "any-time"})] + [
    (game, {}) for game in ("auction-pitch", "black-maria", "euchre", "fan-tan", "oh-hell", "sheepshead", "texas-42")]


def _play(rs: Any) -> list[Any]:
    rng = random.Random(11)
    out: list[Any] = []
    for seed in range(4):
        st = Game(rs, seed, max_hands=3).new_state()
        while not st.is_over:
            legal = st.legal_moves()
            st.apply(legal[rng.randrange(len(legal))])
        out.append((list(st.history), st.hand_results, st.result, st.vars, st.fired))
    return out


@pytest.mark.parametrize(("ref", "options"), GAMES,
                         ids=lambda c: Path(c).stem if isinstance(c, str) else
                         ",".join(f"{k}={v}" for k, v in c.items()))
def test_generated_effect_lists_do_what_the_walk_does(ref: str, options: dict[str, str],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    generated = _play(ruleset(ref, **options))
    # A ruleset built afresh (phases keep their lists' functions), every list walked step by step.
    monkeypatch.setattr(load, "_BUILT", {})
    monkeypatch.setattr(effects, "_RUNNERS", {})
    monkeypatch.setattr(effects, "make_runner",
                        lambda listed, _helpers: lambda st: effects.run_effects_generic(st, listed))
    walked = load_ruleset(ref, options)
    assert walked is not ruleset(ref, **options)
    assert _play(walked) == generated


def test_the_generated_functions_cover_loops_conditions_and_assignments() -> None:
    rs = ruleset("rook")
    scoring = next(p for p in rs.phases if p.id == "scoring").effects  # type: ignore[attr-defined]
    assert any(e.loops for e in scoring) and any(e.when is not None and not e.loops for e in scoring)
    _play(rs)
    assert effects._RUNNERS[id(scoring)][0] is scoring  # the scoring list ran as its generated function


def test_an_effect_that_fails_is_named_as_the_walk_names_it(tmp_path: Any) -> None:
    (tmp_path / "bad.yaml").write_text(
        "extends: rook\n"
        "hand:\n"
        "  phases:\n"
        "    - id: scoring\n"
        "      effects:\n"
        "        - {id: listed, for: 't in teams()', add: {'counted[t + 5]': '1'}}\n", encoding="utf-8")
    rs = load_ruleset(str(tmp_path / "bad.yaml"))
    messages = []
    for run in (effects.run_effects, effects.run_effects_generic):
        st = Game(rs, 1, max_hands=1).new_state()
        scoring = next(p for p in rs.phases if p.id == "scoring").effects  # type: ignore[attr-defined]
        listed = tuple(e for e in scoring if e.id == "listed")
        with pytest.raises(ExpressionRuntimeError) as err:
            run(st, listed)
        messages.append(str(err.value))
    assert messages[0] == messages[1]
    assert "effect 'listed' cannot be done with the values its expressions gave" in messages[0]


def test_an_expression_that_fails_in_a_generated_list_is_reported_as_its_own_failure(tmp_path: Any) -> None:
    # The expressions are written into the list's function: a failure still names the expression, as
    # its compiled form (and the walk, which calls it) reports it.
    (tmp_path / "bad.yaml").write_text(
        "extends: rook\n"
        "hand:\n"
        "  phases:\n"
        "    - id: scoring\n"
        "      effects:\n"
        "        - {id: listed, for: 't in teams()', when: 'counted[t] // (t - t) > 0', add: {'counted[t]': '1'}}\n",
        encoding="utf-8")
    rs = load_ruleset(str(tmp_path / "bad.yaml"))
    messages = []
    for run in (effects.run_effects, effects.run_effects_generic):
        st = Game(rs, 1, max_hands=1).new_state()
        scoring = next(p for p in rs.phases if p.id == "scoring").effects  # type: ignore[attr-defined]
        listed = tuple(e for e in scoring if e.id == "listed")
        with pytest.raises(ExpressionRuntimeError) as err:
            run(st, listed)
        messages.append(str(err.value))
    assert messages[0] == messages[1]
    assert "by zero" in messages[0] and "bad.yaml:6:52" in messages[0]
