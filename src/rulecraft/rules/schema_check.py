"""JSON Schema checks of overlays, composed rulesets and scenarios, reported where the problem is written.

jsonschema finds the problems; this module turns each into a Diagnostic a newcomer can act on: at
the file:line:col of the offending value (or of the unknown key; or of the mapping a required key is
missing from), in plain words ("expected a whole number for 'count', got the string 'four'"), with a
did-you-mean for misspelt keys and values. For a problem under ``anyOf``/``oneOf`` the most specific
cause is reported (jsonschema's relevance ordering over ``error.context``), never "is not valid under
any of the given schemas".
"""

from __future__ import annotations

import difflib
import functools
import hashlib
import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulecraft.disk_cache import Table, package_files, version_of
from rulecraft.errors import UNKNOWN_POS, Diagnostic, RuleFileError, SourcePos
from rulecraft.rules.excerpt import excerpt
from rulecraft.rules.located import pos_of
from rulecraft.rules.paths import item_noun, rule_path
from rulecraft.rules.registry import schemas_dir

if TYPE_CHECKING:
    import jsonschema
    from jsonschema.exceptions import ValidationError
    from referencing import Registry

    from rulecraft.rules.compose import Composed
    from rulecraft.rules.schema_quick import Check, Judge

SCHEMA_FILES = {
    "ruleset": "ruleset.schema.json",
    "overlay": "overlay.schema.json",
    "scenario": "scenario.schema.json",
    "mutants": "mutants.schema.json",
}
PATCH_REF = "https://rulecraft.dev/schemas/overlay.schema.json#/$defs/patch"


# --------------------------------------------------------------------------- schemas and validators
@functools.cache
def load_schema(kind: str) -> dict[str, Any]:
    """The schema of ``kind`` (ruleset, overlay or scenario) as a dict."""
    if kind not in SCHEMA_FILES:
        raise ValueError(f"unknown schema kind {kind!r}")
    schema: dict[str, Any] = json.loads((schemas_dir() / SCHEMA_FILES[kind]).read_text(encoding="utf-8"))
    return schema


def schema_text(kind: str) -> str:
    return (schemas_dir() / SCHEMA_FILES[kind]).read_text(encoding="utf-8")


@functools.cache
def _registry() -> Registry:
    from referencing import Registry, Resource

    resources = [(load_schema(k)["$id"], Resource.from_contents(load_schema(k))) for k in SCHEMA_FILES]
    return Registry().with_resources(resources)


@functools.cache
def validator(kind: str) -> jsonschema.protocols.Validator:
    """A compiled validator for ``kind``, or ``patch`` (an option choice's patch); cached."""
    # jsonschema is imported when a part is first checked: a run whose parts were all found valid
    # before (``_verdicts``) needs none of it.
    import jsonschema

    return jsonschema.Draft202012Validator(root_schema(kind), registry=_registry())


@functools.cache
def root_schema(kind: str) -> dict[str, Any]:
    """The schema ``validator(kind)`` checks against."""
    return {"$ref": PATCH_REF} if kind == "patch" else load_schema(kind)


# --------------------------------------------------------------------------- entry points
def check_overlay(data: Any, path: str | Path, source_text: str | None = None) -> None:
    """Check an overlay file (a file with ``extends``) against the partial schema."""
    _raise(schema_diagnostics(data, "overlay", _texts(path, source_text)))


def check_scenario(data: Any, path: str | Path, source_text: str | None = None) -> None:
    """Check a scenario file against the scenario schema."""
    _raise(schema_diagnostics(data, "scenario", _texts(path, source_text)))


def check_mutants(data: Any, path: str | Path, source_text: str | None = None) -> None:
    """Check a list of equivalent mutants (a scenario folder's ``mutants.yaml``) against its schema."""
    _raise(schema_diagnostics(data, "mutants", _texts(path, source_text)))


def check_ruleset_data(data: Any, path: str | Path, source_text: str | None = None) -> None:
    """Check one complete rule file's data against the full schema (without composing)."""
    _raise(schema_diagnostics(data, "ruleset", _texts(path, source_text)))


