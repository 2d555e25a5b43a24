"""The operators that look like an author's mistakes: another word of the same type where an expression is
read, a patch or preset entry changed, a default swapped, a secret widened, an ``if_able`` dropped, two
effects or phases swapped, a seat expression moved. Each is checked on a bundled file, where the mistake
it stands for can be named."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from rulecraft.rules.compose import load_chain
from rulecraft.rules.yamlload import read_yaml_file
from rulecraft.runs.exprplaces import Places
from rulecraft.runs.mutants import Mutant, apply_mutant, enumerate_mutants
from rulecraft.runs.mutate import run_baseline
from rulecraft.runs.suite import load_suite

ROOT = Path(__file__).resolve().parents[2]


def mutants_of(game: str) -> list[Mutant]:
    """The mutants of a bundled game's files, with the places of its expressions (its scenarios' builds)."""
    suite = load_suite([ROOT / "tests" / "scenarios" / game])
    places = Places()
    run_baseline(suite, places)
    return enumerate_mutants((suite.docs[f] for f in suite.files), places)


@pytest.fixture(scope="module")
def big_two() -> Iterator[list[Mutant]]:
    yield mutants_of("big-two")


def changes(mutants: list[Mutant], rule: str, operator: str) -> list[str]:
    return [m.change for m in mutants if m.rule == rule and m.operator == operator]


def test_a_term_of_the_same_type_from_the_same_file(big_two: list[Mutant]) -> None:
    # A full house's strength by 'top' (its triple's rank alone), or by the top card (rank and suit): both
    # are written in the file, both are numbers in a trick round. The pair's top card, for the other calls
    # the file writes that give a number there, nearest in spelling first.
    assert changes(big_two, "combinations[full-house].strength", "replace-term") == ["'top' -> 'top_card(play)'"]
    assert changes(big_two, "combinations[pair].strength", "replace-term") == [
        "'top_card(play)' -> 'lowest_card()'", "'top_card(play)' -> 'first(best_play)'"]
    # A function for another that takes as much and gives the same: 'max' for 'min', an attribute for another.
    assert "'max(' -> 'min('" in changes(big_two, 'functions["top_card(xs)"]', "replace-function")
    assert "'card(' -> 'order('" in changes(big_two, "combinations[single].strength", "replace-function")


def test_replacements_are_kept_only_where_the_compiler_takes_them(big_two: list[Mutant]) -> None:
    # 'play' (the pieces played) is never replaced by a per-seat variable, though both are lists; and
    # no replacement names what its place cannot read (a trick round's 'top' in the match's score).
    assert not [m for m in big_two if m.operator.startswith("replace-") and m.new is not None
                and ("penalty" in m.change.split("->")[1] and "play" in m.change.split("->")[0])]
    assert not [m for m in big_two if m.rule == "match.score" and "top" in m.change]


def test_a_seat_expression_moved_on_or_back(big_two: list[Mutant]) -> None:
    assert changes(big_two, "hand.phases[deal].first", "seat") == ["'next(dealer, 1)' -> 'dealer'"]


def test_patch_entries_and_deletions_left_out() -> None:
    mutants = enumerate_mutants(load_chain("tien-gow/bunmu-son"))
    # 文武尊's deletion of the 1-5 pair from the civil pairs: left out, the 1-5 pair is both supreme and a pair.
    (m,) = [m for m in mutants if m.operator == "patch-entry" and "choices[on]" in m.rule
            and m.change == "patch deletion of 'red-six-pair' left out"]
    doc = load_chain("tien-gow")[0]
    changed = apply_mutant(doc.data, m)
    opt = next(o for o in changed["options"] if o["id"] == "bunmu_son")
    pair = next(c for c in next(ch for ch in opt["choices"] if ch["id"] == "on")["patch"]["combinations"]
                if c["id"] == "pair")
    assert "entries" not in pair  # its only entry gone, the list goes too (an empty list would replace the base's)
    assert [c["id"] for c in opt["choices"][1]["patch"]["combinations"]] == ["supreme", "pair"]
    # A constant a patch sets, left out.
    assert any(x.change == "patch entry 'wen_qin' left out" for x in mutants)


def test_a_preset_option_and_every_other_default() -> None:
    mutants = enumerate_mutants(load_chain("rook"))
    assert [m.change for m in mutants if m.rule == "presets[bird-low].options.bird_rank"] == [
        "preset option bird_rank: 'lowest' -> 'highest'", "preset option bird_rank: 'lowest' -> 'between-10-11'"]
    defaults = [m.change for m in mutants if m.operator == "default" and m.rule == "options[bird_rank].default"]
    assert defaults == ["default 'highest' -> 'lowest'", "default 'highest' -> 'between-10-11'"]


def test_visibility_widened_and_if_able_dropped() -> None:
    mutants = enumerate_mutants(load_chain("hearts"))
    widened = {(m.rule, m.change) for m in mutants if m.operator == "widen-visibility"}
    assert ("zones[hand].visibility", "'owner' -> 'all'") in widened
    assert ("zones[deck].visibility", "'nobody' -> 'owner'") in widened
    assert not [m for m in mutants if m.operator == "widen-visibility" and "'all' ->" in m.change]
    assert [m.change for m in mutants if m.operator == "drop-if-able"]
    assert all(m.change.endswith("if_able: true -> false") for m in mutants if m.operator == "drop-if-able")


def test_two_effects_or_phases_swapped(tmp_path: Path) -> None:
    text = (ROOT / "tests/runs/tiny/rules.yaml").read_text(encoding="utf-8")
    (tmp_path / "rules.yaml").write_text(text, encoding="utf-8")
    doc = read_yaml_file(tmp_path / "rules.yaml")
    mutants = [m for m in enumerate_mutants([doc]) if m.operator == "reorder"]
    assert [m.change for m in mutants] == [
        "phases 'shuffle' and 'deal' swapped", "phases 'deal' and 'play' swapped",
        "phases 'play' and 'scoring' swapped", "effects 'most-tricks' and 'sweep' swapped"]
    swapped = apply_mutant(doc.data, mutants[-1])
    assert [e["id"] for e in swapped["hand"]["phases"][3]["effects"]] == ["sweep", "most-tricks"]
    assert [e["id"] for e in doc.data["hand"]["phases"][3]["effects"]] == ["most-tricks", "sweep"]
