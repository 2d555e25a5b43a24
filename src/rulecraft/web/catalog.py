"""Which rulesets a browser may ask for, and loading them without reading anything else.

A browser names a ruleset by a bundled name (``my-game``, ``my-game/house``) or by the path of a
rule file inside one of the folders the server was started with (``--rules-dir``). Every file of
the ``extends`` chain is checked to lie in an allowed folder (or among the bundled files) *before*
it is read, so no name, path, symlink or ``extends: ../../secret`` can make the server read, and
quote back in an error message, a file outside them.

Inside an allowed folder only **rule files** are served: a YAML file (not in a hidden folder, at
most ``MAX_DEPTH`` folders down, as listed) whose top level is a ruleset's (``name``, ``seats``,
``pieces``, ``zones``, ``hand``) or an overlay's (``extends``). Anything else there (a compose
file, a configuration with passwords) is refused without a word of its content, so an error page
quotes rule files only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulecraft.errors import UsageError, clip
from rulecraft.rules.registry import YAML_SUFFIXES, bundled_path, bundled_variants_dir, list_bundled, path_target

if TYPE_CHECKING:
    from rulecraft.engine.ruleset import Ruleset
    from rulecraft.rules.compose import Composed

MAX_LOCAL = 200  # rule files listed per allowed folder
MAX_DEPTH = 3  # folders searched below an allowed folder
MAX_REF = 1000  # characters in a ruleset name or path sent by a browser
MAX_OPTIONS = 64  # option assignments in one request


@dataclass
class Catalog:
    roots: list[Path] = field(default_factory=list)  # allowed folders, resolved

    @classmethod
    def of(cls, folders: list[str | Path]) -> Catalog:
        return cls([Path(f).resolve() for f in folders])

    # ------------------------------------------------------------------ listing
    def bundled(self) -> list[str]:
        return list_bundled()

    def local(self) -> list[str]:
        """Rule files (by path) in the allowed folders, a bounded search."""
        found: list[str] = []
        for root in self.roots:
            found.extend(str(p) for p in _yaml_files(root, MAX_DEPTH)[:MAX_LOCAL] if is_rule_file(p))
        return found

    # ------------------------------------------------------------------ checking
    def allowed(self, path: Path) -> bool:
        """``path`` is a bundled rule file, or a rule file in an allowed folder as ``local`` lists them."""
        try:
            real = path.resolve()
        except (OSError, RuntimeError):
            return False
        if real.suffix not in YAML_SUFFIXES:
            return False
        if real.is_relative_to(bundled_variants_dir().resolve()):
            return True
        for root in self.roots:
            if real.is_relative_to(root):
                parts = real.relative_to(root).parts
                return (len(parts) <= MAX_DEPTH + 1 and not any(p.startswith(".") for p in parts)
                        and is_rule_file(real))
        return False

    def file_of(self, ref: str) -> Path:
        """The rule file ``ref`` names, checked with its whole extends chain; UsageError otherwise."""
        if not isinstance(ref, str) or not ref.strip() or len(ref) > MAX_REF or "\x00" in ref:
            raise UsageError("choose a ruleset: a bundled name or a rule file in an allowed folder")
        ref = ref.strip()
        if ref in list_bundled():
            found = bundled_path(ref)
        else:
            p = Path(ref)
            found = path_target(p) if p.is_absolute() and self._inside_root(p) else None
            if found is None or not self.allowed(found):
                raise UsageError(f"'{clip(ref)}' is neither a bundled ruleset nor a rule file in the folders this "
                                 f"server may read ({self.describe_roots()})")
        assert found is not None
        self._check_chain(found)
        return found

    def describe_roots(self) -> str:
        return ", ".join(str(r) for r in self.roots) or "none: start it with --rules-dir DIR"

    def _inside_root(self, p: Path) -> bool:
        try:
            real = p.resolve()
        except (OSError, RuntimeError):
            return False
        return any(real.is_relative_to(r) for r in self.roots)

    def _check_chain(self, path: Path) -> None:
        """Follow ``extends`` from ``path``, refusing a file outside the allowed folders before reading it."""
        from rulecraft.rules.yamlload import read_yaml_file

        current, seen = path, set[Path]()
        while current.resolve() not in seen and len(seen) < 32:
            seen.add(current.resolve())
            doc = read_yaml_file(current)
            ext = doc.data.get("extends") if isinstance(doc.data, dict) else None
            if not isinstance(ext, str) or not ext.strip():
                return  # no (valid) extends: loading reports a bad one in the rule file's own words
            target = path_target(ext, current.parent) or bundled_path(ext)
            if target is None:
                return  # loading says what is missing
            if not self.allowed(target):
                raise UsageError(f"{current.name} extends '{clip(ext)}', which is outside the folders this server "
                                 "may read")
            current = target

    # ------------------------------------------------------------------ loading
    def load(self, ref: str, options: dict[str, str], preset: str | None) -> Ruleset:
        from rulecraft.load import load_ruleset

        return load_ruleset(str(self.file_of(ref)), options, preset)

    def composed(self, ref: str, options: dict[str, str], preset: str | None) -> Composed:
        return self.load(ref, options, preset).composed  # type: ignore[return-value]

    def describe(self, ref: str) -> dict[str, Any]:
        """A ruleset's options and presets, each with its description and source, for the start form."""
        from rulecraft.rules.compose import compose

        c = compose(str(self.file_of(ref)))
        return {
            "ref": ref, "name": c.name, "title": c.title,
            "options": [{"id": o.id, "description": o.description, "source": _text(o.source), "default": o.default,
                         "choices": [{"id": ch.id, "description": ch.description} for ch in o.choices]}
                        for o in c.options],
            "presets": [{"id": p.id, "description": p.description, "source": _text(p.source),
                         "options": dict(p.options)} for p in c.presets],
        }


