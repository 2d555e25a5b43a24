"""The quick yes/no of the schema check (``rules/schema_quick.py``) is jsonschema's verdict, place by place.

``schema_check`` asks the quick check first and jsonschema only about what it does not find valid, so a
quick check that passed something jsonschema refuses would hide a problem. Each case compares the two
on the same schema part and value: every place of the schemas the bundled and test rule files reach,
with their own values and with changed copies of them (a value replaced, a key dropped or added, an item
added), and the corners of JSON Schema's types (true is no number and not 1; 1.0 is an integer).
"""

from __future__ import annotations

import contextlib
import copy
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rulecraft.errors import RuleFileError
from rulecraft.rules import schema_check as S
from rulecraft.rules.compose import compose, plain
from rulecraft.rules.rulefiles import read_rule_file
from rulecraft.rules.schema_quick import Judge, Unsupported

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted([*(ROOT / "variants").glob("*/*.yaml"), *(ROOT / "tests" / "rules" / "broken").glob("*.yaml"),
                *sorted((ROOT / "tests" / "scenarios" / "rook").glob("*.yaml"))[:4]])


def _kind(data: dict[str, Any]) -> str:
    return "scenario" if "ruleset" in data else "overlay" if "extends" in data else "ruleset"


def _documents() -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    for path in FILES:
        try:
            data = read_rule_file(path).data
        except RuleFileError:  # not YAML, or refused by the reader: nothing to check
            continue
        if not isinstance(data, dict):
            continue
        out.append((_kind(data), plain(data)))
        if _kind(data) != "scenario":
            with contextlib.suppress(RuleFileError):  # a broken file that does not compose: its own data is enough
                out.append(("ruleset", plain(compose(str(path)).data)))
    return out


class _Compare:
    def __init__(self) -> None:
        self.judge = Judge({S.load_schema(k)["$id"]: S.load_schema(k) for k in S.SCHEMA_FILES})
        self.verdicts = {True: 0, False: 0}

    def same(self, kind: str, schema: Any, value: Any) -> None:
        quick = self.judge.check(schema, S.load_schema(kind))(value)
        expected = S.validator(kind).evolve(schema=schema).is_valid(value)
        assert quick is expected, (kind, str(value)[:200])
        self.verdicts[expected] += 1

    def walk(self, kind: str, schema: Any, value: Any, depth: int = 0) -> None:
        """Compare at this place and at every place below it that the value reaches."""
        self.same(kind, schema, value)
        if depth > 12 or not isinstance(schema, dict):
            return
        ref = schema.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            self.walk(kind, S.load_schema(kind)["$defs"][ref[len("#/$defs/"):]], value, depth + 1)
        if isinstance(value, dict):
            for key, sub in schema.get("properties", {}).items():
                if key in value:
                    self.walk(kind, sub, value[key], depth + 1)
        if isinstance(value, list) and isinstance(schema.get("items"), dict):
            for item in value:
                self.walk(kind, schema["items"], item, depth + 1)
        for word in ("then", "else"):
            if isinstance(schema.get(word), dict):
                self.walk(kind, schema[word], value, depth + 1)
        for word in ("allOf", "anyOf"):
            for sub in schema.get(word, []):
                self.walk(kind, sub, value, depth + 1)


POOL: list[Any] = [None, True, False, 0, 1, -1, 2.5, 1.0, "", "x", "tricks", "deal", "seat", [], {}, [1],
                   {"id": "x"}, {"kind": "deal"}, "a b", 1e9, "1bad"]
KEYS = ["colour", "id", "kind", "when", "x1", "from", "to", "count", "1bad", "name"]


