"""Mutants of rule files: one small change each, made on the located data the loader returns.

``enumerate_mutants`` lists every change of the files of a ruleset (the same files, the same
mutants, in the same order, every time): each expression's changes from its parse tree
(``exprmut``), each number one more and one less, each true/false setting flipped, each word from
a fixed set (``face_up: any``) changed to another, an option's default changed, and each
restriction, effect, multiplier, extra call and option choice's patch left out. A ``Mutant`` is
plain data (it pickles to worker processes) naming the file, the place and the change;
``apply_mutant`` gives the file's data with the change made, copying only the containers on the way
to it, so the loaded file is never changed and nothing is written to disk.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from typing import Any

from rulecraft.errors import SourcePos
from rulecraft.rules.located import LDict, LFloat, LInt, LList, LStr, pos_of
from rulecraft.rules.paths import rule_path
from rulecraft.rules.yamlload import YamlDocument
from rulecraft.runs.exprmut import expression_edits
from rulecraft.runs.ruleshape import Path, Site, sites


@dataclass(frozen=True, slots=True)
class Mutant:
    """One change to one rule file."""

    index: int  # its place in the list of the files' mutants (stable from run to run)
    file: str  # the file as positions name it (variants/my-game/base.yaml)
    line: int
    col: int
    rule: str  # the rule path of the changed value within the file (hand.phases[play].first)
    operator: str  # what kind of change (compare, number, negate, drop-effect, ...)
    change: str  # the change, for people: "'>=' -> '>'"
    paths: tuple[Path, ...]  # where in the file's data (more than one when a YAML alias repeats it)
    drop: bool = False  # leave the value out (a list item, or a key) instead of replacing it
    new: Any = None  # the replacement: plain str, int, float or bool
    # Which of the file's mutants making this change in this rule it is (1, 2, ...): names one place in a
    # rule that has several (two '==' in one condition) without a line number, which edits above would move.
    occurrence: int = 1

    @property
    def at(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"

    def describe(self) -> str:
        return f"{self.at}: {self.change}"


@dataclass(frozen=True, slots=True)
class _Change:
    pos: SourcePos
    operator: str
    change: str
    drop: bool = False
    new: Any = None


def enumerate_mutants(docs: Iterable[YamlDocument]) -> list[Mutant]:
    """Every mutant of the files, file by file in the order given, each file top to bottom."""
    out: list[Mutant] = []
    choices: dict[str, tuple[str, ...]] = {}  # each option's choices, from the files before (an overlay's base)
    for doc in docs:
        found: dict[tuple[Any, ...], int] = {}
        seen: Counter[tuple[str, str]] = Counter()  # (rule, change) -> mutants so far
        overlay = isinstance(doc.data, dict) and "extends" in doc.data
        for site in _with_choices(sites(doc.data), choices):
            path = _drop_path(doc.data, site.path, overlay) if site.role == "item" else site.path
            for c in _changes(site):
                key = (c.pos, c.operator, c.change)
                if key in found:  # the same text reached again through a YAML alias: one mutant
                    m = out[found[key]]
                    out[found[key]] = replace(m, paths=(*m.paths, path))
                    continue
                found[key] = len(out)
                rule = rule_path(doc.data, site.path)
                seen[rule, c.change] += 1
                out.append(Mutant(len(out), c.pos.file or doc.file, c.pos.line, c.pos.col, rule, c.operator,
                                  c.change, (path,), c.drop, c.new, seen[rule, c.change]))
        choices.update(_option_choices(doc.data))
    return out


def _with_choices(found: Iterable[Site], choices: dict[str, tuple[str, ...]]) -> Iterator[Site]:
    """The sites, an option default written without its choices (in an overlay) given them."""
    for site in found:
        if site.role == "default" and not site.choices:
            others = tuple(c for c in choices.get(site.kind, ()) if c != site.value)
            if not others:
                continue
            site = replace(site, choices=others)
        yield site


def _option_choices(data: Any) -> dict[str, tuple[str, ...]]:
    options = data.get("options") if isinstance(data, dict) else None
    out: dict[str, tuple[str, ...]] = {}
    for opt in options if isinstance(options, list) else ():
        if isinstance(opt, dict) and isinstance(opt.get("choices"), list):
            out[str(opt.get("id"))] = tuple(str(c["id"]) for c in opt["choices"] if isinstance(c, dict) and "id" in c)
    return out


def _drop_path(data: Any, path: Path, overlay: bool) -> Path:
    """What to leave out to leave out the item at ``path``.

    In an overlay or an option's patch a list of items merges by id, but an empty list replaces
    the list it is laid over; so leaving out a list's only item there leaves out the list.
    """
    if not (overlay or "patch" in path[:-1]) or len(path) < 2:
        return path
    node = data
    for step in path[:-1]:
        node = node[step]
    return path[:-1] if isinstance(node, list) and len(node) == 1 else path


def _changes(site: Site) -> Iterator[_Change]:
    v = site.value
    if site.role == "item":
        ident = v.get("id")
        what = f"{site.kind} '{ident}'" if ident is not None else site.kind
        yield _Change(site.pos, "drop-" + site.kind.replace(" ", "-"), f"{what} left out", drop=True)
    elif site.role == "patch":
        yield _Change(site.pos, "drop-patch", "the choice's patch left out", drop=True)
    elif site.role == "default":
        yield _Change(site.pos, "default", f"default '{v}' -> '{site.choices[0]}'", new=site.choices[0])
    elif site.role == "enum":
        yield _Change(site.pos, "word", f"'{v}' -> '{site.choices[0]}'", new=site.choices[0])
    elif isinstance(v, bool):
        new = not v
        yield _Change(site.pos, "switch", f"{site.key or 'value'}: {str(v).lower()} -> {str(new).lower()}",
                      new=new)
    elif isinstance(v, (int, float)):
        for step in (1, -1):
            yield _Change(site.pos, "number", f"{v:g} -> {v + step:g}", new=v + step)
    elif site.role == "expression" and isinstance(v, str):
        pos_at = getattr(v, "pos_at", None)
        for e in expression_edits(str(v), site.condition):
            where = pos_at(e.at) if pos_at is not None else site.pos
            yield _Change(where, e.operator, e.change, new=e.apply(str(v)))


# --------------------------------------------------------------------------- applying
def apply_mutant(data: Any, mutant: Mutant) -> Any:
    """The file's data with the mutant's change made (``data`` itself is left as it was)."""
    for path in mutant.paths:
        data = _at(data, path, mutant)
    return data


def _at(node: Any, path: Path, m: Mutant) -> Any:
    if not path:
        return _located(m.new, node)
    step, rest = path[0], path[1:]
    out = _copy(node)
    if not rest and m.drop:
        if isinstance(out, LList) and isinstance(step, int):
            del out[step]
            if step < len(out.item_pos):
                del out.item_pos[step]
        elif isinstance(out, LDict) and isinstance(step, str):
            del out[step]
            out.key_pos.pop(step, None)
        return out
    out[step] = _at(node[step], rest, m)
    return out


def _copy(node: Any) -> Any:
    out: LDict | LList
    if isinstance(node, dict):
        out = LDict(node, pos=pos_of(node))
        out.key_pos = dict(getattr(node, "key_pos", {}))
    else:
        out = LList(node, pos=pos_of(node))
        out.item_pos = list(getattr(node, "item_pos", []))
    if hasattr(node, "end"):
        out.end = node.end  # type: ignore[union-attr]
    return out


def _located(new: Any, old: Any) -> Any:
    """``new`` carrying ``old``'s position, as the loader would have given it."""
    if isinstance(new, bool) or new is None:
        return new
    if isinstance(new, str):
        return LStr(new, pos_of(old), getattr(old, "style", ""))
    if isinstance(new, int):
        return LInt(new, pos_of(old))
    if isinstance(new, float):
        return LFloat(new, pos_of(old))
    return new