RULESET_KEYS = frozenset({"name", "seats", "pieces", "zones", "hand"})  # the top level a ruleset must have
_KINDS: dict[tuple[Path, int, int], bool] = {}  # (file, mtime, size) -> is a rule file


def is_rule_file(path: Path) -> bool:
    """A YAML file whose top level is a ruleset's or an overlay's (read once per version of the file)."""
    from rulecraft.errors import RulecraftError
    from rulecraft.rules.yamlload import read_yaml_file

    try:
        info = path.stat()
    except OSError:
        return False
    key = (path, info.st_mtime_ns, info.st_size)
    known = _KINDS.get(key)
    if known is None:
        try:
            data = read_yaml_file(path).data
        except RulecraftError:
            data = None
        known = isinstance(data, dict) and ("extends" in data or set(data) >= RULESET_KEYS)
        if len(_KINDS) > 4 * MAX_LOCAL:
            _KINDS.clear()
        _KINDS[key] = known
    return known


def _text(source: Any) -> str:
    if source is None:
        return ""
    if isinstance(source, (list, tuple)):
        return "; ".join(str(s) for s in source)
    return str(source)


def _yaml_files(root: Path, depth: int) -> list[Path]:
    out: list[Path] = []
    try:
        entries = sorted(root.iterdir())
    except OSError:
        return out
    for p in entries:
        if p.name.startswith("."):
            continue
        if p.is_file() and p.suffix in YAML_SUFFIXES:
            out.append(p)
        elif p.is_dir() and depth > 0 and not p.is_symlink():
            out.extend(_yaml_files(p, depth - 1))
        if len(out) >= MAX_LOCAL:
            break
    return out


def parse_options(form: dict[str, str], rs_options: list[dict[str, Any]]) -> dict[str, str]:
    """``opt.NAME=CHOICE`` fields of a form → options; each must be an option and choice the ruleset has."""
    known = {o["id"]: {c["id"] for c in o["choices"]} for o in rs_options}
    out: dict[str, str] = {}
    for key, value in form.items():
        if not key.startswith("opt.") or value == "":
            continue
        if len(out) >= MAX_OPTIONS:
            raise UsageError("too many options")
        name = key[4:]
        if name not in known:
            raise UsageError(f"unknown option '{clip(name)}'; this ruleset's options: {', '.join(known) or 'none'}")
        if value not in known[name]:
            raise UsageError(f"option {name} has no choice '{clip(value)}'; its choices: "
                             f"{', '.join(sorted(known[name]))}")
        out[name] = value
    return out
