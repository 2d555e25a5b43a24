"""``rulecraft validate`` warns about a citation naming a file that is not shipped with the rule file."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from rulecraft.runs.citations import cited_files
from rulecraft.runs.validate import validate_file

ROOT = Path(__file__).resolve().parents[2]
TINY = (ROOT / "tests/runs/tiny/rules.yaml").read_text(encoding="utf-8")


def _ruleset(folder: Path, source: str, extra: str = "") -> Path:
    """The tiny game with its one-line ``source:`` (line 5) replaced, and more top-level keys after it."""
    path = folder / "game.yaml"
    path.write_text(TINY.replace('source: "the tests of rulecraft.runs"', f"source: {source}{extra}"),
                    encoding="utf-8")
    return path


def _warnings(path: Path) -> list[str]:
    report = validate_file(path)
    assert report.ok, [d.format() for d in report.diagnostics]  # a warning never makes a file invalid
    return [d.format() for d in report.diagnostics if d.severity == "warning"]


def test_a_developers_notes_file_is_warned_about_where_it_is_named(tmp_path: Path) -> None:
    path = _ruleset(tmp_path, '"RULES-NOTES.md §4 (the family)"')
    assert _warnings(path) == [
        f"{path}:5:10: warning: the citation names 'RULES-NOTES.md', a file not shipped with this rule file "
        f"(no such file beside it in {tmp_path}): a reader cannot open it"]


def test_notes_shipped_beside_the_rule_file_are_no_warning(tmp_path: Path) -> None:
    path = _ruleset(tmp_path, '"notes.md §4 (the family)"')
    (tmp_path / "notes.md").write_text("# Notes\n\n## §4 The family\n", encoding="utf-8")
    assert _warnings(path) == []
    (tmp_path / "notes.md").unlink()  # the same citation with the notes gone
    assert len(_warnings(path)) == 1


def test_every_citing_place_is_read_options_presets_unsupported_and_notes(tmp_path: Path) -> None:
    extra = ('\nnotes: ["per seeds/003_9de129c52cb7cdd0.txt, the dealing paragraph"]'
             '\nunsupported: [{id: x, description: "x", reason: "x", source: "shared/RULES-NOTES.md §2"}]'
             '\npresets: [{id: p, description: "p", source: "/work/shared/seeds/004.txt", options: {bonus: ten}}]')
    path = _ruleset(tmp_path, '"a book"', extra)
    path.write_text(path.read_text(encoding="utf-8").replace(
        '    description: "What taking most tricks is worth."\n',
        '    description: "What taking most tricks is worth."\n    source: "a/b/c.txt"\n'), encoding="utf-8")
    named = [w.split("names '")[1].split("'")[0] for w in _warnings(path)]
    assert sorted(named) == ["/work/shared/seeds/004.txt", "a/b/c.txt", "seeds/003_9de129c52cb7cdd0.txt",
                             "shared/RULES-NOTES.md"]


def test_addresses_books_and_sites_are_not_files() -> None:
    text = ("hearts-online.org, 'Rules' (http://hearts-online.org/rules.html); sites.google.com/view/x/rules.html; "
            "www.example.org/notes.md; Olbanes, Rook in a Book (1999), ISBN 1-891056-25-5; game.yaml §2; "
            "「ゆくし」 page (notes.md §4)")
    assert [name for _, name in cited_files(text)] == ["game.yaml", "notes.md"]


def test_the_text_form_is_read_too(tmp_path: Path) -> None:
    # Doubt's text form cites its notes.md; copied away from them, each citation of them is warned about.
    copy = tmp_path / "base.rules"
    copy.write_text((ROOT / "variants/doubt/base.rules").read_text(encoding="utf-8"), encoding="utf-8")
    warnings = _warnings(copy)
    assert warnings and all("names 'notes.md'" in w for w in warnings)
    assert warnings[0].startswith(f"{copy}:13:6: warning: ")  # the source list's last item, where the name starts
    (tmp_path / "notes.md").write_text((ROOT / "variants/doubt/notes.md").read_text(encoding="utf-8"),
                                       encoding="utf-8")
    assert _warnings(copy) == []


def test_validate_prints_the_warning_and_exits_0(tmp_path: Path) -> None:
    path = _ruleset(tmp_path, '"shared/RULES-NOTES.md §4"')
    r = subprocess.run([sys.executable, "-m", "rulecraft.cli.main", "validate", str(path)], capture_output=True,
                       text=True, timeout=120, cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.splitlines()[0].startswith("game.yaml:5:10: warning: the citation names 'shared/RULES-NOTES.md'")
    assert r.stdout.splitlines()[-1].startswith("ok: 1 file valid")
    r = subprocess.run([sys.executable, "-m", "rulecraft.cli.main", "validate", "--format", "json", str(path)],
                       capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert r.returncode == 0
    assert [(d["line"], d["column"], d["severity"]) for d in json.loads(r.stdout)] == [(5, 10, "warning")]


def test_every_section_the_bundled_files_cite_is_in_their_notes() -> None:
    # "notes.md §3" in a rule file (or "variants/<game>/notes.md §3" in a scenario) names a section that exists:
    # each game's notes.md heads its sections "## §N ...".
    import re

    cited = re.compile(r"notes\.md (§\d+(?:-§\d+)?)((?:, §\d+| and §\d+)*)")
    missing = []
    for game in sorted(p for p in (ROOT / "variants").iterdir() if p.is_dir()):
        notes = game / "notes.md"
        files = [*game.glob("*.yaml"), *game.glob("*.rules"), *(ROOT / "tests/scenarios" / game.name).glob("*.yaml")]
        text = "\n".join(f.read_text(encoding="utf-8") for f in files)
        wanted = {int(n) for m in cited.finditer(text) for n in re.findall(r"§(\d+)", m.group(0))}
        if not wanted:
            continue
        have = {int(n) for n in re.findall(r"^## §(\d+) ", notes.read_text(encoding="utf-8"), re.M)}
        missing += [f"{game.name} §{n}" for n in sorted(wanted - have)]
    assert missing == []