def _nodes(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    yield path, value
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _nodes(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _nodes(v, (*path, i))


def _changed(rng: random.Random, data: Any) -> Any:
    out = copy.deepcopy(data)
    for _ in range(rng.choice([1, 1, 2, 3])):
        nodes = list(_nodes(out))
        path, value = rng.choice(nodes)
        if not path:
            continue
        parent = out
        for step in path[:-1]:
            parent = parent[step]
        key, r = path[-1], rng.random()
        if r < 0.45:
            parent[key] = copy.deepcopy(rng.choice([*POOL, rng.choice(nodes)[1]]))
        elif r < 0.6 and isinstance(parent, dict):
            del parent[key]
        elif r < 0.7 and isinstance(parent, dict):
            parent[rng.choice(KEYS)] = rng.choice(POOL)
        elif r < 0.8 and isinstance(parent, list):
            parent.append(copy.deepcopy(rng.choice([*POOL, rng.choice(nodes)[1]])))
        elif r < 0.9 and isinstance(value, str):
            parent[key] = value + rng.choice(["x", "_", " ", "1"])
        else:
            parent[key] = copy.deepcopy(rng.choice(nodes)[1])
    return out


def test_every_place_the_rule_files_reach_is_judged_as_jsonschema_judges_it() -> None:
    compare = _Compare()
    for kind, data in _documents():
        compare.walk(kind, S.load_schema(kind), data)
    assert compare.verdicts[True] > 10_000 and compare.verdicts[False] > 1_000


@pytest.mark.parametrize("seed", range(2))
def test_changed_copies_are_judged_as_jsonschema_judges_them(seed: int) -> None:
    rng = random.Random(seed)
    compare = _Compare()
    for kind, data in _documents():
        compare.walk(kind, S.load_schema(kind), _changed(rng, data))
    assert compare.verdicts[False] > 500


# A shared definition a place adds a key to, closed where it is used (as bids use an ordered set).
SHARED = {"$ref": "#/$defs/d", "properties": {"b": {}}, "unevaluatedProperties": False,
          "$defs": {"d": {"type": "object", "properties": {"a": {}}}}}


@pytest.mark.parametrize(("schema", "value"), [
    ({"type": "integer"}, 1.0), ({"type": "integer"}, 1.5), ({"type": "integer"}, True), ({"type": "number"}, True),
    ({"type": "number"}, 2), ({"type": "boolean"}, 0), ({"type": ["string", "null"]}, None),
    ({"enum": [1, "a"]}, True), ({"enum": [True]}, 1), ({"enum": [1]}, 1.0), ({"enum": ["a"]}, ["a"]),
    ({"enum": [[1, 2]]}, [1, 2]), ({"enum": [[True]]}, [1]), ({"const": 0}, False), ({"const": {"a": 1}}, {"a": 1}),
    ({"minimum": 1}, True), ({"minimum": 1}, "0"), ({"minimum": 1}, 0), ({"maximum": 2}, 2.5),
    ({"minLength": 1}, ""), ({"minItems": 1}, {}), ({"minProperties": 1}, []), ({"pattern": "^a"}, "ba"),
    ({"pattern": "^a"}, 3), ({"propertyNames": {"pattern": "^[a-z]+$"}}, {"ok": 1, "Bad": 2}),
    ({"additionalProperties": {"type": "string"}, "properties": {"a": {}}}, {"a": 1, "b": 2}),
    ({"if": {"required": ["a"]}, "then": {"required": ["b"]}, "else": {"required": ["c"]}}, {"c": 1}),
    ({"not": {"type": "string"}}, "x"), ({"anyOf": [{"type": "string"}, {"minimum": 3}]}, 2),
    ({"items": False}, []), ({"items": False}, [1]), (True, 1), (False, None),
    (SHARED, {"a": 1, "b": 2}), (SHARED, {"a": 1, "c": 2}), ({"unevaluatedProperties": False}, {}),
])
def test_json_schemas_corners(schema: dict[str, Any] | bool, value: Any) -> None:
    judge = Judge({})
    import jsonschema

    assert judge.check(schema, schema)(value) is jsonschema.Draft202012Validator(schema).is_valid(value)


@pytest.mark.parametrize(("schema", "value"), [
    ({"format": "email"}, "x"), ({"oneOf": [{}]}, 1), ({"patternProperties": {"a": {}}}, {}),
    ({"prefixItems": [{}], "items": {}}, []), ({"$ref": "#/$defs/none"}, 1),
    ({"$ref": "https://elsewhere.example/schema.json"}, 1), ({"type": "seat"}, 1),
    ({"properties": {"a": {"$dynamicRef": "#x"}}}, {"a": 1}),
    ({"unevaluatedProperties": False, "anyOf": [{"properties": {"a": {}}}]}, {"a": 1}),
    ({"pattern": "("}, "x"), ({"items": {"properties": {"b": {"oneOf": []}}}}, [{"b": 1}]),
])
def test_what_it_does_not_know_is_left_to_jsonschema(schema: dict[str, Any], value: Any) -> None:
    check = Judge({}).check(schema, schema)
    with pytest.raises(Unsupported):
        check(value)
    with pytest.raises(Unsupported):  # every time
        check(value)


def test_a_part_is_made_when_a_value_first_reaches_it() -> None:
    # A part no value reaches is never made, so an unknown keyword there is never met.
    check = Judge({}).check({"properties": {"a": {"oneOf": []}, "b": {"type": "string"}}}, None)
    assert check({"b": "x"}) and not check({"b": 1})
    with pytest.raises(Unsupported):
        check({"a": 1})


def test_a_place_left_to_jsonschema_is_checked_by_it(monkeypatch: pytest.MonkeyPatch) -> None:
    # Without quick checks at all, every verdict is jsonschema's own: the same diagnostics come out.
    broken = ROOT / "tests" / "rules" / "broken" / "wrong_type.yaml"
    data = compose(str(broken)).data
    with_quick = S.schema_diagnostics(data, "ruleset")
    monkeypatch.setattr(S, "_quick", lambda kind, where, schema: None)
    S._VALID.clear()
    S._SEEN.clear()
    assert S.schema_diagnostics(data, "ruleset") == with_quick != []
