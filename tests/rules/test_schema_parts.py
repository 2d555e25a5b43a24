"""The schema check remembers parts of rule data it found valid, and judges the rest as jsonschema does.

``schema_diagnostics`` validates only the parts (a section, a phase, an item) not already seen
valid with the same content. Whatever it remembers, its verdict on every document must be
jsonschema's: each case below first checks a valid bundled ruleset (filling the memory), then a
copy changed in one place, and compares the verdict with a plain jsonschema validation.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

from rulecraft.rules.compose import compose, plain
from rulecraft.rules.registry import bundled_path
from rulecraft.rules.schema_check import schema_diagnostics, validator


def _rook() -> dict[str, Any]:
    path = bundled_path("rook")
    assert path is not None
    data: dict[str, Any] = plain(compose(str(path)).data)
    return data


def _phase(data: dict[str, Any], kind: str) -> dict[str, Any]:
    found: dict[str, Any] = next(p for p in data["hand"]["phases"] if p["kind"] == kind)
    return found


CHANGES: dict[str, Callable[[dict[str, Any]], object]] = {
    "a phase gets an unknown key": lambda d: _phase(d, "deal").update(colour="red"),
    "a phase loses a required key": lambda d: _phase(d, "deal").pop("kind"),
    "a valid phase where phases are not": lambda d: d["zones"].append(copy.deepcopy(_phase(d, "deal"))),
    "no phases at all": lambda d: d["hand"].update(phases=[]),
    "the hand gets an unknown key": lambda d: d["hand"].update(rounds=2),
    "a required section is gone": lambda d: d.pop("zones"),
    "a section of the wrong type": lambda d: d.update(zones={"id": "deck"}),
    "a constant of the wrong type": lambda d: d["constants"].update(bad={"x": 1}),
    "a constant with a bad name": lambda d: d["constants"].update({"1bad": 1}),
    "a phase valid in another place moved into a list item": lambda d: d["pieces"].append(
        copy.deepcopy(_phase(d, "shuffle"))),
    "an unchanged copy": lambda d: None,
}


@pytest.mark.parametrize("change", CHANGES)
def test_the_verdict_is_jsonschemas_whatever_was_seen_before(change: str) -> None:
    base = _rook()
    assert schema_diagnostics(base, "ruleset") == []  # every part of it now remembered as valid
    data = json.loads(json.dumps(base))
    CHANGES[change](data)
    expected = next(validator("ruleset").iter_errors(data), None) is None
    assert (schema_diagnostics(data, "ruleset") == []) is expected
    assert expected is (change == "an unchanged copy")


def test_each_place_of_the_schema_has_its_own_part_validator() -> None:
    # The validator of a part is made once per place (where) and reused: a value valid at one place must
    # still be judged by the schema of another.
    from rulecraft.rules.schema_check import _part_validator

    text = _part_validator("ruleset", "#/test/a-text", {"type": "string"})
    number = _part_validator("ruleset", "#/test/a-number", {"type": "integer"})
    assert text.is_valid("x") and not number.is_valid("x") and number.is_valid(3)
    assert _part_validator("ruleset", "#/test/a-text", {"type": "string"}) is text
