"""The shorter forms of the text form: an item's kind as the head word after its id (``deal: deal, from
deck``) and several short entries on one line (``rule rising, start A``). Same data both ways, canonical,
comments kept, located errors, and files in the earlier forms still read."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulecraft.errors import RuleFileError
from rulecraft.rules.comments import attach
from rulecraft.rules.convert import read_annotated, render
from rulecraft.rules.textload import load_rules_text, parse_rules_with_comments
from rulecraft.rules.textprint import print_rules

OLD = Path(__file__).parent / "old_forms"


def plain(data: Any) -> Any:
    return json.loads(json.dumps(data, sort_keys=True))


def refused(text: str) -> tuple[int, int, str]:
    with pytest.raises(RuleFileError) as info:
        load_rules_text(text, "s.rules")
    d = info.value.diagnostics[0]
    assert d.pos.file == "s.rules"
    return d.pos.line, d.pos.col, d.message


# --------------------------------------------------------------------------- reading
def test_a_lone_name_after_the_id_is_the_items_kind() -> None:
    data = load_rules_text('phases\n  deal: deal, from deck, to hand\n  play: "Claim it.", claims, first x\n'
                           '  y: shuffle\n  z: "Only a description."\n  w: when a\n  v: 3\n', "s.rules")
    assert plain(data) == {"phases": [
        {"id": "deal", "kind": "deal", "from": "deck", "to": "hand"},
        {"id": "play", "description": "Claim it.", "kind": "claims", "first": "x"},
        {"id": "y", "kind": "shuffle"}, {"id": "z", "description": "Only a description."},
        {"id": "w", "when": "a"}, {"id": "v", "kind": "3"}]}  # a head word is always a string, as written
    kind = data["phases"][1]["kind"]
    assert (kind.pos.line, kind.pos.col) == (3, 22)


def test_several_entries_share_a_line() -> None:
    data = load_rules_text("claim\n  rule rising, start A, counts.max 4, values [A, \"2\"]\n  over_claims false\n",
                           "s.rules")
    assert plain(data) == {"claim": {"rule": "rising", "start": "A", "counts": {"max": 4}, "values": ["A", "2"],
                                     "over_claims": False}}
    start = data["claim"]["start"]
    assert (start.pos.line, start.pos.col) == (2, 22)  # each entry where it is written
    assert data["claim"].key_pos["counts"].col == 25


def test_words_in_a_row_are_a_list_of_strings() -> None:
    data = load_rules_text("claim\n  values A 2 3 10 J\n  pieces 6-6 1-2  # the pair\n  m {x a b, y 1}\n"
                           "  e a if b else c\n  f x- y\n  n [1, 2]\nt | a | b\n  x y | 1\n", "s.rules")
    assert plain(data) == {"claim": {"values": ["A", "2", "3", "10", "J"], "pieces": ["6-6", "1-2"],
                                     "m": {"x": ["a", "b"], "y": 1}, "e": "a if b else c", "f": "x- y", "n": [1, 2]},
                           "t": [{"a": ["x", "y"], "b": 1}]}
    ten = data["claim"]["values"][3]
    assert isinstance(ten, str) and (ten.pos.line, ten.pos.col) == (2, 16)  # '10' a string, where it is written
    assert data["claim"]["values"].item_pos[4].col == 19


def test_a_list_of_words_where_a_string_belongs_is_a_located_schema_error(tmp_path: Path) -> None:
    from rulecraft.load import load_ruleset
    from rulecraft.rules.registry import bundled_variants_dir

    text = (bundled_variants_dir() / "doubt" / "base.rules").read_text("utf-8")
    assert "\n    places place\n" in text
    path = tmp_path / "g.rules"
    path.write_text(text.replace("\n    places place\n", "\n    places plaec x\n"), "utf-8")
    with pytest.raises(RuleFileError) as info:
        load_ruleset(str(path))
    d = info.value.diagnostics[0]
    assert path.read_text("utf-8").splitlines()[d.pos.line - 1][d.pos.col - 1:] == "plaec x"
    assert "got a list" in d.message


@pytest.mark.parametrize(("text", "line", "col", "words"), [
    ("p\n  deal: a.b, x 1\n", 2, 9, "stands alone after the id, so it is the item's kind"),
    ("p\n  deal: deal, kind deal\n", 2, 15, "duplicate key 'kind' (first at line 2)"),
    ("p\n  deal: deal, shuffle\n", 2, 22, "the line ends too early"),
    ("c\n  a 1, a 2\n", 2, 8, "duplicate key 'a' (first at line 2)"),
    ("c\n  a 1, 2\n", 2, 9, "the line ends too early"),
    ("c\n  a 1, b: 2\n", 2, 9, "without ':'"),
    ("c\n  a f(x) b 2\n", 2, 10, "unexpected"),
    ("c\n  a b true\n", 2, 7, "unexpected 'true'"),  # no keyword among the words: it would read as a value
    ("c\n  a [b c, d]\n", 2, 8, "unexpected"),  # inside brackets, items are separated by ','
    ("c\n  a b c d(\n", 2, 7, "unexpected"),  # words end where the value ends
])
def test_bad_short_forms_are_refused_where_they_are_wrong(text: str, line: int, col: int, words: str) -> None:
    got = refused(text)
    assert (got[0], got[1]) == (line, col), got
    assert words in got[2]


def test_a_file_in_the_earlier_forms_still_reads() -> None:
    """Doubt's text form as it was shipped before these forms (kind as an entry, an entry a line): the data of
    the YAML file it was converted from, read by the YAML loader at the time."""
    old = read_annotated(OLD / "doubt.rules")
    assert "kind shuffle" in (OLD / "doubt.rules").read_text("utf-8")
    assert plain(old.data) == json.loads((OLD / "doubt.json").read_text("utf-8"))
    # Formatting it writes the new forms, with the same data.
    new = print_rules(old.data, old.notes)
    assert "  shuffle: shuffle, zone deck\n" in new and "      rule rising, start A\n" in new
    assert plain(load_rules_text(new, "n.rules")) == plain(old.data)


# --------------------------------------------------------------------------- printing
def test_the_printer_writes_the_kind_as_the_head_word() -> None:
    data = {"o": [{"id": "p", "kind": "k", "description": "Play the game.", "when": "a and b"},
                  {"id": "q", "when": "x", "kind": "deal"},
                  {"id": "r", "kind": "two words"}, {"id": "s", "kind": 3}, {"id": "t", "kind": "a.b"}]}
    text = print_rules(data)
    assert text == ('o\n  p: "Play the game.", k, when a and b\n  q: deal, when x\n'
                    '  r: kind "two words"\n  s: kind 3\n  t: kind "a.b"\n')
    assert plain(load_rules_text(text, "s.rules")) == plain(data) and print_rules(load_rules_text(text, "s.rules")) \
        == text


def test_the_printer_puts_short_plain_entries_on_one_line() -> None:
    long = "x" * 60
    data = {"top": 1, "more": 2, "m": {
        "a": 1, "b": "rising", "c": "two words", "d": "f(x) + 1", "e": [1, 2], "f": {"g": 1},
        "h(s)": "s", "i(s)": "s", "j": long, "k": True, "l": None}}
    text = print_rules(data)
    # Not at the top level; not a formula with spaces, a mapping, a function's definition or a long value.
    assert text == ('top 1\nmore 2\nm\n  a 1, b rising, c "two words"\n  d f(x) + 1\n  e [1, 2]\n  f {g 1}\n'
                    f'  h(s) s\n  i(s) s\n  j {long}\n  k true, l none\n')
    back = load_rules_text(text, "s.rules")
    assert plain(back) == plain(data) and print_rules(back) == text
    # A line holds as many as fit in the printer's width, then the next line takes the rest.
    many = {"m": {f"key{i}": f"value{i}" for i in range(20)}}
    lines = print_rules(many).splitlines()
    assert len(lines) > 3 and all(len(line) <= 110 for line in lines)
    assert plain(load_rules_text(print_rules(many), "s.rules")) == plain(many)


def test_the_printer_writes_a_list_of_words_where_it_ends_its_line() -> None:
    data = {"m": {"values": ["A", "2", "10"], "one": ["A"], "nums": [2, 3], "odd": ["a", "b c"], "kw": ["x", "in"],
                  "nest": [["a", "b"], "c"], "inline": {"k": ["a", "b"]}, "dash": ["x-", "y"]},
            "t": [{"a": ["x", "y"], "b": 1}, {"a": "z", "b": 2}]}
    text = print_rules(data)
    assert text == ('m\n  values A 2 10\n  one [A], nums [2, 3], odd [a, "b c"], kw [x, "in"], nest [[a, b], c]\n'
                    '  inline {k [a, b]}\n  dash ["x-", y]\nt | a | b\n  x y | 1\n  z | 2\n')
    back = load_rules_text(text, "s.rules")
    assert plain(back) == plain(data) and print_rules(back) == text


def test_comments_stay_with_the_entries_of_a_shared_line() -> None:
    text = ("m\n  a 1, b 2\n  # before c\n  c 3, d 4\n  e 5  # after e\n  f 6, g 7\n"
            "p\n  # before the item\n  deal: deal, from deck  # after the item\n")
    doc, comments = parse_rules_with_comments(text, "c.rules")
    once = print_rules(doc.data, attach(doc.data, comments))
    assert once == text  # a comment before an entry starts its line; one after it ends it
    # Written after an entry in the middle of a line, a comment stays (with the line's first entry).
    doc, comments = parse_rules_with_comments("m\n  a 1, b 2  # c\n  d 3\n", "c.rules")
    assert print_rules(doc.data, attach(doc.data, comments)) == "m\n  a 1  # c\n  b 2, d 3\n"


# --------------------------------------------------------------------------- generated
_words = st.sampled_from(["deal", "x", "two words", "3", "a.b", "f(x)", "none", "true", "", "-", "6-6", "x-", "$a",
                          "if", "10", "A", "a_b", "-1", "x #"])
_short = st.one_of(st.none(), st.booleans(), st.integers(-9, 99), _words, st.lists(_words, max_size=4),
                   st.lists(st.lists(_words, max_size=3), max_size=2),
                   st.dictionaries(st.sampled_from(["k", "l"]), st.integers(0, 3), max_size=2))
_fields = st.dictionaries(st.sampled_from(["kind", "description", "a", "b", "c.d", "f(s)", "e f", "g"]),
                          st.one_of(_short, st.sampled_from(["Some words.", "x" * 45])), max_size=6)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.builds(lambda i, d: {"id": i, **d}, _words, _fields), max_size=4), _fields,
       st.lists(st.tuples(st.integers(0, 30), st.booleans()), max_size=4))
def test_generated_items_and_entries_survive(items: list[dict[str, Any]], fields: dict[str, Any],
                                             places: list[tuple[int, bool]]) -> None:
    data = {"items": items, "block": {"inner": fields, "items": items}}
    text = print_rules(data)
    back = load_rules_text(text, "g.rules")
    assert plain(back) == plain(data)
    assert print_rules(back) == text  # canonical
    # With comments put among the lines, each survives and the text still prints itself again.
    lines = text.splitlines()
    for where, own in sorted(places, reverse=True):
        at = min(where, len(lines) - 1)
        if own:
            indent = len(lines[at]) - len(lines[at].lstrip(" "))
            lines.insert(at, " " * indent + f"# c{where}")
        elif "#" not in lines[at] and not lines[at].rstrip().endswith(("|", '"')):
            lines[at] += f"  # t{where}"
    commented = "\n".join(lines) + "\n"
    try:
        doc, comments = parse_rules_with_comments(commented, "g.rules")
    except RuleFileError:
        return  # a comment inside a block of quoted lines ends it: not what this test is about
    once = print_rules(doc.data, attach(doc.data, comments))
    assert plain(doc.data) == plain(data)
    doc2, comments2 = parse_rules_with_comments(once, "g.rules")
    assert sorted(c[2] for c in comments2) == sorted(c[2] for c in comments)  # every comment kept
    assert print_rules(doc2.data, attach(doc2.data, comments2)) == once


# --------------------------------------------------------------------------- editors
_HEADS = 'p\n  deal: deal, from deck\n  play: "Claim \\" it.", claims  # c\n  x: a 1\n  y: shuffle\n  z: "d"\n'


def test_the_pygments_lexer_marks_the_kind_after_the_id() -> None:
    pytest.importorskip("pygments")
    from pygments.token import Keyword

    from rulecraft.rules.pygments_lexer import RulesLexer

    kinds = [v for t, v in RulesLexer().get_tokens(_HEADS) if t is Keyword.Type]
    assert kinds == ["deal", "claims", "shuffle"]


def test_the_textmate_grammar_marks_the_kind_after_the_id() -> None:
    import re

    grammar = json.loads((Path(__file__).parents[2] / "editors" / "rules.tmLanguage.json").read_text("utf-8"))
    heads = [(re.compile(p["match"]), int(n)) for p in grammar["patterns"] for n, c in p.get("captures", {}).items()
             if c["name"] == "entity.name.type.kind.rules"]
    assert len(heads) == 1
    pattern, group = heads[0]
    kinds = [m.group(group) for line in _HEADS.splitlines() if (m := pattern.search(line))]
    assert kinds == ["deal", "claims", "shuffle"]


# --------------------------------------------------------------------------- blank lines
_SPACED_YAML = """# a game


