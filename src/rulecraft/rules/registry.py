"""Where rule files and schemas live, and what a RULESET argument names.

A RULESET argument is either a path (a file; a directory means its ``base.yaml``, or its
``base.rules`` when it has no ``base.yaml``) or the name of a bundled ruleset: ``my-game`` is
``variants/my-game/base.yaml`` and ``my-game/house`` is ``variants/my-game/house.yaml`` (or the
same names in ``.rules``, the text form). An existing path always wins over a bundled name.

Bundled files are found in the installed package (``rulecraft/_bundled/{variants,schemas,scenarios}``,
which the wheel force-includes) and, when running from a source checkout (an editable install), in the
repository's top-level ``variants/`` and ``schemas/`` and in ``tests/scenarios/``.
"""

from __future__ import annotations

import difflib
import errno
import os
from pathlib import Path

from rulecraft.errors import UsageError, clip

BASE_FILE = "base.yaml"
YAML_SUFFIXES = (".yaml", ".yml")
RULES_SUFFIX = ".rules"
RULE_SUFFIXES = (*YAML_SUFFIXES, RULES_SUFFIX)
"""Rule files: YAML, or the text form (``docs/rule-dsl.md``). Where both name the same file, YAML is read."""
BASE_FILES = (BASE_FILE, "base.rules")


def base_file(directory: Path) -> Path | None:
    """A directory's base rule file: ``base.yaml``, else ``base.rules``."""
    return next((directory / b for b in BASE_FILES if (directory / b).is_file()), None)


def _repo_root() -> Path:
    # src/rulecraft/rules/registry.py -> the checkout's root
    return Path(__file__).resolve().parents[3]


def _bundled(kind: str) -> Path:
    # The installed package's own directory (importlib.resources would give the same place for a
    # package on disk, and costs every command ~20 ms of imports: tempfile, shutil, zipfile, random).
    packaged = Path(__file__).resolve().parents[1] / "_bundled" / kind
    if packaged.is_dir():
        return packaged
    return _repo_root() / kind


def bundled_variants_dir() -> Path:
    """The directory of bundled rule files (``variants/``)."""
    return _bundled("variants")


def bundled_scenarios_dir() -> Path:
    """The directory of the bundled rulesets' scenario suites (``tests/scenarios/<game>/`` in a checkout)."""
    packaged = _bundled("scenarios")
    return packaged if packaged.is_dir() else _repo_root() / "tests" / "scenarios"


def bundled_input(text: str) -> Path | None:
    """A path given on the command line that does not exist here but names bundled files: ``variants``
    or ``variants/my-game/base.yaml`` (as in a checkout, from any directory), a bundled ruleset's name
    (``my-game``, ``my-game/house``), or ``scenarios/my-game`` / ``tests/scenarios/my-game``."""
    parts = Path(text.strip()).parts
    if not parts or ".." in parts or Path(text).is_absolute():
        return None
    roots = {"variants": bundled_variants_dir(), "schemas": schemas_dir(), "scenarios": bundled_scenarios_dir()}
    if parts[:2] == ("tests", "scenarios"):
        parts = parts[1:]
    if parts[0] in roots:
        candidate = roots[parts[0]].joinpath(*parts[1:])
        return candidate if candidate.exists() else None
    return bundled_path(text)


def schemas_dir() -> Path:
    """The directory holding ``ruleset.schema.json``, ``overlay.schema.json`` and ``scenario.schema.json``."""
    return _bundled("schemas")


def list_bundled() -> list[str]:
    """Names of every bundled ruleset: ``game`` for ``game/base.yaml``, ``game/file`` for the other files."""
    root = bundled_variants_dir()
    if not root.is_dir():
        return []
    names: list[str] = []
    for game in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith((".", "_"))):
        if base_file(game) is not None:
            names.append(game.name)
        stems: list[str] = []
        for f in sorted(game.iterdir(), key=lambda f: (RULE_SUFFIXES.index(f.suffix) if f.suffix in RULE_SUFFIXES
                                                       else 9, f.name)):
            if f.is_file() and f.suffix in RULE_SUFFIXES and f.stem != "base" and f.stem not in stems:
                stems.append(f.stem)  # a .rules twin of a YAML file is the same ruleset, listed once
        names.extend(f"{game.name}/{stem}" for stem in sorted(stems))
    return names


def bundled_path(name: str) -> Path | None:
    """The file of a bundled name, or None."""
    try:
        return _bundled_path(name)
    except OSError:  # a name the system cannot even look up (too long, say) is no bundled name
        return None


def _bundled_path(name: str) -> Path | None:
    root = bundled_variants_dir()
    name = name.strip().strip("/")
    if not name or ".." in Path(name).parts:
        return None
    parts = name.split("/")
    if len(parts) == 1:
        return base_file(root / parts[0])
    if len(parts) == 2:
        game, stem = parts
        for suffix in RULE_SUFFIXES:
            candidate = root / game / f"{stem}{suffix}"
            if candidate.is_file():
                return candidate
    return None


def path_target(ref: str | Path, relative_to: Path | None = None) -> Path | None:
    """``ref`` as an existing file path (a directory means its base.yaml or base.rules), or None."""
    p = Path(ref)
    if relative_to is not None and not p.is_absolute():
        p = relative_to / p
    try:
        if p.is_dir():
            return base_file(p)
        return p if p.is_file() else None
    except OSError:  # a name the system cannot even look up (too long, say) names no file
        return None


def _not_a_rule_file(p: Path, shown: str) -> str:
    """Why a path that names no rule file does not: there is nothing there, or something that is no file."""
    try:
        os.stat(p)
    except FileNotFoundError:
        return f"{shown}: a symbolic link to a file that does not exist" if p.is_symlink() else \
            f"no such rule file: {shown}"
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return f"{shown}: cannot read it ({exc.strerror or exc})"
        return f"no such rule file: {shown}"  # a name the system cannot look up at all (too long, say)
    return f"{shown}: not a regular file (a rule file is a file of text)"


def resolve_ruleset(ref: str | Path, relative_to: Path | None = None) -> Path:
    """The rule file a RULESET argument names; UsageError (with did-you-mean) when there is none."""
    found = path_target(ref, relative_to) or bundled_path(str(ref))
    if found is not None:
        return found
    text = str(ref)
    p = Path(text)
    if _is_dir(p):
        raise UsageError(f"directory '{clip(text)}' has no {BASE_FILE} (nor base.rules)")
    if p.suffix in RULE_SUFFIXES or "\\" in text or text.startswith((".", "/")):
        raise UsageError(_not_a_rule_file(p, clip(text)))
    known = list_bundled()
    close = difflib.get_close_matches(text, known, n=1) if len(text) <= 100 else []
    hint = f" (did you mean '{close[0]}'?)" if close else ""
    listing = ", ".join(known) if known else "none"
    raise UsageError(f"unknown ruleset '{clip(text)}'{hint}; bundled rulesets: {listing}; or give the path of a rule "
                     "file")


def _is_dir(p: Path) -> bool:
    try:
        return p.is_dir()
    except OSError:
        return False
