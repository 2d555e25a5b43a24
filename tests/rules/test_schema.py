"""The schemas: valid draft 2020-12, documented everywhere, in step with the engine, the docs and each other."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from rulecraft.rules.registry import schemas_dir
from rulecraft.rules.schema_partial import overlay_schema, render

ROOT = Path(__file__).resolve().parents[2]
KINDS = ("ruleset", "overlay", "scenario")


def schema(kind: str) -> dict[str, Any]:
    return json.loads((schemas_dir() / f"{kind}.schema.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("kind", KINDS)
def test_schema_is_valid_2020_12(kind: str) -> None:
    s = schema(kind)
    assert s["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert s["$id"].endswith(f"/{kind}.schema.json")
    jsonschema.Draft202012Validator.check_schema(s)


def _properties(s: Any, where: str = "") -> list[tuple[str, str, Any]]:
    out = []
    if isinstance(s, dict):
        for name, sub in s.get("properties", {}).items():
            out.append((where, name, sub))
        for key, value in s.items():
            out.extend(_properties(value, f"{where}/{key}"))
    elif isinstance(s, list):
        for i, value in enumerate(s):
            out.extend(_properties(value, f"{where}/{i}"))
    return out


@pytest.mark.parametrize("kind", ("ruleset", "scenario"))
def test_every_property_has_a_description(kind: str) -> None:
    missing = [f"{where}.{name}" for where, name, sub in _properties(schema(kind))
               if "/if" not in where and not (isinstance(sub, dict) and sub.get("description"))]
    assert not missing


def _uses(node: Any, ref: str) -> list[dict[str, Any]]:
    """Every schema in ``node`` that refers to ``ref``."""
    if isinstance(node, list):
        return [u for item in node for u in _uses(item, ref)]
    if not isinstance(node, dict):
        return []
    here = [node] if node.get("$ref") == ref else []
    return here + [u for value in node.values() for u in _uses(value, ref)]


def test_ruleset_objects_are_strict() -> None:
    s = schema("ruleset")
    # A definition shared by places that each add keys of their own (an ordered set: bids add a verb)
    # is closed where it is used instead, by unevaluatedProperties at every reference.
    closed = {name for name in s["$defs"]
              if (uses := _uses(s, f"#/$defs/{name}")) and all(u.get("unevaluatedProperties") is False for u in uses)}
    loose = [d.get("title") for name, d in s["$defs"].items()
             if isinstance(d, dict) and "properties" in d and d.get("additionalProperties") is not False
             and d.get("title") != "a phase" and name not in closed]
    assert not loose
    assert s["additionalProperties"] is False


def test_overlay_schema_is_generated_from_the_ruleset_schema() -> None:
    expected = render(overlay_schema(schema("ruleset")))
    actual = (schemas_dir() / "overlay.schema.json").read_text(encoding="utf-8")
    assert actual == expected, "run: python -m rulecraft.rules.schema_partial"


def test_phase_kinds_match_the_engine() -> None:
    from rulecraft.engine.phases import PHASE_KINDS

    defs = schema("ruleset")["$defs"]
    kinds = set(defs["phase"]["properties"]["kind"]["enum"])
    wired = {rule["if"]["properties"]["kind"]["const"] for rule in defs["phase"]["allOf"]}
    with_defs = {name.removeprefix("phase_") for name in defs if name.startswith("phase_")}
    assert kinds == wired == with_defs == set(PHASE_KINDS)


def test_docs_mention_every_property() -> None:
    doc = (ROOT / "docs" / "rule-files.md").read_text(encoding="utf-8")
    names = {name for kind in ("ruleset", "scenario") for _, name, _ in _properties(schema(kind))}
    # Named in running text as `name`, or shown as `name:` in an example.
    missing = sorted(n for n in names if f"`{n}`" not in doc and not re.search(rf"\b{re.escape(n)}:", doc))
    assert not missing


def test_bundled_rulesets_are_schema_valid() -> None:
    from rulecraft.rules.compose import compose
    from rulecraft.rules.registry import list_bundled
    from rulecraft.rules.schema_check import check_composed

    for name in list_bundled():
        check_composed(compose(name))