name: spaced

constants:

  a: 1


  b: 2
description: |
  one

  two
zones:
  - id: deck
    visibility: nobody

  # the hands
  - id: hand
    visibility: owner


"""


def test_blank_lines_that_set_sections_apart_are_kept_one_at_most(tmp_path: Path) -> None:
    source = tmp_path / "spaced.yaml"
    source.write_text(_SPACED_YAML, encoding="utf-8")
    text = render(read_annotated(source), to_text=True)
    # One blank line where there were one or more; none opening a block (after 'constants'), none at
    # the end; the blank line inside the multi-line string is the string's, not layout.
    assert text == ('# a game\n\nname spaced\n\nconstants\n  a 1\n\n  b 2\ndescription "one\\n\\ntwo\\n"\n'
                    'zones | id | visibility\n  deck | nobody\n\n  # the hands\n  hand | owner\n')
    rules = tmp_path / "spaced.rules"
    rules.write_text(text, encoding="utf-8")
    assert render(read_annotated(rules), to_text=True) == text  # fmt leaves it as it is
    back = render(read_annotated(rules), to_text=False)
    assert "# a game\n\nname: spaced\n\nconstants:\n  a: 1\n\n  b: 2\n" in back
    assert "\n\n  # the hands\n" in back and not back.endswith("\n\n")
    assert plain(yaml.safe_load(back)) == plain(yaml.safe_load(_SPACED_YAML))
