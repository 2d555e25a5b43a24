"""The library a user sees: every bundled game has a family, `rulecraft list` groups the games by it, and
docs/games/<family>.md is the rule files' own words (made by scripts/games_docs.py)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from click.testing import CliRunner

from rulecraft.cli.main import cli
from rulecraft.rules.library import FAMILIES, bundled_entries, by_family
from rulecraft.rules.registry import list_bundled, schemas_dir

ROOT = Path(__file__).resolve().parents[2]


def _script() -> object:
    spec = importlib.util.spec_from_file_location("games_docs", ROOT / "scripts" / "games_docs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_family_pages_are_made_from_the_rule_files() -> None:
    pages = _script().pages()  # type: ignore[attr-defined]
    on_disk = {p.name: p.read_text(encoding="utf-8") for p in (ROOT / "docs" / "games").glob("*.md")}
    assert set(pages) == set(on_disk), "run python scripts/games_docs.py"
    for name, text in pages.items():
        assert on_disk[name] == text, f"docs/games/{name} differs from the rule files: run python scripts/games_docs.py"


def test_every_bundled_game_names_a_family_the_schema_knows() -> None:
    schema = json.loads((schemas_dir() / "ruleset.schema.json").read_text(encoding="utf-8"))
    assert schema["properties"]["family"]["enum"] == list(FAMILIES)
    for entry in bundled_entries():
        assert entry.composed is not None, entry.error
        assert entry.composed.data.get("family") in FAMILIES, f"{entry.name} names no family"


def test_each_game_is_on_its_familys_page_with_its_options() -> None:
    page = (ROOT / "docs" / "games" / "shedding.md").read_text(encoding="utf-8")
    assert "## Crazy Eights (two to five players, eights wild)" in page
    assert "- `-o empty_stock=...`: What happens when the stock runs out." in page
    assert "  - `reshuffle`: The discard pile but its top card is shuffled to make a new stock." in page
    assert "## Hearts" not in page
    assert "--preset openspiel" in (ROOT / "docs" / "games" / "trick-taking.md").read_text(encoding="utf-8")


def test_list_groups_the_games_by_family() -> None:
    runner = CliRunner()
    text = runner.invoke(cli, ["list"]).output
    lines = [line for line in text.splitlines() if not line.startswith(" ")]
    groups = by_family(bundled_entries())
    games = [name for name in list_bundled() if "/" not in name]
    assert lines[-1] == f"{len(games)} games in {len(groups)} families"
    for family, members in groups:
        head = lines.index(f"{family.title} ({sum('/' not in m.name for m in members)} games)")
        assert [line.split("  ")[0] for line in lines[head + 1:head + 1 + len(members)]] == [m.name for m in members]
    climbing = next(line for line in lines if line.startswith("Climbing games ("))
    assert lines.index("hearts  Hearts (four players)") < lines.index(climbing) \
        < lines.index("president  President (four players)")
    data = json.loads(runner.invoke(cli, ["list", "--format", "json"]).output)
    assert {e["name"]: e["family"] for e in data}["fan-tan"] == "shedding"
