"""Deep nesting: refused where the nesting passes the limit, with the depth and the limit, never a
RecursionError (expressions: 50 levels; a log line: 32; lists and mappings in a YAML file: 64)."""

from __future__ import annotations

from cli_support import Cli, lines_of


def test_an_expression_300_deep(cli: Cli) -> None:
    expression = "1 if true else " * 300 + "0"
    r = cli("eval", expression)
    assert (r.code, r.out) == (1, "")
    # 50 levels of 15 characters each: the 51st starts at column 751
    assert lines_of(r.err)[0] == ("<expression>:1:751: error: this expression nests 300 levels deep; the limit is 50 "
                                  "levels (name parts of it in 'functions:' and call them)")


def test_brackets_60_deep_are_refused_before_they_are_parsed(cli: Cli) -> None:
    r = cli("eval", "(" * 60 + "1" + ")" * 60)
    assert lines_of(r.err)[0] == ("<expression>:1:51: error: this expression nests 60 levels deep; the limit is 50 "
                                  "levels")
    assert cli("eval", "(" * 50 + "1" + ")" * 50).out == "1\n"


def test_an_expression_600_deep_in_a_rule_file(cli: Cli) -> None:
    cli.tiny()
    cli.write("deep.yaml", 'extends: tiny.yaml\nname: deep\nmatch:\n  end_when: "' + "not " * 600 + 'false"\n')
    r = cli("validate", "deep.yaml")
    assert r.code == 1
    first, source, _caret, summary = lines_of(r.out)
    assert summary == "1 problem in 1 of 1 file"
    assert first == ("deep.yaml:4:214: error: this expression nests 600 levels deep; the limit is 50 levels (name "
                     "parts of it in 'functions:' and call them)")
    assert len(source) < 120 and source.startswith("    4 | …t not not")  # the line around the caret, not all of it


def test_a_log_line_nested_100000_deep(cli: Cli) -> None:
    cli.write("deep.jsonl", '{"a":' * 100_000 + "1" + "}" * 100_000 + "\n")
    message = "deep.jsonl:1:161: error: this line nests 100,000 levels deep; the limit is 32 levels\n"
    for args in (("replay", "deep.jsonl"), ("play", "--resume", "deep.jsonl")):
        r = cli(*args)
        assert (r.code, r.out, r.err) == (1, "", message)


def test_yaml_nested_1000_deep(cli: Cli) -> None:
    cli.write("deep.yaml", "a: " + "[" * 1000 + "]" * 1000 + "\n")
    r = cli("validate", "deep.yaml")
    assert lines_of(r.out)[0] == ("deep.yaml:1:67: error: this value nests lists and mappings 65 levels deep or more; "
                                  "the limit is 64 levels")