def check_composed(composed: Composed) -> None:
    """Check the effective rules against the full schema, and every option choice's patch against the patch schema."""
    texts = dict(composed.source_text)
    diags = [_near_miss(d, composed.near_misses) for d in schema_diagnostics(composed.data, "ruleset", texts)]
    seen = {(d.pos, d.message) for d in diags}
    options = composed.data.get("options")
    if isinstance(options, list):
        for opt in options:
            if not isinstance(opt, dict) or not isinstance(opt.get("choices"), list):
                continue
            for choice in opt["choices"]:
                if isinstance(choice, dict) and isinstance(choice.get("patch"), dict):
                    prefix = f"options[{opt.get('id')}].choices[{choice.get('id')}].patch"
                    label = f"in the patch of option {opt.get('id')}={choice.get('id')}: "
                    for d in schema_diagnostics(choice["patch"], "patch", texts, prefix):
                        if (d.pos, d.message) not in seen:  # a default's patch is also in the effective data
                            seen.add((d.pos, d.message))
                            diags.append(Diagnostic(d.pos, label + d.message, d.rule_path, d.severity, d.context))
    _raise(diags)


def _near_miss(d: Diagnostic, near: dict[str, tuple[str, str]]) -> Diagnostic:
    """An item a layer added lacks a required key, and its id is close to one that exists: the id is
    surely misspelt (``{id: plya, first: ...}`` meant to change 'play'), so say that first."""
    missing = re.match(r"an? .* needs '([^']+)'", d.message)
    if not missing:
        return d
    for path, (written, meant) in near.items():
        if d.rule_path == path:
            noun = item_noun(path.rsplit("[", 1)[0])
            return Diagnostic(d.pos, f"no {noun} '{written}' to change (did you mean '{meant}'?); as a new {noun} "
                                     f"it would need '{missing.group(1)}'", d.rule_path, d.severity, d.context)
    return d


def _raise(diags: list[Diagnostic]) -> None:
    if diags:
        raise RuleFileError(diags)


def _texts(path: str | Path, source_text: str | None) -> dict[str, str]:
    if source_text is not None:
        return {str(path): source_text}
    try:
        return {str(path): Path(path).read_text(encoding="utf-8-sig")}
    except (OSError, UnicodeDecodeError):
        return {}


# --------------------------------------------------------------------------- translation
# Parts of rule data already found valid, by content: validating a ruleset checks it once per
# option choice and preset, and most parts come out of every composition the same. Only valid
# content is remembered (positions do not matter to it); anything invalid is checked in full.
_VALID: set[tuple[str, str, str]] = set()
_VALID_KEPT = 8192
# Keywords that say nothing about validity (jsonschema ignores them when validating).
_ANNOTATIONS = frozenset({"$schema", "$id", "$defs", "$comment", "title", "description", "examples", "default",
                          "deprecated", "patternErrorMessage"})
_OBJECT_KEYWORDS = frozenset({"type", "properties", "required", "additionalProperties"})
_ARRAY_KEYWORDS = frozenset({"type", "items", "minItems", "maxItems"})


def _known_valid(data: Any, kind: str) -> bool:
    """Whether ``data`` is valid judging by parts already checked, checking only the new ones.

    A schema that is a plain mapping of properties (or a plain list of items) is judged part by part:
    its own few keywords here, each property (each item) on its own, and so on down; every other
    schema validates its part whole. A part found invalid leaves the judgement to the full check,
    which explains the problem."""
    fresh: list[tuple[str, str, str]] = []
    root = root_schema(kind)
    if not _parts_valid(data, root, "#", kind, root, fresh):
        return False
    if len(_VALID) + len(fresh) > _VALID_KEPT:
        _VALID.clear()
    _VALID.update(fresh)
    return True


