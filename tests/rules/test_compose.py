"""Composition: extends chains, overlay merge semantics, options and presets, provenance, the content hash."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulecraft.errors import RuleFileError, UsageError
from rulecraft.rules.compose import compose, plain
from rulecraft.rules.registry import bundled_path, list_bundled, resolve_ruleset

BASE = """\
name: toy
seats: {count: 2}
constants: {target: 100, bonus: 5}
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
        - {id: one, set: {x: 1}}
        - {id: two, set: {x: 2}}
display: {sort_by: [rank, id]}
options:
  - id: target
    description: "points to win"
    default: normal
    choices:
      - {id: normal}
      - {id: short, patch: {constants: {target: 50}}}
      - {id: long, patch: {constants: {target: 200}}}
  - id: bonus
    default: off
    choices:
      - {id: "off"}
      - {id: "on", patch: {constants: {bonus: 10}}}
presets:
  - {id: quick, description: "a short game", options: {target: short, bonus: "on"}}
"""


@pytest.fixture
def game(tmp_path: Path) -> Path:
    (tmp_path / "base.yaml").write_text(BASE)
    return tmp_path


def write(folder: Path, name: str, text: str) -> Path:
    p = folder / name
    p.write_text(text)
    return p


def test_maps_deep_merge(game: Path) -> None:
    c = compose(str(write(game, "o.yaml", "extends: base.yaml\nconstants: {bonus: 7}\n")))
    assert plain(c.data["constants"]) == {"target": 100, "bonus": 7}
    assert "extends" not in c.data


def test_lists_merge_by_id_and_append(game: Path) -> None:
    c = compose(str(write(game, "o.yaml", "extends: base.yaml\nhand:\n  phases:\n"
                                          "    - {id: deal, count: 3}\n    - {id: extra, kind: shuffle}\n")))
    phases = c.data["hand"]["phases"]
    assert [p["id"] for p in phases] == ["shuffle", "deal", "score", "extra"]
    assert plain(phases[1]) == {"id": "deal", "kind": "deal", "from": "deck", "to": "hand", "count": 3}


def test_nested_id_lists_merge_deeply(game: Path) -> None:
    c = compose(str(write(game, "o.yaml", "extends: base.yaml\nhand:\n  phases:\n"
                                          "    - id: score\n      effects: [{id: two, when: 'x > 0'}]\n")))
    effects = plain(c.data["hand"]["phases"][2]["effects"])
    assert effects == [{"id": "one", "set": {"x": 1}}, {"id": "two", "set": {"x": 2}, "when": "x > 0"}]


def test_a_new_item_is_placed_before_or_after_another(game: Path) -> None:
    c = compose(str(write(game, "o.yaml", "extends: base.yaml\nhand:\n  phases:\n"
                                          "    - {id: cut, $after: shuffle, kind: shuffle}\n"
                                          "    - {id: first, $before: shuffle, kind: shuffle}\n"
                                          "    - {id: deal, count: 3}\n"
                                          "    - id: score\n      effects: [{id: zero, $before: one, set: {x: 0}}]\n")))
    phases = c.data["hand"]["phases"]
    assert [p["id"] for p in phases] == ["first", "shuffle", "cut", "deal", "score"]
    assert plain(phases[2]) == {"id": "cut", "kind": "shuffle"}  # the directive is not left in the rules
    assert phases[3]["count"] == 3  # merging by id still finds the items after the insertions
    assert [e["id"] for e in phases[4]["effects"]] == ["zero", "one", "two"]


def test_a_new_item_placed_next_to_an_unknown_one_is_an_error_at_the_name(game: Path) -> None:
    with pytest.raises(RuleFileError) as info:
        compose(str(write(game, "o.yaml", "extends: base.yaml\nhand:\n  phases:\n"
                                          "    - {id: cut, $after: shufle, kind: shuffle}\n")))
    d = info.value.diagnostics[0]
    assert (d.pos.line, d.pos.col) == (4, 25)
    assert d.message == "no item 'shufle' in hand.phases to place 'cut' after (did you mean 'shuffle'?)"


def test_an_item_already_there_is_not_moved(game: Path) -> None:
    with pytest.raises(RuleFileError) as info:
        compose(str(write(game, "o.yaml", "extends: base.yaml\nhand:\n  phases:\n"
                                          "    - {id: score, $before: shuffle}\n")))
    assert info.value.diagnostics[0].message == ("'$before' places a new item and stands alone: hand.phases "
                                                 "already has an item 'score', which merges where it is")


def test_delete_by_id(game: Path) -> None:
    c = compose(str(write(game, "o.yaml", "extends: base.yaml\nhand:\n  phases:\n"
                                          "    - {id: shuffle, $delete: true}\n")))
    assert [p["id"] for p in c.data["hand"]["phases"]] == ["deal", "score"]
    assert [e.path for e in c.provenance.deleted] == ["hand.phases[shuffle]"]


def test_delete_unknown_id_is_an_error_at_its_position(game: Path) -> None:
    with pytest.raises(RuleFileError) as info:
        compose(str(write(game, "o.yaml", "extends: base.yaml\nhand:\n  phases:\n"
                                          "    - {id: shufle, $delete: true}\n")))
    d = info.value.diagnostics[0]
    assert (d.pos.line, d.pos.col) == (4, 12)
    assert d.message == "cannot delete 'shufle': hand.phases has no item with that id (did you mean 'shuffle'?)"


def test_delete_a_key(game: Path) -> None:
    c = compose(str(write(game, "o.yaml", "extends: base.yaml\ndisplay: {$delete: true}\n")))
    assert "display" not in c.data


def test_replace_whole_list(game: Path) -> None:
    c = compose(str(write(game, "o.yaml", "extends: base.yaml\nhand:\n  phases:\n    - id: score\n"
                                          "      effects: {$replace: [{id: only, set: {x: 9}}]}\n")))
    assert plain(c.data["hand"]["phases"][2]["effects"]) == [{"id": "only", "set": {"x": 9}}]


def test_lists_without_ids_are_replaced(game: Path) -> None:
    c = compose(str(write(game, "o.yaml", "extends: base.yaml\ndisplay: {sort_by: [id]}\n")))
    assert plain(c.data["display"]["sort_by"]) == ["id"]


def test_unknown_directive(game: Path) -> None:
    with pytest.raises(RuleFileError) as info:
        compose(str(write(game, "o.yaml", "extends: base.yaml\nconstants: {$replac: {a: 1}}\n")))
    assert "unknown directive '$replac'" in info.value.diagnostics[0].message


def test_extends_chain_of_three(game: Path) -> None:
    write(game, "mid.yaml", "extends: base.yaml\nconstants: {target: 150}\n")
    leaf = write(game, "leaf.yaml", "extends: mid.yaml\nconstants: {bonus: 1}\n")
    c = compose(str(leaf))
    assert plain(c.data["constants"]) == {"target": 150, "bonus": 1}
    assert [Path(f).name for f in c.files] == ["base.yaml", "mid.yaml", "leaf.yaml"]
    assert c.provenance["constants.target"].layer.startswith("overlay ")
    assert c.provenance["constants.target"].layer.endswith("mid.yaml")


def test_extends_a_bundled_name(tmp_path: Path) -> None:
    c = compose(str(write(tmp_path, "house.yaml", "extends: rook\nconstants: {target: 500}\n")))
    assert c.data["constants"]["target"] == 500
    assert c.files[0].endswith("variants/rook/base.yaml")


def test_extends_cycle(game: Path) -> None:
    write(game, "x.yaml", "extends: y.yaml\n")
    write(game, "y.yaml", "extends: x.yaml\n")
    with pytest.raises(RuleFileError) as info:
        compose(str(game / "x.yaml"))
    message = info.value.diagnostics[0].message
    assert message.startswith("extends cycle: ")
    assert message.count(" extends ") == 2 and message.endswith("x.yaml")


def test_option_precedence(game: Path) -> None:
    ref = str(game / "base.yaml")
    assert compose(ref).chosen == {"target": "normal", "bonus": "off"}
    c = compose(ref, {}, "quick")
    assert c.chosen == {"target": "short", "bonus": "on"}
    assert plain(c.data["constants"]) == {"target": 50, "bonus": 10}
    c = compose(ref, {"target": "long"}, "quick")  # -o beats the preset, the preset beats the default
    assert c.chosen == {"target": "long", "bonus": "on"}
    assert c.chosen_by == {"target": "command line", "bonus": "preset quick"}
    assert c.data["constants"]["target"] == 200


@pytest.mark.parametrize("options, preset, message", [
    ({"targt": "short"}, None, "unknown option 'targt' for ruleset 'toy' (did you mean 'target'?); options: "
                               "target, bonus"),
    ({"target": "shrt"}, None, "option 'target' has no choice 'shrt' (did you mean 'short'?); choices: "
                               "normal, short, long"),
    ({}, "quik", "unknown preset 'quik' for ruleset 'toy' (did you mean 'quick'?); presets: quick"),
])
def test_unknown_option_choice_preset(game: Path, options: dict[str, str], preset: str | None,
                                      message: str) -> None:
    with pytest.raises(UsageError) as info:
        compose(str(game / "base.yaml"), options, preset)
    assert str(info.value) == message


def test_an_on_off_option_takes_a_boolean(game: Path) -> None:
    # rule texts call an on/off option a boolean: `bonus: true` in a scenario (YAML 1.2 reads a
    # boolean) or `-o bonus=false` names its on/off choice; an option without on/off still refuses it
    ref = str(game / "base.yaml")
    assert compose(ref, {"bonus": True}).chosen["bonus"] == "on"
    assert plain(compose(ref, {"bonus": "true"}).data["constants"])["bonus"] == 10
    assert compose(ref, {"bonus": False}, "quick").chosen["bonus"] == "off"
    assert compose(ref, {"bonus": "FALSE"}).chosen_by["bonus"] == "command line"
    with pytest.raises(UsageError, match="option 'target' has no choice 'True'"):
        compose(ref, {"target": True})
    with pytest.raises(UsageError, match="option 'bonus' has no choice 'yes'"):
        compose(ref, {"bonus": "yes"})


def test_a_choice_is_picked_by_its_other_names_too(game: Path) -> None:
    # a text that numbers its methods ("method 2") is asked for by the number, as a scenario's
    # `target: 2` (an integer), `-o target=2` or a preset; the choice taken is the named one
    text = (game / "base.yaml").read_text().replace("{id: short,", "{id: short, other_names: [2, half],")
    text = text.replace("options: {target: short,", "options: {target: half,")
    ref = str(write(game, "named.yaml", text))
    assert compose(ref, {"target": 2}).chosen["target"] == "short"
    assert plain(compose(ref, {"target": "half"}).data["constants"])["target"] == 50
    assert compose(ref, {}, "quick").chosen["target"] == "short"
    with pytest.raises(UsageError, match="option 'target' has no choice '3'"):
        compose(ref, {"target": 3})


def test_a_name_that_would_pick_two_choices_is_an_error_at_it(game: Path) -> None:
    text = (game / "base.yaml").read_text().replace("{id: long,", "{id: long, other_names: [x, short],")
    ref = str(write(game, "clash.yaml", text))
    with pytest.raises(RuleFileError) as err:
        compose(ref)
    line = text.splitlines().index(next(t for t in text.splitlines() if "other_names" in t)) + 1
    assert f"clash.yaml:{line}:" in str(err.value)
    assert "option 'target': 'short' already names a choice (at line" in str(err.value)


def test_provenance_by_rule_path(game: Path) -> None:
    c = compose(str(game / "base.yaml"), {"target": "short"})
    origin = c.provenance["constants.target"]
    assert origin.layer == "option target=short"
    assert (origin.pos.line, origin.pos.col) == (26, 49)
    base = c.provenance["hand.phases[deal].count"]
    assert base.layer.startswith("base ") and (base.pos.line, base.pos.col) == (13, 59)
    assert c.provenance.value("hand.phases[score].effects[one].set.x") == 1
    assert [e.path for e in c.provenance.under("seats")] == ["seats.count"]


def test_content_hash_is_stable_and_option_sensitive(game: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    ref = str(game / "base.yaml")
    h = compose(ref).content_hash
    assert h == compose(ref).content_hash
    other = tmp_path_factory.mktemp("elsewhere")
    (other / "base.yaml").write_text(BASE)
    assert compose(str(other / "base.yaml")).content_hash == h  # no paths in the hash
    assert compose(ref, {"target": "short"}).content_hash != h
    assert compose(ref, {"target": "normal"}).content_hash == h
    assert len(h) == 64


READS_OPTION = """\
name: toy
seats: {count: 2}
zones: [{id: hand, per: seat, visibility: owner}]
pieces: [{id: a, attributes: {rank: 1}}]
variables: {x: {scope: hand, initial: 0}}
hand:
  phases:
    - {id: score, kind: effects, effects: [{set: {x: "1 if option('low') == 'dealt' else 2"}}]}
