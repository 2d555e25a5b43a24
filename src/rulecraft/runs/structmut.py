"""Mutants of a rule file's structure: the mistakes an author makes in arranging rules, not in writing one.

``ruleshape`` finds single values to change; these changes are about how rules are put together:

- ``patch-entry``: one entry of an option choice's patch left out (a constant it sets, a combination
  entry it adds or deletes, a class it replaces): the choice then changes less than it should;
- ``preset``: one option of a preset set to another of its choices (the preset names the wrong one);
- ``reorder``: two neighbouring effects of a list, or two neighbouring phases of a hand, swapped (an
  effect that reads what the other sets, a deal before its shuffle).

Each is a ``Change`` at a path of the file's data: the item there left out, replaced, or swapped with
the next (``mutants.apply_mutant`` makes it). Reordering is not tried inside an overlay or a patch,
whose lists merge by id into the base's and keep the base's order.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from rulecraft.errors import UNKNOWN_POS, SourcePos
from rulecraft.rules.located import pos_of
from rulecraft.runs.ruleshape import Path, key_pos

# The lists of effects an item of which may be swapped with the next (as rule files write them).
EFFECT_LISTS = frozenset({"effects", "on_round", "on_lead", "on_void", "after_hand", "start", "revoke", "on_play"})


@dataclass(frozen=True, slots=True)
class Change:
    """One change at a place of a file's data (every kind of mutant is one, ``mutants.Mutant`` made of it)."""

    pos: SourcePos
    operator: str
    change: str
    drop: bool = False
    new: Any = None
    swap: bool = False


Found = tuple[Path, Change]  # a structural change and the path it is made at


def structure_changes(data: Any, choices: dict[str, tuple[str, ...]]) -> Iterator[Found]:
    """The structural changes of one file's data, top to bottom (``choices``: each option's, by id)."""
    if not isinstance(data, dict):
        return
    overlay = "extends" in data
    if not overlay:
        yield from _reorders(data)
    for i, opt in enumerate(_list(data.get("options"))):
        if not isinstance(opt, dict):
            continue
        for j, choice in enumerate(_list(opt.get("choices"))):
            patch = choice.get("patch") if isinstance(choice, dict) else None
            if isinstance(patch, dict) and patch:
                yield from _patch_entries(patch, ("options", i, "choices", j, "patch"))
    for i, preset in enumerate(_list(data.get("presets"))):
        chosen = preset.get("options") if isinstance(preset, dict) else None
        if isinstance(chosen, dict):
            for name, picked in chosen.items():
                where = key_pos(chosen, name, pos_of(chosen))
                for other in choices.get(str(name), ()):
                    if other != str(picked):
                        yield (("presets", i, "options", name),
                               Change(pos_of(picked, where), "preset", f"preset option {name}: '{picked}' -> '{other}'",
                                      new=other))


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _patch_entries(node: Any, path: Path) -> Iterator[Found]:
    """Each entry of a patch left out in turn: a key with a plain value, an item of a list (an entry it
    adds, a ``$delete``), and, inside mappings and items, their own entries."""
    if isinstance(node, dict):
        for k, v in node.items():
            if not isinstance(k, str) or k in ("id", "$delete"):
                continue
            where = key_pos(node, k, pos_of(node))
            if not isinstance(v, (dict, list)):
                yield (*path, k), Change(pos_of(v, where), "patch-entry", f"patch entry '{k}' left out", drop=True)
            else:
                yield from _patch_entries(v, (*path, k))
    elif isinstance(node, list):
        for i, item in enumerate(node):
            where = key_pos(node, i, pos_of(item))
            ident = item.get("id") if isinstance(item, dict) else None
            what = f"'{ident}'" if ident is not None else f"item {i + 1}"
            verb = "deletion of" if isinstance(item, dict) and item.get("$delete") is True else "entry"
            yield (*path, i), Change(pos_of(item, where), "patch-entry", f"patch {verb} {what} left out", drop=True)
            if isinstance(item, dict) and item.get("$delete") is not True:
                yield from _patch_entries(item, (*path, i))


def _reorders(data: dict[str, Any]) -> Iterator[Found]:
    """Neighbouring phases of the hand, and neighbouring effects of every list of effects, swapped."""
    hand = data.get("hand")
    if isinstance(hand, dict):
        yield from _swaps(_list(hand.get("phases")), ("hand", "phases"), "phase")
    yield from _effect_lists(data, ())


def _effect_lists(node: Any, path: Path) -> Iterator[Found]:
    if isinstance(node, dict):
        for k, v in node.items():
            if k in ("options", "presets", "display"):
                continue
            if k in EFFECT_LISTS and isinstance(v, list):
                yield from _swaps(v, (*path, k), "effect")
            yield from _effect_lists(v, (*path, k))
    elif isinstance(node, list):
        for i, item in enumerate(node):
            yield from _effect_lists(item, (*path, i))


def _swaps(items: list[Any], path: Path, what: str) -> Iterator[Found]:
    for i in range(len(items) - 1):
        a, b = items[i], items[i + 1]
        if not (isinstance(a, dict) and isinstance(b, dict)):
            continue
        where = key_pos(items, i, pos_of(a))
        yield (*path, i), Change(where if where is not UNKNOWN_POS else pos_of(a), "reorder",
                                 f"{what}s {_name(a, i)} and {_name(b, i + 1)} swapped", swap=True)


def _name(item: dict[str, Any], i: int) -> str:
    ident = item.get("id")
    return f"'{ident}'" if ident is not None else f"#{i + 1}"
