"""What validate keeps between runs (``rulecraft.disk_cache``), and why it is never wrong.

Rule files' located data, expression trees, the schema's verdicts on parts, Python's compile of
generated code and cost estimates are kept in the user's cache directory, keyed by the content they
were made from. These tests pin that a run's output is the same with no cache, an empty one, a warm
one and a damaged one, and that a changed file is never served what was kept for its old content.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from rulecraft import disk_cache
from rulecraft.dsl import compiler as C
from rulecraft.dsl import cost
from rulecraft.dsl import parser as P
from rulecraft.rules import schema_check as S
from rulecraft.rules import yamlload as Y
from rulecraft.rules.registry import bundled_variants_dir
from rulecraft.runs.validate import validate_file

ROOT = Path(__file__).resolve().parents[2]
RULECRAFT = Path(sys.executable).with_name("rulecraft")


def _forget_process_caches() -> None:
    """As in a new process: nothing parsed, checked or compiled yet, no kept table read."""
    P.parse.cache_clear()
    P._trees.cache_clear()
    Y._PARSED.clear()
    Y._documents.cache_clear()
    S._VALID.clear()
    S._SEEN.clear()
    S._verdicts.cache_clear()
    C.compile_generated.cache_clear()
    cost._ESTIMATES.clear()
    cost._kept.cache_clear()
    disk_cache._code.cache_clear()


def _save_tables() -> None:
    """What the process would write at exit."""
    for table in (P._trees(), S._verdicts(), cost._kept(), disk_cache._code()):
        table.save()


@pytest.fixture
def cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv(disk_cache.NO_CACHE_ENV, raising=False)
    _forget_process_caches()
    yield tmp_path / "cache" / "rulecraft"
    _forget_process_caches()


# --------------------------------------------------------------------------- the command, end to end
def _validate(cache_home: Path | None, *paths: str) -> tuple[int, str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("XDG_CACHE_HOME", disk_cache.NO_CACHE_ENV)}
    if cache_home is None:
        env[disk_cache.NO_CACHE_ENV] = "1"
    else:
        env["XDG_CACHE_HOME"] = str(cache_home)
    r = subprocess.run([str(RULECRAFT), "validate", *paths], cwd=ROOT, env=env, capture_output=True, text=True,
                       timeout=600)
    return r.returncode, r.stdout, r.stderr


def _damage(folder: Path, how: str) -> int:
    """Damage every file kept in ``folder``; how many there were."""
    files = [f for f in folder.rglob("*.pickle")]
    for f in files:
        blob = f.read_bytes()
        if how == "truncated":
            f.write_bytes(blob[: len(blob) // 2])
        elif how == "garbage":
            f.write_bytes(os.urandom(len(blob)))
        else:  # another version's file under this version's name: the header names the version
            head, _, rest = blob.partition(b"\n")
            version, _, payload = rest.partition(b"\n")
            f.write_bytes(head + b"\n" + b"0" * len(version) + b"\n" + payload)
    return len(files)


@pytest.mark.parametrize("how", ["truncated", "garbage", "other-version"])
def test_validate_says_the_same_with_no_cache_an_empty_a_warm_and_a_damaged_one(tmp_path: Path, how: str) -> None:
    paths = ("tests/rules/broken", "variants/hearts/base.yaml", "variants/doubt/base.rules")
    expected = _validate(None, *paths)
    assert expected[0] == 1 and "tests/rules/broken/wrong_type.yaml:" in expected[1]  # located errors to keep
    home = tmp_path / "home"
    assert _validate(home, *paths) == expected  # cold: computed, and kept
    kept = home / "rulecraft"
    assert any(kept.glob("rule-documents-*/*.pickle")) and any(kept.glob("expression-trees-*.pickle")) \
        and any(kept.glob("schema-verdicts-*.pickle")) and any(kept.glob("generated-code-*.pickle"))
    assert _validate(home, *paths) == expected  # warm
    assert _damage(kept, how) > 10
    assert _validate(home, *paths) == expected  # damaged: ignored, computed again...
    assert _validate(home, *paths) == expected  # ...and written again, whole
    for table in kept.glob("*.pickle"):
        assert table.read_bytes().startswith(disk_cache._MAGIC)


def test_nothing_is_kept_when_caching_is_off(tmp_path: Path) -> None:
    env_home = tmp_path / "home"
    env = dict(os.environ, XDG_CACHE_HOME=str(env_home), **{disk_cache.NO_CACHE_ENV: "1"})
    r = subprocess.run([str(RULECRAFT), "validate", "variants/doubt/base.rules"], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    assert not env_home.exists() or not any(env_home.rglob("*.*"))


# --------------------------------------------------------------------------- each kind of result, by its key
RULES = f"""\
extends: {bundled_variants_dir() / "rook" / "base.yaml"}
name: kept
description: first words
constants: {{target: 300}}
"""


def test_a_changed_file_is_read_anew_not_served_its_old_document(cache: Path, tmp_path: Path) -> None:
    f = tmp_path / "mine.yaml"
    f.write_text(RULES)
    assert Y.read_yaml_file(f).data["description"] == "first words"
    assert any(cache.glob("rule-documents-*/*.pickle"))
    _forget_process_caches()
    f.write_text(RULES.replace("first words", "other words"))  # the same size, the same name
    assert Y.read_yaml_file(f).data["description"] == "other words"
    _forget_process_caches()
    f.write_text(RULES)
    doc = Y.read_yaml_file(f)
    assert Y._documents().get(Y._document_key(f.read_bytes(), doc.file, Y.parse_yaml_text)) is not None
    assert doc.data["description"] == "first words" and doc.data.pos.file == doc.file


def test_a_part_made_invalid_is_reported_though_its_valid_form_was_kept(cache: Path, tmp_path: Path) -> None:
    f = tmp_path / "mine.yaml"
    f.write_text(RULES + "seats: {count: 4}\n")
    assert validate_file(f).ok
    _save_tables()
    _forget_process_caches()
    f.write_text(RULES + "seats: {count: four}\n")  # the same place, found valid with 4 by the last run
    report = validate_file(f)
    assert [d.message for d in report.diagnostics] == ["expected a whole number for 'count', got the string 'four'"]
    _forget_process_caches()
    f.write_text(RULES + "seats: {count: 4}\n")
    assert validate_file(f).ok  # and the kept verdicts still serve the valid form


def test_expression_trees_are_kept_by_their_whole_text(cache: Path) -> None:
    texts = ["a + b * 2", "a - b * 2", "a + b * 3", "(a + b) * 2"]
    fresh = [P._parse(t) for t in texts]
    assert [P.parse(t) for t in texts] == fresh
    _save_tables()
    _forget_process_caches()
    assert len(P._trees()._load()) == len(texts)
    assert [P.parse(t) for t in reversed(texts)] == list(reversed(fresh))


def test_a_kept_table_that_cannot_be_read_is_ignored_and_written_again(cache: Path) -> None:
    table = disk_cache.Table("test-table", disk_cache.version_of("one"), limit=10)
    table.put("k", 1)
    table.save()
    path = next(cache.glob("test-table-*.pickle"))
    whole = path.read_bytes()
    magic, version, rest = whole.split(b"\n", 2)
    for damaged in (whole[:-3], b"not a cache file", b"\n".join((magic, b"0" * len(version), rest))):
        path.write_bytes(damaged)
        again = disk_cache.Table("test-table", disk_cache.version_of("one"), limit=10)
        assert again.get("k") is None
        again.save()  # written again though nothing was added: the file was unreadable
        assert disk_cache.Table("test-table", disk_cache.version_of("one"), limit=10).get("k") is None
        assert path.read_bytes().startswith(disk_cache._MAGIC)
    other = disk_cache.Table("test-table", disk_cache.version_of("two"), limit=10)
    assert other.get("k") is None  # another version has a file of its own


def test_a_table_keeps_what_the_last_run_used_within_its_limit(cache: Path) -> None:
    version = disk_cache.version_of("limit")
    table = disk_cache.Table("test-limit", version, limit=4)
    for i in range(6):
        table.put(f"k{i}", i)
    table.save()
    kept = disk_cache.Table("test-limit", version, limit=4)
    assert [kept.get(f"k{i}") for i in range(6)] == [None, None, 2, 3, 4, 5]


def test_kept_code_that_is_not_code_is_compiled_again(cache: Path) -> None:
    source, name = "x = 1 + 2\n", "<test>"
    code = disk_cache.compiled(source, name, lambda: compile(source, name, "exec"))
    entries = disk_cache._code()._entries
    assert entries is not None and len(entries) == 1
    disk_cache._code().put(next(iter(entries)), b"\x00garbage")
    again = disk_cache.compiled(source, name, lambda: compile(source, name, "exec"))
    assert again == code
    namespace: dict[str, object] = {}
    exec(again, namespace)
    assert namespace["x"] == 3


def test_a_full_shelf_loses_its_older_half_when_a_process_first_adds_to_it(cache: Path) -> None:
    version = disk_cache.version_of("shelf")
    first = disk_cache.Shelf("test-shelf", version, limit=4)
    for i in range(4):
        first.put(b"k%d" % i, i)
    files = {i: next(cache.glob("test-shelf-*")) / disk_cache.Shelf._name(b"k%d" % i) for i in range(4)}
    for i, f in files.items():
        os.utime(f, (1_000_000 + i, 1_000_000 + i))  # written in this order
    later = disk_cache.Shelf("test-shelf", version, limit=4)
    assert [later.get(b"k%d" % i) for i in range(4)] == [0, 1, 2, 3]
    later.put(b"k4", 4)
    assert [later.get(b"k%d" % i) for i in range(5)] == [None, None, 2, 3, 4]
