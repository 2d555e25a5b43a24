"""Every class of load-time error: its exact position (line:col) and its message.

Expressions here are plain strings, so positions are ``<expression>:LINE:COL`` (1-based, as editors
count); tests/dsl/test_expr_positions.py checks the same positions inside rule files.
"""

from __future__ import annotations

import pytest
from expr_helpers import diag, make_scope, where

from rulecraft.dsl import Scope, T, compile_expr
from rulecraft.errors import RuleFileError, SourcePos

SYNTAX = [
    # unexpected tokens
    ("1 2", "1:3", "unexpected '2'"),
    ("tricks )", "1:8", "unexpected ')' (expected the end of the expression)"),
    ("f(,)", "1:3", "unexpected ','"),
    ("[1 2]", "1:4", "unexpected '2'"),
    ("1 +* 2", "1:4", "unexpected '*'"),
    ("tricks ** 2", "1:9", "unexpected '*'"),
    ("1 if else 2", "1:6", "unexpected 'else'"),
    ("#x", "1:1", "unexpected character '#'"),
    # the end comes too early; unclosed brackets are counted
    ("1 +", "1:4", "the expression ends too early"),
    ("1 ==", "1:5", "the expression ends too early"),
    ("x if y", "1:7", "the expression ends too early (expected 'else')"),
    ("(1 + 2", "1:7", "the expression ends too early: 1 '(' not closed (expected ')')"),
    ("f(g(1", "1:6", "the expression ends too early: 2 '(' not closed (expected ')', ',' or 'for')"),
    ("[1, 2", "1:6", "the expression ends too early: 1 '[' not closed (expected ')', ',' or ']')"),
    ("xs[0", "1:5", "the expression ends too early: 1 '[' not closed (expected ']')"),
    ("f('(' ", "1:6", "the expression ends too early: 1 '(' not closed (expected ')', ',' or 'for')"),
    ("1 +   ", "1:4", "the expression ends too early"),
    # unclosed strings
    ("'abc", "1:1", "this string is not closed"),
    ('trump == "red', "1:10", "this string is not closed"),
    # = for ==
    ("tricks = 7", "1:8", "unexpected '=': to compare, write '=='"),
    ("tricks == 7 and flag = true", "1:22", "unexpected '=': to compare, write '=='"),
    ("1 === 2", "1:5", "unexpected '=': to compare, write '=='"),
    # attribute access
    ("tricks.count", "1:7", "unexpected '.': there is no attribute access; call a function instead, e.g. suit(p)"),
    ("hand(seat).size", "1:11", "unexpected '.': there is no attribute access; call a function instead, e.g. suit(p)"),
    # C-style operators
    ("tricks && flag", "1:8", "unexpected '&': write 'and' / 'or'"),
    ("flag || flag", "1:6", "unexpected '|': write 'and' / 'or'"),
    ("!flag", "1:1", "unexpected '!': write 'not' (or '!=' to compare)"),
    # empty
    ("", "1:1", "empty expression: write a value, e.g. 0, true or a formula"),
    ("   ", "1:1", "empty expression: write a value, e.g. 0, true or a formula"),
    # on a later line of a multi-line expression
    ("1 +\n  )", "2:3", "unexpected ')'"),
]


@pytest.mark.parametrize(("text", "at", "message"), SYNTAX)
def test_syntax_error(text: str, at: str, message: str) -> None:
    assert where(text) == (at, message)