def _parts_valid(value: Any, schema: Any, where: str, kind: str, root: Any, fresh: list[tuple[str, str, str]]) -> bool:
    """Whether ``value`` is valid under ``schema`` (found at ``where`` in the schema of ``kind``)."""
    schema, where = _deref(schema, where, root)
    container = isinstance(value, (dict, list))
    if container:
        seen = _SEEN.get((kind, where, id(value)))
        if seen is not None and seen is value:
            return True
    if not _judge(value, schema, where, kind, root, fresh):
        return False
    if container:
        if len(_SEEN) >= _VALID_KEPT:
            _SEEN.clear()
        _SEEN[(kind, where, id(value))] = value
    return True


def _judge(value: Any, schema: Any, where: str, kind: str, root: Any, fresh: list[tuple[str, str, str]]) -> bool:
    if isinstance(schema, dict):
        keywords = schema.keys() - _ANNOTATIONS
        if isinstance(value, dict) and keywords <= _OBJECT_KEYWORDS and schema.get("type", "object") == "object" \
                and isinstance(schema.get("additionalProperties", True), bool):
            properties = schema.get("properties", {})
            if any(k not in value for k in schema.get("required", ())):
                return False
            if schema.get("additionalProperties") is False and any(k not in properties for k in value):
                return False
            return all(_parts_valid(v, properties[k], f"{where}/properties/{k}", kind, root, fresh)
                       for k, v in value.items() if k in properties)
        if isinstance(value, list) and keywords <= _ARRAY_KEYWORDS and schema.get("type", "array") == "array" \
                and isinstance(schema.get("items", {}), dict):
            if len(value) < schema.get("minItems", 0) or len(value) > schema.get("maxItems", len(value)):
                return False
            items = schema.get("items", {})
            return all(_parts_valid(v, items, f"{where}/items", kind, root, fresh) for v in value)
    mark = (kind, where, json.dumps(value, sort_keys=True, ensure_ascii=False, default=str))
    if mark not in _VALID:
        digest = hashlib.sha256("\0".join(mark).encode("utf-8", "surrogatepass")).hexdigest()[:40]
        if _verdicts().get(digest) is None:
            if not _quick_valid(kind, where, schema, value):  # jsonschema judges (and explains) the rest
                check = validator(kind) if schema is root else _part_validator(kind, where, schema)
                if next(check.iter_errors(value), None) is not None:
                    return False
            _verdicts().put(digest, True)
        fresh.append(mark)
    return True


def _part_validator(kind: str, where: str, schema: Any) -> jsonschema.protocols.Validator:
    """The validator of the schema at ``where`` in ``kind``'s (one per place: configurations check many parts
    at the same place, and making one costs about as much as a small check)."""
    found = _PART_VALIDATORS.get((kind, where))
    if found is None:
        found = _PART_VALIDATORS[kind, where] = validator(kind).evolve(schema=schema)
    return found


_PART_VALIDATORS: dict[tuple[str, str], jsonschema.protocols.Validator] = {}


def _quick(kind: str, where: str, schema: Any) -> Check | None:
    """The quick yes/no of the schema at ``where`` in ``kind``'s (``schema_quick``), or None where it has none."""
    found = _QUICK.get((kind, where), _NONE)
    if found is _NONE:
        found = _QUICK[kind, where] = _judge_of_schemas().check(schema, load_schema("overlay" if kind == "patch"
                                                                                      else kind))
    return found  # type: ignore[return-value]


def _quick_valid(kind: str, where: str, schema: Any, value: Any) -> bool:
    """Whether the quick check finds ``value`` valid (False: it does not, or has no answer)."""
    from rulecraft.rules.schema_quick import Unsupported

    quick = _quick(kind, where, schema)
    if quick is None:
        return False
    try:
        return quick(value)
    except Unsupported:  # a part this value reaches has a keyword it does not know: jsonschema's, always
        _QUICK[kind, where] = None
        return False


_QUICK: dict[tuple[str, str], Check | None] = {}
_NONE = object()


