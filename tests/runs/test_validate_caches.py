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

from rulecraft.errors import RuleFileError
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
    compose_mod._LAYERS.clear()  # only the bundled files' layers (other tests' mutants would be evicted first)
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

    from rulecraft.rules.compose import NOT_HASHED, canonical_json, options_read

    checked = 0
    for f in collect_files([bundled_variants_dir()]):
        base = compose(str(f))
        configs = [({o.id: c.id}, None) for o in base.options for c in o.choices] + \
            [({}, p.id) for p in base.presets]
        for options, preset in configs:
            c = compose(str(f), options, preset)
            body = {k: v for k, v in c.data.items() if k not in NOT_HASHED}
            # (and the choices of the options an expression reads with option('id'), where there are any)
            read = options_read(c.data, c.chosen)
            text = canonical_json(body) + (f"\noption(): {canonical_json(read)}" if read else "")
            assert c.content_hash == hashlib.sha256(text.encode("utf-8")).hexdigest()
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


# ---------------------------------------------------------------------- what one build hands the next
DERIVED = """\
name: toy
seats: {count: 2}
constants: {ranks: [a, b, c], target: 10}
zones:
  - {id: deck, visibility: nobody}
  - {id: hand, per: seat, visibility: owner}
pieces:
  - generate: {order: [1, 2, 3]}
    id: "p{order}"
    derive: {rank: "ranks[order - 1]"}
hand:
  phases:
    - {id: shuffle, kind: shuffle, zone: deck}
    - {id: deal, kind: deal, from: deck, to: hand, count: all}
match: {end_when: "true"}
options:
  - id: target
    description: "points to win"
    default: normal
    choices:
      - {id: normal}
      - {id: short, patch: {constants: {target: 5}}}
  - id: ranks
    description: "which ranks there are"
    default: three
    choices:
      - {id: three}
      - {id: two, patch: {constants: {ranks: [a, b]}}}
      - {id: renamed, patch: {constants: {ranks: [x, y, z]}}}
presets:
  - {id: quick, options: {target: short}}
"""


def _built(path: Path, reuse: Any, options: dict[str, str] | None = None) -> Any:
    from rulecraft.load import build_ruleset

    return build_ruleset(compose(str(path), options or {}), reuse)


def test_builds_share_the_pieces_only_when_no_constant_their_attributes_read_changed(tmp_path: Path) -> None:
    from rulecraft.engine.reuse import BuildReuse

    path = tmp_path / "toy.yaml"
    path.write_text(DERIVED)
    reuse = BuildReuse()
    first = _built(path, reuse)
    assert _built(path, reuse, {"target": "short"}).pieces is first.pieces  # target is read by no attribute
    renamed = _built(path, reuse, {"ranks": "renamed"})
    assert renamed.pieces is not first.pieces
    assert renamed.pieces.columns["rank"] == ["x", "y", "z"]
    assert _built(path, BuildReuse(), {"target": "short"}).pieces is not first.pieces  # never across validations
    with pytest.raises(RuleFileError, match="cannot compute this attribute"):
        _built(path, reuse, {"ranks": "two"})


def test_a_problem_only_one_choice_makes_in_shared_data_is_reported_under_it(tmp_path: Path) -> None:
    path = tmp_path / "toy.yaml"
    path.write_text(DERIVED)
    report = validate_file(path)
    messages = [d.message for d in report.diagnostics]
    assert len(messages) == 1 and messages[0].startswith("with option ranks=two: cannot compute this attribute"), \
        messages
    assert report.variants_checked == 5  # the defaults, three other choices, the preset