NAMES = [
    ("trick", "1:1", "unknown name 'trick' (did you mean 'tricks'?)"),
    ("1 + trumps", "1:5", "unknown name 'trumps' (did you mean 'trump'?)"),
    ("targte", "1:1", "unknown name 'targte' (did you mean 'target'?)"),  # from the parent scope
    ("zzz", "1:1", "unknown name 'zzz'"),
    ("True", "1:1", "unknown name 'True'"),
    ("__import__", "1:1", "unknown name '__import__'"),
    ("hnd(seat)", "1:1", "unknown function 'hnd' (did you mean 'hand'?)"),
    ("1 + sumx([1])", "1:5", "unknown function 'sumx' (did you mean 'sum'?)"),
    ("is_trup(led)", "1:1", "unknown function 'is_trup' (did you mean 'is_trump'?)"),
    ("open('f')", "1:1", "unknown function 'open'"),
    # calling a value; using a function as a value
    ("tricks(1)", "1:1", "'tricks' is a value, not a function: write it without brackets"),
    ("1 + xs(0)", "1:5", "'xs' is a value, not a function: write it without brackets"),
    ("[x(1) for x in xs]", "1:2", "'x' is a value, not a function: write it without brackets"),
    ("hand", "1:1", "'hand' is a function: call it, e.g. hand(...)"),
    ("count + 1", "1:1", "'count' is a function: call it, e.g. count(...)"),
    ("is_trump == 1", "1:1", "'is_trump' is a function: call it, e.g. is_trump(...)"),
]


@pytest.mark.parametrize(("text", "at", "message"), NAMES)
def test_name_and_function_errors(text: str, at: str, message: str) -> None:
    assert where(text) == (at, message)


ARGUMENTS = [
    # argument count: builtin, scope function, macro (names of the parameters shown)
    ("abs(1, 2)", "1:1", "abs() takes 1 argument (x), got 2"),
    ("min()", "1:1", "min() takes at least 1 argument(s), got 0"),
    ("1 + hand()", "1:5", "hand() takes 1 argument (seat), got 0"),
    ("hand(1, 2)", "1:1", "hand() takes 1 argument (seat), got 2"),
    ("is_trump()", "1:1", "is_trump() takes 1 argument (p), got 0"),
    ("is_trump(1, 2)", "1:1", "is_trump() takes 1 argument (p), got 2"),
    ("bird(1)", "1:1", "bird() takes 0 arguments (), got 1"),
    # argument type: the caret is on the argument
    ("hand('x')", "1:6", "argument 1 of hand() must be a seat, not a string"),
    ("team_of(xs)", "1:9", "argument 1 of team_of() must be a seat, not a list"),
    ("suit('red')", "1:6", "argument 1 of suit() must be a piece, not a string"),
    ("abs(trump)", "1:5", "argument 1 of abs() must be a number, not a string"),
]


@pytest.mark.parametrize(("text", "at", "message"), ARGUMENTS)
def test_argument_errors(text: str, at: str, message: str) -> None:
    assert where(text) == (at, message)


TYPES = [
    ("not tricks", "1:5", "'not' needs true or false, but this is a number"),
    ("flag and 1", "1:10", "'and' needs true or false, but this is a number"),
    ("1 or flag", "1:1", "'or' needs true or false, but this is a number"),
    ("1 if tricks else 2", "1:6", "the condition after 'if' needs true or false, but this is a number"),
    ("[x for x in xs if 1]", "1:19", "the 'if' of a 'for' needs true or false, but this is a number"),
    ("[x for x in tricks]", "1:13", "'for x in ...' needs a list, not a number"),
    # comparing a string with a number
    ("trump < 1", "1:7", "cannot compare a string with a number using '<'"),
    ("tricks >= 'a'", "1:8", "cannot compare a number with a string using '>='"),
    ("1 < 2 < trump", "1:7", "cannot compare a number with a string using '<'"),
    ("trump == 1", "1:7", "cannot compare a string with a number using '==': they are never equal"),
    ("1 != trump", "1:3", "cannot compare a number with a string using '!=': they are never equal"),
    ("led == 'red'", "1:5",
     "cannot compare a piece with a string using '==': they are never equal (name a piece with piece('...'))"),
    ("1 in 2", "1:6", "'in' needs a list on its right, not a number"),
    # arithmetic
    ("1 + 'a'", "1:3", "cannot add a number and a string"),
    ("trump + 1", "1:7", "cannot add a string and a number"),
    ("trump - 1", "1:1", "'-' needs numbers, not a string"),
    ("1 - trump", "1:5", "'-' needs numbers, not a string"),
    ("'a' + 'b' - 1", "1:1", "'-' needs numbers, not a string"),
    ("xs + 1", "1:4", "cannot add a list and a number"),
    ("xs - [1]", "1:1", "'-' needs numbers, not a list"),
    ("'a' * 2", "1:1", "'*' needs numbers, not a string"),
    ("-trump", "1:1", "'-' needs a number, not a string"),
    ("1e400", "1:1", "this number is too large"),
    # indexing
    ("xs['a']", "1:4", "a list index must be a number, not a string"),
    ("trump[0]", "1:1", "only a list can be indexed with [...], not a string"),
    ("tricks[0]", "1:1", "only a list can be indexed with [...], not a number"),
]


