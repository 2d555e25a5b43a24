"""The scenario format as its users meet it: problems reported where the scenario writes them, and
checks that can say "contains", "as this seat sees it" and "when the hand ended"."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from rulecraft.cli.main import cli
from rulecraft.runs.scenario import run_scenario_file

ROOK_DEAL = """\
ruleset: rook
deal:
  "hand[0]": [red-5, red-6, red-7, red-8, red-9, yellow-5, yellow-6, yellow-7, rook-bird]
  "hand[1]": [red-10, red-11, red-12, red-13, red-14, yellow-8, yellow-9, yellow-10, yellow-11]
  "hand[2]": [green-5, green-6, green-7, green-8, green-9, green-10, green-11, green-12, green-13]
  "hand[3]": [black-5, black-6, black-7, black-8, black-9, black-10, black-11, black-12, black-13]
  nest: [green-14, black-14, yellow-12, yellow-13, yellow-14]
"""


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.output


def test_an_unknown_option_is_an_error_of_that_scenario_and_the_others_still_run(tmp_path: Path) -> None:
    _write(tmp_path, "a-bad.yaml", "ruleset: rook\noptions:\n  bird_rank: lowst\nsteps: [bid 70]\n")
    _write(tmp_path, "b-bad.yaml", "ruleset: rook\npreset: nope\nsteps: [bid 70]\n")
    _write(tmp_path, "c-good.yaml", ROOK_DEAL + "steps: [bid 70]\nexpect: {to_act: 2}\n")
    code, out = _cli("test", str(tmp_path))
    assert code == 1
    assert "a-bad.yaml:3:14: error: option 'bird_rank' has no choice 'lowst' (did you mean 'lowest'?)" in out
    assert "b-bad.yaml:2:9: error: unknown preset 'nope'" in out
    assert "PASS" in out and "1 passed, 0 failed, 2 errors" in out


def test_validate_checks_what_a_scenario_names_without_playing_it(tmp_path: Path) -> None:
    path = _write(tmp_path, "refs.yaml", ROOK_DEAL.replace('"hand[3]"', '"hand[9]"') + """\
given: {vars: {scroe: [0, 0]}}
steps:
  - jump 70
  - play red-41
  - {expect: {zones: {hand: 3, "nest[1]": 2}, vars: {bidd: 1}}}
