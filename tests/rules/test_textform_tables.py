"""The compact forms of the text form: tables (``key | col | col`` and a row per item) and an item's
description as the quoted text after its id. Same data both ways, canonical, located errors."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulecraft.errors import RuleFileError
from rulecraft.rules.textload import load_rules_text
from rulecraft.rules.textprint import print_rules


def plain(data: Any) -> Any:
    return json.loads(json.dumps(data, sort_keys=True))


def refused(text: str) -> tuple[int, int, str]:
    with pytest.raises(RuleFileError) as info:
        load_rules_text(text, "t.rules")
    d = info.value.diagnostics[0]
    assert d.pos.file == "t.rules"
    return d.pos.line, d.pos.col, d.message


def test_a_table_is_a_list_or_a_mapping_of_mappings() -> None:
    data = load_rules_text(
        "zones | id | per | visibility\n  deck | | nobody\n  hand | seat | owner  # c\n"
        "variables | scope | type | initial\n  dealer: match | seat | 0\n  \"x y\": hand\n  f(s): | | 3\n"
        "pieces | id | attributes.kind | attributes.power | names.zh\n  6-6 | civil | 11 | \"天\"\n"
        "  1-2 | military | 1\n", "t.rules")
    assert plain(data) == plain({
        "zones": [{"id": "deck", "visibility": "nobody"}, {"id": "hand", "per": "seat", "visibility": "owner"}],
        "variables": {"dealer": {"scope": "match", "type": "seat", "initial": 0}, "x y": {"scope": "hand"},
                      "f(s)": {"initial": 3}},
        "pieces": [{"id": "6-6", "attributes": {"kind": "civil", "power": 11}, "names": {"zh": "天"}},
                   {"id": "1-2", "attributes": {"kind": "military", "power": 1}}]})
    hand = data["zones"][1]
    assert (hand["visibility"].pos.line, hand["visibility"].pos.col) == (3, 17)  # a cell is where it is written
    assert data["zones"].item_pos[1].line == 3
    assert list(data["variables"]["dealer"]) == ["scope", "type", "initial"]


def test_an_items_description_is_the_text_after_its_id() -> None:
    data = load_rules_text('phases\n  play: "Claim it.", kind claims\n  deal: "Deal."\n    count all\n'
                           '  x: "k y" 3\n', "t.rules")
    assert plain(data) == {"phases": [{"id": "play", "description": "Claim it.", "kind": "claims"},
                                      {"id": "deal", "description": "Deal.", "count": "all"},
                                      {"id": "x", "k y": 3}]}  # a quoted key and its value is no description


def test_the_printer_writes_uniform_items_as_a_table_and_reads_it_back() -> None:
    data = {"zones": [{"id": "deck", "visibility": "nobody", "description": "the cards before the deal"},
                      {"id": "hand", "per": "seat", "visibility": "owner", "description": "the cards a seat holds"}],
            "variables": {"dealer": {"scope": "match", "type": "seat", "initial": 0, "description": "who deals"},
                          "score": {"scope": "match", "per": "seat", "initial": 0, "description": "points so far"}}}
    text = print_rules(data)
    # Whichever is shorter: items with a description after the id, or a table (each key once, in its header).
    assert text == ('zones\n  deck: "the cards before the deal", visibility nobody\n'
                    '  hand: "the cards a seat holds", per seat, visibility owner\n'
                    'variables | scope | per | type | initial | description\n'
                    '  dealer: match | | seat | 0 | "who deals"\n  score: match | seat | | 0 | "points so far"\n')
    back = load_rules_text(text, "t.rules")
    assert plain(back) == plain(data) and print_rules(back) == text
    # Rows whose entries come in different orders would be reordered by a table: they are not one.
    long = "a long formula(" + "x, " * 30 + "y)"
    mixed = {"v": {"a": {"x": 1, "y": long}, "b": {"y": long, "x": 1}, "c": {"x": 2, "y": long}}}
    assert "|" not in print_rules(mixed)
    assert "|" in print_rules({"v": {"a": {"x": 1, "y": long}, "b": {"x": 1, "y": long}, "c": {"x": 2, "y": long}}})
    # A column of mappings is a column per entry only when no row would lose its mapping ({} or none).
    for odd in ({}, None):
        data = {"t": [{"id": "a", "m": {"k": 1}, "y": long}, {"id": "b", "m": odd, "y": long},
                      {"id": "c", "m": {"k": 2}, "y": long}]}
        text = print_rules(data)
        assert "|" in text and plain(load_rules_text(text, "t.rules")) == plain(data)
    described = print_rules({"o": [{"id": "p", "kind": "k", "description": "Play the game.", "when": "a and b"}]})
    assert described == 'o\n  p: "Play the game.", k, when a and b\n'


@pytest.mark.parametrize(("text", "line", "col", "words"), [
    ("t | a | b\n  1 | 2 | 3\n", 2, 11, "3 cells but the table 2 columns"),
    ("t | a\n  x: 1\n  2\n", 3, 3, "mixes rows with a name"),
    ("t | a b\n  1\n", 1, 7, "unexpected"),
    ("t | a\n  x: f(1) 2\n", 2, 11, "unexpected"),
])
def test_a_bad_table_is_refused_where_it_is_wrong(text: str, line: int, col: int, words: str) -> None:
    got = refused(text)
    assert (got[0], got[1]) == (line, col), got
    assert words in got[2]


_cells = st.one_of(st.none(), st.booleans(), st.integers(-99, 99), st.sampled_from(
    ["a", "x y", "", "f(x) + 1", "-", "|", "a | b", "n: m", "#", "6-6", "天", "none", "true", "10"]),
    st.lists(st.sampled_from(["a", "2", "b c"]), max_size=2), st.dictionaries(st.sampled_from(["k", "l"]),
                                                                              st.integers(0, 3), max_size=2))
_rows = st.dictionaries(st.sampled_from(["id", "kind", "a", "b", "c.d", "e f"]), _cells, min_size=1, max_size=5)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_rows, min_size=2, max_size=5), st.dictionaries(st.sampled_from(["p", "q(s)", "r s", "t"]), _rows,
                                                                min_size=2, max_size=4))
def test_generated_tables_survive(items: list[dict[str, Any]], named: dict[str, Any]) -> None:
    data = {"list": items, "map": named, "nest": {"deep": {"er": items}}, "in_a_list": [items, named]}
    text = print_rules(data)
    back = load_rules_text(text, "g.rules")
    assert plain(back) == plain(data)
    assert print_rules(back) == text