def test_a_configuration_the_same_as_one_checked_is_not_checked_again(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from rulecraft.rules import schema_check

    checked: list[dict[str, str]] = []
    real = schema_check.check_composed

    def counting(composed: Any) -> None:
        checked.append(dict(composed.chosen))
        real(composed)

    monkeypatch.setattr(schema_check, "check_composed", counting)
    path = tmp_path / "toy.yaml"
    path.write_text(DERIVED)
    validate_file(path)
    # The preset quick makes the same rules, from the same patch, as the choice target=short.
    assert checked.count({"target": "short", "ranks": "three"}) == 1
    assert len(checked) == 4
    # Written apart, the same values are other places in the file: checked on their own.
    path.write_text(DERIVED.replace("presets:\n  - {id: quick, options: {target: short}}\n",
                                    "  - id: goal\n    description: \"x\"\n    default: ten\n    choices:\n"
                                    "      - {id: ten}\n      - {id: five, patch: {constants: {target: 5}}}\n"))
    checked.clear()
    assert validate_file(path).variants_checked == 5
    assert len(checked) == 5


def test_same_located_compares_values_types_and_places() -> None:
    from rulecraft.errors import SourcePos
    from rulecraft.rules.located import LDict, LList, LStr, same_located

    def at(line: int, col: int = 1) -> SourcePos:
        return SourcePos("f.yaml", line, col)

    def mapping(key_line: int = 1, value: Any = None) -> LDict:
        d = LDict({"a": LStr("x", at(1, 4)) if value is None else value}, pos=at(1))
        d.key_pos = {"a": at(key_line)}
        return d

    assert same_located(mapping(), mapping())
    assert not same_located(mapping(), mapping(key_line=2))  # a key written elsewhere
    assert not same_located(mapping(), mapping(value=LStr("x", at(1, 5))))  # a value written elsewhere
    assert not same_located(mapping(), mapping(value="x"))  # the same text, not read from a file
    assert not same_located(mapping(), mapping(value=LStr("y", at(1, 4))))
    assert not same_located(LList([True], pos=at(1)), LList([1], pos=at(1)))  # true is not 1 here
    assert not same_located(LList([1], pos=at(1)), LList([1, 1], pos=at(1)))
    shared = LList([mapping()], pos=at(3))
    assert same_located(LDict({"k": shared}, pos=at(2)), LDict({"k": shared}, pos=at(2)))


PHASES = """\
name: toy
seats: {count: 2}
constants: {size: 10, other: 1}
functions:
  "bonus()": "base_bonus()"
  "base_bonus()": "1"
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
        - {id: one, set: {x: "sum(count(j for j in range(size)) for i in range(size)) + bonus()"}}
variables: {x: {type: number, initial: 0}}
match: {end_when: "true"}
options:
  - id: other
    description: "a constant no phase reads"
    default: one
    choices:
      - {id: one}
      - {id: two, patch: {constants: {other: 2}}}
  - id: size
    description: "how far the count goes"
    default: small
    choices:
      - {id: small}
      - {id: huge, patch: {constants: {size: 100000}}}
  - id: bonus
    description: "the bonus, through a rule function the phase's function calls"
    default: one
    choices:
      - {id: one}
      - {id: huge, patch: {functions: {"base_bonus()": "sum(count(j for j in range(100000)) for i in range(100000))"}}}
"""


def test_a_phase_is_built_again_when_a_name_it_reaches_changes(tmp_path: Path) -> None:
    # A validation shares a phase between configurations only when everything the phase could read is
    # the same: an option changing a constant it names, or a rule function it reaches through another
    # one, must have it built again, and its error reported at its place.
    from rulecraft.engine.reuse import BuildReuse

    path = tmp_path / "toy.yaml"
    path.write_text(PHASES)
    reuse = BuildReuse(phases=True)
    first = _built(path, reuse)
    score = first.phases[2]
    assert _built(path, reuse, {"other": "two"}).phases[2] is score  # a constant the phase does not name
    for option in ("size", "bonus"):
        with pytest.raises(RuleFileError, match="may take up to"):
            _built(path, reuse, {option: "huge"})
    playing = BuildReuse()  # a validation that plays games: its rulesets' phases are never shared
    assert _built(path, playing, {"other": "two"}).phases[2] is not _built(path, playing).phases[2]
    report = validate_file(path)
    line = next(i for i, text in enumerate(PHASES.splitlines(), 1) if "set: {x:" in text)
    shown = sorted((d.pos.line, d.message.split(":")[0]) for d in report.diagnostics)
    assert shown == [(line, "with option bonus=huge"), (line, "with option size=huge")], report.diagnostics


def test_a_validation_shares_phases_only_when_it_plays_no_game_here(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    # A shared phase is bound to the scopes of the build that made it: playing it would read that build's
    # option choices. Games played in worker processes load their rulesets anew.
    from rulecraft.engine import reuse as R
    from rulecraft.runs.validate import PlayCheck

    made: list[bool] = []
    real = R.BuildReuse.__init__

    def spy(self: R.BuildReuse, phases: bool = False) -> None:
        made.append(phases)
        real(self, phases)

    monkeypatch.setattr(R.BuildReuse, "__init__", spy)
    path = tmp_path / "toy.yaml"
    path.write_text(GAME)
    for simulate in (0, 1, PlayCheck(1, workers=2)):
        assert validate_file(path, simulate=simulate).ok
    assert made == [True, False, True]
