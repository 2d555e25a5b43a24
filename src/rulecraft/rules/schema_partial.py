"""Derive the overlay schema from the ruleset schema, so the two never drift apart.

An overlay (and an option's ``patch``) uses the same keys as a full rule file, but every key is
optional and the merge directives may appear: ``{$replace: VALUE}`` or ``{$delete: true}`` as the
value of any key, and ``$delete: true`` on any list item with an ``id``. The derivation:

- drops ``required`` everywhere except inside ``if`` conditions (which pick a phase kind);
- lets every property be a directive: ``{if: <a directive>, then: directive, else: <the property>}``
  (if/then rather than anyOf, so an error in an ordinary value is reported against the property's
  own schema, not as "not valid under any of the given schemas");
- adds ``$delete``, ``$before`` and ``$after`` to every object that has an ``id``;
- checks a phase written without ``kind`` (it merges into a phase of the base by id) against every
  key any phase kind has, so a misspelt key is still caught in the overlay itself.

``schemas/overlay.schema.json`` is this module's output (``python -m rulecraft.rules.schema_partial``
rewrites it); a test checks it is up to date.
"""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path
from typing import Any

OVERLAY_ID = "https://rulecraft.dev/schemas/overlay.schema.json"
NOT_IN_PATCH = ("extends", "options", "presets")

DIRECTIVE_IF = {
    "type": "object",
    "minProperties": 1,
    "propertyNames": {"enum": ["$replace", "$delete"]},
}
DIRECTIVE_DEF = {
    "title": "a merge directive",
    "description": "`{$replace: VALUE}` replaces the value being overlaid, without merging; "
                   "`{$delete: true}` removes the key.",
    "type": "object",
    "properties": {
        "$replace": {"description": "The new value, used as written (no merging)."},
        "$delete": {"const": True, "description": "Remove this key from the rules being overlaid."},
    },
    "additionalProperties": False,
    "minProperties": 1,
    "maxProperties": 1,
}
DELETE_PROP = {"const": True, "description": "In an overlay or patch: remove the item with this id."}
PLACE_PROPS = {
    "$before": {"type": "string", "description": "In an overlay or patch, on a new item: put it just before "
                                                 "the item with this id (default: at the end of the list)."},
    "$after": {"type": "string", "description": "In an overlay or patch, on a new item: put it just after "
                                                "the item with this id (default: at the end of the list)."},
}


def _partial(schema: Any) -> Any:
    if isinstance(schema, list):
        return [_partial(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "required":
            continue
        if key == "if":
            out[key] = copy.deepcopy(value)
        elif key == "properties":
            out[key] = {name: _wrap(_partial(sub)) for name, sub in value.items()}
        elif key == "additionalProperties" and isinstance(value, dict):
            out[key] = _wrap(_partial(value))
        elif key in ("items", "then", "else", "allOf", "anyOf", "oneOf", "not", "propertyNames", "$defs"):
            if key == "$defs":
                out[key] = {n: _partial(d) for n, d in value.items()}
            else:
                out[key] = _partial(value)
        else:
            out[key] = copy.deepcopy(value)
    props = out.get("properties")
    if isinstance(props, dict) and "id" in props and out.get("additionalProperties") is False:
        props["$delete"] = dict(DELETE_PROP)
        props.update(copy.deepcopy(PLACE_PROPS))
    return out


def _wrap(sub: dict[str, Any]) -> dict[str, Any]:
    wrapped: dict[str, Any] = {}
    if "description" in sub:
        wrapped["description"] = sub["description"]
    wrapped["if"] = copy.deepcopy(DIRECTIVE_IF)
    wrapped["then"] = {"$ref": "#/$defs/directive"}
    wrapped["else"] = sub
    return wrapped


def overlay_schema(full: dict[str, Any]) -> dict[str, Any]:
    """The overlay schema derived from the full ruleset schema."""
    defs = {name: _partial(d) for name, d in full.get("$defs", {}).items()}
    defs["directive"] = copy.deepcopy(DIRECTIVE_DEF)
    _add_kindless_phase(defs)
    props = {name: _wrap(_partial(sub)) for name, sub in full["properties"].items()}
    defs["patch"] = {
        "title": "a patch",
        "description": "The rules an option's choice changes: the keys of a rule file, all optional, merged over "
                       "the rules with the overlay merge rules.",
        "type": "object",
        "properties": {k: v for k, v in props.items() if k not in NOT_IN_PATCH},
        "additionalProperties": False,
    }
    return {
        "$schema": full.get("$schema", "https://json-schema.org/draft/2020-12/schema"),
        "$id": OVERLAY_ID,
        "title": "an overlay",
        "description": "A rulecraft overlay: a rule file with `extends:` that changes the rules it extends. Every key "
                       "is optional; maps merge, lists of items with ids merge by id, `{$replace: ...}` replaces, "
                       "`$delete: true` removes. Generated from ruleset.schema.json; see docs/rule-files.md.",
        "type": "object",
        "properties": props,
        "required": ["extends"],
        "additionalProperties": False,
        "$defs": defs,
    }


def _add_kindless_phase(defs: dict[str, Any]) -> None:
    """A phase without ``kind`` may carry any key of any phase kind (its kind comes from the base)."""
    phase = defs.get("phase")
    if not isinstance(phase, dict):
        return
    union: dict[str, Any] = {}
    for name, d in defs.items():
        if not name.startswith("phase_"):
            continue
        for key, sub in d.get("properties", {}).items():
            if key == "kind":
                continue
            if key not in union:
                union[key] = sub
            elif union[key] != sub:
                desc = union[key].get("description", "")
                union[key] = {"description": desc}
    defs["phase_any"] = {
        "title": "a phase",
        "description": "A phase written without its kind: it changes the phase with the same id in the rules "
                       "overlaid, so it may carry the keys of any phase kind.",
        "type": "object",
        "properties": union,
        "additionalProperties": False,
    }
    phase.setdefault("allOf", []).append(
        {"if": {"not": {"required": ["kind"]}}, "then": {"$ref": "#/$defs/phase_any"}})


def render(schema: dict[str, Any]) -> str:
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    from rulecraft.rules.registry import schemas_dir

    args = argv if argv is not None else sys.argv[1:]
    folder = Path(args[0]) if args else schemas_dir()
    full = json.loads((folder / "ruleset.schema.json").read_text(encoding="utf-8"))
    (folder / "overlay.schema.json").write_text(render(overlay_schema(full)), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
