"""Inputs the fuzzer (tests/fuzz) found breaking the contract, reduced by hand and kept as regressions."""

from __future__ import annotations

import pytest
import yaml
from cli_support import Cli


def test_a_trick_phase_whose_follow_restrictions_are_an_empty_list_plays(cli: Cli) -> None:
    # The generated decision had an 'if' with nothing under it (IndentationError in the builder).
    cli.tiny()
    cli.write("overlay.yaml", "extends: tiny.yaml\nname: free\nhand:\n  phases:\n    - id: play\n"
                              "      follow: {restrictions: {$replace: []}}\n")
    r = cli("validate", "--simulate", "2", "overlay.yaml")
    assert r.code == 0 and r.out.startswith("ok: 1 file valid (")
    r = cli("simulate", "overlay.yaml", "-n", "3", "--format", "json")
    assert r.code == 0 and '"games": 3' in r.out


def test_test_of_a_file_that_is_not_a_scenario_returns_its_status_in_process(cli: Cli) -> None:
    # 'rulecraft test' ends with sys.exit(1): run_cli returns that status instead of letting it escape.
    cli.write("notes.txt", "my notes\n")
    r = cli("test", "notes.txt")
    assert r.code == 1 and "0 passed, 0 failed" in r.out


@pytest.mark.parametrize(("text", "col", "reason"), [
    ("'ab\\x4'", 1, "this text has an escape that means nothing (truncated \\xXX escape)"),
    ("1 + len('\\N{nosuch}')", 9, "this text has an escape that means nothing (unknown Unicode character name)"),
    # Python kept an unknown escape as two characters with a warning without a place (a SyntaxWarning on the
    # user's terminal from 3.12) and means to refuse it: refused here under every version.
    ("'a\\hb' == 'x'", 1, "this text has an escape that means nothing (invalid escape sequence '\\h')"),
])
def test_a_text_with_an_escape_that_means_nothing_is_refused_where_it_is(cli: Cli, text: str, col: int,
                                                                          reason: str) -> None:
    # Found by the long run's edits: Python's reader failed inside the parser (a VisitError traceback).
    r = cli("eval", text)
    assert (r.code, r.err.splitlines()[0]) == (1, f"<expression>:1:{col}: error: {reason}; write a backslash as \\\\")


def test_a_nul_in_a_text_of_a_rule_is_refused_where_it_is(cli: Cli) -> None:
    # YAML's "\0" puts a NUL into an expression, which Python's reader refuses outright.
    cli.tiny()
    cli.write("overlay.yaml", 'extends: tiny.yaml\nname: nul\nmatch:\n  end_when: "\'a\\0b\' == \'x\'"\n')
    r = cli("validate", "overlay.yaml")
    assert r.code == 1
    assert r.out.splitlines()[0] == ("overlay.yaml:4:16: error: a text contains a NUL character; write text without "
                                     "control characters")


@pytest.mark.parametrize("first", ["8421619", "-1", "2.5"])
def test_a_first_player_that_is_no_seat_is_an_error_at_its_rule(cli: Cli, first: str) -> None:
    # 8421619 indexed past the seats (an IndexError); -1 silently meant the last seat.
    cli.tiny()
    cli.write("overlay.yaml", "extends: tiny.yaml\nname: far\nhand:\n  phases:\n    - id: play\n"
                              f"      first: {first}\n")
    r = cli("validate", "--simulate", "1", "overlay.yaml")
    assert r.code == 1
    assert (f"overlay.yaml:6:14: error: phase 'play' first: '{first}' gave {first}, which is no seat (seats are "
            "numbered 0 to 1)") in r.out


def test_a_yaml_escape_past_the_last_unicode_character_is_a_syntax_error(cli: Cli) -> None:
    # PyYAML hands "\U20005026" to chr(), whose ValueError escaped as a traceback.
    cli.write("rules.yaml", 'name: "\\U20005026"\n')
    r = cli("validate", "rules.yaml")
    assert r.code == 1
    assert r.out.splitlines()[0] == ("rules.yaml:1:10: error: invalid YAML: found an escape beyond the last Unicode "
                                     "character (U+10FFFF)")


@pytest.mark.parametrize("command", [["validate"], ["test"], ["simulate"], ["replay"], ["explain"], ["play"]])
def test_a_path_too_long_for_the_system_is_refused_plainly(cli: Cli, command: list[str]) -> None:
    # Path.exists() raises ENAMETOOLONG (was an internal error, exit 3) rather than answering no.
    r = cli(*command, "a" * 300)
    assert r.code in (1, 2) and "internal error" not in r.err
    assert "error: " in r.err and ("too long" in r.err or "unknown ruleset" in r.err)


