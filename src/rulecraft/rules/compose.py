"""Composition: from a RULESET argument, options and a preset to the effective rule data.

Why a separate stage: a variant should be a small, cited diff of the rules it changes, not a
copied file. Composition turns the diff back into one complete rule set, and remembers for every
value which file, line and layer it came from (``explain`` shows this; errors point there).

The semantics (also in ``docs/rule-files.md``):

**extends.** A file with ``extends: TARGET`` is an *overlay* of TARGET, which is a path relative
to the overlay's own file or a bundled name (``my-game``, ``my-game/house``). TARGET may itself
extend another file; chains have any length. A cycle or a target that does not exist is an error
naming the chain (``a.yaml extends b.yaml extends a.yaml``). The base (the file without
``extends``) is read first and each overlay is laid over it in turn, ending with the file named.
``extends`` does not appear in the effective data.

**Overlay merge.** Laying value O (the overlay's) over value B (the base's):

- mappings merge key by key, recursively; a key whose overlay value is ``{$delete: true}`` is
  removed (deleting a key that is not there is an error);
- a list whose items are all mappings with an ``id`` merges *by id*: an item whose id is already in
  B merges into that item (deeply); a new id is appended, or placed where ``$before: Y`` or
  ``$after: Y`` says (Y an item of B); ``{id: X, $delete: true}`` removes item X
  (an unknown X is an error at its position);
- any other list (items without ids, or an empty list) replaces B's list;
- ``{$replace: VALUE}`` replaces B's value (a list or mapping) with VALUE as written, without merging;
- anything else (a scalar, or a different type) replaces B's value.

**Options and presets** (after Ludii). The top-level ``options`` list declares choices, each with an
``id``, a ``description``, a ``source``, a ``default`` and ``choices`` (each an ``id``, a
``description`` and an optional ``patch``). ``presets`` names sets of choices. The options in
effect are: every option's default, overridden by the preset (if one is asked for), overridden by
explicit ``-o NAME=CHOICE`` assignments. Each chosen choice's ``patch`` is then laid over the
composed base and overlays with the same merge rules, in the order the options are declared
(so a later option's patch wins where two touch the same value). Options and presets are themselves
lists of items with ids, so an overlay can add an option, add a choice, or change a default.
An unknown option, choice or preset asked for on the command line is a UsageError listing the known
ones; a default or preset naming a choice that does not exist is an error in the rule file.

**Identity.** ``content_hash`` is the sha256 of the canonical JSON (sorted keys, no whitespace) of
the effective data without ``options`` and ``presets`` (their effect is already in the data;
``chosen`` records which were taken). It contains no paths, so it is the same on every machine.

**Provenance.** For every leaf value of the effective data: the file:line:col that wrote it and the
layer (``base variants/my-game/base.yaml``, ``overlay house.yaml``, ``option bird_rank=lowest``),
queryable by rule path (``hand.phases[play].first``).
"""

from __future__ import annotations

import ast
import contextlib
import difflib
import hashlib
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from rulecraft.errors import UNKNOWN_POS, Diagnostic, RuleFileError, SourcePos, UsageError, clip
from rulecraft.rules.excerpt import excerpt
from rulecraft.rules.located import LDict, LList, LStr, pos_of
from rulecraft.rules.nested import nested_values
from rulecraft.rules.paths import item_noun, item_step, key_step
from rulecraft.rules.registry import bundled_path, list_bundled, path_target, resolve_ruleset
from rulecraft.rules.rulefiles import document_kind, read_rule_file
from rulecraft.rules.yamlload import YamlDocument

DIRECTIVES = ("$delete", "$replace")
PLACES = ("$before", "$after")  # on a new list item with an id: where it goes (default: at the end)
NOT_HASHED = ("options", "presets")


# --------------------------------------------------------------------------- results
@dataclass(frozen=True, slots=True)
class Origin:
    """Where a value of the effective rules was written, and by which layer."""

    pos: SourcePos
    layer: str

    def __str__(self) -> str:
        return f"{self.pos} ({self.layer})"


@dataclass(frozen=True, slots=True)
class ProvenanceEntry:
    path: str
    value: Any
    origin: Origin


@dataclass
class Provenance:
    """Every leaf of the effective data by rule path, with its origin; also what layers deleted."""

    entries: dict[str, ProvenanceEntry] = field(default_factory=dict)
    deleted: list[ProvenanceEntry] = field(default_factory=list)

    def __contains__(self, path: str) -> bool:
        return path in self.entries

    def __getitem__(self, path: str) -> Origin:
        return self.entries[path].origin

    def origin(self, path: str) -> Origin | None:
        """The origin of the value at ``path`` (a leaf), or None."""
        entry = self.entries.get(path)
        return entry.origin if entry else None

    def value(self, path: str) -> Any:
        return self.entries[path].value

    def under(self, prefix: str) -> list[ProvenanceEntry]:
        """Every leaf at or below ``prefix`` (all of them for an empty prefix), in document order."""
        if not prefix:
            return list(self.entries.values())
        return [e for p, e in self.entries.items() if p == prefix or p.startswith((prefix + ".", prefix + "["))]

    def layers(self) -> list[str]:
        return sorted({e.origin.layer for e in self.entries.values()})


@dataclass(frozen=True, slots=True)
class ChoiceInfo:
    id: str
    description: str
    patch: Any
    pos: SourcePos
    other_names: tuple[str, ...] = ()  # what the texts also call it (a number in a numbered list of methods)


