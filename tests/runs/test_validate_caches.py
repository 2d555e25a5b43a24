"""What validate shares between the configurations it builds, and why that is safe.

A ruleset is composed and built once per option choice and preset. The files laid over each other,
Python's compile of generated code, cost estimates and compiled expressions are reused across those
builds (and across files of a process). These tests pin the conditions that make it correct: shared
rule data is never changed downstream, a changed file is seen, and a cache is keyed by everything
its result depends on.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rulecraft.rules import compose as compose_mod
from rulecraft.rules.compose import compose
from rulecraft.rules.registry import bundled_variants_dir
from rulecraft.runs.validate import collect_files, validate_file


def _fingerprint(value: Any) -> Any:
    """Everything of located rule data: values, their types, positions of values, keys and items."""
    pos = getattr(value, "pos", None)
    if isinstance(value, dict):
        kp = getattr(value, "key_pos", {})
        return ("map", pos, tuple((k, kp.get(k), _fingerprint(v)) for k, v in value.items()))
    if isinstance(value, list):
        return ("list", pos, tuple(getattr(value, "item_pos", [])), tuple(_fingerprint(v) for v in value))
    return (type(value).__name__, pos, value)


def test_building_and_playing_every_configuration_leaves_the_shared_layers_unchanged() -> None:
    from rulecraft.load import load_ruleset
    from rulecraft.runs.invariants import check_behaviour

    files = collect_files([bundled_variants_dir()])
    before = {}
    for f in files:
        compose(str(f))
    for key, layers in compose_mod._LAYERS.items():
        before[key] = _fingerprint(layers.data)
    assert before, "composing the bundled files fills the cache of layers"
    for f in files:
        report = validate_file(f)
        assert report.ok, report.diagnostics
        rs = load_ruleset(str(f))
        check_behaviour(rs, 1, max_moves=2000)  # played for what a game might change, not judged here
    for key, fingerprint in before.items():
        assert _fingerprint(compose_mod._LAYERS[key].data) == fingerprint, key[-1][0]


def test_configurations_of_one_file_share_what_their_options_do_not_change(tmp_path: Path) -> None:
    src = bundled_variants_dir() / "rook" / "base.yaml"
    a = compose(str(src))
    options = {o.id: next(c.id for c in o.choices if c.id != o.default) for o in a.options[:1]}
    b = compose(str(src), options)
    assert a.data["zones"] is b.data["zones"]  # untouched by the option: the same (read-only) value
    assert a.data != b.data


GAME = """\
name: toy
seats: {count: 2}
constants: {target: 10}
zones:
  - {id: deck, visibility: nobody}
  - {id: hand, per: seat, visibility: owner}
pieces:
  - {id: a, attributes: {rank: 1}}
  - {id: b, attributes: {rank: 2}}
hand:
  phases:
    - {id: shuffle, kind: shuffle, zone: deck}
    - {id: deal, kind: deal, from: deck, to: hand, count: all}
    - id: score
      kind: effects
      effects:
        - {id: one, set: {x: "target + 1"}}
variables: {x: {type: number, initial: 0}}
match: {end_when: "true"}
options:
  - id: target
    description: "points to win"
    default: normal
    choices:
      - {id: normal}
      - {id: short, patch: {constants: {target: 5}}}
"""


@pytest.mark.parametrize("change, message", [
    ('set: {x: "target + 1"}', "unknown name 'targt'"),
])
def test_a_changed_file_is_seen(tmp_path: Path, change: str, message: str) -> None:
    base = tmp_path / "toy.yaml"
    house = tmp_path / "house.yaml"
    base.write_text(GAME)
    house.write_text("extends: toy.yaml\nconstants: {target: 12}\n")
    for f in (base, house):
        assert validate_file(f).ok, validate_file(f).diagnostics
    assert compose(str(house)).data["constants"]["target"] == 12

    # The same paths with other contents: the next check reads them anew, through every cache.
    base.write_text(GAME.replace(change, change.replace("target", "targt")))
    for f in (base, house):
        report = validate_file(f)
        assert any(message in d.message for d in report.diagnostics), (f, report.diagnostics)
    house.write_text("extends: toy.yaml\nconstants: {target: 13}\n")
    base.write_text(GAME)
    assert validate_file(house).ok
    assert compose(str(house)).data["constants"]["target"] == 13


def test_the_content_hash_of_every_configuration_is_that_of_its_canonical_json() -> None:
    import hashlib

    from rulecraft.rules.compose import NOT_HASHED, canonical_json

    checked = 0
    for f in collect_files([bundled_variants_dir()]):
        base = compose(str(f))
        configs = [({o.id: c.id}, None) for o in base.options for c in o.choices] + \
            [({}, p.id) for p in base.presets]
        for options, preset in configs:
            c = compose(str(f), options, preset)
            body = {k: v for k, v in c.data.items() if k not in NOT_HASHED}
            assert c.content_hash == hashlib.sha256(canonical_json(body).encode("utf-8")).hexdigest()
            checked += 1
    assert checked > 50


def test_a_document_with_other_data_for_the_same_text_is_composed_from_its_data() -> None:
    # rulecraft test --mutate composes a mutant: the file's text with changed data.
    from rulecraft.rules.compose import compose_documents, load_chain
    from rulecraft.runs.suite import mutated_document

    chain = load_chain(str(bundled_variants_dir() / "rook" / "base.yaml"))
    before = compose_documents(chain, {}, None)
    data = dict(chain[-1].data)
    data["constants"] = {**data["constants"], "mutated": 1}
    after = compose_documents([mutated_document(chain[-1], data)], {}, None)
    assert "mutated" in after.data["constants"] and "mutated" not in before.data["constants"]
    assert "mutated" not in compose_documents(chain, {}, None).data["constants"]