@functools.cache
def _judge_of_schemas() -> Judge:
    from rulecraft.rules.schema_quick import Judge  # imported when a part is not among the verdicts kept

    return Judge({load_schema(k)["$id"]: load_schema(k) for k in SCHEMA_FILES})


@functools.cache
def _verdicts() -> Table:
    """The parts found valid by earlier runs (``disk_cache``), by a digest of the part where it stands in
    the schema; only valid parts are kept, as in ``_VALID``. Made anew when a schema, this module or
    jsonschema changes."""
    judges = package_files("jsonschema", "validators.py", "_keywords.py", "_format.py")  # its version
    return Table("schema-verdicts", version_of(*(schemas_dir() / f for f in sorted(SCHEMA_FILES.values())),
                                               Path(__file__), *judges), limit=50_000)


# Containers already found valid at a place of the schema, by the container itself (kept, so its
# identity is not reused for another): the parts of rule data an option leaves alone are the same
# read-only values in every configuration (rules/compose.py), and are recognised without being
# walked or written out as JSON again.
_SEEN: dict[tuple[str, str, int], Any] = {}


def _deref(schema: Any, where: str, root: Any) -> tuple[Any, str]:
    """The definition a schema that is only a reference within its own file stands for (and where it is)."""
    while isinstance(schema, dict) and isinstance(schema.get("$ref"), str) and schema["$ref"].startswith("#/$defs/") \
            and not (schema.keys() - _ANNOTATIONS - {"$ref"}):
        name = schema["$ref"][len("#/$defs/"):]
        target = root.get("$defs", {}).get(name) if isinstance(root, dict) else None
        if target is None or "/" in name or "~" in name:
            break
        schema, where = target, schema["$ref"]
    return schema, where


def schema_diagnostics(data: Any, kind: str, source_text: dict[str, str] | None = None,
                       prefix: str = "") -> list[Diagnostic]:
    """Every schema problem of ``data`` as positioned, plain-words Diagnostics (deduplicated)."""
    if _known_valid(data, kind):
        return []
    texts = source_text or {}
    out: list[Diagnostic] = []
    seen: set[tuple[SourcePos, str]] = set()
    fallback = pos_of(data)
    for error in validator(kind).iter_errors(data):
        for pos, message, path in _translate(_most_specific(error), data):
            if pos is UNKNOWN_POS or pos.line == 0:
                pos = fallback
            if (pos, message) in seen:
                continue
            seen.add((pos, message))
            full_path = _join(prefix, path)
            out.append(Diagnostic(pos, message, full_path, context=excerpt(texts.get(pos.file), pos)))
    return out


def _join(prefix: str, path: str) -> str:
    if not prefix:
        return path
    if not path:
        return prefix
    return prefix + path if path.startswith("[") else f"{prefix}.{path}"


def _most_specific(error: ValidationError) -> ValidationError:
    """Descend through anyOf/oneOf to the cause that best explains the failure."""
    from jsonschema.exceptions import best_match

    while error.validator in ("anyOf", "oneOf") and error.context:
        if _all_type_errors(error.context) or _all_required_errors(error.context):
            return error
        error = best_match(error.context)
    return error


def _all_required_errors(errors: Iterable[ValidationError]) -> bool:
    """Alternatives that each ask for a key ("steps or expect"): one message naming them all."""
    errs = list(errors)
    return bool(errs) and all(e.validator == "required" and not e.relative_path for e in errs)


def _all_type_errors(errors: Iterable[ValidationError]) -> bool:
    errs = list(errors)
    return bool(errs) and all(e.validator == "type" and not e.relative_path for e in errs)


def _walk(root: Any, steps: Iterable[Any]) -> tuple[Any, Any, Any]:
    """(parent, key, value) at the end of ``steps`` from ``root``."""
    parent, key, node = None, None, root
    for step in steps:
        parent, key = node, step
        try:
            node = node[step]
        except (KeyError, IndexError, TypeError):
            node = None
    return parent, key, node