@dataclass(frozen=True, slots=True)
class OptionInfo:
    id: str
    description: str
    source: Any
    default: str
    choices: tuple[ChoiceInfo, ...]
    pos: SourcePos

    def choice(self, cid: str) -> ChoiceInfo | None:
        return next((c for c in self.choices if c.id == cid), None)

    def pick(self, value: object) -> str | None:
        """The id of the choice ``value`` names, or None: its id, one of its ``other_names``, or a boolean.
        An on/off option is a yes/no rule, and rule texts call it a boolean: a scenario's ``flag: true``
        (YAML 1.2 reads a boolean) or ``-o flag=false`` takes ``on`` or ``off`` when the option has that
        choice and no choice or other name of the value's own."""
        text = str(value)
        for c in self.choices:
            if text == c.id or text in c.other_names:
                return c.id
        if isinstance(value, bool) or text.lower() in ("true", "false"):
            flag = "on" if text.lower() == "true" else "off"
            if self.choice(flag) is not None:
                return flag
        return None


@dataclass(frozen=True, slots=True)
class PresetInfo:
    id: str
    description: str
    source: Any
    options: dict[str, str]
    pos: SourcePos


@dataclass
class Composed:
    """The effective rules of one RULESET with one set of option choices, and how they came to be."""

    data: LDict
    name: str
    chosen: dict[str, str]
    content_hash: str
    source_text: dict[str, str]
    files: list[str]  # the extends chain, base first, the file asked for last
    # Where every value came from, made when first asked for (explain, diff): a walk over all the data
    # that loading and validating never need.
    make_provenance: Callable[[], Provenance]
    options: list[OptionInfo] = field(default_factory=list)
    presets: list[PresetInfo] = field(default_factory=list)
    preset: str | None = None
    ref: str = ""
    layers: list[str] = field(default_factory=list)  # labels, in the order applied
    chosen_by: dict[str, str] = field(default_factory=dict)  # option id -> default | preset P | command line
    # Items a layer added to a list merged by id, whose id is close to one already there (rule path ->
    # (the id written, the id it may have meant)): a problem inside one likely means a misspelt id.
    near_misses: dict[str, tuple[str, str]] = field(default_factory=dict)
    # The ids of list items and the keys a layer or a choice deleted: a display name written for one
    # (a base file naming its phase, an overlay removing the phase) names nothing now, and is no mistake.
    removed_ids: frozenset[str] = frozenset()

    _provenance: Provenance | None = None

    @property
    def provenance(self) -> Provenance:
        if self._provenance is None:
            self._provenance = self.make_provenance()
        return self._provenance

    @property
    def title(self) -> str:
        return str(self.data.get("title", self.name))

    @property
    def identity(self) -> dict[str, Any]:
        return {"name": self.name, "options": dict(sorted(self.chosen.items())), "hash": self.content_hash}


# --------------------------------------------------------------------------- entry point
def compose(ref: str | Path, options: dict[str, str] | None = None, preset: str | None = None) -> Composed:
    """Compose RULESET ``ref`` (a path or bundled name) with option choices and a preset.

    Raises UsageError for an unknown ruleset, option, choice or preset asked for; RuleFileError for
    problems in the files (syntax, extends, merge directives, option declarations).
    """
    chain = load_chain(ref)
    return compose_documents(chain, options or {}, preset, ref=str(ref))


