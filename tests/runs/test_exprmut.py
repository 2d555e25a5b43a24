"""Expression mutants: found on the parse tree, placed exactly, written back in the author's own text."""

from __future__ import annotations

from rulecraft.rules.compose import load_chain
from rulecraft.runs.exprmut import expression_edits
from rulecraft.runs.mutants import enumerate_mutants
from rulecraft.runs.ruleshape import sites


def edits(text: str, condition: bool = False) -> list[tuple[int, str, str]]:
    return [(e.at, e.change, e.apply(text)) for e in expression_edits(text, condition)]


def test_comparison_boundaries_and_sense_at_the_operator() -> None:
    assert edits("1 <= rank(p) <= 9")[3:5] == [
        (2, "'<=' -> '<'", "1 < rank(p) <= 9"),
        (13, "'<=' -> '<'", "1 <= rank(p) < 9"),
    ]
    assert (2, "'not in' -> 'in'", "p in xs") in edits("p not  in xs")  # the whole operator, spaces too
    assert (2, "'==' -> '!='", "a != b") in edits("a == b")


def test_and_or_swapped_where_the_word_is() -> None:
    text = "(a) and b or c"
    assert [(e.at, e.apply(text)) for e in expression_edits(text, False) if e.operator == "boolean-operator"] == [
        (4, "(a) or b or c"),
        (10, "(a) and b and c"),
    ]


def test_numbers_step_by_one_and_keep_their_kind() -> None:
    assert edits("10.5") == [(0, "'10.5' -> '11.5'", "11.5"), (0, "'10.5' -> '9.5'", "9.5")]
    assert edits("x - 0")[-2:] == [(4, "'0' -> '1'", "x - 1"), (4, "'0' -> '-1'", "x - -1")]


def test_conditions_are_negated_once() -> None:
    assert edits("seat == dealer", condition=True)[0] == (0, "'seat == dealer' -> 'not (seat == dealer)'",
                                                          "not (seat == dealer)")
    # 'not x' loses its 'not' rather than gaining another; a bare true is flipped, not wrapped.
    assert edits("not holds(seat, p)", condition=True) == [(0, "'not' left out", "holds(seat, p)")]
    assert edits("true", condition=True) == [(0, "'true' -> 'false'", "false")]
    # A value that is not a condition is not negated; a conditional's test is.
    assert edits("left_of(dealer)") == []
    assert edits("2 if last else 1")[2] == (5, "'last' -> 'not (last)'", "2 if not (last) else 1")


def test_text_that_does_not_parse_has_no_mutants() -> None:
    assert expression_edits("a ==", condition=True) == []


def test_a_mutant_in_an_expression_names_the_operator_s_line_and_column() -> None:
    (doc,) = load_chain("rook")
    lines = doc.text.splitlines()
    m = next(m for m in enumerate_mutants([doc])
             if m.rule.endswith("effects[bid-made].when") and m.operator == "compare")
    assert lines[m.line - 1][m.col - 1:m.col + 1] == ">="
    assert m.change == "'>=' -> '>'"


def test_schema_says_what_each_value_is() -> None:
    (doc,) = load_chain("rook")
    found = {(s.path, s.role) for s in sites(doc.data)}
    assert (("seats", "count"), "number") in found
    assert (("seats", "direction"), "enum") in found
    assert (("combinations", 0, "strength"), "expression") in found
    assert (("hand", "phases", 5, "follow", "restrictions", 0), "item") in found
    assert (("hand", "phases", 5, "follow", "restrictions", 0, "if_able"), "boolean") in found
    assert (("options", 0, "default"), "default") in found
    # Names, messages and what a thing is (kind) are not rules to mutate.
    assert not any(p[-1] in ("name", "message", "kind", "description") for p, _ in found if p)


def test_an_overlay_changing_an_option_s_default_gets_the_base_s_other_choices() -> None:
    # The overlay writes only `default:`; its choices are in the base it extends.
    chain = load_chain("luk-fu/four-players")
    overlay = [m for m in enumerate_mutants(chain) if m.file == chain[-1].file]
    assert [(m.operator, m.rule) for m in overlay] == [("default", "options[players].default")]
    assert overlay[0].change.startswith("default '4' -> ")


def test_each_operand_of_and_or_left_out_in_turn() -> None:
    dropped = [(e.change, e.apply(t)) for t in ["a and (b or c) and not d"]
               for e in expression_edits(t, False) if e.operator == "drop-operand"]
    assert dropped == [
        ("'a' left out of 'and'", "(b or c) and not d"),
        ("'b or c' left out of 'and'", "a and not d"),
        ("'b' left out of 'or'", "a and (c) and not d"),
        ("'c' left out of 'or'", "a and (b) and not d"),
        ("'not d' left out of 'and'", "a and (b or c)"),
    ]
    # An 'or' kept inside what is left of an 'and' keeps its brackets: the meaning of what stays is unchanged.
    assert ("'a' left out of 'or'", "(b or c) and d") in [
        (e.change, e.apply("a or (b or c) and d")) for e in expression_edits("a or (b or c) and d", False)]