@pytest.mark.parametrize("seat", ["9", "-1"])
def test_a_literal_that_is_no_seat_where_a_seat_is_wanted_is_refused_at_load(cli: Cli, seat: str) -> None:
    # tricks(-1) silently read the last seat; tricks(9) failed mid-game with an IndexError.
    cli.tiny()
    cli.write("overlay.yaml", "extends: tiny.yaml\nname: far\nhand:\n  phases:\n    - id: scoring\n      effects:\n"
                              f"        - {{id: most-tricks, when: 'tricks({seat}) >= 2'}}\n")
    r = cli("validate", "overlay.yaml")
    assert (r.code, r.out.splitlines()[0]) == (1, f"overlay.yaml:7:43: error: argument 1 of tricks() is {seat}, which "
                                                  "is no seat (seats are numbered 0 to 1)")


def test_a_number_that_is_no_seat_where_a_seat_is_wanted_stops_the_game_at_its_rule(cli: Cli) -> None:
    cli.tiny()
    cli.write("overlay.yaml", "extends: tiny.yaml\nname: far\nhand:\n  phases:\n    - id: scoring\n      effects:\n"
                              "        - {id: most-tricks, when: 'tricks(s - 1) >= 2'}\n")
    r = cli("simulate", "overlay.yaml", "-n", "1")
    assert r.code == 1
    assert "ValueError: this gives -1, where a seat (0 to 1) is needed (in 'tricks(s - 1) >= 2')" in r.err


def test_a_byte_order_mark_inside_a_file_is_refused_where_it_is(cli: Cli) -> None:
    # Invisible, it made 'ti\ufefftle' a key of its own; libyaml and PyYAML even disagreed on its column.
    cli.write("rules.yaml", "name: x\nti\ufefftle: y\n")
    r = cli("validate", "rules.yaml")
    assert (r.code, r.out.splitlines()[0]) == (1, "rules.yaml:2:3: error: the file contains a byte order mark "
                                                  "(U+FEFF, invisible) after its start; remove it")


def test_an_expression_python_would_warn_about_prints_no_warning(cli: Cli) -> None:
    # The generated code 'None[0]' made Python print a SyntaxWarning ("perhaps you missed a comma?").
    r = cli.process("eval", "none[0]")  # a process of its own: pytest would catch the warning in process
    assert r.returncode == 1
    assert r.stderr == ("<expression>:1:1: error: the expression: TypeError: 'NoneType' object is not subscriptable "
                     "(in 'none[0]')\n")


def test_a_block_scalar_header_followed_by_a_hash_is_refused_whichever_reader_reads_it(cli: Cli) -> None:
    # libyaml took '|#' as a header and a comment; PyYAML (and the YAML spec: a comment needs a space
    # before it) refuse it. The two readers must accept the same files.
    cli.write("rules.yaml", "name: |#\n  tiny\n")
    r = cli("validate", "rules.yaml")
    assert (r.code, r.out.splitlines()[0]) == (1, "rules.yaml:1:8: error: invalid YAML: expected chomping or "
                                                  "indentation indicators, but found '#' (while scanning a block "
                                                  "scalar at line 1)")


def test_a_yaml_escape_too_large_for_a_c_int_is_a_syntax_error_too(cli: Cli) -> None:
    # chr(0x8005D472) raises OverflowError, not the ValueError of a smaller escape past U+10FFFF.
    cli.write("rules.yaml", 'name: "\\U8005D472"\n')
    r = cli("validate", "rules.yaml")
    assert (r.code, r.out.splitlines()[0]) == (1, "rules.yaml:1:10: error: invalid YAML: found an escape beyond the "
                                                  "last Unicode character (U+10FFFF)")


def test_an_argument_with_a_nul_is_a_usage_error(cli: Cli) -> None:
    # A path with a NUL made os.stat raise ValueError (an internal error, exit 3).
    r = cli("replay", "x=\0[1,2]", "human")
    assert (r.code, r.err) == (2, "error: argument 2 contains a NUL character\n")


@pytest.mark.parametrize(("text", "place", "line"), [
    ("options\n  bumu_son\n\n\n", "2:11", "   2 |   bumu_son"),
    ("options\n  bumu_son", "2:11", "   2 |   bumu_son"),
    ("options\n  bumu_son\nname x\n", "2:11", "   2 |   bumu_son"),
])
def test_a_rules_line_that_ends_too_early_is_refused_at_its_end(cli: Cli, text: str, place: str, line: str) -> None:
    # Found by the .rules fuzz run: the error named the line after the one that ended (past the end of
    # the file when the file ended there, or a blank line after it).
    cli.write("rules.rules", text)
    r = cli("validate", "rules.rules")
    assert (r.code, r.out.splitlines()[:2]) == (1, [f"rules.rules:{place}: error: the line ends too early; expected "
                                                    "an indented block", line])