options:
  - id: low
    description: "choices that differ only through option('low')"
    default: dealt
    choices: [{id: dealt, patch: {}}, {id: taker, patch: {}}]
  - {id: unread, default: a, choices: [{id: a, patch: {}}, {id: b, patch: {}}]}
"""


def test_content_hash_tells_apart_choices_read_only_by_option(tmp_path: Path) -> None:
    # Both choices have empty patches, so the effective data is the same: the hash must still
    # differ, since the game does (caches and mutation testing key rules by it).
    (tmp_path / "toy.yaml").write_text(READS_OPTION)
    ref = str(tmp_path / "toy.yaml")
    dealt, taker = compose(ref, {"low": "dealt"}).content_hash, compose(ref, {"low": "taker"}).content_hash
    assert dealt != taker
    # composed again, the sections are the same shared values: what they read is remembered, not lost
    assert compose(ref, {"low": "taker"}).content_hash == taker
    assert compose(ref, {"low": "dealt"}).content_hash == dealt
    # an option no expression reads, with empty patches, leaves the hash alone
    assert compose(ref, {"unread": "a"}).content_hash == compose(ref, {"unread": "b"}).content_hash


def test_bundled_rook_composes_under_every_choice() -> None:
    base = compose("rook")
    assert base.name == "rook"
    for opt in base.options:
        for choice in opt.choices:
            assert compose("rook", {opt.id: choice.id}).chosen[opt.id] == choice.id


def test_registry_names() -> None:
    assert "rook" in list_bundled()
    assert bundled_path("rook") == resolve_ruleset("rook")
    assert resolve_ruleset("variants/rook").name == "base.yaml"
    with pytest.raises(UsageError) as info:
        resolve_ruleset("rok")
    assert "did you mean 'rook'" in str(info.value)


@pytest.mark.parametrize(("items", "line", "message"), [
    ("options:\n"
     "  - {id: x, description: d, source: s, default: a, choices: [{id: a, description: d}]}\n"
     "  - {id: x, description: d, source: s, default: a, choices: [{id: a, description: d}]}\n",
     4, "duplicate option id 'x' (first at line 3)"),
    ("presets:\n"
     "  - {id: p, description: d, source: s, options: {}}\n"
     "  - {id: p, description: d, source: s, options: {}}\n",
     4, "duplicate preset id 'p' (first at line 3)"),
])
def test_repeated_option_and_preset_ids_are_reported_with_the_first(tmp_path: Path, items: str, line: int,
                                                                     message: str) -> None:
    f = tmp_path / "g.yaml"
    f.write_text("name: g\n" + items, encoding="utf-8")
    with pytest.raises(RuleFileError) as err:
        compose(str(f))
    assert [(d.pos.line, d.message) for d in err.value.diagnostics] == [(line, message)]


HOUSE = """\
extends: rook
name: rook-house
source: "our kitchen table"
constants:
  target: 500
hand:
  phases:
    - id: play
      first: "left_of(declarer)"
"""


def test_an_overlay_adds_its_source_to_the_base_citations(tmp_path: Path) -> None:
    house = tmp_path / "house.yaml"
    house.write_text(HOUSE)
    base = plain(compose("rook").data["source"])
    sources = plain(compose(str(house)).data["source"])
    assert sources == [*(base if isinstance(base, list) else [base]), "our kitchen table"]
    replaced = tmp_path / "replaced.yaml"
    replaced.write_text(HOUSE.replace('source: "our kitchen table"', 'source: {$replace: "only ours"}'))
    assert plain(compose(str(replaced)).data["source"]) == "only ours"


def test_an_option_whose_rules_an_overlay_sets_is_reported_overridden(tmp_path: Path) -> None:
    from rulecraft.rules.compose import overridden_options

    house = tmp_path / "house.yaml"
    house.write_text(HOUSE)
    found = overridden_options(compose(str(house)))
    assert list(found) == ["first_lead"]
    assert [(e.path, e.origin.pos.line) for e in found["first_lead"]] == [("hand.phases[play].first", 9)]
    assert overridden_options(compose("rook", {"first_lead": "left-of-bidder"})) == {}
