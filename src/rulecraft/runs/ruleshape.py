"""What each value of a rule file *is*, read off the ruleset schema: an expression, a number, a switch.

Mutation testing and rule coverage need to know, for a located value in a rule file, whether it is
an expression (and whether a condition), a number, a true/false setting, one of a fixed set of
words, or an item with an id that could be left out (a restriction, an effect, a multiplier, an
extra call). The schema already says so; this module walks the data and the schema together and
reports each such place as a ``Site``. Nothing here knows a game: only the schema's definitions.

Overlays and option patches use the same keys as a complete rule file, so they are walked with the
same schema; a phase in an overlay may leave out its ``kind`` (it merges into a phase by id), and
is then read against every phase kind's keys.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from rulecraft.errors import UNKNOWN_POS, SourcePos
from rulecraft.rules.located import pos_of

Step = str | int
Path = tuple[Step, ...]

# Keys whose values are conditions: negating one is a meaningful mutant.
CONDITION_KEYS = frozenset({"when", "allow", "end_when", "sits_out"})
# Keys left alone: `kind` and `type` say what a thing is (another value makes another file, nearly
# always refused), `max_hands` is a safety limit, and `display` does not change how a game plays.
SKIP_KEYS = frozenset({"kind", "type", "max_hands", "display"})
# Items that can be left out of their list, by the schema definition of the list's items.
DROPPABLE = {"restriction": "restriction", "effect": "effect", "multiplier": "multiplier",
             "extra_call": "extra call", "play_effect": "play effect", "shed_play_effect": "play effect"}


@dataclass(frozen=True, slots=True)
class Site:
    """A place in one file's data: where it is, what is there, and what kind of value it is."""

    path: Path  # keys and list indices from the file's top
    value: Any
    role: str  # expression | number | boolean | enum | item | patch | default
    key: str  # the mapping key it is under ('' for a list item)
    pos: SourcePos
    kind: str = ""  # for items: restriction, effect, multiplier, extra call; for a default: the option
    choices: tuple[str, ...] = ()  # for enums and option defaults: the other words allowed
    condition: bool = False  # an expression in a condition's place


@functools.cache
def _root() -> dict[str, Any]:
    from rulecraft.rules.schema_check import load_schema

    return load_schema("ruleset")


def _def_name(ref: str) -> str:
    return ref.rsplit("/", 1)[-1] if ref.startswith("#/$defs/") else ""


def _resolve(schema: Any, value: Any) -> list[tuple[str, dict[str, Any]]]:
    """The schemas that apply to ``value`` under ``schema``, each with the definition it came from."""
    out: list[tuple[str, dict[str, Any]]] = []

    def go(s: Any, name: str) -> None:
        if not isinstance(s, dict):
            return
        if "$ref" in s:
            ref = str(s["$ref"])
            target = _root()["$defs"].get(_def_name(ref)) if _def_name(ref) else None
            if target is not None:
                go(target, _def_name(ref))
        out.append((name, s))
        for sub in s.get("allOf", ()):
            if "if" in sub:
                if _may_match(sub["if"], value):
                    go(sub.get("then"), "")
                elif "else" in sub:
                    go(sub["else"], "")
            else:
                go(sub, "")
        for key in ("anyOf", "oneOf"):
            for sub in s.get(key, ()):
                go(sub, "")

    go(schema, "")
    return out


def _may_match(cond: dict[str, Any], value: Any) -> bool:
    """Whether an ``if`` of the schema (a discriminating const, as phases use) may hold for ``value``.

    A value without the discriminating key (an overlay's phase merging by id) may be any kind.
    """
    if not isinstance(value, dict):
        return False
    for key, sub in (cond.get("properties") or {}).items():
        if key not in value:
            continue
        if "const" in sub and value[key] != sub["const"]:
            return False
        if "enum" in sub and value[key] not in sub["enum"]:
            return False
    return True


def _child(schemas: list[tuple[str, dict[str, Any]]], key: Step, value: Any) -> dict[str, Any] | None:
    """The schema of ``key`` (a mapping key or list index) under the schemas that apply."""
    if isinstance(key, int):
        for _, s in schemas:
            if isinstance(s.get("items"), dict):
                items: dict[str, Any] = s["items"]
                return items
        return None
    for _, s in schemas:
        props = s.get("properties") or {}
        if key in props:
            prop: dict[str, Any] = props[key]
            return prop
    for _, s in schemas:
        extra = s.get("additionalProperties")
        if isinstance(extra, dict):
            return extra
    return None


