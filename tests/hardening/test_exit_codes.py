"""Exit codes: 0 done, 1 a problem in what was given (a rule file, scenario, log), 2 a usage error
(an argument naming what does not exist), 3 a bug in rulecraft (never expected: reported in one line)."""

from __future__ import annotations

import json
import re

import pytest
from cli_support import Cli

from rulecraft.rules.registry import list_bundled


@pytest.mark.parametrize(("args", "code", "message"), [
    (["explain", "tiny.yaml", "--rule", "constantz"], 2,
     "error: --rule constantz: tiny has no rule at or under that path (did you mean 'constants'?); rule paths look "
     "like constants, hand.phases[play].first"),
    (["explain", "tiny.yaml", "--rule", "hand.phases[plya]"], 2,
     "error: --rule hand.phases[plya]: tiny has no rule at or under that path (did you mean 'hand.phases[play]'?); "
     "rule paths look like constants, hand.phases[play].first"),
    (["validate", "empty"], 2, "error: no rule files (*.yaml, *.yml, *.rules) in empty"),
    (["replay", "game.jsonl", "--ruleset", "tiny.yaml"], 1,
     "game.jsonl:1:1: error: cannot load the ruleset this log was played under: unknown option 'nope' for ruleset "
     "'tiny'; options: bonus"),
    (["replay", "saved.jsonl"], 1,
     "saved.jsonl:1:1: error: cannot load the ruleset this log was played under: unknown ruleset 'tiny'; bundled "
     f"rulesets: {', '.join(list_bundled())}; or give the path of a rule file (a game played from a rule file of "
     "your own: name that file, as in 'replay saved.jsonl --ruleset FILE' or 'play FILE --resume saved.jsonl')"),
])
def test_exit_code_and_message(cli: Cli, args: list[str], code: int, message: str) -> None:
    cli.tiny()
    (cli.cwd / "empty").mkdir()
    assert cli("play", "tiny.yaml", "--seed", "2", "--log", "saved.jsonl").code == 0
    lines = (cli.cwd / "saved.jsonl").read_text().splitlines()
    header = json.loads(lines[0])
    header["ruleset"]["options"]["nope"] = "x"
    cli.write("game.jsonl", "\n".join([json.dumps(header), *lines[1:]]) + "\n")
    r = cli(*args)
    assert (r.code, r.out, r.err) == (code, "", message + "\n")


def test_explain_of_a_rule_that_exists_prints_it(cli: Cli) -> None:
    cli.tiny()
    r = cli("explain", "tiny.yaml", "--rule", "constants")
    assert r.code == 0 and "constants.bonus = 10" in r.out


def test_a_bug_is_one_line_and_exit_3(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    # Any exception that is not a user error is a bug: reported without a traceback, with where it happened.
    def broken(kind: str) -> str:
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr("rulecraft.rules.schema_check.schema_text", broken)
    r = cli("schema")
    assert (r.code, r.out) == (3, "")
    # where: the last place in rulecraft's own code (here, the schema command calling the broken function)
    assert re.fullmatch(r"internal error: ZeroDivisionError: division by zero at rules_cmds\.py:\d+ \(a bug in "
                        r"rulecraft, please report it; RULECRAFT_TRACEBACK=1 shows the traceback\)\n", r.err), r.err
