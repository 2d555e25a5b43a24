"""The strict loader: YAML 1.2 core values, positions of every value, refusals with positions."""

from __future__ import annotations

import pytest

from rulecraft.errors import RuleFileError, SourcePos
from rulecraft.rules.located import LDict, LFloat, LInt, LList, LStr
from rulecraft.rules.yamlload import MAX_BYTES, load_yaml_text, read_yaml_file


def load(text: str) -> dict:
    data = load_yaml_text(text, "f.yaml")
    assert isinstance(data, LDict)
    return data


def refused(text: str) -> tuple[int, int, str]:
    with pytest.raises(RuleFileError) as info:
        load_yaml_text(text, "f.yaml")
    d = info.value.diagnostics[0]
    return d.pos.line, d.pos.col, d.message


def test_yaml_11_surprises_stay_strings() -> None:
    data = load("a: [yes, no, on, off, y, n, 2024-01-01, 2001-12-14t21:59:43.10-05:00, 1_000, 12:30, .inf]\n")
    assert data["a"] == ["yes", "no", "on", "off", "y", "n", "2024-01-01", "2001-12-14t21:59:43.10-05:00",
                         "1_000", "12:30", ".inf"]
    assert all(type(v) is LStr for v in data["a"])


def test_core_schema_values() -> None:
    data = load("a: [true, false, True, null, ~, 10, -3, 010, 0o17, 0x1f, 1.5, .5, 1e3]\nb:\n")
    assert data["a"] == [True, False, True, None, None, 10, -3, 10, 15, 31, 1.5, 0.5, 1000.0]
    assert [type(v) for v in data["a"][5:]] == [LInt] * 5 + [LFloat] * 3
    assert data["b"] is None


def test_positions_of_values_keys_and_items() -> None:
    data = load("seats:\n  count: 4\n  teams: [[0, 2], [1, 3]]\nflag: true\n")
    assert data["seats"]["count"].pos == SourcePos("f.yaml", 2, 10)
    assert data.key_pos["flag"] == SourcePos("f.yaml", 4, 1)
    assert data["seats"].key_pos["teams"] == SourcePos("f.yaml", 3, 3)
    assert isinstance(data["seats"]["teams"], LList)
    assert data["seats"]["teams"].item_pos[1] == SourcePos("f.yaml", 3, 19)
    assert data.pos_of("flag") == SourcePos("f.yaml", 4, 1)


def _char_at(text: str, pos: SourcePos) -> str:
    return text.split("\n")[pos.line - 1][pos.col - 1]


@pytest.mark.parametrize("text, key", [
    ('a: "x + y"\n', "a"),
    ("a: 'it''s a + b'\n", "a"),
    ('a: "tab\\there + \\u00e9t\\x41"\n', "a"),
    ('a: "first line\n   second + line"\n', "a"),
    ("a: |\n  line one\n    two + three\n", "a"),
    ("a: >-\n  fold this\n  text + more\n\n  para\n", "a"),
    ("a: plain\n  multi + line\n", "a"),
])
def test_pos_at_maps_every_visible_character(text: str, key: str) -> None:
    value = load(text)[key]
    for i, ch in enumerate(value):
        if ch.isalnum() or ch == "+":
            # An escaped character maps to its backslash.
            assert _char_at(text, value.pos_at(i)) in (ch, "\\"), (i, ch, value.pos_at(i))


def test_quoted_and_block_scalars_start_at_their_content() -> None:
    data = load('a: "x"\nb: |\n  body\n')
    assert data["a"].pos == SourcePos("f.yaml", 1, 5)
    assert data["a"].style == '"'
    assert data["b"].pos == SourcePos("f.yaml", 3, 3)
    assert data["b"].style == "|"


def test_escape_shifts_later_characters() -> None:
    value = load('a: "\\tx"\n')["a"]
    assert value == "\tx"
    assert value.pos_at(0) == SourcePos("f.yaml", 1, 5)
    assert value.pos_at(1) == SourcePos("f.yaml", 1, 7)


def test_duplicate_key_names_the_first() -> None:
    assert refused("a: 1\nb: 2\na: 3\n") == (3, 1, "duplicate key 'a' (first at line 1)")


def test_non_string_keys() -> None:
    assert refused("1: x\n") == (1, 1, "keys must be names (strings); write '1' in quotes if you mean the text")
    assert refused("? [a]\n: 1\n")[2] == "keys must be names (strings), not lists or mappings"


def test_recursive_alias() -> None:
    assert refused("a: &x [1, *x]\n") == (1, 11, "alias '*x' is inside the value it refers to (a value cannot "
                                                 "contain itself)")


def test_alias_bomb_refused_by_budget() -> None:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    prev = "a"
    for name in "bcdefghi":
        lines.append(f"{name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]")
        prev = name
    line, col, message = refused("\n".join(lines) + "\n")
    assert (line, col) == (6, 8)
    assert "expands the file past" in message and "billion laughs" in message


def test_small_aliases_are_fine() -> None:
    data = load("base: &b {x: 1}\nother: *b\n")
    assert data["other"] == {"x": 1}


def test_tags_merge_keys_and_documents() -> None:
    assert refused("a: !!python/object:os.system x\n")[2].startswith("the tag '!!python/object:os.system'")
    assert refused("<<: {a: 1}\n")[2].startswith("merge keys ('<<') are not supported")
    assert refused("a: 1\n---\nb: 2\n") == (2, 1, "a rule file holds one YAML document; remove the second '---'")


def test_syntax_error_position_and_hint() -> None:
    line, col, message = refused("a:\n\tb: 1\n")
    assert (line, col) == (2, 1)
    assert "tabs cannot indent YAML" in message


def test_size_cap(tmp_path) -> None:  # type: ignore[no-untyped-def]
    big = tmp_path / "big.yaml"
    big.write_text("a: " + "x" * (MAX_BYTES + 1) + "\n")
    with pytest.raises(RuleFileError) as info:
        read_yaml_file(big)
    assert "rule files may be at most" in info.value.diagnostics[0].message


def test_not_utf8(tmp_path) -> None:  # type: ignore[no-untyped-def]
    f = tmp_path / "latin.yaml"
    f.write_bytes(b"a: 1\nb: caf\xe9\n")
    with pytest.raises(RuleFileError) as info:
        read_yaml_file(f)
    d = info.value.diagnostics[0]
    assert (d.pos.line, d.pos.col) == (2, 7)
    assert "not UTF-8" in d.message


def test_read_keeps_text_and_crlf_positions(tmp_path) -> None:  # type: ignore[no-untyped-def]
    f = tmp_path / "crlf.yaml"
    f.write_bytes(b"a: 1\r\nb: two\r\n")
    doc = read_yaml_file(f)
    assert doc.text == "a: 1\nb: two\n"
    assert doc.data["b"].pos.line == 2
