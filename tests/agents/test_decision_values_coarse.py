"""A searched decision whose moves name pieces never met in learning is weighed by the moves' coarse labels
(phase, verb and value without the pieces) instead of being searched by playouts (a decision window of a
deal re-asked after every packet, at levels that name other pieces)."""

from __future__ import annotations

from rulecraft.agents.decision_values import DecisionValues, Sample, Search, coarse, fit
from rulecraft.engine.moves import Move

SHOW_H2 = Move("show", (3,), "declare", "show declare h2")
SHOW_S3 = Move("show", (7,), "declare", "show declare s3")
PASS = Move("pass", (), "", "pass")


def label(move: Move) -> str:
    return f"deal\0\0{move.text}"


def test_a_move_naming_pieces_has_a_coarse_label_without_them_and_a_pass_keeps_its_own() -> None:
    assert coarse(label(SHOW_H2), SHOW_H2) == coarse(label(SHOW_S3), SHOW_S3) == "deal\0\0show declare *"
    assert coarse(label(PASS), PASS) == label(PASS)


def test_an_unknown_exact_label_is_weighed_by_the_coarse_ones() -> None:
    # Learnt: showing (h2) did better than passing, whatever the hand; s3 was never shown in learning.
    samples = [Sample((0,), label(SHOW_H2), 0, 0, 1.0, 0.5)] * 8 + [Sample((0,), label(PASS), 0, 0, 0.0, -0.5)] * 8
    broad = [Sample((0,), coarse(label(SHOW_H2), SHOW_H2), 0, 0, 1.0, 0.5)] * 8
    values = fit(samples, 10, broad)
    search = Search([PASS, SHOW_S3], [label(PASS), label(SHOW_S3)])
    assert values.best(search, (0,)) == SHOW_S3
    # Without the coarse lines the decision is unknown (it would be searched by playouts).
    bare = DecisionValues(values.strength, {k: v for k, v in values.lines.items() if not k.endswith("*")},
                          values.own)
    assert bare.best(search, (0,)) is None


def test_a_known_exact_label_is_preferred_to_the_coarse_one() -> None:
    # Exactly: showing h2 did worse than passing; coarsely (other pieces shown), better.
    lines = {label(PASS): (0.5, 0.0, 0.0, 0.0, 0.0, 0.0), label(SHOW_H2): (0.0, 0.0, 0.0, 0.0, 0.0, 0.0),
             "deal\0\0show declare *": (1.0, 0.0, 0.0, 0.0, 0.0, 0.0)}
    values = DecisionValues(tuple([0.0] * 10), lines, {})
    assert values.best(Search([PASS, SHOW_H2], [label(PASS), label(SHOW_H2)]), (0,)) == PASS
