"""``rulecraft test --mutate`` on a game small enough to check every verdict by hand (tests/runs/tiny).

The one scenario deals a-1 b-2 b-3 to seat 0 and a-2 a-3 b-1 to seat 1, who leads: a-3 takes a-1
(seat 0 is refused b-2: it must follow suit), a-2 takes b-2 (seat 0 has no a left), b-3 takes b-1.
So the tricks are [1, 2] and only seat 1, with two tricks, earns the bonus of 10.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulecraft.cli.main import cli
from rulecraft.errors import SourcePos
from rulecraft.rules.yamlload import read_yaml_file
from rulecraft.runs.equivalent import Equivalent
from rulecraft.runs.mutants import Mutant, apply_mutant, enumerate_mutants
from rulecraft.runs.mutate import KILLED, SURVIVED, MutationReport, mutation_test, plan_mutations

ROOT = Path(__file__).resolve().parents[2]
TINY = "tests/runs/tiny"
SCENARIOS = f"{TINY}/scenarios"
RULES = f"{TINY}/rules.yaml"


@pytest.fixture(scope="module")
def report() -> Iterator[MutationReport]:
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(ROOT)  # positions name files relative to the working directory
        yield mutation_test([SCENARIOS])


def where(text: str, needle: str, offset: int = 0) -> str:
    """``RULES:line:col`` of ``needle`` (plus ``offset`` characters) in the tiny rule file."""
    for n, line in enumerate((ROOT / RULES).read_text(encoding="utf-8").splitlines(), 1):
        if text in line:
            return f"{RULES}:{n}:{line.index(needle) + 1 + offset}"
    raise AssertionError(f"{text!r} is not in {RULES}")


def find(report: MutationReport, rule: str, change: str) -> Mutant:
    found = [m for m in report.mutants if m.rule == rule and m.change == change]
    assert len(found) == 1, [m.describe() for m in report.mutants if m.rule == rule]
    return found[0]


def test_a_mutant_the_scenario_pins_is_killed_at_the_operator(report: MutationReport) -> None:
    # With '>' seat 1's two tricks no longer earn the bonus: scores [0, 0], not [0, 10].
    m = find(report, "hand.phases[scoring].effects[most-tricks].when", "'>=' -> '>'")
    assert m.at == where('when: "tricks(s) >= 2"', ">=")
    assert report.status(m) == KILLED
    assert "scores: expected [0, 10], got [0, 0]" in report.outcomes[m.index].detail


def test_leaving_out_the_restriction_is_killed(report: MutationReport) -> None:
    m = find(report, "hand.phases[play].follow.restrictions[follow-suit]", "restriction 'follow-suit' left out")
    assert report.status(m) == KILLED


def test_a_mutant_no_scenario_can_see_survives(report: MutationReport) -> None:
    # An off-suit play worth 1 instead of 0 still loses to the led a-2 (worth 2): nothing changes.
    m = find(report, "combinations[single].strength", "'0' -> '1'")
    assert m.at == where("strength:", "else 0", len("else "))
    assert report.status(m) == SURVIVED
    survivors = report.as_json()["survivors"]
    entry = next(s for s in survivors if s["index"] == m.index)
    assert entry == {"index": m.index, "at": m.at, "file": RULES, "line": m.line, "col": m.col,
                     "rule": "combinations[single].strength", "occurrence": 1, "operator": "number",
                     "change": "'0' -> '1'", "reached": True}


def test_a_change_to_a_choice_no_scenario_takes_survives_unreached(report: MutationReport) -> None:
    m = find(report, "options[bonus].choices[twenty].patch.constants.bonus", "20 -> 21")
    assert report.status(m) == SURVIVED
    assert next(s for s in report.as_json()["survivors"] if s["index"] == m.index)["reached"] is False


def test_a_mutant_that_does_not_load_is_invalid_not_killed(report: MutationReport) -> None:
    # A deal goes to a per-seat zone: the builder refuses a hand that is one shared zone.
    m = find(report, "zones[hand].per", "'seat' -> 'none'")
    assert report.status(m) == "invalid"
    assert "a deal goes to a zone with one instance per seat" in report.outcomes[m.index].detail
    f = report.figures(report.mutants)
    assert f["killed"] + f["survived"] + f["invalid"] + f["equivalent"] == f["mutants"] == len(report.mutants)
    assert f["invalid"] >= 1
    assert f["kill_rate"] == round(f["killed"] / (f["killed"] + f["survived"]), 4)


def test_json_shape(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    r = CliRunner().invoke(cli, ["test", "--mutate", SCENARIOS, "--format", "json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert {"mutants", "killed", "survived", "invalid", "equivalent", "kill_rate", "survivors",
            "rulesets"} <= set(out)
    assert out["mutants"] == out["killed"] + out["survived"] + out["invalid"] + out["equivalent"]
    assert len(out["survivors"]) == out["survived"]
    assert {"at", "change", "rule", "operator"} <= set(out["survivors"][0])
    assert [r["file"] for r in out["rulesets"]] == [RULES]
    assert out["rulesets"][0]["mutants"] == out["mutants"]
    assert out["scenarios"] == {"total": 1, "passing": 1, "failing_as_written": []}


def test_text_names_each_survivor_by_place_and_change(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    r = CliRunner().invoke(cli, ["test", "--mutate", SCENARIOS])
    assert r.exit_code == 0, r.output
    assert f"{where('strength:', 'else 0', len('else '))}: '0' -> '1' survived" in r.output.splitlines()
    assert r.output.splitlines()[-1].startswith(f"{RULES} ({RULES}): ")


def test_same_mutants_in_the_same_order_and_same_figures_with_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    plan = plan_mutations([SCENARIOS], max_mutants=12, seed=5)
    again = plan_mutations([SCENARIOS], max_mutants=12, seed=5)
    assert [m.describe() for m in plan.tried] == [m.describe() for m in again.tried]
    assert [m.index for m in plan.tried] == sorted(m.index for m in plan.tried)
    one = plan.run(workers=1).as_json()
    two = again.run(workers=2).as_json()
    assert one == two


def test_a_mutant_past_the_time_limit_counts_as_killed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    rep = plan_mutations([SCENARIOS], max_mutants=1).run(timeout=1e-6)
    (outcome,) = rep.outcomes.values()
    assert (outcome.status, outcome.how) == (KILLED, "timeout")


def test_applying_a_mutant_leaves_the_loaded_file_as_it_was(monkeypatch: pytest.MonkeyPatch) -> None:
    from rulecraft.rules.compose import load_chain
    from rulecraft.rules.located import pos_of

    monkeypatch.chdir(ROOT)
    (doc,) = load_chain(RULES)
    before = json.dumps(doc.data, sort_keys=True)
    m = next(m for m in enumerate_mutants([doc]) if m.change == "'>=' -> '>'")
    changed = apply_mutant(doc.data, m)
    assert json.dumps(doc.data, sort_keys=True) == before
    effect = changed["hand"]["phases"][3]["effects"][0]
    assert effect["when"] == "tricks(s) > 2"
    assert pos_of(effect["when"]) == pos_of(doc.data["hand"]["phases"][3]["effects"][0]["when"])


def test_leaving_out_a_patch_s_only_item_leaves_out_its_list() -> None:
    # In a patch an empty list would replace the base's whole list of restrictions.
    from rulecraft.rules.compose import load_chain

    mutants = enumerate_mutants(load_chain("rook"))
    m = next(m for m in mutants if m.rule.startswith("options[bird_forced]") and m.operator == "drop-restriction")
    assert m.paths[0][-1] == "restrictions"


def test_the_scenario_seam_plays_the_ruleset_given(monkeypatch: pytest.MonkeyPatch) -> None:
    from rulecraft.runs.scenario import load_scenario, run_scenario
    from rulecraft.runs.suite import build_composed, compose_group, load_suite, mutated_document

    monkeypatch.chdir(ROOT)
    suite = load_suite([SCENARIOS])
    sc = suite.scenarios[0]
    assert run_scenario(sc.data, sc.path).passed
    doc = suite.docs[RULES]
    m = next(m for m in enumerate_mutants([doc]) if m.change == "'>=' -> '>'")
    mutated = {RULES: mutated_document(doc, apply_mutant(doc.data, m))}
    rs = build_composed(compose_group(suite, suite.groups[0], mutated))
    result = run_scenario(load_scenario(sc.path), sc.path, ruleset=rs)
    assert not result.passed and "scores: expected [0, 10], got [0, 0]" in result.failures[0]
    assert "most-tricks" not in result.fired  # with '>' no seat's two tricks earn the bonus


# --------------------------------------------------------------------------- equivalent mutants
@pytest.fixture
def tiny_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copytree(ROOT / TINY, tmp_path / "tiny")
    monkeypatch.chdir(tmp_path)
    return tmp_path / "tiny"


def test_listed_equivalents_are_reported_apart(tiny_copy: Path) -> None:
    # With two seats, clockwise and counter-clockwise are the same order: an equivalent mutant.
    lines = (tiny_copy / "rules.yaml").read_text(encoding="utf-8").splitlines()
    n = next(i for i, line in enumerate(lines, 1) if "direction: clockwise" in line)
    at = f"tiny/rules.yaml:{n}:{lines[n - 1].index('clockwise') + 1}"
    # An off-suit play worth -1 instead of 0 still never beats the lead's rank (at least 1): named by
    # its rule path, which does not move when lines above it are edited.
    (tiny_copy / "scenarios" / "mutants.yaml").write_text(
        "equivalent:\n"
        f"  - at: {at}\n"
        "    change: \"'clockwise' -> 'counter-clockwise'\"\n"
        "    reason: \"with two seats both directions give the same order\"\n"
        "  - rule: combinations[single].strength\n"
        "    change: \"'0' -> '-1'\"\n"
        "    reason: \"an off-suit play never beats the lead either way\"\n", encoding="utf-8")
    r = CliRunner().invoke(cli, ["test", "--mutate", "tiny/scenarios", "--format", "json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["equivalent"] == 2
    assert [(e["at"], e["change"], e["reason"]) for e in out["equivalents"]] == [
        (at, "'clockwise' -> 'counter-clockwise'", "with two seats both directions give the same order"),
        (where("strength:", "else 0", len("else ")).replace(TINY, "tiny"), "'0' -> '-1'",
         "an off-suit play never beats the lead either way"),
    ]
    assert not {(e["at"], e["change"]) for e in out["equivalents"]} & {(s["at"], s["change"]) for s in out["survivors"]}
    # The plain scenario run does not take the list for a scenario.
    plain = CliRunner().invoke(cli, ["test", "tiny/scenarios"])
    assert plain.exit_code == 0 and "1 passed, 0 failed" in plain.output


def test_occurrence_names_one_of_several_places_in_a_rule(tmp_path: Path) -> None:
    # Two '>=' in one condition: the listing names the second without a line number.
    text = (ROOT / RULES).read_text(encoding="utf-8").replace('"tricks(s) >= 2"', '"tricks(s) >= 2 and s >= 0"')
    (tmp_path / "rules.yaml").write_text(text, encoding="utf-8")
    rule = "hand.phases[scoring].effects[most-tricks].when"
    found = [m for m in enumerate_mutants([read_yaml_file(tmp_path / "rules.yaml")])
             if m.rule == rule and m.change == "'>=' -> '>'"]
    assert [m.occurrence for m in found] == [1, 2] and found[0].col < found[1].col
    second = Equivalent(None, rule, 2, "'>=' -> '>'", "seat numbers are never negative", SourcePos("m.yaml", 1, 1))
    assert [second.matches(m) for m in found] == [False, True]
    # Lines added above the rule move its place but not its occurrence.
    (tmp_path / "rules.yaml").write_text("# a comment\n# another\n" + text, encoding="utf-8")
    moved = [m for m in enumerate_mutants([read_yaml_file(tmp_path / "rules.yaml")])
             if m.rule == rule and m.change == "'>=' -> '>'"]
    assert [m.line for m in moved] == [m.line + 2 for m in found]
    assert [second.matches(m) for m in moved] == [False, True]


def test_a_wrong_or_stale_listing_fails_the_run(tiny_copy: Path) -> None:
    lines = (tiny_copy / "rules.yaml").read_text(encoding="utf-8").splitlines()
    n = next(i for i, line in enumerate(lines, 1) if 'when: "tricks(s) >= 2"' in line)
    killed_at = f"tiny/rules.yaml:{n}:{lines[n - 1].index('>=') + 1}"
    (tiny_copy / "scenarios" / "mutants.yaml").write_text(
        "equivalent:\n"
        f"  - {{at: '{killed_at}', change: \"'>=' -> '>'\", reason: wrongly listed}}\n"
        "  - {at: 'tiny/rules.yaml:1:1', change: \"'<' -> '<='\", reason: no such mutant}\n", encoding="utf-8")
    r = CliRunner().invoke(cli, ["test", "--mutate", "tiny/scenarios"])
    assert r.exit_code == 1
    assert f"the mutant {killed_at}: '>=' -> '>' is listed as equivalent, but it is killed" in r.output
    assert "no mutant tiny/rules.yaml:1:1: '<' -> '<=' (was the rule file edited?)" in r.output


def test_validate_checks_a_mutants_list(tiny_copy: Path) -> None:
    (tiny_copy / "mutants.yaml").write_text("equivalent:\n  - {at: 'tiny/rules.yaml:3:4', change: x}\n",
                                            encoding="utf-8")
    r = CliRunner().invoke(cli, ["validate", "tiny/mutants.yaml"])
    assert r.exit_code == 1
    assert "tiny/mutants.yaml:2:5: error:" in r.output and "reason" in r.output


def test_a_scenario_failing_as_written_is_left_out_and_fails_the_run(tiny_copy: Path) -> None:
    scenario = tiny_copy / "scenarios" / "two-tricks-win-the-bonus.yaml"
    shutil.copy(scenario, tiny_copy / "scenarios" / "wrong.yaml")
    wrong = tiny_copy / "scenarios" / "wrong.yaml"
    wrong.write_text(wrong.read_text(encoding="utf-8").replace("scores: [0, 10]", "scores: [0, 11]"), encoding="utf-8")
    r = CliRunner().invoke(cli, ["test", "--mutate", "tiny/scenarios", "--format", "json"])
    assert r.exit_code == 1
    out = json.loads(r.output)
    assert out["scenarios"]["total"] == 2 and out["scenarios"]["passing"] == 1
    (failure,) = out["scenarios"]["failing_as_written"]
    assert failure.startswith("tiny/scenarios/wrong.yaml: ") and "scores: expected [0, 11], got [0, 10]" in failure


def test_a_listing_whose_rule_path_is_near_a_mutants_suggests_it(tiny_copy: Path) -> None:
    # The rule path guessed wrong (an effect by its place, not its id): the listing says which it meant.
    (tiny_copy / "scenarios" / "mutants.yaml").write_text(
        "equivalent:\n"
        "  - {rule: 'hand.phases[scoring].effects[most-trick].when', change: \"'>=' -> '>'\", reason: a typo}\n"
        "  - {rule: 'nothing.like.it', change: \"'>=' -> '>'\", reason: no such rule}\n", encoding="utf-8")
    r = CliRunner().invoke(cli, ["test", "--mutate", "tiny/scenarios"])
    assert r.exit_code == 1
    assert ("no mutant [hand.phases[scoring].effects[most-trick].when]: '>=' -> '>' "
            "(did you mean rule: \"hand.phases[scoring].effects[most-tricks].when\"?)") in r.output
    assert "no mutant [nothing.like.it]: '>=' -> '>' (was the rule file edited?)" in r.output


def test_a_listed_equivalent_that_random_games_tell_apart_is_reported(tiny_copy: Path) -> None:
    # No scenario sweeps all three tricks, so leaving out the sweep bonus survives; random games do sweep,
    # and score 5 more. The off-suit single worth 1 instead of 0 still never beats a lead (a tie goes to
    # the lead): the games are the same, and that listing stands.
    (tiny_copy / "scenarios" / "mutants.yaml").write_text(
        "equivalent:\n"
        "  - {rule: 'hand.phases[scoring].effects[sweep]', change: \"effect 'sweep' left out\", reason: wrong}\n"
        "  - {rule: 'combinations[single].strength', change: \"'0' -> '1'\", reason: never beats a lead}\n",
        encoding="utf-8")
    r = CliRunner().invoke(cli, ["test", "--mutate", "tiny/scenarios", "--format", "json"])
    assert r.exit_code == 1, r.output
    out = json.loads(r.output)
    (changed,) = out["changed_equivalents"]
    assert changed["change"] == "effect 'sweep' left out"
    assert " ends a hand with other payments or tricks" in changed["detail"] \
        or "another result" in changed["detail"]
    assert {e["change"] for e in out["equivalents"]} == {"effect 'sweep' left out", "'0' -> '1'"}
    text = CliRunner().invoke(cli, ["test", "--mutate", "tiny/scenarios"]).output
    assert "the mutant tiny/rules.yaml:" in text and "effect 'sweep' left out is listed as equivalent, but game" in text
    # Without the games (--equivalent-moves 0) the listing is taken at its word.
    assert CliRunner().invoke(cli, ["test", "--mutate", "tiny/scenarios", "--equivalent-moves", "0"]).exit_code == 0


def test_json_gives_the_figures_of_each_operator(report: MutationReport) -> None:
    by = report.as_json()["by_operator"]
    assert by["compare"]["killed"] >= 1 and by["drop-restriction"] == {
        "mutants": 1, "killed": 1, "survived": 0, "invalid": 0, "equivalent": 0, "kill_rate": 1.0}
    assert sum(f["mutants"] for f in by.values()) == len(report.mutants)
