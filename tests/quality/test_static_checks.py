"""The code stays typed and lint-clean: mypy and ruff run as part of the suite, so CI catches a slip."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=600, check=False)


def test_mypy_finds_no_type_errors() -> None:
    pytest.importorskip("mypy")
    r = _run(sys.executable, "-m", "mypy", "--no-error-summary")
    assert r.returncode == 0, r.stdout + r.stderr


def test_ruff_is_clean() -> None:
    ruff = shutil.which("ruff") or str(Path(sys.executable).with_name("ruff"))
    if not Path(ruff).exists():
        pytest.skip("ruff is not installed")
    r = _run(ruff, "check", "src", "tests", "benchmarks", "examples")
    assert r.returncode == 0, r.stdout + r.stderr


def test_imports_follow_the_layers_and_close_no_cycle() -> None:
    # The contracts are in pyproject.toml ([tool.importlinter]); import-linter is in the test extra, so a
    # missing tool is a broken setup, not a reason to skip.
    lint_imports = Path(sys.executable).with_name("lint-imports")
    r = _run(str(lint_imports), "--no-cache")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "2 kept, 0 broken" in r.stdout, r.stdout