def _value_pos(parent: Any, key: Any, value: Any) -> SourcePos:
    """Where a value is written: its own position, else its key's (true/false/null), else the parent's."""
    pos = pos_of(value, UNKNOWN_POS)
    if pos is not UNKNOWN_POS:
        return pos
    if isinstance(parent, dict):
        kp: dict[Any, SourcePos] = getattr(parent, "key_pos", {})
        if key in kp:
            return kp[key]
    if isinstance(parent, list) and isinstance(key, int):
        ip: list[SourcePos] = getattr(parent, "item_pos", [])
        if key < len(ip):
            return ip[key]
    return pos_of(parent, UNKNOWN_POS)


def _referenced_keys(schema: dict[str, Any]) -> list[str]:
    """The keys a definition the schema refers to allows (a mapping that is a shared set plus keys of its own)."""
    ref = schema.get("$ref")
    if not isinstance(ref, str) or not ref.startswith("#/$defs/"):
        return []
    target = load_schema("ruleset").get("$defs", {}).get(ref[len("#/$defs/"):], {})
    return list(target.get("properties", {})) if isinstance(target, dict) else []


def _translate(error: ValidationError, root: Any) -> list[tuple[SourcePos, str, str]]:
    steps = list(error.absolute_path)
    parent, key, value = _walk(root, steps)
    path = rule_path(root, steps)
    pos = _value_pos(parent, key, value)
    schema = error.schema if isinstance(error.schema, dict) else {}
    title = schema.get("title") or _title_of_key(key)
    v = error.validator
    vv = error.validator_value
    name = f"'{key}'" if isinstance(key, str) else "this value"

    # A key that fails propertyNames: jsonschema reports the key itself as the instance, at the mapping's path.
    if isinstance(value, dict) and isinstance(error.instance, str) and error.instance in value \
            and v in ("pattern", "enum", "const", "type"):
        kpos = getattr(value, "key_pos", {}).get(error.instance, pos)
        how = schema.get("patternErrorMessage") or "a name of letters, digits and _"
        return [(kpos, f"'{error.instance}' is not a valid key here: {how}", _key_path(path, error.instance))]

    if v in ("additionalProperties", "unevaluatedProperties") and vv is False and isinstance(error.instance, dict):
        allowed = list(schema.get("properties", {})) + _referenced_keys(schema)
        patterns = list(schema.get("patternProperties", {}))
        extras = [k for k in error.instance if k not in allowed and not any(re.search(p, str(k)) for p in patterns)]
        out = []
        what = title or "this mapping"
        for k in extras:
            kpos = getattr(error.instance, "key_pos", {}).get(k, pos)
            close = difflib.get_close_matches(str(k), allowed, n=1, cutoff=0.6)
            if close:
                hint = f" (did you mean '{close[0]}'?)"
            else:
                hint = f"; allowed keys: {', '.join(a for a in allowed if not a.startswith('$'))}" if allowed else ""
            out.append((kpos, f"unknown key '{k}' in {what}{hint}", _key_path(path, k)))
        return out
    if v == "required":
        have = error.instance if isinstance(error.instance, dict) else {}
        missing = [k for k in vv if k not in have]
        what = title or "this mapping"
        return [(pos, f"{what} needs '{k}'{_example(schema, k)}", path) for k in missing] or \
            [(pos, error.message, path)]
    if v in ("anyOf", "oneOf") and _all_required_errors(error.context):
        keys = [k for e in error.context for k in _as_list(e.validator_value)]
        what = title or "this mapping"
        return [(pos, f"{what} needs {' or '.join(repr(k) for k in keys)}", path)]
    if v == "type" or (v in ("anyOf", "oneOf") and _all_type_errors(error.context)):
        types = vv if v == "type" else [t for e in error.context for t in _as_list(e.validator_value)]
        return [(pos, f"expected {_describe_types(types)} for {name}, got {_describe_value(error.instance)}", path)]
    if v in ("enum", "const"):
        options = _as_list(vv) if v == "enum" else [vv]
        shown = ", ".join(str(o) if isinstance(o, str) else _show(o) for o in options)
        close = difflib.get_close_matches(str(error.instance), [str(o) for o in options], n=1)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        if key == "kind" and len(options) > 1:
            return [(pos, f"unknown {_kind_word(steps)}kind {_show(error.instance)}{hint}; kinds: {shown}", path)]
        if len(options) == 1:
            return [(pos, f"{name} must be {_show(options[0])}, not {_show(error.instance)}", path)]
        return [(pos, f"{name} must be one of {shown}; got {_show(error.instance)}{hint}", path)]
    if v == "pattern":
        how = schema.get("patternErrorMessage") or f"text matching {vv}"
        return [(pos, f"{_show(error.instance)} is not valid for {name}: expected {how}", path)]
    if v in ("minimum", "exclusiveMinimum"):
        word = "at least" if v == "minimum" else "more than"
        return [(pos, f"{name} must be {word} {vv}, got {_show(error.instance)}", path)]
    if v in ("maximum", "exclusiveMaximum"):
        word = "at most" if v == "maximum" else "less than"
        return [(pos, f"{name} must be {word} {vv}, got {_show(error.instance)}", path)]
    if v == "minItems":
        return [(pos, f"{name} needs at least {vv} item{'s' if vv != 1 else ''}", path)]
    if v == "maxItems":
        return [(pos, f"{name} may have at most {vv} item{'s' if vv != 1 else ''}", path)]
    if v in ("minProperties", "maxProperties") and "$replace" in schema.get("properties", {}):
        return [(pos, "a merge directive is written {$replace: VALUE} or {$delete: true}, alone", path)]
    if v == "minLength":
        return [(pos, f"{name} must not be empty", path)]
    if v == "not":
        return [(pos, f"{name} is not allowed here", path)]
    if v == "false" or error.schema is False:
        return [(pos, f"{name} is not allowed here", path)]
    return [(pos, _plain_message(error), path)]