def _types(schemas: list[tuple[str, dict[str, Any]]]) -> set[str]:
    found: set[str] = set()
    for _, s in schemas:
        t = s.get("type")
        if isinstance(t, str):
            found.add(t)
        elif isinstance(t, list):
            found.update(str(x) for x in t)
    return found


def sites(data: Any) -> Iterator[Site]:
    """Every mutable place of one file's data (a complete rule file or an overlay), in document order."""
    yield from _walk(data, {"$ref": "#"}, (), "", pos_of(data))


def _walk(value: Any, schema: dict[str, Any] | None, path: Path, key: str, where: SourcePos) -> Iterator[Site]:
    if key in SKIP_KEYS:
        return
    schemas: list[tuple[str, dict[str, Any]]] = []
    if schema == {"$ref": "#"}:  # the top of a rule file, or of an option's patch
        schemas = [("", _root())]
    elif schema is not None:
        schemas = _resolve(schema, value)
    names = {n for n, _ in schemas if n}
    if isinstance(value, dict):
        yield from _walk_mapping(value, schemas, names, path, where)
        return
    if isinstance(value, list):
        for i, item in enumerate(value):
            ip = getattr(value, "item_pos", [])
            item_where = ip[i] if i < len(ip) else pos_of(item, where)
            yield from _walk(item, _child(schemas, i, item), (*path, i), "", pos_of(item, item_where))
        return
    yield from _leaf(value, schemas, names, path, key, where)


def _walk_mapping(value: dict[str, Any], schemas: list[tuple[str, dict[str, Any]]], names: set[str],
                  path: Path, where: SourcePos) -> Iterator[Site]:
    if "$replace" in value:  # an overlay's replacement: the same place, written anew
        yield from _walk(value["$replace"], _schema_of(schemas), (*path, "$replace"), "", where)
        return
    if value.get("$delete") is True:
        return
    kind = next((DROPPABLE[n] for n in names if n in DROPPABLE), "")
    if kind:
        yield Site(path, value, "item", "", pos_of(value, where), kind=kind)
    kp = getattr(value, "key_pos", {})
    for k, v in value.items():
        if not isinstance(k, str) or k.startswith("$"):
            continue
        kwhere = kp.get(k, where)
        if "choice" in names and k == "patch":
            if isinstance(v, dict) and v:
                yield Site((*path, k), v, "patch", k, kwhere)
                yield from _walk(v, {"$ref": "#"}, (*path, k), "", kwhere)
            continue
        if "option" in names and k == "default" and isinstance(v, str):
            ids = tuple(str(c["id"]) for c in value.get("choices") or () if isinstance(c, dict) and "id" in c)
            others = tuple(c for c in ids if c != v)
            if others or not ids:  # no choices: an overlay changing a default (the choices are in its base)
                yield Site((*path, k), v, "default", k, pos_of(v, kwhere), kind=str(value.get("id", "")),
                           choices=others)
            continue
        yield from _walk(v, _child(schemas, k, v), (*path, k), k, pos_of(v, kwhere))


def _schema_of(schemas: list[tuple[str, dict[str, Any]]]) -> dict[str, Any] | None:
    """A schema standing for the ones that apply (the first that refers to a definition)."""
    for name, _s in schemas:
        if name:
            return {"$ref": f"#/$defs/{name}"}
    return schemas[0][1] if schemas else None


def _leaf(value: Any, schemas: list[tuple[str, dict[str, Any]]], names: set[str], path: Path, key: str,
          where: SourcePos) -> Iterator[Site]:
    if "expression" in names:
        if isinstance(value, (str, int, float, bool)):
            yield Site(path, value, "expression", key, where, condition=key in CONDITION_KEYS)
        return
    types = _types(schemas)
    if isinstance(value, bool):
        if "boolean" in types:
            yield Site(path, value, "boolean", key, where)
        return
    if isinstance(value, (int, float)):
        # A number where the schema asks for one, or where it says nothing about the value (a
        # constant, a piece attribute, an item of a generated attribute's values).
        if not types or types & {"integer", "number"}:
            yield Site(path, value, "number", key, where)
        return
    if isinstance(value, str):
        words = [w for _, s in schemas for w in s.get("enum", ()) if isinstance(w, str)]
        others = tuple(w for w in words if w != value)
        if others and value in words:
            yield Site(path, value, "enum", key, where, choices=others)


def key_pos(parent: Any, key: Step, default: SourcePos = UNKNOWN_POS) -> SourcePos:
    """Where the value at ``key`` of ``parent`` was written (for values that carry no position)."""
    if isinstance(key, int):
        ip = getattr(parent, "item_pos", [])
        return ip[key] if key < len(ip) else default
    kp: dict[str, SourcePos] = getattr(parent, "key_pos", {})
    return kp.get(key, default)
