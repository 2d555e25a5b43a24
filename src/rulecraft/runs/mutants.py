"""Mutants of rule files: one small change each, made on the located data the loader returns.

``enumerate_mutants`` lists every change of the files of a ruleset (the same files, the same
mutants, in the same order, every time): each expression's changes from its parse tree
(``exprmut``: a token; ``exprswap``: another name, function or term of the same type, when the
expression's place is known), each number one more and one less, each true/false setting flipped
(an ``if_able`` dropped), each word from a fixed set (``face_up: any``) changed to another, a zone's
or variable's visibility widened, an option's default changed to each other choice, each
restriction, effect, multiplier, extra call and option choice's patch left out, and the changes of
how rules are put together (``structmut``: an entry of a patch left out, a preset's option changed,
two effects or phases swapped). A ``Mutant`` is plain data (it pickles to worker processes) naming
the file, the place and the change; ``apply_mutant`` gives the file's data with the change made,
copying only the containers on the way to it, so the loaded file is never changed and nothing is
written to disk.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from typing import Any

from rulecraft.rules.located import LDict, LFloat, LInt, LList, LStr, pos_of
from rulecraft.rules.paths import rule_path
from rulecraft.rules.yamlload import YamlDocument
from rulecraft.runs.exprmut import ExprEdit, expression_edits
from rulecraft.runs.exprplaces import Place, Places
from rulecraft.runs.exprswap import Vocabulary, swap_edits
from rulecraft.runs.ruleshape import Path, Site, sites
from rulecraft.runs.structmut import Change as _Change
from rulecraft.runs.structmut import structure_changes

# Who may see a zone's pieces or a variable's value, from fewest seats to most.
WIDER = {"nobody": 0, "owner": 1, "all": 2}


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
    swap: bool = False  # swap the list item at the path with the next one
    # Which of the file's mutants making this change in this rule it is (1, 2, ...): names one place in a
    # rule that has several (two '==' in one condition) without a line number, which edits above would move.
    occurrence: int = 1

    @property
    def at(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"

    def describe(self) -> str:
        return f"{self.at}: {self.change}"


def enumerate_mutants(docs: Iterable[YamlDocument], places: Places | None = None) -> list[Mutant]:
    """Every mutant of the files, file by file in the order given, each file top to bottom.

    ``places``: where each expression is read (``exprplaces``), from builds of the files as written;
    without it no replacement of a name, function or term is tried."""
    out: list[Mutant] = []
    choices: dict[str, tuple[str, ...]] = {}  # each option's choices, from the files before (an overlay's base)
    for doc in docs:
        made = _FileMutants(doc, out)
        overlay = isinstance(doc.data, dict) and "extends" in doc.data
        found_sites = list(_with_choices(sites(doc.data), choices))
        vocab = _vocabulary(found_sites) if places is not None else None
        for site in found_sites:
            path = _drop_path(doc.data, site.path, overlay) if site.role == "item" else site.path
            for c in _changes(site):
                made.add(site.path, path, c)
            if vocab is not None and places is not None and site.role == "expression":
                for c in _replacements(site, places, vocab):
                    made.add(site.path, path, c)
        for at, sc in structure_changes(doc.data, {**choices, **_option_choices(doc.data)}):
            made.add(at, _drop_path(doc.data, at, overlay) if sc.drop else at, sc)
        choices.update(_option_choices(doc.data))
    return out


class _FileMutants:
    """The mutants of one file, added to the list of all: each change made once."""

    def __init__(self, doc: YamlDocument, out: list[Mutant]) -> None:
        self.doc, self.out = doc, out
        self.found: dict[tuple[Any, ...], int] = {}
        self.made: set[tuple[Path, bool, bool, str]] = set()  # (path, drop, swap, new): one mutant per change
        self.seen: Counter[tuple[str, str]] = Counter()  # (rule, change) -> mutants so far

    def add(self, site_path: Path, path: Path, c: _Change) -> None:
        out = self.out
        key = (c.pos, c.operator, c.change)
        if key in self.found:  # the same text reached again through a YAML alias: one mutant
            m = out[self.found[key]]
            out[self.found[key]] = replace(m, paths=(*m.paths, path))
            return
        same = (path, c.drop, c.swap, repr(c.new))
        if same in self.made:  # the same change found by two operators: tried once, under the first
            return
        self.made.add(same)
        self.found[key] = len(out)
        rule = rule_path(self.doc.data, site_path)
        self.seen[rule, c.change] += 1
        out.append(Mutant(len(out), c.pos.file or self.doc.file, c.pos.line, c.pos.col, rule, c.operator,
                          c.change, (path,), c.drop, c.new, c.swap, self.seen[rule, c.change]))


def _vocabulary(found: list[Site]) -> Vocabulary:
    """The names, functions and calls a file's expressions are written with."""
    vocab = Vocabulary()
    for site in found:
        if site.role == "expression" and isinstance(site.value, str):
            vocab.read(str(site.value), _params(site))
    return vocab