def load_chain(ref: str | Path, read: dict[Path, YamlDocument] | None = None) -> list[YamlDocument]:
    """The extends chain of ``ref``: base first, ``ref``'s own file last (``read``: files already read)."""
    path = resolve_ruleset(ref)
    docs: list[YamlDocument] = []
    seen: list[Path] = []
    via: Any = None
    current = path
    while True:
        real = current.resolve()
        if real in seen:
            names = [d.file for d in docs] + [docs[seen.index(real)].file]
            raise _file_error(docs[-1], via, "extends cycle: " + " extends ".join(names))
        seen.append(real)
        doc = (read or {}).get(real) or read_rule_file(current)
        if not isinstance(doc.data, dict):
            what = "empty" if doc.data is None else "not a mapping"
            raise RuleFileError([Diagnostic(SourcePos(doc.file, 1, 1),
                                            f"the rule file is {what}: it should be keys like 'name:', 'pieces:', "
                                            "'hand:' (or 'extends:' for an overlay)")])
        _refuse_non_rule_file(doc, docs[-1] if docs else None, via)
        docs.append(doc)
        ext = doc.data.get("extends")
        if ext is None:
            break
        if not isinstance(ext, str) or not ext.strip():
            raise _file_error(doc, ext if ext is not None else doc.data,
                              "'extends' names one rule file: a path relative to this file, or a bundled name "
                              "such as 'my-game'", key="extends")
        target = path_target(ext, current.parent) or bundled_path(ext)
        if target is None:
            chain = " extends ".join([d.file for d in docs] + [clip(ext)])
            known = list_bundled()
            close = difflib.get_close_matches(str(ext), known, n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            raise _file_error(doc, ext, f"cannot find '{clip(ext)}' to extend{hint}: {chain}; give a path relative to "
                                        f"this file or a bundled name ({', '.join(known) or 'none'})")
        via = ext
        current = target
    docs.reverse()
    return docs


def _refuse_non_rule_file(doc: YamlDocument, extender: YamlDocument | None, via: Any) -> None:
    """A scenario or a mutants file named where a rule file belongs is said to be one, once: read as a
    ruleset it gave a dozen schema errors about keys a ruleset needs."""
    kind = document_kind(doc.data)
    if kind == "scenario":
        what = f"a scenario (it plays the ruleset '{clip(doc.data['ruleset'])}')"
    elif kind == "mutants":
        what = "a mutants file (it lists the equivalent mutants of a rule file)"
    else:
        return
    if extender is not None:
        raise _file_error(extender, via, f"'{clip(via)}' is {what}, not a rule file to extend")
    # Named on a command line or by a scenario: a usage error there, which a scenario reports at its 'ruleset:'.
    raise UsageError(f"'{doc.file}' is {what}, not a rule file")


def compose_documents(docs: list[YamlDocument], options: dict[str, str], preset: str | None,
                      ref: str = "") -> Composed:
    """Compose already loaded documents (base first). Used by ``compose`` and by tests."""
    source_text = {d.file: d.text for d in docs}
    files = _layer_files(docs, source_text)
    data = files.data
    file_layers = dict(files.file_layers)
    labels = list(files.labels)
    provenance_deleted = list(files.deleted)
    near_misses = dict(files.near_misses)
    new_constants = list(files.new_constants)

    declared = files.declared.get("options")
    if declared is None:  # the options and presets of the layers, read once for all their configurations
        opts = read_options(data, source_text)
        presets = read_presets(data, opts, source_text)
        files.declared["options"] = (tuple(opts), tuple(presets))
    else:
        opts, presets = list(declared[0]), list(declared[1])
    what = f"ruleset '{data.get('name') or Path(docs[-1].file).stem}'"
    chosen, chosen_by = choose(opts, presets, options, preset, what)

    regions: list[tuple[SourcePos, SourcePos, str]] = []
    for opt in opts:
        cid = chosen[opt.id]
        choice = opt.choice(cid)
        assert choice is not None
        if choice.patch is None:
            continue
        how = chosen_by[opt.id]
        layer = f"option {opt.id}={cid}" + (f" ({how})" if how != "command line" else "")
        if not isinstance(choice.patch, dict):
            raise RuleFileError([_diag(source_text, pos_of(choice.patch, choice.pos),
                                       f"the patch of choice '{cid}' of option '{opt.id}' must be a mapping of "
                                       "rule keys, like the top of a rule file")])
        if not choice.patch:
            continue
        labels.append(layer)
        end = getattr(choice.patch, "end", None)
        if isinstance(end, SourcePos):
            regions.append((pos_of(choice.patch), end, layer))
        else:  # a mapping without an end position (the text form's): the span of what the patch holds
            span = _span(choice.patch)
            if span is not None:
                regions.append((span[0], span[1], layer))
        merger = _Merger(layer, source_text, provenance_deleted)
        data = merger.merge(data, choice.patch, "")
        merger.raise_if_errors()
        new_constants.extend(merger.new_constants)
        provenance_deleted.extend(merger.deleted)
        near_misses.update(merger.near_misses)

    _check_new_constants(data, new_constants, source_text)
    name = str(data.get("name") or Path(docs[-1].file).stem)
    return Composed(
        data=data, name=name, chosen=chosen, content_hash=content_hash(data, options_read(data, chosen)),
        source_text=source_text,
        files=[d.file for d in docs],
        make_provenance=lambda: build_provenance(data, file_layers, regions, provenance_deleted),
        options=opts, presets=presets, preset=preset, ref=ref, layers=labels, chosen_by=chosen_by,
        near_misses=near_misses, removed_ids=_removed_ids(provenance_deleted),
    )


def _removed_ids(deleted: list[ProvenanceEntry]) -> frozenset[str]:
    """The id of each deleted list item, the key of each deleted mapping entry."""
    return frozenset(str(e.value["id"]) if isinstance(e.value, dict) and "id" in e.value and e.path.endswith("]")
                     else e.path.rsplit(".", 1)[-1] for e in deleted)


@dataclass(frozen=True)
class _Layers:
    """The files of a chain laid over each other: what every choice of options and presets starts from."""

    data: Any
    file_layers: dict[str, str]
    labels: tuple[str, ...]
    deleted: tuple[ProvenanceEntry, ...]
    near_misses: dict[str, tuple[str, str]]
    new_constants: tuple[tuple[Any, str], ...]  # constants an overlay adds beside a close name (checked later)
    sources: tuple[Any, ...]  # the documents' data it was made from (kept: their identity is in the key)
    # What is read of ``data`` alone, once (the options and presets declared): filled by compose_documents.
    declared: dict[str, Any] = field(default_factory=dict, compare=False)


# Files laid over each other, by the name, text and data of each document: a ruleset is composed once
# per option choice and preset when it is validated, and each of those starts from the same layers.
# A file read from disk has one data per content (yamlload's cache); a document made with other data
# for the same text (a mutant, in ``rulecraft test --mutate``) is another key. Composition never
# changes what it is given (a patch makes new mappings and lists along the paths it changes and shares
# the rest), nor does anything downstream change the rule data: the layers are shared, read-only.
_LAYERS: dict[tuple[tuple[str, str, int], ...], _Layers] = {}
_LAYERS_KEPT = 128  # more than the bundled files (33 and growing): validating them all composes each once


def _layer_files(docs: list[YamlDocument], source_text: dict[str, str]) -> _Layers:
    key = tuple((d.file, d.text, id(d.data)) for d in docs)
    found = _LAYERS.get(key)
    if found is not None and all(a is d.data for a, d in zip(found.sources, docs, strict=True)):
        return found
    file_layers: dict[str, str] = {}
    labels: list[str] = []
    data: Any = None
    deleted: list[ProvenanceEntry] = []
    near_misses: dict[str, tuple[str, str]] = {}
    new_constants: list[tuple[Any, str]] = []
    for i, doc in enumerate(docs):
        layer = f"{'base' if i == 0 else 'overlay'} {doc.file}"
        file_layers[doc.file] = layer
        labels.append(layer)
        body = _without(doc.data, "extends")
        merger = _Merger(layer, source_text, deleted)
        data = merger.clean(body, "") if data is None else merger.merge(data, body, "")
        merger.raise_if_errors()
        deleted.extend(merger.deleted)
        near_misses.update(merger.near_misses)
        new_constants.extend(merger.new_constants)
    found = _Layers(data, file_layers, tuple(labels), tuple(deleted), near_misses, tuple(new_constants),
                    tuple(d.data for d in docs))
    if len(_LAYERS) >= _LAYERS_KEPT:
        del _LAYERS[next(iter(_LAYERS))]  # the oldest
    _LAYERS[key] = found
    return found


# --------------------------------------------------------------------------- options
def read_options(data: dict[str, Any], source_text: dict[str, str] | None = None) -> list[OptionInfo]:
    """The declared options, checked enough to apply them (the schema checks the rest)."""
    st = source_text or {}
    raw = data.get("options")
    if raw is None:
        return []
    diags: list[Diagnostic] = []
    if not isinstance(raw, list):
        raise RuleFileError([_diag(st, pos_of(raw, pos_of(data)), "'options' is a list of options, each with "
                                                                  "id, description, default and choices")])
    out: list[OptionInfo] = []
    for oid, item, where in _items_with_ids(st, raw, "option", " (a name such as bird_rank)", diags):
        choices_raw = item.get("choices")
        if not isinstance(choices_raw, list) or not choices_raw:
            diags.append(_diag(st, _key_pos(item, "choices"), f"option '{oid}' needs 'choices': a list of at least one "
                                                               "choice, each with an id"))
            continue
        choices: list[ChoiceInfo] = []
        cseen: dict[str, SourcePos] = {}
        for j, c in enumerate(choices_raw):
            cwhere = _item_pos(choices_raw, j)
            if not isinstance(c, dict) or not isinstance(c.get("id"), str):
                diags.append(_diag(st, cwhere, f"each choice of option '{oid}' needs an 'id'"))
                continue
            cid = str(c["id"])
            if cid in cseen:
                diags.append(_diag(st, pos_of(c["id"], cwhere),
                                   f"duplicate choice '{cid}' in option '{oid}' (first at line {cseen[cid].line})"))
                continue
            cseen[cid] = pos_of(c["id"], cwhere)
            choices.append(ChoiceInfo(cid, str(c.get("description", "")), c.get("patch"), cwhere,
                                      _other_names(st, oid, c, cseen, diags)))
        ids = [c.id for c in choices]
        default = item.get("default")
        if default is None:
            diags.append(_diag(st, pos_of(item, where), f"option '{oid}' needs a 'default' (one of: {', '.join(ids)})"))
            default = ids[0] if ids else ""
        elif str(default) not in ids:
            diags.append(_diag(st, pos_of(default, _key_pos(item, "default")),
                               f"the default '{default}' of option '{oid}' is not one of its choices: "
                               f"{', '.join(ids)}{_did_you_mean(str(default), ids)}"))
        out.append(OptionInfo(oid, str(item.get("description", "")), item.get("source"), str(default),
                              tuple(choices), pos_of(item, where)))
    if diags:
        raise RuleFileError(diags)
    return out


def _other_names(st: dict[str, str], oid: str, choice: dict[str, Any], seen: dict[str, SourcePos],
                 diags: list[Diagnostic]) -> tuple[str, ...]:
    """A choice's ``other_names``, each naming no other choice of the option (ids and other names share ``seen``)."""
    raw = choice.get("other_names")
    if not isinstance(raw, list):
        return ()  # absent, or not a list: the schema says so at its place
    names: list[str] = []
    for j, name in enumerate(raw):
        # 3.0 is the whole number 3 to the schema, and is asked for as 3 (str() would make it '3.0').
        text = str(int(name)) if isinstance(name, float) and name.is_integer() else str(name)
        where = pos_of(name, _item_pos(raw, j))
        if not text.strip() or text != text.strip():
            diags.append(_diag(st, where, f"option '{oid}': '{text}' cannot be asked for (a name is some text "
                                          "without spaces around it)"))
            continue
        if text in seen:
            diags.append(_diag(st, where, f"option '{oid}': '{text}' already names a choice (at line "
                                          f"{seen[text].line}); each name picks one choice"))
            continue
        seen[text] = where
        names.append(text)
    return tuple(names)


def read_presets(data: dict[str, Any], options: list[OptionInfo],
                 source_text: dict[str, str] | None = None) -> list[PresetInfo]:
    st = source_text or {}
    raw = data.get("presets")
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise RuleFileError([_diag(st, pos_of(raw, pos_of(data)),
                                   "'presets' is a list of presets, each with id, description and options")])
    by_id = {o.id: o for o in options}
    diags: list[Diagnostic] = []
    out: list[PresetInfo] = []
    for pid, item, where in _items_with_ids(st, raw, "preset", "", diags):
        sets = item.get("options") or {}
        if not isinstance(sets, dict):
            diags.append(_diag(st, _key_pos(item, "options"),
                               f"the options of preset '{pid}' are a mapping of option: choice"))
            continue
        picked: dict[str, str] = {}
        for oname, cname in sets.items():
            opt = by_id.get(str(oname))
            if opt is None:
                diags.append(_diag(st, _key_pos(sets, oname), f"preset '{pid}' sets unknown option '{oname}'"
                                                              f"{_did_you_mean(str(oname), list(by_id))}"))
                continue
            cid = opt.pick(cname)
            if cid is None:
                ids = [c.id for c in opt.choices]
                diags.append(_diag(st, pos_of(cname, _key_pos(sets, oname)),
                                   f"preset '{pid}' sets option '{oname}' to '{cname}', which is not one of its "
                                   f"choices: {', '.join(ids)}{_did_you_mean(str(cname), ids)}"))
                continue
            picked[str(oname)] = cid
        out.append(PresetInfo(pid, str(item.get("description", "")), item.get("source"), picked, pos_of(item, where)))
    if diags:
        raise RuleFileError(diags)
    return out


def choose(options: list[OptionInfo], presets: list[PresetInfo], asked: dict[str, str], preset: str | None,
           what: str = "this ruleset") -> tuple[dict[str, str], dict[str, str]]:
    """Every option's choice: explicit beats preset beats default. Also how each was chosen."""
    by_id = {o.id: o for o in options}
    chosen = {o.id: o.default for o in options}
    how = dict.fromkeys(chosen, "default")
    if preset is not None:
        found = next((p for p in presets if p.id == preset), None)
        if found is None:
            ids = [p.id for p in presets]
            known = f"presets: {', '.join(ids)}" if ids else "it has no presets"
            raise UsageError(f"unknown preset '{clip(preset)}' for {what}{_did_you_mean(preset, ids)}; {known}")
        for k, v in found.options.items():
            chosen[k] = v
            how[k] = f"preset {preset}"
    for name, value in asked.items():
        opt = by_id.get(name)
        if opt is None:
            known = f"options: {', '.join(by_id)}" if by_id else "it has no options"
            raise UsageError(f"unknown option '{clip(name)}' for {what}{_did_you_mean(name, list(by_id))}; {known}")
        picked = opt.pick(value)
        if picked is None:
            ids = [c.id for c in opt.choices]
            raise UsageError(f"option '{clip(name)}' has no choice '{clip(value)}'{_did_you_mean(str(value), ids)}; "
                             f"choices: {', '.join(ids)}")
        chosen[name] = picked
        how[name] = "command line"
    return chosen, how


# --------------------------------------------------------------------------- merging
class _Deleted:
    pass


_GONE = _Deleted()


CITATIONS = frozenset({"source"})
"""Rule paths whose overlay value adds to what it extends (a house rule cites its own source beside
the base's) instead of replacing it; ``{$replace: ...}`` still replaces."""


def _cited_both(base: Any, over: Any) -> LList:
    """Both citations, base first, each text keeping its own position."""
    items = [*(base if isinstance(base, list) else [base]), *(over if isinstance(over, list) else [over])]
    out = LList(items, pos=getattr(base, "pos", UNKNOWN_POS))
    out.item_pos = [pos_of(i, getattr(base, "pos", UNKNOWN_POS)) for i in items]
    return out


class _Merger:
    """Lays one layer over the data so far. Never mutates its inputs: the base may be reused."""

    def __init__(self, layer: str, source_text: dict[str, str], gone: list[ProvenanceEntry] | None = None) -> None:
        self.layer = layer
        self.source_text = source_text
        self.diags: list[Diagnostic] = []
        self.deleted: list[ProvenanceEntry] = []
        self.gone = {e.path: e for e in gone or ()}  # what earlier layers deleted, by rule path
        self.near_misses: dict[str, tuple[str, str]] = {}
        self.new_constants: list[tuple[Any, str]] = []  # (the key as written, the base's close name)

    def error(self, pos: SourcePos, message: str, path: str = "") -> None:
        self.diags.append(_diag(self.source_text, pos, message, path))

    def raise_if_errors(self) -> None:
        if self.diags:
            raise RuleFileError(self.diags)

    def directives(self, over: dict[str, Any], path: str) -> bool:
        """Report unknown ``$`` keys; True when the mapping is a well-formed ``$replace``."""
        ok = True
        for k in over:
            if isinstance(k, str) and k.startswith("$") and k not in DIRECTIVES:
                self.error(_key_pos(over, k), f"unknown directive '{k}'; the directives are $delete and $replace"
                                              f"{_did_you_mean(k, list(DIRECTIVES))}", path)
                ok = False
        if "$replace" in over:
            if len(over) != 1:
                self.error(_key_pos(over, "$replace"), "'$replace' stands alone: {$replace: NEW_VALUE}", path)
                return False
            return ok
        return False

    def merge(self, base: Any, over: Any, path: str) -> Any:
        if _PATCH_PATH.match(path):
            return over  # a choice's patch is applied later, as written; an overlay's patch replaces it
        if _CONSTANT_PATH.match(path) and base is not None and _kind(base) != _kind(over) \
                and not (isinstance(over, dict) and any(k in DIRECTIVES for k in over)):
            # Constants have no declared type: the base's value is what its rules were written for.
            self.error(pos_of(over, UNKNOWN_POS), f"constant '{path.split('.', 1)[1]}' is {_kind(base)} "
                                                  f"({_shown(base)}, at {pos_of(base, UNKNOWN_POS)}); this makes it "
                                                  f"{_kind(over)} ({_shown(over)}), which the rules using it do not "
                                                  "expect", path)
            return base
        if isinstance(over, dict):
            if self.directives(over, path):
                return self.clean(over["$replace"], path)
            if "$delete" in over:
                self.error(_key_pos(over, "$delete"), "'$delete: true' goes on a list item with an 'id' "
                                                      "({id: X, $delete: true}) or as the whole value of a key "
                                                      "(key: {$delete: true})", path)
                return base
            if not isinstance(base, dict):
                return self.clean(over, path)
            out = LDict(base, pos=getattr(base, "pos", UNKNOWN_POS))
            out.key_pos = dict(getattr(base, "key_pos", {}))
            if hasattr(base, "end"):
                out.end = base.end  # type: ignore[attr-defined]
            for k, v in over.items():
                child = key_step(path, k)
                if _is_delete(v):
                    if k not in out:
                        self.error(_key_pos(over, k), f"cannot delete '{k}': there is no '{child}' to delete", child)
                    else:
                        self.deleted.append(ProvenanceEntry(child, out[k], Origin(_key_pos(over, k), self.layer)))
                        del out[k]
                        out.key_pos.pop(k, None)
                    continue
                if isinstance(k, str) and k.startswith("$"):
                    continue  # reported by directives()
                merged_in_place = k in out and isinstance(out[k], dict) and isinstance(v, dict) \
                    and "$replace" not in v
                if child in CITATIONS and k in out and not (isinstance(v, dict) and "$replace" in v):
                    out[k] = _cited_both(out[k], self.clean(v, child))  # a house rule adds its source
                    out.key_pos[k] = _key_pos(over, k)
                    continue
                if path == "constants" and k not in out and isinstance(k, str):
                    close = difflib.get_close_matches(k, [str(n) for n in out], n=1) if len(k) <= 100 else []
                    if close:
                        self.new_constants.append((k, close[0]))
                out[k] = self.merge(out[k], v, child) if k in out else self.clean(v, child)
                if not merged_in_place or k not in out.key_pos:
                    out.key_pos[k] = _key_pos(over, k)
            return out
        if isinstance(over, list):
            if isinstance(base, list) and over and all(isinstance(i, dict) and "id" in i for i in over):
                return self.merge_by_id(base, over, path)
            if isinstance(base, list) and any(isinstance(i, dict) and "id" in i for i in over) \
                    and any(isinstance(i, dict) and "id" in i for i in base):
                bad = next(i for i, item in enumerate(over) if not (isinstance(item, dict) and "id" in item))
                self.error(_item_pos(over, bad), "this list merges by id, so every item needs an 'id'; to replace "
                                                 "the whole list write {$replace: [...]}", path)
                return base
            return self.clean(over, path)
        return over

    def merge_by_id(self, base: list[Any], over: list[Any], path: str) -> LList:
        out: list[Any] = list(base)
        item_pos = list(getattr(base, "item_pos", []))
        item_pos += [UNKNOWN_POS] * (len(out) - len(item_pos))
        index: dict[str, int] = {}
        for i, item in enumerate(out):
            if isinstance(item, dict) and "id" in item:
                index.setdefault(str(item["id"]), i)
        for j, item in enumerate(over):
            iid = str(item["id"])
            child = item_step(path, item, j)
            where = pos_of(item["id"], _item_pos(over, j))
            delete = item.get("$delete")
            if delete is not None and delete is not False:
                if delete is not True:
                    self.error(_key_pos(item, "$delete"), "'$delete' is written '$delete: true'", child)
                    continue
                extra = [k for k in item if k not in ("id", "$delete")]
                if extra:
                    self.error(_key_pos(item, extra[0]), f"an item being deleted has only 'id' and '$delete', "
                                                         f"not '{extra[0]}'", child)
                    continue
                if iid not in index:
                    known = [str(x["id"]) for x in out if isinstance(x, dict) and "id" in x]
                    self.error(where, f"cannot delete '{iid}': {path or 'the list'} has no item with that id"
                                      f"{_did_you_mean(iid, known)}", child)
                    continue
                k = index.pop(iid)
                self.deleted.append(ProvenanceEntry(child, out[k], Origin(where, self.layer)))
                out[k] = _GONE
                continue
            body = _without(item, "$delete") if "$delete" in item else item
            places = [d for d in PLACES if d in body]
            for d in places:
                body = _without(body, d)
            if places and (iid in index or len(places) > 1):
                self.error(_key_pos(item, places[-1]),
                           f"'{places[0]}' places a new item and stands alone: {path or 'the list'} already has "
                           f"an item '{iid}', which merges where it is" if iid in index else
                           "an item is placed '$before' another or '$after' it, not both", child)
                continue
            if iid in index:
                # The id only says which item; the item keeps its own id (and its position).
                out[index[iid]] = self.merge(out[index[iid]], _without(body, "id"), child)
            else:
                if child in self.gone:
                    # Blame the deletion: the later layer was written when the item was there.
                    gone = self.gone[child].origin
                    self.error(gone.pos, f"this deletes {item_noun(path)} '{iid}', but {self.layer} still changes "
                                         f"it (at {where}); delete or change that too", child)
                    continue
                known = [str(x["id"]) for x in out if isinstance(x, dict) and "id" in x]
                close = difflib.get_close_matches(iid, known, n=1) if len(iid) <= 100 else []
                if close:
                    self.near_misses[child] = (iid, close[0])
                at = len(out)
                if places:  # a new item where the overlay says, not at the end (a phase before the play)
                    anchor = str(item[places[0]])
                    if anchor not in index:
                        known = [str(x["id"]) for x in out if isinstance(x, dict) and "id" in x]
                        self.error(pos_of(item[places[0]], _key_pos(item, places[0])),
                                   f"no item '{anchor}' in {path or 'the list'} to place '{iid}' "
                                   f"{places[0][1:]}{_did_you_mean(anchor, known)}", child)
                        continue
                    at = index[anchor] + (places[0] == "$after")
                out.insert(at, self.clean(body, child))
                item_pos.insert(at, _item_pos(over, j))
                index = {k: (i + 1 if i >= at else i) for k, i in index.items()}
                index[iid] = at
        result = LList(pos=getattr(base, "pos", UNKNOWN_POS))
        for value, p in zip(out, item_pos, strict=True):
            if value is not _GONE:
                result.append(value)
                result.item_pos.append(p)
        if hasattr(base, "end"):
            result.end = base.end  # type: ignore[attr-defined]
        return result

    def clean(self, value: Any, path: str) -> Any:
        """New content (nothing under it to merge with): strip directives, refuse deletes of nothing."""
        if _PATCH_PATH.match(path):
            return value
        if isinstance(value, dict):
            if self.directives(value, path):
                return self.clean(value["$replace"], path)
            if _is_delete(value) or "$delete" in value:
                if value.get("$delete") is False:
                    value = _without(value, "$delete")
                else:
                    self.error(_key_pos(value, "$delete"), f"nothing to delete: {path or 'this'} is not in the "
                                                           "rules it overlays", path)
                    return _without(value, "$delete")
            out = LDict(pos=getattr(value, "pos", UNKNOWN_POS))
            if hasattr(value, "end"):
                out.end = value.end  # type: ignore[attr-defined]
            for k, v in value.items():
                if isinstance(k, str) and k.startswith("$"):
                    continue
                out[k] = self.clean(v, key_step(path, k))
                out.key_pos[k] = _key_pos(value, k)
            return out
        if isinstance(value, list):
            out_list = LList(pos=getattr(value, "pos", UNKNOWN_POS))
            if hasattr(value, "end"):
                out_list.end = value.end  # type: ignore[attr-defined]
            for i, item in enumerate(value):
                out_list.append(self.clean(item, item_step(path, item, i)))
                out_list.item_pos.append(_item_pos(value, i))
            return out_list
        return value


_PATCH_PATH = re.compile(r"^options\[[^\]]+\]\.choices\[[^\]]+\]\.patch$")
_CONSTANT_PATH = re.compile(r"^constants\.[^.\[]+$")


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return "empty"


def _shown(value: Any) -> str:
    return clip(json.dumps(plain(value), ensure_ascii=False), 40)


def _is_delete(value: Any) -> bool:
    return isinstance(value, dict) and len(value) == 1 and value.get("$delete") is True


# --------------------------------------------------------------------------- provenance and hash
def _span(value: Any) -> tuple[SourcePos, SourcePos] | None:
    """The first and last positions of a located value and of everything in it (keys included)."""
    found: list[SourcePos] = []
    for v in nested_values(value):
        pos = pos_of(v, UNKNOWN_POS)
        if pos is not UNKNOWN_POS and pos.line > 0:
            found.append(pos)
        if isinstance(v, dict):
            found.extend(p for p in getattr(v, "key_pos", {}).values() if isinstance(p, SourcePos) and p.line > 0)
    if not found:
        return None
    found.sort(key=lambda p: (p.line, p.col))
    return found[0], found[-1]


def build_provenance(data: Any, file_layers: dict[str, str], regions: list[tuple[SourcePos, SourcePos, str]],
                     deleted: list[ProvenanceEntry] | None = None) -> Provenance:
    """Every leaf's origin: its own position (or its key's, for true/false/null), and the layer that wrote it.

    Which layer is read off the position: inside an applied option patch → that option; otherwise
    the layer of the file.
    """
    prov = Provenance(deleted=list(deleted or []))

    def layer_of(pos: SourcePos) -> str:
        here = (pos.line, pos.col)
        for start, end, label in regions:
            if start.file == pos.file and (start.line, start.col) <= here <= (end.line, end.col):
                return label
        return file_layers.get(pos.file, "unknown")

    def walk(value: Any, path: str, hint: SourcePos) -> None:
        if isinstance(value, dict) and value:
            kp = getattr(value, "key_pos", {})
            for k, v in value.items():
                walk(v, key_step(path, k), kp.get(k, pos_of(value, hint)))
            return
        if isinstance(value, list) and value:
            ip = getattr(value, "item_pos", [])
            for i, item in enumerate(value):
                walk(item, item_step(path, item, i), ip[i] if i < len(ip) else pos_of(value, hint))
            return
        pos = pos_of(value, UNKNOWN_POS)
        if pos is UNKNOWN_POS or pos.line == 0:
            pos = hint
        prov.entries[path] = ProvenanceEntry(path, value, Origin(pos, layer_of(pos)))

    walk(data, "", pos_of(data))
    return prov


def overridden_options(composed: Composed) -> dict[str, list[ProvenanceEntry]]:
    """The options whose rules an overlay sets: option id -> the effective values an overlay wrote at a
    rule path some choice of that option patches. The option then no longer says what is played there
    (``explain`` shows it; an overlay that changes who leads makes ``first_lead`` moot)."""
    out: dict[str, list[ProvenanceEntry]] = {}
    prov = composed.provenance
    for opt in composed.options:
        paths = {p for choice in opt.choices if isinstance(choice.patch, dict) for p in _patch_paths(choice.patch, "")}
        hits = [e for p in sorted(paths) for e in prov.under(p) if e.origin.layer.startswith("overlay ")]
        if hits:
            out[opt.id] = hits
    return out


def _patch_paths(value: Any, path: str) -> Iterator[str]:
    """The rule paths of a patch's values (not the ids that only say which list item it changes)."""
    if isinstance(value, dict) and value:
        for k, v in value.items():
            if not (k == "id" and path.endswith("]")):
                yield from _patch_paths(v, key_step(path, k))
    elif isinstance(value, list) and value:
        for i, item in enumerate(value):
            yield from _patch_paths(item, item_step(path, item, i))
    elif path:
        yield path


def plain(value: Any) -> Any:
    """Located values back to plain JSON-able Python values."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, str):
        return str(value)
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return float(value)
    return value


def canonical_json(data: Any) -> str:
    return json.dumps(plain(data), sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


# A call of option() as the expression grammar reads one (dsl/grammar.lark: a text in either quotes,
# with escapes, spaces and line breaks around, a trailing comma): the compiler refuses any other form
# of its argument (FunctionBinding.literal_args), so every option an expression reads is found here.
_OPTION_CALL = re.compile(r"""(?<![A-Za-z0-9_])option\s*\(\s*('(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")\s*,?\s*\)""")


def options_read(data: Any, chosen: dict[str, str]) -> dict[str, str]:
    """The chosen choices of the options an expression reads with ``option('id')``.

    A choice whose patch changes nothing may still change the game through ``option('id')``, so two
    such choices have the same effective data: the hash must also say which was taken, or caches and
    mutation testing keyed by it take one configuration for the other."""
    if isinstance(data, dict):
        # Section by section: a section an option leaves alone is the layers' own (read-only, shared)
        # value, walked once for all the configurations of a file (as _section_json writes it once).
        read: set[str] = set()
        for section in data.values():
            read.update(_options_in_section(section))
    else:
        read = set(_options_in(data))
    return {k: chosen[k] for k in sorted(read) if k in chosen}


_SECTION_OPTIONS: dict[int, tuple[Any, frozenset[str]]] = {}


def _options_in_section(value: Any) -> frozenset[str]:
    return _per_section(_SECTION_OPTIONS, value, _options_in)


def _options_in(data: Any) -> frozenset[str]:
    """The ids every ``option('id')`` in ``data``'s texts names."""
    read: set[str] = set()
    stack = [data]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            stack.extend(value.values())
            stack.extend(value)
        elif isinstance(value, list):
            stack.extend(value)
        elif isinstance(value, str) and "option" in value:
            for literal in _OPTION_CALL.findall(value):
                with contextlib.suppress(SyntaxError, ValueError):  # an escape that means nothing: refused later
                    read.add(ast.literal_eval(literal))
    return frozenset(read)


def content_hash(data: dict[str, Any], read: dict[str, str] | None = None) -> str:
    """sha256 of the canonical JSON of the effective rules (without the option/preset declarations),
    and of the choices ``read`` of options the rules read by ``option('id')``, when there are any
    (so the hash of rules that never call ``option`` is that of their data alone)."""
    body = {k: v for k, v in data.items() if k not in NOT_HASHED}
    if all(type(k) in (str, LStr) for k in body):
        # The canonical JSON of a mapping with text keys, written section by section: a section an
        # option leaves alone is the layers' own (read-only, shared) value, written once.
        text = "{" + ",".join(f"{json.dumps(str(k), ensure_ascii=False)}:{_section_json(body[k])}"
                              for k in sorted(body, key=str)) + "}"
    else:
        text = canonical_json(body)
    if read:
        text += "\noption(): " + canonical_json(read)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


_SECTION_JSON: dict[int, tuple[Any, str]] = {}


def _section_json(value: Any) -> str:
    return _per_section(_SECTION_JSON, value, canonical_json)


_Result = TypeVar("_Result")
_SECTIONS_KEPT = 1024  # per table


def _per_section(table: dict[int, tuple[Any, _Result]], value: Any, work: Callable[[Any], _Result]) -> _Result:
    """``work(value)`` for a section of the rules (its canonical JSON, the options it reads), remembered by
    the section itself: a section an option leaves alone is the shared layers' own value (_LAYERS), the
    same object in every configuration of a file, so its work is done once. The value is kept with its
    result, so its identity is not reused for another; rule data is never changed."""
    found = table.get(id(value))
    if found is not None and found[0] is value:
        return found[1]
    result = work(value)
    if isinstance(value, (dict, list)):
        if len(table) >= _SECTIONS_KEPT:
            del table[next(iter(table))]  # the oldest
        table[id(value)] = (value, result)
    return result


# --------------------------------------------------------------------------- helpers
def _without(data: Any, key: str) -> Any:
    if not isinstance(data, dict) or key not in data:
        return data
    out = LDict({k: v for k, v in data.items() if k != key}, pos=getattr(data, "pos", UNKNOWN_POS))
    out.key_pos = {k: p for k, p in getattr(data, "key_pos", {}).items() if k != key}
    if hasattr(data, "end"):
        out.end = data.end  # type: ignore[attr-defined]
    return out


def _key_pos(mapping: Any, key: Any) -> SourcePos:
    kp: dict[Any, SourcePos] | None = getattr(mapping, "key_pos", None)
    if kp and key in kp:
        return kp[key]
    return pos_of(mapping)


def _items_with_ids(st: dict[str, str], raw: list[Any], what: str, example: str,
                    diags: list[Diagnostic]) -> Iterator[tuple[str, dict[str, Any], SourcePos]]:
    """The items of an options/presets list with their ids; a missing or repeated id is reported, not yielded."""
    seen: dict[str, SourcePos] = {}
    for i, item in enumerate(raw):
        where = _item_pos(raw, i)
        if not isinstance(item, dict) or not isinstance(item.get("id"), str):
            article = "an" if what[0] in "aeiou" else "a"
            diags.append(_diag(st, where, f"{article} {what} needs an 'id'{example}"))
            continue
        iid = str(item["id"])
        at = pos_of(item["id"], where)
        if iid in seen:
            diags.append(_diag(st, at, f"duplicate {what} id '{iid}' (first at line {seen[iid].line})"))
            continue
        seen[iid] = at
        yield iid, item, where


def _item_pos(seq: Any, index: int) -> SourcePos:
    ip: list[SourcePos] | None = getattr(seq, "item_pos", None)
    if ip and index < len(ip):
        return ip[index]
    return pos_of(seq[index], pos_of(seq))


def _check_new_constants(data: Any, added: list[tuple[Any, str]], source_text: dict[str, str]) -> None:
    """A constant a layer adds beside one of a close name, which nothing in the rules names, is a typo
    (``targt: 500`` meant to change ``target``): refused, where silently it would change nothing."""
    if not added:
        return
    words: set[str] = set()
    _words_of(data, words, top=True)
    diags = [_diag(source_text, pos_of(key, UNKNOWN_POS),
                   f"no rule reads the new constant '{key}' (did you mean '{close}'?); to change a constant, "
                   "write its name as the base does", f"constants.{key}")
             for key, close in added if key not in words]
    if diags:
        raise RuleFileError(diags)


_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _words_of(value: Any, out: set[str], top: bool = False) -> None:
    """Every name-like word in the strings of ``value`` (the constants' own keys apart)."""
    if isinstance(value, str):
        out.update(_WORD.findall(value))
    elif isinstance(value, dict):
        for k, v in value.items():
            if not (top and k == "constants"):
                _words_of(v, out)
            elif isinstance(v, dict):
                for item in v.values():
                    _words_of(item, out)
    elif isinstance(value, list):
        for item in value:
            _words_of(item, out)


def _did_you_mean(name: str, known: list[str]) -> str:
    close = difflib.get_close_matches(name, known, n=1)
    return f" (did you mean '{close[0]}'?)" if close else ""


def _diag(source_text: dict[str, str], pos: SourcePos, message: str, path: str = "") -> Diagnostic:
    return Diagnostic(pos, message, path, context=excerpt(source_text.get(pos.file), pos))


def _file_error(doc: YamlDocument, where: Any, message: str, key: str | None = None) -> RuleFileError:
    if key is not None and isinstance(doc.data, dict):
        pos = _key_pos(doc.data, key)
    else:
        pos = pos_of(where, SourcePos(doc.file, 1, 1))
    if isinstance(where, LStr) or key is not None:
        return RuleFileError([Diagnostic(pos, message, "extends", context=excerpt(doc.text, pos))])
    return RuleFileError([Diagnostic(pos, message, "extends")])
