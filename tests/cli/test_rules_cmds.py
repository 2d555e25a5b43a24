"""``rulecraft validate / list / explain / diff / schema`` as a user runs them (exit codes included)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rulecraft.cli.options import parse_option_assignments
from rulecraft.errors import UsageError

ROOT = Path(__file__).resolve().parents[2]
BROKEN = "tests/rules/broken"


def run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rulecraft.cli.main", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=120)


def test_bundled_variants_validate() -> None:
    # CI fails here when a bundled rule file (or any of its options and presets) breaks.
    r = run("validate", "variants/")
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stderr == ""
    files = [f for f in (ROOT / "variants").rglob("*") if f.suffix in (".yaml", ".yml", ".rules")]
    assert len(files) >= 13  # (doubt's base is the text form)
    assert r.stdout.startswith(f"ok: {len(files)} files valid"), r.stdout
    # and no warning: no citation names a file that does not ship beside its rule file (runs/citations.py)


def test_bundled_files_validate_and_test_from_any_directory(tmp_path: Path) -> None:
    # After pip install, from a directory with no checkout: the paths name the bundled files.
    r = run("validate", "variants/rook/base.yaml", "luk-fu/four-players", cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.startswith("ok: 2 files valid"), r.stdout
    r = run("test", "tests/scenarios/doubt", "-q", cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.strip().endswith("passed, 0 failed"), r.stdout
    # A ruleset's name means its scenarios (a rule file is not something 'test' runs): every one of them.
    r = run("test", "rook", "-q", cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    rook = len(list((ROOT / "tests" / "scenarios" / "rook").rglob("*.yaml"))) - 1  # less its mutants.yaml
    assert r.stdout.strip() == f"{rook} passed, 0 failed", r.stdout
    r = run("validate", "no-such-dir/", cwd=tmp_path)
    assert r.returncode == 2 and "no such file or directory: no-such-dir/" in r.stderr


def test_validate_reports_file_line_col_and_exits_1() -> None:
    r = run("validate", f"{BROKEN}/wrong_type.yaml", f"{BROKEN}/unknown_key.yaml")
    assert r.returncode == 1
    lines = [line for line in r.stdout.splitlines() if ": error: " in line]
    assert lines == [  # files in the order given, problems in file order
        f"{BROKEN}/wrong_type.yaml:3:10: error: expected a whole number for 'count', got the string 'four'",
        f"{BROKEN}/unknown_key.yaml:6:7: error: unknown key 'folow' in a trick phase (did you mean 'follow'?)",
    ]
    assert "Traceback" not in r.stdout + r.stderr


def test_validate_json() -> None:
    r = run("validate", "--format", "json", f"{BROKEN}/duplicate_key.yaml")
    assert r.returncode == 1
    assert json.loads(r.stdout) == [{"path": f"{BROKEN}/duplicate_key.yaml", "line": 4, "column": 3,
                                     "severity": "error", "message": "duplicate key 'target' (first at line 3)",
                                     "rule_path": ""}]


def test_validate_whole_broken_corpus_never_tracebacks() -> None:
    r = run("validate", BROKEN)
    assert r.returncode == 1
    assert "Traceback" not in r.stdout + r.stderr
    assert "a bug in rulecraft" not in r.stdout


def test_validate_scenario_file(tmp_path: Path) -> None:
    good = tmp_path / "s.yaml"
    good.write_text("name: x\nruleset: rook\nsteps: [bid 70, {move: pass, seat: 2}]\nexpect: {over: false}\n")
    assert run("validate", str(good)).returncode == 0
    bad = tmp_path / "bad.yaml"
    bad.write_text("ruleset: rook\nsteps:\n  - {move: pass, seet: 1}\n")
    r = run("validate", str(bad))
    assert r.returncode == 1
    assert ":3:18: error: unknown key 'seet' in a step (did you mean 'seat'?)" in r.stdout


def test_validate_missing_path_is_usage_error() -> None:
    assert run("validate", "no/such/file.yaml").returncode == 2


def test_list() -> None:
    r = run("list", "--format", "json")
    assert r.returncode == 0
    rook = next(e for e in json.loads(r.stdout) if e["name"] == "rook")
    bird = next(o for o in rook["options"] if o["id"] == "bird_rank")
    assert bird["default"] == "highest"
    assert [c["id"] for c in bird["choices"]] == ["highest", "lowest", "between-10-11"]
    assert {p["id"] for p in rook["presets"]} >= {"tournament", "bird-low"}
    text = run("list").stdout
    assert "-o bird_rank={highest*, lowest, between-10-11}" in text


def test_explain_shows_provenance_and_marks_options() -> None:
    r = run("explain", "rook", "-o", "bird_rank=lowest")
    assert r.returncode == 0, r.stderr
    assert "* constants.bird_rank = 0" in r.stdout
    assert "option bird_rank=lowest" in r.stdout
    assert "  hand.phases[play].first = \"left_of(dealer)\"" in r.stdout
    data = json.loads(run("explain", "rook", "--rule", "hand.phases[play].first", "--format", "json").stdout)
    (rule,) = data["rules"]
    assert (rule["file"], rule["layer"]) == ("variants/rook/base.yaml", "base variants/rook/base.yaml")


def test_explain_unknown_option_is_usage_error() -> None:
    r = run("explain", "rook", "-o", "bird_rnak=lowest")
    assert r.returncode == 2
    assert "did you mean 'bird_rank'" in r.stderr


def test_explain_bad_option_syntax() -> None:
    r = run("explain", "rook", "-o", "bird_rank")
    assert r.returncode == 2
    assert "NAME=CHOICE" in r.stderr


def test_diff_two_option_sets() -> None:
    r = run("diff", "rook", "rook", "-b", "first_lead=left-of-bidder")
    assert r.returncode == 0, r.stderr
    assert "hand.phases[play].first" in r.stdout
    assert "option first_lead=left-of-bidder" in r.stdout
    data = json.loads(run("diff", "rook", "rook", "--format", "json").stdout)
    assert data["differences"] == []


def test_schema_command() -> None:
    for kind in ("ruleset", "overlay", "scenario"):
        r = run("schema", "--kind", kind)
        assert r.returncode == 0
        assert json.loads(r.stdout)["$id"].endswith(f"{kind}.schema.json")


def test_house_rule_walkthrough(tmp_path: Path) -> None:
    house = tmp_path / "house.yaml"
    house.write_text("extends: rook\nname: rook-500\nconstants:\n  target: 500\n")
    assert run("validate", str(house)).returncode == 0
    r = run("explain", str(house), "--rule", "constants.target")
    assert "constants.target = 500" in r.stdout
    assert "overlay" in r.stdout


@pytest.mark.parametrize("items, expected", [
    ((), {}),
    (("a=b", " c = d "), {"a": "b", "c": "d"}),
    (("a=b", "a=b"), {"a": "b"}),
])
def test_parse_option_assignments(items: tuple[str, ...], expected: dict[str, str]) -> None:
    assert parse_option_assignments(items) == expected


@pytest.mark.parametrize("items", [("a",), ("=b",), ("a=",), ("a b=c",), ("a=b", "a=c")])
def test_parse_option_assignments_refuses(items: tuple[str, ...]) -> None:
    with pytest.raises(UsageError):
        parse_option_assignments(items)


def test_the_command_table_matches_each_command() -> None:
    # `rulecraft --help` lists commands from a table so that it imports none of them; it must say
    # what each command's own help says.
    import inspect

    from rulecraft.cli.main import COMMANDS, load_command

    for name, (_, text) in COMMANDS.items():
        first = inspect.cleandoc(load_command(name).help or "").split("\n\n")[0].replace("\n", " ")
        assert text == first, name


def test_help_imports_no_command_module() -> None:
    code = ("import sys; sys.argv = ['rulecraft', '--help']\n"
            "from rulecraft.cli.main import cli\n"
            "try:\n    cli()\nexcept SystemExit:\n    pass\n"
            "heavy = [m for m in sys.modules if m.startswith(('rulecraft.engine', 'rulecraft.dsl', 'lark', "
            "'rulecraft.cli.play', 'jsonschema'))]\n"
            "print(heavy)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip().endswith("[]"), out


def test_validate_pauses_the_cycle_collector_and_always_restores_it(monkeypatch: pytest.MonkeyPatch) -> None:
    # validate turns Python's automatic cycle collection off while it checks files (it only costs time
    # there), collects between files every so many configurations, and leaves the collector as it was,
    # whatever the outcome; with --simulate the collector stays on.
    import gc

    from click.testing import CliRunner

    from rulecraft.cli import rules_cmds
    from rulecraft.cli.main import cli
    from rulecraft.runs import validate as V

    seen: list[bool] = []
    frozen: list[int] = []
    real = V.validate_file

    def spy(*args: object, **kwargs: object) -> object:
        seen.append(gc.isenabled())
        frozen.append(gc.get_freeze_count())
        return real(*args, **kwargs)  # type: ignore[arg-type]

    collections: list[int] = []

    def count(phase: str, info: dict[str, int]) -> None:
        if phase == "start" and info["generation"] == 2:
            collections.append(1)

    monkeypatch.setattr(V, "validate_file", spy)
    monkeypatch.setattr(rules_cmds, "_COLLECT_EVERY", 12)
    gc.callbacks.append(count)
    try:
        assert gc.isenabled()
        r = CliRunner().invoke(cli, ["validate", "variants/rook/base.yaml", "variants/doubt/base.yaml",
                                     "variants/tien-gow/bunmu-son.yaml"], catch_exceptions=False)
        assert r.exit_code == 0, r.output
        assert seen == [False, False, False] and gc.isenabled()
        assert len(collections) >= 1  # rook and doubt together have more than 12 configurations
        # What the checks made is frozen at the end (the process exits next: no scan of it), and collected
        # as usual again when another validate starts in the same process.
        assert gc.get_freeze_count() > 0
        frozen.clear()
        r = CliRunner().invoke(cli, ["validate", f"{BROKEN}/wrong_type.yaml"])
        assert r.exit_code == 1 and gc.isenabled()
        assert frozen == [0]
        r = CliRunner().invoke(cli, ["validate", "no-such-dir/"])
        assert r.exit_code != 0 and gc.isenabled()  # a usage error (exit 2 through run_cli)
        seen.clear()
        r = CliRunner().invoke(cli, ["validate", "--simulate", "1", "variants/doubt/base.yaml"])
        assert r.exit_code == 0, r.output
        assert seen == [True]
    finally:
        gc.callbacks.remove(count)
        gc.unfreeze()
        gc.enable()