@pytest.mark.parametrize("suffix", [".rules", ".yaml"])
def test_a_scenario_naming_a_ruleset_too_long_for_a_file_name_is_refused_where_it_names_it(cli: Cli,
                                                                                          suffix: str) -> None:
    # Found by the fuzz run of scenarios naming .rules files: looking the name up beside the scenario
    # raised OSError (File name too long), an internal error in-process and a usage error (exit 2) unlocated.
    name = "a" * 300 + suffix
    cli.write("scenario.yaml", f"name: x\nruleset: {name}\nsteps:\n  - play a-1\n")
    shown = f"{name[:60]}… ({len(name)} characters)"
    for command in ("validate", "test"):
        r = cli(command, "scenario.yaml")
        assert r.code == 1
        assert f"scenario.yaml:2:10: error: no such rule file: {shown}" in r.out.splitlines()


def test_a_table_column_naming_an_item_of_a_cell_that_is_no_mapping_is_refused_at_the_column(cli: Cli) -> None:
    # Found by the .rules fuzz run: the place was the cell's column plus the step's offset in the header
    # ('2:5', past the end of the row '  1'); the step '[y]' is written in the header.
    cli.write("rules.rules", "t | x[y]\n  1\n")
    r = cli("validate", "rules.rules")
    assert (r.code, r.out.splitlines()[:3]) == (1, [
        "rules.rules:1:7: error: '[y]' in a key names a list item: it is followed by '.key', or its value is a "
        "mapping of the item's entries", "   1 | t | x[y]", "     |       ^"])


def test_a_table_cell_whose_column_path_repeats_is_refused_at_the_cell(cli: Cli) -> None:
    # Found by the long .rules fuzz run (Doubt's presets with the column 'options.sequence' twice): the keys
    # a column path makes in a row were placed at the cell's column plus the step's offset in the header.
    cli.write("rules.rules", "t | a.bb | a.bb\n  1 | 2\n")
    r = cli("validate", "rules.rules")
    assert (r.code, r.out.splitlines()[:3]) == (1, ["rules.rules:2:7: error: duplicate key 'bb' (first at line 2)",
                                                    "   2 |   1 | 2", "     |       ^"])


def test_what_convert_writes_is_formatted_whatever_the_order_of_an_items_keys(cli: Cli) -> None:
    # Found by the long .rules fuzz run: items whose id came after other keys were written as item lines
    # ('hand: grid {columns 8}, per s, ...', which put the id first), so the same data read back chose a table
    # and 'fmt --check' said the file convert had just written was not formatted.
    cli.write("r.yaml", "zones:\n  - {id: deck, visibility: all, per: s}\n  - {id: hand, visibility: nobody}\n"
                        "  - {grid: {columns: 8}, visibility: owner, per: s, id: won}\n")
    assert cli("convert", "r.yaml", "r.rules").code == 0
    assert (cli.cwd / "r.rules").read_text() == ("zones | id | grid.columns | visibility | per\n  deck | | all | s\n"
                                                 "  hand | | nobody\n  won | 8 | owner | s\n")
    r = cli("fmt", "--check", "r.rules")
    assert (r.code, r.err) == (0, "")


def test_a_table_cell_that_no_longer_fits_a_line_once_flattened_keeps_the_items_out_of_a_table(cli: Cli) -> None:
    # Found by the long .rules fuzz run: a column of mappings was flattened (``x.phases``) although one row's
    # value under it was a list of mappings, which has no one-line form; its cell was written empty, so
    # convert refused its own output as unfaithful (exit 1) instead of writing the rows as items.
    cli.write("r.yaml", "options:\n  - id: o\n    default: a\n    choices:\n"
                        "      - {id: a, description: first, x: {phases: 1, z: 2}}\n"
                        "      - {id: b, description: second, x: {phases: 3, z: 4}}\n"
                        "      - {id: c, description: third, x: {phases: [{id: p, kind: deal}]}}\n")
    r = cli("convert", "r.yaml", "r.rules")
    assert (r.code, r.err) == (0, "")
    assert (cli.cwd / "r.rules").read_text().endswith('\n      c: "third", x.phases[p].kind deal\n')
    assert cli("convert", "r.rules", "back.yaml").code == 0
    assert yaml.safe_load((cli.cwd / "back.yaml").read_text()) == yaml.safe_load((cli.cwd / "r.yaml").read_text())