@pytest.mark.parametrize(("text", "at", "message"), TYPES)
def test_type_errors(text: str, at: str, message: str) -> None:
    assert where(text) == (at, message)


@pytest.mark.parametrize(("text", "expect", "message"), [
    ("tricks", T.BOOL, "a condition is expected here, but this expression gives a number"),
    ("trump", T.BOOL, "a condition is expected here, but this expression gives a string"),
    ("seat", T.BOOL, "a condition is expected here, but this expression gives a seat"),
    ("tricks + 1", T.BOOL, "a condition is expected here, but this expression gives a number"),
    ("trump", T.NUMBER, "a number is expected here, but this expression gives a string"),
    ("'3'", T.NUMBER, "a number is expected here, but this expression gives a string"),
    ("flag", T.NUMBER, "a number is expected here, but this expression gives true or false"),
    ("xs", T.NUMBER, "a number is expected here, but this expression gives a list"),
    ("tricks", T.LIST, "a list is expected here, but this expression gives a number"),
    ("xs", T.STRING, "a string is expected here, but this expression gives a list"),
])
def test_expected_type_of_the_place(text: str, expect: T, message: str) -> None:
    assert where(text, expect=expect) == ("1:1", message)


@pytest.mark.parametrize(("text", "expect"), [
    ("flag", T.BOOL), ("tricks > 1", T.BOOL), ("seat", T.NUMBER), ("led", T.NUMBER), ("tricks", T.SEAT),
    ("none", T.BOOL), ("xs[0]", T.BOOL), ("first(xs)", T.NUMBER), ("1 if flag else 'a'", T.NUMBER),
    ("is_trump(led)", T.BOOL), ("max(tricks, 1)", T.NUMBER),
])
def test_what_the_checker_accepts(text: str, expect: T) -> None:
    """Seats and pieces are numbers, and values it cannot know (list items) are accepted anywhere."""
    assert compile_expr(text, make_scope(), expect=expect).type is not None


# ----------------------------------------------------------------------------- user functions (macros)
def macro_scope() -> Scope:
    s = make_scope()
    s.add_user_function("a", ["x"], "b(x) + 1")
    s.add_user_function("b", ["x"], "a(x)")
    s.add_user_function("selfish", [], "1 + selfish()")
    s.add_user_function("broken", ["x"], "x +")
    s.add_user_function("vague", ["x"], "x + y")
    s.add_user_function("wrong_type", ["p"], "suit(p) + 1")
    s.add_user_function("calls_broken", ["x"], "broken(x) * 2")
    return s


