"""The figures and lists the documentation gives are the code's: generated from it, or checked against it.

A failure names what to do: rerun ``python tests/docs/regenerate.py`` (the README's table of games,
the rule-file sizes of docs/rule-dsl.md), or correct the sentence it quotes.
"""

from __future__ import annotations

import re

import pytest
from regenerate import REGENERATE, ROOT, block, games_table

README = ROOT / "README.md"


def words(text: str) -> str:
    """Lower case, hyphens and line ends as spaces: how a name is looked for in prose."""
    return " ".join(text.lower().replace("-", " ").split())


def test_the_readme_lists_every_bundled_ruleset_with_its_options() -> None:
    shown = block(README.read_text(encoding="utf-8"), "games")
    assert shown is not None, "README.md lost its <!-- games --> ... <!-- /games --> markers"
    assert shown == games_table(), f"README.md's table of bundled games is stale: run {REGENERATE}"


def test_the_rule_file_sizes_are_those_of_the_files_as_they_are() -> None:
    # Within 5% (a citation edited does not make the table wrong); a file added or gone is never within.
    import importlib.util

    spec = importlib.util.spec_from_file_location("rules_sizes", ROOT / "benchmarks" / "rules_sizes.py")
    assert spec is not None and spec.loader is not None
    rules_sizes = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(rules_sizes)
    now: dict[str, tuple[int, int]] = rules_sizes.sizes()
    now["all"] = (sum(y for y, _ in now.values()), sum(t for _, t in now.values()))
    table = block((ROOT / "docs" / "rule-dsl.md").read_text(encoding="utf-8"), "sizes")
    assert table is not None, "docs/rule-dsl.md lost its <!-- sizes --> markers"
    shown = {}
    for row in table.splitlines()[2:]:
        name, yaml, text, ratio = (c.strip().strip("`") for c in row.strip("|").split("|"))
        shown[name] = (int(yaml.replace(",", "")), int(text.replace(",", "")), int(ratio.rstrip("%")))
    fix = f"run python benchmarks/rules_sizes.py --write (or {REGENERATE})"
    assert set(shown) == set(now), f"docs/rule-dsl.md's sizes name other files than variants/ holds: {fix}"
    for name, (yaml, text) in now.items():
        was_yaml, was_text, was_ratio = shown[name]
        close = abs(was_yaml - yaml) <= 0.05 * yaml and abs(was_text - text) <= 0.05 * text
        assert close and abs(was_ratio - 100 * text / yaml) <= 1.5, (
            f"docs/rule-dsl.md: {name} is shown as {was_yaml:,} / {was_text:,} characters, now {yaml:,} / {text:,}: "
            f"{fix}")


def test_the_readme_says_what_tests_dogfood_holds() -> None:
    # A game written from the docs alone waits in tests/dogfood/ until it meets the library's bar: the
    # README names each one waiting, or says that every one written so far is bundled.
    readme = README.read_text(encoding="utf-8")
    m = re.search(r"runs `tests/dogfood/`, where a game written from the docs alone", readme)
    assert m, "README.md no longer says what tests/dogfood/ is for (the sentence this test reads)"
    games = sorted(p.name for p in (ROOT / "tests" / "dogfood").iterdir() if p.is_dir() and not p.name.startswith("_"))
    prose = words(readme[m.start():readme.index("`tests/hardening/`", m.start())])
    missing = [g for g in games if words(g) not in prose]
    assert not missing, f"README.md's list of dogfood games does not name {', '.join(missing)}"
    if not games:
        assert "bundled now" in prose, "tests/dogfood/ holds no game: README.md should say they are all bundled"


def test_the_readme_describes_each_example_program() -> None:
    # The README lists what examples/ holds, one description a program: a program added must be described.
    readme = " ".join(README.read_text(encoding="utf-8").split())
    m = re.search(r"`examples/` has short programs \(([^)]*)\)", readme)
    assert m, "README.md no longer lists the programs of examples/ (the sentence this test reads)"
    described = re.split(r",(?: and)? ", m.group(1))
    programs = sorted(p.name for p in (ROOT / "examples").glob("*.py"))
    assert len(described) == len(programs), (f"README.md describes {len(described)} example programs; examples/ "
                                             f"has {len(programs)}: {', '.join(programs)}")


@pytest.mark.parametrize("page", ["README.md", "benchmarks/README.md",
                                  *sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "docs").glob("*.md"))])
def test_no_page_cites_the_projects_own_issue_numbers(page: str) -> None:
    # Readers have no access to the tracker the project is built with: history stays in git.
    if page in ("docs/security.md", "docs/research-api.md"):
        pytest.skip("kept by other tests")
    text = (ROOT / page).read_text(encoding="utf-8")
    assert not re.search(r"\b[Ii]ssue \d+", text), f"{page} cites an issue number"