def _key_path(path: str, key: Any) -> str:
    from rulecraft.rules.paths import key_step

    return key_step(path, key)


def _title_of_key(key: Any) -> str:
    return f"'{key}'" if isinstance(key, str) else ""


def _kind_word(steps: list[Any]) -> str:
    """'phase ' for hand.phases[3].kind: the list's name, singular."""
    if len(steps) >= 3 and isinstance(steps[-2], int) and isinstance(steps[-3], str):
        return steps[-3].removesuffix("s") + " "
    return ""


def _example(schema: dict[str, Any], key: str) -> str:
    sub = schema.get("properties", {}).get(key, {})
    desc = sub.get("description") if isinstance(sub, dict) else None
    return f" ({desc.rstrip('.')})" if desc else ""


def _as_list(v: Any) -> list[Any]:
    return list(v) if isinstance(v, (list, tuple)) else [v]


_TYPE_WORDS = {
    "integer": "a whole number",
    "number": "a number",
    "string": "a string",
    "boolean": "true or false",
    "array": "a list",
    "object": "a mapping (key: value lines)",
    "null": "nothing",
}


def _describe_types(types: Any) -> str:
    words: list[str] = []
    for t in _as_list(types):
        w = _TYPE_WORDS.get(str(t), str(t))
        if w not in words:
            words.append(w)
    if "a whole number" in words and "a number" in words:
        words.remove("a whole number")
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " or " + words[-1]


def _describe_value(value: Any) -> str:
    if value is None:
        return "nothing (an empty value)"
    if isinstance(value, bool):
        return f"{'true' if value else 'false'}"
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "..."
        return f"the string '{shown}'"
    if isinstance(value, int):
        return f"the whole number {int(value)}"
    if isinstance(value, float):
        return f"the number {float(value):g}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return repr(value)


def _show(value: Any) -> str:
    if isinstance(value, str):
        return f"'{value}'"
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    return str(value)


def _plain_message(error: ValidationError) -> str:
    # jsonschema's own wording, minus the Python reprs.
    return re.sub(r"\b(LStr|LInt|LFloat|LDict|LList)\(", "(", error.message)