@pytest.mark.parametrize(("text", "at", "message"), [
    ("a(1)", "1:1", "in function 'b': function 'a' calls itself (a -> b -> a); rule functions cannot recurse"),
    ("b(1)", "1:1", "in function 'a': function 'b' calls itself (b -> a -> b); rule functions cannot recurse"),
    ("selfish()", "1:5", "in function 'selfish': function 'selfish' calls itself (selfish -> selfish); "
                         "rule functions cannot recurse"),
    ("broken(1)", "1:4", "in function 'broken': the expression ends too early"),
    ("vague(1)", "1:5", "in function 'vague': unknown name 'y'"),
    ("wrong_type(led)", "1:9", "in function 'wrong_type': cannot add a string and a number"),
    ("calls_broken(1)", "1:4", "in function 'broken': the expression ends too early"),
])
def test_macro_errors_point_into_the_body(text: str, at: str, message: str) -> None:
    assert where(text, macro_scope()) == (at, message)


def test_macro_body_errors_carry_the_body_position() -> None:
    from rulecraft.rules.located import LStr

    s = make_scope()
    s.add_user_function("is_high", ["p"], LStr("points(p) >= tens", SourcePos("base.yaml", 40, 14)),
                        pos=SourcePos("base.yaml", 40, 14))
    d = diag(LStr("is_high(led)", SourcePos("base.yaml", 90, 12)), s)
    assert d.pos == SourcePos("base.yaml", 40, 27)
    assert d.message == "in function 'is_high': unknown name 'tens'"


def test_a_macro_is_checked_at_each_place_of_use() -> None:
    """A body naming a value of one phase is fine there and an error elsewhere."""
    s = make_scope()
    s.add_user_function("winner_team", [], "team_of(winner)")
    with_winner = Scope(parent=s, name="round end")
    with_winner.add_name("winner", T.SEAT, getter=lambda c: c["winner"])
    assert compile_expr("winner_team()", with_winner)({"winner": 3}) == 1
    assert where("winner_team()", s) == ("1:9", "in function 'winner_team': unknown name 'winner'")


def test_macros_that_grow_exponentially_are_refused() -> None:
    s = make_scope()
    s.add_user_function("f0", ["x"], "x + tricks")
    for i in range(1, 24):
        s.add_user_function(f"f{i}", ["x"], f"f{i - 1}(x + 1) + f{i - 1}(x + 2)")
    _, message = where("f23(tricks)", s)
    assert message.endswith("this expression grows too large once its functions are expanded")


def test_the_diagnostic_shows_the_expression_and_a_caret() -> None:
    with pytest.raises(RuleFileError) as info:
        compile_expr("tricks + (1 * ", make_scope())
    assert str(info.value) == (
        "<expression>:1:14: error: the expression ends too early: 1 '(' not closed\n"
        "    tricks + (1 * \n"
        "                 ^"
    )


def test_the_diagnostic_of_a_multi_line_expression_shows_its_line() -> None:
    with pytest.raises(RuleFileError) as info:
        compile_expr("tricks +\n  nope", make_scope())
    assert str(info.value) == (
        "<expression>:2:3: error: unknown name 'nope'\n"
        "      nope\n"
        "      ^"
    )


def test_too_deep_nesting_is_an_error_not_a_crash() -> None:
    # Refused at the first level past the limit, with the depth and the limit.
    assert where("(" * 400 + "1" + ")" * 400) == ("1:51", "this expression nests 400 levels deep; the limit is 50 "
                                                          "levels")
    assert where("-" * 3000 + "1") == ("1:51", "this expression nests 3,000 levels deep; the limit is 50 levels "
                                               "(name parts of it in 'functions:' and call them)")
    assert where("1" + " + 1" * 5000) == ("1:1", "this expression is 20,001 characters long; the limit is 10,000 "
                                                 "characters (name a long formula in 'functions:' and call it)")
    assert compile_expr("(" * 20 + "1" + ")" * 20, make_scope())(None) == 1
    # A long flat chain is not deep: it compiles (and joined lists stay one flat list in the code).
    assert compile_expr("1" + " + 1" * 2000, make_scope())(None) == 2001
    assert compile_expr("[1]" + " + [1]" * 1000, make_scope())(None) == [1] * 1001
