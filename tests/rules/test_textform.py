"""The text form of rule files (.rules): same data as YAML both ways, canonical printing, comments kept,
located errors, and every command reading it like the YAML it came from."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulecraft.errors import RuleFileError
from rulecraft.load import load_ruleset
from rulecraft.rules.comments import attach, blank_lines, yaml_comments
from rulecraft.rules.compose import compose
from rulecraft.rules.convert import read_annotated, render
from rulecraft.rules.located import LStr
from rulecraft.rules.registry import bundled_variants_dir, path_target
from rulecraft.rules.textload import load_rules_text, parse_rules_with_comments
from rulecraft.rules.textprint import print_rules
from rulecraft.rules.yamlload import parse_yaml_text
from rulecraft.rules.yamlprint import print_yaml

BUNDLED = sorted(bundled_variants_dir().glob("*/*.yaml"))


def plain(data: Any) -> Any:
    return json.loads(json.dumps(data, sort_keys=True))


def to_text(data: Any, notes: Any = None) -> str:
    return print_rules(data, notes)


def refused(text: str) -> tuple[int, int, str]:
    with pytest.raises(RuleFileError) as info:
        load_rules_text(text, "f.rules")
    d = info.value.diagnostics[0]
    assert d.pos.file == "f.rules"
    return d.pos.line, d.pos.col, d.message


# --------------------------------------------------------------------------- the bundled files
@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_bundled_file_converts_both_ways_with_the_same_data_and_comments(path: Path) -> None:
    source = read_annotated(path)
    text = render(source, to_text=True)
    doc, comments = parse_rules_with_comments(text, "x.rules")
    assert plain(doc.data) == plain(source.data)
    # Every comment of the YAML is in the text form, and the canonical text prints itself again.
    assert [c[2] for c in sorted(comments)] == [c[2] for c in sorted(yaml_comments(path.read_text("utf-8")))]
    layout = comments + blank_lines(text)
    assert print_rules(doc.data, attach(doc.data, layout)) == text
    back = print_yaml(doc.data, attach(doc.data, layout))
    again = parse_yaml_text(back, "y.yaml")
    assert plain(again.data) == plain(source.data)
    assert sorted(c[2] for c in yaml_comments(back)) == sorted(c[2] for c in comments)


@pytest.mark.parametrize("path", [p for p in BUNDLED if p.name == "base.yaml"], ids=lambda p: p.parent.name)
def test_a_bundled_game_loads_from_its_text_form_as_the_same_ruleset(path: Path, tmp_path: Path) -> None:
    out = tmp_path / "base.rules"
    out.write_text(render(read_annotated(path), to_text=True), encoding="utf-8")
    from_yaml = load_ruleset(str(path))
    from_text = load_ruleset(str(out))
    # The content hash is of the composed data: the same hash is the same game for every seed.
    assert from_text.content_hash == from_yaml.content_hash
    assert compose(str(out)).provenance.origin("name").pos.file.endswith("base.rules")  # type: ignore[union-attr]


def test_simulating_the_text_form_gives_the_yaml_results(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from rulecraft.cli.main import cli

    runner = CliRunner()
    out = tmp_path / "doubt.rules"
    assert runner.invoke(cli, ["convert", "doubt", str(out)]).exit_code == 0
    a = runner.invoke(cli, ["simulate", "doubt", "-n", "6", "--seed", "3"])
    b = runner.invoke(cli, ["simulate", str(out), "-n", "6", "--seed", "3"])
    assert a.exit_code == b.exit_code == 0
    strip = [line for line in a.output.splitlines() if "moves/s" not in line]
    assert strip == [line for line in b.output.splitlines() if "moves/s" not in line]
    assert any("wins" in line for line in strip)


def test_the_bundled_text_form_is_the_yaml_and_is_formatted() -> None:
    shipped = bundled_variants_dir() / "doubt" / "base.rules"
    yaml_twin = shipped.with_suffix(".yaml")
    assert plain(read_annotated(shipped).data) == plain(read_annotated(yaml_twin).data)
    assert render(read_annotated(shipped), to_text=True) == shipped.read_text("utf-8")


# --------------------------------------------------------------------------- values
def test_values_read_as_yaml_would_hold_them() -> None:
    data = load_rules_text(
        'a 3\nb -2\nc 1.5\nd true\ne none\nf "true"\ng left_of(dealer)\nh [A, "2", 3, [x, y]]\n'
        "i up-to-four\nj {k 1, l [m]}\nk 'it'\n", "f.rules")
    assert plain(data) == {"a": 3, "b": -2, "c": 1.5, "d": True, "e": None, "f": "true", "g": "left_of(dealer)",
                           "h": ["A", "2", 3, ["x", "y"]], "i": "up-to-four", "j": {"k": 1, "l": ["m"]},
                           "k": "it"}


def test_items_with_ids_blocks_and_text_lines() -> None:
    text = ("zones\n  deck: visibility nobody\n  hand: per seat\n    visibility owner\n  - {x 1}\n  -\n    y 2\n"
            'notes\n  -\n    "one "\n    "two\\n"\n')
    assert plain(load_rules_text(text, "f.rules")) == {
        "zones": [{"id": "deck", "visibility": "nobody"}, {"id": "hand", "per": "seat", "visibility": "owner"},
                  {"x": 1}, {"y": 2}],
        "notes": ["one two\n"]}


def test_path_keys_are_the_nesting_they_name() -> None:
    data = load_rules_text("o\n  patch.hand.phases[play].claim {rule falling}\n"
                           "  patch.hand.phases[play].passing true\n  patch.seats {count 3}\n"
                           "  x {a.b 1, a.c.$delete true}\n  z[q] {k 1}\n  \"a.b\" 2\n", "f.rules")
    assert plain(data) == {"o": {
        "patch": {"hand": {"phases": [{"id": "play", "claim": {"rule": "falling"}, "passing": True}]},
                  "seats": {"count": 3}},
        "x": {"a": {"b": 1, "c": {"$delete": True}}}, "z": [{"id": "q", "k": 1}], "a.b": 2}}
    play = data["o"]["patch"]["hand"]["phases"][0]
    assert play.key_pos["claim"].col == len("  patch.hand.phases[play].") + 1  # each step at its own column
    assert to_text({"o": {"p": {"hand": {"phases": [{"id": "play", "first": "next(dealer)"}]}}}}) == \
        "o {p.hand.phases[play].first next(dealer)}\n"
    assert "a[x]" in refused("a[x] 1\n")[2] or "names a list item" in refused("a[x] 1\n")[2]
    assert refused("o\n  a.b 1\n  a.b 2\n")[:3] == (3, 5, "duplicate key 'b' (first at line 2)")


def test_positions_point_into_the_text_form() -> None:
    data = load_rules_text('hand\n  phases\n    play: first next(\n      dealer)\n    - "a\\tb"\n', "f.rules")
    play = data["hand"]["phases"][0]
    assert play.key_pos["id"].line == 3 and play.key_pos["id"].col == 5
    first = play["first"]
    assert (first.pos.line, first.pos.col) == (3, 17)
    assert first.pos_at(first.index("dealer")).line == 4  # a formula over two lines keeps each line's place
    tab = data["hand"]["phases"][1]
    assert tab == "a\tb" and tab.pos_at(2).col == tab.pos.col + 3  # after the escape


# --------------------------------------------------------------------------- generated files
_names = st.from_regex(r"[a-z][a-z0-9_-]{0,8}", fullmatch=True)
_keys = st.one_of(_names, st.sampled_from(["a.b", "x[y]", "$delete", "f(x)", "3", "two words", "id", "k.$x", "kind",
                                             "description"]))
_strings = st.one_of(
    _names,
    st.sampled_from(["true", "none", "10", "-1", "a b", "x # y", "'q'", "[a]", "{a}", "f(x, y)", "a if b else c",
                     "sum(x for x in y)", "", " padded ", "ends\n", "two\nlines", "quote \" and \\", "é 天 \u2028",
                     "a: b", "- a", "#", "null", "yes", "1e3", "0o17"]),
    st.text(max_size=30),
    st.text(alphabet="ab -#'\"\n", max_size=130),
)
_scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**12, 10**12),
                     st.floats(allow_nan=False, allow_infinity=False, width=32), _strings)
_values = st.recursive(
    _scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(_keys, inner, max_size=4),
        st.lists(st.builds(lambda i, d: {"id": i, **d}, _strings, st.dictionaries(_keys, inner, max_size=3)),
                 max_size=3)),
    max_leaves=25)
_files = st.dictionaries(_names, _values, min_size=1, max_size=6)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_files)
def test_generated_rule_files_survive_both_forms(data: dict[str, Any]) -> None:
    text = to_text(data)
    back = load_rules_text(text, "g.rules")
    assert plain(back) == plain(data)
    assert to_text(back) == text  # canonical
    yaml_back = parse_yaml_text(print_yaml(data), "g.yaml").data
    assert plain(yaml_back) == plain(data)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 12), st.from_regex(r"# [a-z ]{0,12}", fullmatch=True)), max_size=5))
def test_comments_stay_where_they_were_written(places: list[tuple[int, str]]) -> None:
    base = ("name g\nseats {count 4}\nzones\n  deck: visibility nobody\n  hand: per seat\nhand\n  phases\n"
            "    deal: kind deal\n      count all\n")
    lines = base.splitlines()
    for where, comment in sorted(places, reverse=True):
        lines.insert(min(where, len(lines)), comment)
    text = "\n".join(lines) + "\n"
    doc, comments = parse_rules_with_comments(text, "c.rules")
    once = print_rules(doc.data, attach(doc.data, comments))
    assert sorted(line.strip() for line in once.splitlines() if line.strip().startswith("#")) == \
        sorted(c.rstrip() for _, c in places)
    doc2, comments2 = parse_rules_with_comments(once, "c.rules")
    assert print_rules(doc2.data, attach(doc2.data, comments2)) == once
    assert plain(doc2.data) == plain(doc.data)


# --------------------------------------------------------------------------- bad input
@pytest.mark.parametrize(("text", "line", "col", "words"), [
    ("seats {count: 4}\n", 1, 13, "without ':'"),
    ("match\n  end_when a = b\n", 2, 14, "did you mean '=='"),
    ("match\n  end_when a && b\n", 2, 14, "did you mean 'and'"),
    ("a [1, 2\n", 1, 3, "'[' is not closed"),
    ("a\n    b 1\n  c 2\n", 3, 1, "indentation"),
    ("a 1\n  b 2\n", 2, 3, "indented"),
    ("a\n  b 1\n  - c\n", 3, 3, "mixes entries and list items"),
    ("a 1\nb 2\na 3\n", 3, 1, "duplicate key 'a' (first at line 1)"),
    ("a\n\tb 1\n", 2, 1, "tabs"),
    ('a "x\\qy"\n', 1, 5, "unknown escape"),
    ('a "unclosed\n', 1, 3, "quoted string ends on its line"),
    ("a tru e()\n", 1, 7, "unexpected"),
])
def test_bad_text_is_refused_where_it_is_wrong(text: str, line: int, col: int, words: str) -> None:
    got = refused(text)
    assert (got[0], got[1]) == (line, col), got
    assert words in got[2]


def test_nesting_and_size_are_bounded() -> None:
    start = time.perf_counter()
    assert "the limit is 50 levels" in refused("a " + "[" * 100_000 + "\n")[2]
    deep = "".join("  " * i + f"k{i}\n" for i in range(200)) + "  " * 200 + "x 1\n"
    assert "the limit is 64 levels" in refused(deep)[2]
    assert "at most" in refused("a 1\n" * 600_000)[2]
    assert time.perf_counter() - start < 20  # refused before the work, not after it (a generous bound)


def test_a_schema_error_points_into_the_text_file(tmp_path: Path) -> None:
    path = tmp_path / "g.rules"
    text = render(read_annotated(bundled_variants_dir() / "doubt" / "base.yaml"), to_text=True)
    path.write_text(text.replace("seats {count 4,", "seats {count four,"), encoding="utf-8")
    with pytest.raises(RuleFileError) as info:
        load_ruleset(str(path))
    d = info.value.diagnostics[0]
    line = next(n for n, s in enumerate(path.read_text().splitlines(), 1) if s.startswith("seats"))
    assert d.pos.file.endswith("g.rules") and d.pos.line == line and d.pos.col == len("seats {count ") + 1


def test_an_expression_error_points_at_the_name_in_the_text_file(tmp_path: Path) -> None:
    path = tmp_path / "g.rules"
    text = render(read_annotated(bundled_variants_dir() / "doubt" / "base.yaml"), to_text=True)
    path.write_text(text.replace(" claims, first left_of(dealer)\n", " claims, first left_of(dealr)\n"),
                    encoding="utf-8")
    with pytest.raises(RuleFileError) as info:
        load_ruleset(str(path))
    d = info.value.diagnostics[0]
    lines = path.read_text().splitlines()
    assert lines[d.pos.line - 1][d.pos.col - 1:].startswith("dealr")
    assert "did you mean 'dealer'" in d.message


# --------------------------------------------------------------------------- accepted everywhere
def test_overlays_extend_either_form(tmp_path: Path) -> None:
    base = tmp_path / "base.rules"
    base.write_text(render(read_annotated(bundled_variants_dir() / "doubt" / "base.yaml"), to_text=True), "utf-8")
    (tmp_path / "five.yaml").write_text("extends: base.rules\nname: five\nseats: {count: 5}\n", "utf-8")
    (tmp_path / "six.rules").write_text("extends doubt\nname six\nseats {count 6}\n", "utf-8")
    assert path_target(tmp_path) == base  # a directory with only base.rules
    assert load_ruleset(str(tmp_path / "five.yaml")).seats.count == 5
    six = compose(str(tmp_path / "six.rules"))
    assert six.data["seats"]["count"] == 6 and six.files[0] == "variants/doubt/base.yaml"
    assert isinstance(six.data["name"], LStr) and six.data["name"].pos.file.endswith("six.rules")


def test_a_scenario_may_name_a_text_file(tmp_path: Path) -> None:
    from rulecraft.runs.scenario import scenario_ruleset

    (tmp_path / "g.rules").write_text("extends doubt\nname g\n", "utf-8")
    ref, _, _ = scenario_ruleset({"ruleset": "g.rules"}, str(tmp_path / "s.yaml"))
    assert Path(ref) == tmp_path / "g.rules"


class _Run:
    """The command line in process, with its real exit codes (run_cli: 1 for errors, 2 for usage)."""

    def invoke(self, cli: Any, args: list[str]) -> Any:
        import contextlib
        import io
        import types

        from rulecraft.cli.errors import run_cli

        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            code = run_cli(cli, args)
        return types.SimpleNamespace(exit_code=code, output=out.getvalue())


def test_convert_and_fmt_commands(tmp_path: Path) -> None:
    from rulecraft.cli.main import cli

    runner = _Run()
    out = tmp_path / "g.rules"
    assert runner.invoke(cli, ["convert", "doubt", str(out)]).exit_code == 0
    again = runner.invoke(cli, ["convert", "doubt", str(out)])
    assert again.exit_code == 2 and "--force" in again.output
    assert runner.invoke(cli, ["convert", "doubt", str(tmp_path / "g.txt")]).exit_code == 2
    messy = "# top\nname   g\nseats\n  count 4 # four\nextends doubt\n"
    (tmp_path / "m.rules").write_text(messy, "utf-8")
    assert runner.invoke(cli, ["fmt", "--check", str(tmp_path / "m.rules")]).exit_code == 1
    assert (tmp_path / "m.rules").read_text("utf-8") == messy  # --check changes nothing
    assert runner.invoke(cli, ["fmt", str(tmp_path / "m.rules")]).exit_code == 0
    assert (tmp_path / "m.rules").read_text("utf-8") == "# top\nname g\nseats\n  count 4  # four\nextends doubt\n"
    assert runner.invoke(cli, ["fmt", "--check", str(tmp_path / "m.rules")]).exit_code == 0
    bad = runner.invoke(cli, ["fmt", str(tmp_path / "m.yaml")])
    assert bad.exit_code == 2
    (tmp_path / "b.rules").write_text("a = 1\n", "utf-8")
    broken = runner.invoke(cli, ["fmt", str(tmp_path / "b.rules")])
    assert broken.exit_code == 1 and "b.rules:1:3: error:" in broken.output and "Traceback" not in broken.output
    back = tmp_path / "g.yaml"
    assert runner.invoke(cli, ["convert", str(out), str(back)]).exit_code == 0
    assert plain(read_annotated(back).data) == plain(read_annotated(bundled_variants_dir() / "doubt" /
                                                                    "base.yaml").data)


# --------------------------------------------------------------------------- editors
def _converted() -> list[str]:
    return [render(read_annotated(p), to_text=True) for p in BUNDLED]


def test_the_pygments_lexer_reads_every_bundled_file_without_error_tokens() -> None:
    pytest.importorskip("pygments")
    from pygments.token import Error

    from rulecraft.rules.pygments_lexer import RulesLexer

    for text in _converted():
        tokens = list(RulesLexer().get_tokens(text))
        assert not [v for t, v in tokens if t in Error]
        assert "".join(v for _, v in tokens) == text


def test_the_textmate_grammar_covers_every_bundled_file() -> None:
    """Each line scanned with the grammar's patterns (first match at each place, as an editor does):
    every character that is not a space is inside a match."""
    import re

    grammar = json.loads((Path(__file__).parents[2] / "editors" / "rules.tmLanguage.json").read_text("utf-8"))
    assert grammar["scopeName"] == "source.rulecraft-rules" and grammar["fileTypes"] == ["rules"]
    patterns = [re.compile(p["match"]) for p in grammar["patterns"]]
    for text in [*_converted(), "a [x for x in y if not z]\n"]:
        for line in text.splitlines():
            at = 0
            while at < len(line):
                found = [m for p in patterns if (m := p.search(line, at))]
                first = min(found, key=lambda m: m.start(), default=None)
                gap = line[at:first.start() if first else len(line)]
                assert not gap.strip(), f"not highlighted: {gap!r} in {line!r}"
                if first is None:
                    break
                at = max(first.end(), at + 1)