def _params(site: Site) -> list[str]:
    """A rule function's parameters, when the site is its body (``functions: {"f(a, b)": ...}``)."""
    if len(site.path) >= 2 and site.path[-2] == "functions" and isinstance(site.path[-1], str):
        sig = site.path[-1]
        if "(" in sig and sig.endswith(")"):
            return [p.strip() for p in sig[sig.index("(") + 1:-1].split(",") if p.strip()]
    return []


def _replacements(site: Site, places: Places, vocab: Vocabulary) -> Iterator[_Change]:
    """Another name, function or term in the expression; a seat expression moved on or back."""
    v = site.value
    if not isinstance(v, str):
        return
    params = _params(site)
    place = places.of_function(params) if params or site.path[-2:-1] == ("functions",) else places.at(site.pos)
    if place is None:
        return
    pos_at = getattr(v, "pos_at", None)
    for e in [*_seat_edits(str(v), place), *swap_edits(str(v), place, vocab, params)]:
        where = pos_at(e.at) if pos_at is not None else site.pos
        yield _Change(where, e.operator, e.change, new=e.apply(str(v)))


def _seat_edits(text: str, place: Place) -> list[ExprEdit]:
    """A seat expression (the first to be dealt to, a leader, a receiver) one seat on: ``next(E, 1)``; and
    ``next(E, n)`` written as ``E``, the seat itself."""
    from rulecraft.dsl import T
    from rulecraft.dsl import ast as A
    from rulecraft.dsl.parser import ExprSyntaxError, parse
    from rulecraft.runs.exprmut import shown

    try:
        tree = parse(text)
    except ExprSyntaxError:
        return []
    out: list[ExprEdit] = []
    if isinstance(tree, A.Call) and tree.func == "next" and tree.args:
        inner = text[tree.args[0].start:tree.args[0].end]
        out.append(ExprEdit(tree.start, 0, len(text), inner, "seat", f"{shown(text)} -> {shown(inner)}"))
    elif place.compiles(text) and _type(text, place) is T.SEAT:
        moved = f"next({text.strip()}, 1)"
        out.append(ExprEdit(tree.start, 0, len(text), moved, "seat", f"{shown(text)} -> {shown(moved)}"))
    return [e for e in out if place.compiles(e.apply(text))]


def _type(text: str, place: Place) -> Any:
    from rulecraft.dsl import compile_expr

    return compile_expr(text, place.scope).type


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
        for other in site.choices:
            yield _Change(site.pos, "default", f"default '{v}' -> '{other}'", new=other)
    elif site.role == "enum" and site.key == "visibility" and v in WIDER:
        # Every other seeing: a widening is its own operator (a secret shown), a narrowing a word changed.
        for other in site.choices:
            wider = WIDER.get(other, -1) > WIDER[v]
            yield _Change(site.pos, "widen-visibility" if wider else "word", f"'{v}' -> '{other}'", new=other)
    elif site.role == "enum":
        yield _Change(site.pos, "word", f"'{v}' -> '{site.choices[0]}'", new=site.choices[0])
    elif isinstance(v, bool):
        new = not v
        operator = "drop-if-able" if site.key == "if_able" and v else "switch"
        yield _Change(site.pos, operator, f"{site.key or 'value'}: {str(v).lower()} -> {str(new).lower()}",
                      new=new)
    elif isinstance(v, (int, float)):
        for step in (1, -1):
            yield _Change(site.pos, _number_kind(site), f"{v:g} -> {v + step:g}", new=v + step)
    elif site.role == "expression" and isinstance(v, str):
        pos_at = getattr(v, "pos_at", None)
        deal = _number_kind(site) == "deal-count"
        for e in expression_edits(str(v), site.condition):
            where = pos_at(e.at) if pos_at is not None else site.pos
            operator = "deal-count" if deal and e.operator == "number" else e.operator
            yield _Change(where, operator, e.change, new=e.apply(str(v)))


def _number_kind(site: Site) -> str:
    """``deal-count`` for how many pieces a deal gives (or a seat count), else ``number``."""
    path = site.path
    if path[-2:] == ("seats", "count") or (len(path) >= 3 and path[-3] == "phases" and path[-1] == "count"):
        return "deal-count"
    return "number"


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
    if not rest and m.swap and isinstance(out, LList) and isinstance(step, int) and step + 1 < len(out):
        out[step], out[step + 1] = out[step + 1], out[step]
        if step + 1 < len(out.item_pos):
            out.item_pos[step], out.item_pos[step + 1] = out.item_pos[step + 1], out.item_pos[step]
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
