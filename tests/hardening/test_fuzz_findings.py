"""Inputs the fuzzer (tests/fuzz) found breaking the contract, reduced by hand and kept as regressions."""

from __future__ import annotations

from conftest import Cli


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
