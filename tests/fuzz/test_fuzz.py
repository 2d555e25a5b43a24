"""A short fuzz run in the suite: every input kind rulecraft reads, held to the contract of ``harness``.

Derandomized, so CI sees the same inputs every run (and a failure is reproducible); the long run
(``run_long.py``, random, a million inputs) is run by hand. Each target gets a few seconds.
"""

from __future__ import annotations

from typing import Any

import harness
import textform
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

SHORT = settings(derandomize=True, deadline=None, database=None, print_blob=True,
                 suppress_health_check=list(HealthCheck))


@settings(SHORT, max_examples=300)
@given(harness.EXPRESSION_TEXT, harness.ASSIGNMENTS)
def test_expressions_and_eval(text: str, assignments: dict[str, Any]) -> None:
    harness.check("expression", lambda: harness.target_expression(text, assignments), text)


@settings(SHORT, max_examples=150)
@given(harness.EXPRESSION_TEXT)
def test_expressions_where_a_rule_is_written(text: str) -> None:
    harness.check("rule expression", lambda: harness.target_expression_in_ruleset(text), text)


@settings(SHORT, max_examples=150)
@given(harness.YAML_TEXT)
def test_yaml_loader_reads_alike_with_libyaml_and_pyyaml(text: str) -> None:
    harness.check("yaml", lambda: harness.target_yaml(text), text)


@settings(SHORT, max_examples=30)
@given(harness.RULE_FILES, st.sampled_from([0, 0, 1]))
def test_rule_files(text: str, games: int) -> None:
    harness.check("rule file", lambda: harness.target_rule_file(text, simulate=games), text)


@settings(SHORT, max_examples=30)
@given(harness.OVERLAYS)
def test_overlays(overlay: tuple[str, str]) -> None:
    text, name = overlay  # overlay.yaml or overlay.rules, of the tiny rules or a bundled game
    harness.check("overlay", lambda: harness.target_rule_file(text, name), text)


@settings(SHORT, max_examples=30)
@given(harness.SCENARIOS)
def test_scenarios(text: str) -> None:
    harness.check("scenario", lambda: harness.target_scenario(text), text)


@settings(SHORT, max_examples=60)
@given(harness.logs())
def test_logs(lines: list[str]) -> None:
    harness.check("log", lambda: harness.target_log(lines), "\n".join(lines))


@settings(SHORT, max_examples=40)
@given(harness.command_lines())
def test_command_lines(args: list[str]) -> None:
    harness.check("cli", lambda: harness.target_cli(args), " ".join(args), seconds=60)


@settings(SHORT, max_examples=80)
@given(textform.RULES_TEXT)
def test_rules_text_reads_or_is_refused_where_it_is_and_converts_both_ways(text: str) -> None:
    # A whole Tien Gow file read, converted both ways and formatted twice is ~4 s of CPU: room for a busy machine.
    harness.check("rules text", lambda: textform.target_rules_text(text), text, seconds=60)


@settings(SHORT, max_examples=15)
@given(textform.RULES_TEXT)
def test_rules_files_on_the_command_line(text: str) -> None:
    harness.check("rules cli", lambda: textform.target_rules_cli(text), text, seconds=60)