""")
    code, out = _cli("validate", str(path))
    assert code == 1
    assert "refs.yaml:6:4: error: hand[9]: zone 'hand' has 4 instances (one per seat), numbered 0 to 3" in out
    # Once the deal is mended, the rest is reported, each at its place.
    path.write_text(path.read_text().replace('"hand[9]"', '"hand[3]"'))
    code, out = _cli("validate", str(path))
    assert code == 1
    for expected in ("refs.yaml:8:16: error: unknown variable 'scroe'", "refs.yaml:10:5: error: unknown move 'jump'",
                     "refs.yaml:11:5: error: move 'play red-41': there is no piece called 'red-41'",
                     "error: zone 'hand' has one instance per seat: write hand[0] to hand[3]",
                     "error: zone 'nest' is shared: write nest, not nest[1]", "error: unknown variable 'bidd'"):
        assert expected in out, out


def test_a_scenario_that_checks_nothing_is_refused(tmp_path: Path) -> None:
    code, out = _cli("validate", str(_write(tmp_path, "empty.yaml", "ruleset: rook\n")))
    assert code == 1 and "a scenario needs 'steps' or 'expect'" in out


@pytest.mark.parametrize(("check", "holds"), [
    ('{contains: [rook-bird, red-5], excludes: [red-14]}', True),
    ('{contains: [red-14]}', False),
    ('{excludes: [rook-bird]}', False),
    ('{contains: [red-5], count: 9}', True),
    ('{count: 8}', False),
])
def test_a_zone_check_can_name_some_pieces(tmp_path: Path, check: str, holds: bool) -> None:
    path = _write(tmp_path, "zone.yaml", ROOK_DEAL + f'expect: {{zones: {{"hand[0]": {check}}}}}\n')
    assert run_scenario_file(path).passed is holds


def test_hand_variables_are_checked_as_they_stood_when_the_hand_ended(tmp_path: Path) -> None:
    # Luk Fu: every seat passes, so the hand is void; who passed is a hand variable, reset as the
    # next hand begins, and still readable as the last hand left it.
    steps = "ruleset: luk-fu\nsteps: [pass, pass, pass]\n"
    ok = _write(tmp_path, "ok.yaml", steps + "expect: {vars: {passed: [false, false, false]}, "
                                             "last_hand: {voided: true, vars: {passed: [true, true, true]}}}\n")
    result = run_scenario_file(ok)
    assert result.passed, result.failures
    wrong = _write(tmp_path, "wrong.yaml", steps + "expect: {last_hand: {vars: {passed: [true, false, true], "
                                                   "chips: [0, 0, 0]}}}\n")
    failures = " ".join(run_scenario_file(wrong).failures)
    assert "variable passed at the end of the last hand: expected [True, False, True], got [True, True, True]" \
        in failures
    assert "'chips' is a match variable" in failures


def test_a_view_check_reads_what_the_seat_sees_and_its_log(tmp_path: Path) -> None:
    base = ROOK_DEAL + "steps:\n  - bid 70\n  - expect: {view: %s}\n"
    good = _write(tmp_path, "good.yaml", base % "{seat: 1, visible: [red-14], hidden: [rook-bird], "
                                                "log_hidden: [rook-bird, green-14], variables: {bid: 0}}")
    result = run_scenario_file(good)
    assert result.passed, result.failures
    leaky = _write(tmp_path, "leaky.yaml", base % "{seat: 1, log_visible: [rook-bird], variables: {bid: 75}}")
    failures = " ".join(run_scenario_file(leaky).failures)
    assert "seat 1's log does not name rook-bird" in failures
    assert "seat 1 sees bid as 0, not 75" in failures


def test_a_rule_file_kept_beside_its_scenarios_is_not_run_as_one(tmp_path: Path) -> None:
    # A game that is not bundled keeps its rule file in the scenarios' folder: `rulecraft test DIR`
    # runs the scenarios and leaves the rule file alone; named on its own, it is one clear error.
    _write(tmp_path, "my-game.yaml", "extends: rook\nname: my-game\n")
    _write(tmp_path, "bid.yaml", ROOK_DEAL.replace("ruleset: rook", "ruleset: my-game.yaml")
           + "steps: [bid 70]\nexpect: {to_act: 2}\n")
    code, out = _cli("test", str(tmp_path))
    assert (code, out.splitlines()[-1]) == (0, "1 passed, 0 failed")
    code, out = _cli("test", str(tmp_path / "my-game.yaml"))
    assert code == 1
    assert "my-game.yaml:1:1: error: this is a rule file, not a scenario (a scenario names its 'ruleset:')" in out
    assert out.count("error:") == 1


def test_scores_expected_before_the_match_ends_say_so(tmp_path: Path) -> None:
    # The match goes on after Luk Fu's voided first hand: scores and winners do not exist yet, and
    # the failure says why rather than "got None".
    path = _write(tmp_path, "early.yaml", "ruleset: luk-fu\nsteps: [pass, pass, pass]\n"
                                          "expect: {scores: [0, 0, 0], winners: [0]}\n")
    failures = " ".join(run_scenario_file(path).failures)
    assert "scores: expected [0, 0, 0], but the match is not over" in failures
    assert "winners: expected [0], but the match is not over" in failures
    assert "got None" not in failures


def test_a_deal_the_rules_move_before_play_begins_is_refused_at_the_deal(tmp_path: Path) -> None:
    # From the second hand of President the Scum (seat 0 here) gives its two best cards to the
    # President before anyone decides: the deal's order is worked out from where each deck position is when
    # play begins, so the four 2s named for seat 0 (its two best: h2 and s2) would silently start elsewhere.
    # Refused, pointing at the list.
    president = Path(__file__).resolve().parents[2] / "variants" / "president" / "base.yaml"
    path = _write(tmp_path, "moved.yaml", f"ruleset: {president}\n"
                                          "given: {hand_number: 2, vars: {title: [4, 2, 3, 1]}}\n"
                                          "deal:\n  \"hand[0]\": [c2, d2, h2, s2]\n"
                                          "expect: {to_act: 3}\n")
    code, out = _cli("test", str(path))
    assert code == 1
    assert (f"{path}:4:14: error: the deal cannot be arranged: hand[0] does not hold h2, s2 when play begins"
            in out), out


TWO_DECKS = """\
name: two-decks
seats: {count: 2}
pieces:
  - {id: "c{rank}", copies: 2, generate: {rank: [1, 2, 3, 4]}}
zones:
  - {id: deck, visibility: nobody}
  - {id: hand, per: seat, visibility: owner}
  - {id: trick, visibility: all}
  - {id: won, per: seat, visibility: nobody}
hand:
  phases:
    - {id: shuffle, kind: shuffle, zone: deck}
    - {id: deal, kind: deal, from: deck, to: hand, first: 0, count: all}
    - {id: play, kind: tricks, first: 0}
combinations:
  - {id: single, kind: single, strength: "rank(piece)"}
"""


def test_a_hidden_piece_with_copies_says_which_copy_the_seat_sees(tmp_path: Path) -> None:
    _write(tmp_path, "two-decks.yaml", TWO_DECKS)
    path = _write(tmp_path, "copies.yaml", "ruleset: two-decks.yaml\nseed: 1\n"
                  "deal: {\"hand[0]\": [c1], \"hand[1]\": [c1]}\n"
                  "steps:\n  - {expect: {view: {seat: 1, hidden: [c1]}}}\n")
    result = run_scenario_file(path)
    assert not result.passed
    # seat 1 holds the other copy of c1: the failure says so, rather than suggest a leak
    assert "c1 has 2 copies and an id names them all: the seat sees one in hand[1]" in result.failures[0]


def test_a_move_that_should_be_legal_and_is_not_lists_the_legal_moves(tmp_path: Path) -> None:
    # Bids go to 120 (the 1s removed): 200 is not among seat 1's moves, and the failure says what is.
    path = _write(tmp_path, "s.yaml", ROOK_DEAL + "steps:\n  - {expect: {legal_includes: [bid 200]}}\n")
    (failure,) = run_scenario_file(path).failures
    assert failure.endswith("move 'bid 200' should be legal; legal for seat 1: pass, bid 70, bid 75, bid 80, "
                            "bid 85, bid 90, bid 95, bid 100, bid 105, bid 110, bid 115, bid 120")
