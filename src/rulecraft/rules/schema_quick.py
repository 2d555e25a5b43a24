"""A quick yes/no of JSON Schema validity, for the keywords rulecraft's own schemas use.

jsonschema explains every problem it finds (its errors carry paths, the failing keyword, the schema
part), which ``schema_check`` turns into diagnostics; asking it only whether a part is valid still
builds a validator per place and walks every keyword through its general machinery, and importing it
costs about as much as a small check. Most of what ``validate`` checks is valid, so the question is
asked here first (after the verdicts kept between runs), of a function made for each place of the schema
from the keywords found there, the first time a value reaches it (``Judge.check``): it gives True only
where jsonschema (Draft 2020-12, as ``schema_check.validator`` makes it) would find no error, and False
where it would find one. Where a value reaches a keyword this module does not know (``format``,
``oneOf``, ``patternProperties``, ``$dynamicRef``, ...) or a reference it cannot follow, it raises
Unsupported: the caller then asks jsonschema, as it does for anything not found valid, so that every
problem is reported in jsonschema's terms.

Each keyword below is the counterpart of jsonschema's own (``jsonschema/_keywords.py``, its type
checker and ``_utils.equal``): the same types (a bool is no number, 1.0 is an integer), enum and
const comparing as jsonschema does (true is not 1), patterns by ``re.search``. The tests check the two
agree on every part of the bundled files and of many changed copies (``tests/rules/test_schema_quick.py``).
"""

from __future__ import annotations

import numbers
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

Check = Callable[[Any], bool]

# Keywords that say nothing about validity (jsonschema's Draft 2020-12 has no validator for them).
_ANNOTATIONS = frozenset({"$schema", "$id", "$defs", "$comment", "title", "description", "examples", "default",
                          "deprecated", "readOnly", "writeOnly", "patternErrorMessage", "then", "else"})


class Unsupported(Exception):
    """A schema part this module cannot judge exactly as jsonschema does: jsonschema judges it."""


def _unsupported(exc: Exception) -> Check:
    def unsupported(v: Any) -> bool:
        raise Unsupported(str(exc))
    return unsupported


def _is_integer(v: Any) -> bool:
    if isinstance(v, bool):
        return False
    return isinstance(v, int) or (isinstance(v, float) and v.is_integer())


def _is_number(v: Any) -> bool:
    return not isinstance(v, bool) and isinstance(v, numbers.Number)


_TYPES: dict[str, Check] = {
    "array": lambda v: isinstance(v, list),
    "boolean": lambda v: isinstance(v, bool),
    "integer": _is_integer,
    "null": lambda v: v is None,
    "number": _is_number,
    "object": lambda v: isinstance(v, dict),
    "string": lambda v: isinstance(v, str),
}


def equal(one: Any, two: Any) -> bool:
    """jsonschema's ``_utils.equal``: ==, except that true and 1 (false and 0) differ, in lists and mappings too."""
    if one is two:
        return True
    if isinstance(one, str) or isinstance(two, str):
        return bool(one == two)
    if isinstance(one, Sequence) and isinstance(two, Sequence):
        return len(one) == len(two) and all(equal(i, j) for i, j in zip(one, two, strict=False))
    if isinstance(one, Mapping) and isinstance(two, Mapping):
        return len(one) == len(two) and all(key in two and equal(value, two[key]) for key, value in one.items())
    return bool(_unbool(one) == _unbool(two))


_TRUE, _FALSE = object(), object()


def _unbool(v: Any) -> Any:
    return _TRUE if v is True else _FALSE if v is False else v


class Judge:
    """The quick checks of one set of schema documents (by their ``$id``), each made the first time it is
    asked (a run meets a small part of the schemas: the kinds of phase and effect its files use) and kept."""

    def __init__(self, documents: dict[str, Any]) -> None:
        self.documents = documents  # $id -> the document
        self._made: dict[tuple[int, int], Check] = {}
        self._keep: list[Any] = []  # the schemas asked about (their ids key _made)

    def check(self, schema: Any, document: Any) -> Check:
        """The quick check of ``schema``, whose references within its file resolve in ``document``. Made when
        first called; a call raises Unsupported where a part of it that the value reaches is not known here."""
        key = (id(schema), id(document))
        found = self._made.get(key)
        if found is not None:
            return found
        made: list[Check] = []

        def first(v: Any) -> bool:
            if not made:
                try:
                    made.append(self._make(schema, document))
                except (Unsupported, re.error) as exc:
                    made.append(_unsupported(exc))
                self._made[key] = made[0]  # asked again, the check itself (the parts made before call this)
            return made[0](v)

        self._made[key] = first
        self._keep.append((schema, document))
        return first

    def _resolve(self, ref: Any, document: Any) -> tuple[Any, Any]:
        if not isinstance(ref, str):
            raise Unsupported(ref)
        base, hash_, fragment = ref.partition("#")
        if base:
            document = self.documents.get(base)
            if document is None:
                raise Unsupported(ref)
        elif not hash_:
            raise Unsupported(ref)
        target = document
        if fragment:
            if not fragment.startswith("/"):
                raise Unsupported(ref)  # an anchor
            for step in fragment[1:].split("/"):
                if "~" in step or "%" in step or not isinstance(target, dict) or step not in target:
                    raise Unsupported(ref)
                target = target[step]
        return target, document

    def _make(self, schema: Any, document: Any) -> Check:
        if schema is True:
            return lambda v: True
        if schema is False:
            return lambda v: False
        if not isinstance(schema, dict):
            raise Unsupported(schema)
        checks: list[Check] = []
        for keyword, value in schema.items():
            if keyword in _ANNOTATIONS:
                if keyword == "$id" and schema is not document:
                    raise Unsupported(keyword)  # a new base for references
                continue
            make = _KEYWORDS.get(keyword)
            if make is None:
                raise Unsupported(keyword)
            checks.append(make(self, value, schema, document))
        if not checks:
            return lambda v: True
        if len(checks) == 1:
            return checks[0]
        if len(checks) == 2:
            first, second = checks
            return lambda v: first(v) and second(v)
        every = tuple(checks)
        return lambda v: all(c(v) for c in every)


def _type(judge: Judge, value: Any, schema: Any, document: Any) -> Check:
    names = value if isinstance(value, list) else [value]
    if not names or any(not isinstance(n, str) or n not in _TYPES for n in names):
        raise Unsupported(value)
    tests = tuple(_TYPES[n] for n in names)
    if len(tests) == 1:
        return tests[0]
    return lambda v: any(t(v) for t in tests)


def _enum(judge: Judge, value: Any, schema: Any, document: Any) -> Check:
    if not isinstance(value, list):
        raise Unsupported(value)
    options = tuple(value)
    if all(type(o) is str for o in options):  # the usual case: a string among strings
        texts = frozenset(options)
        return lambda v: isinstance(v, str) and v in texts
    return lambda v: any(equal(o, v) for o in options)


def _const(judge: Judge, value: Any, schema: Any, document: Any) -> Check:
    if type(value) is str:
        return lambda v: isinstance(v, str) and v == value
    return lambda v: equal(v, value)


def _ref(judge: Judge, value: Any, schema: Any, document: Any) -> Check:
    target, where = judge._resolve(value, document)
    return judge.check(target, where)


def _properties(judge: Judge, value: Any, schema: Any, document: Any) -> Check:
    if not isinstance(value, dict):
        raise Unsupported(value)
    each = tuple((name, judge.check(sub, document)) for name, sub in value.items())

    return lambda v: not isinstance(v, dict) or all(check(v[name]) for name, check in each if name in v)


def _additional(judge: Judge, value: Any, schema: Any, document: Any) -> Check:
    if "patternProperties" in schema:
        raise Unsupported("patternProperties")
    known = schema.get("properties", {})
    if not isinstance(known, dict):
        raise Unsupported(known)
    names = frozenset(known)
    if value is False:
        return lambda v: not isinstance(v, dict) or all(k in names for k in v)
    if value is True:
        return lambda v: True
    if not isinstance(value, dict):  # jsonschema: an additionalProperties that is no schema allows anything
        raise Unsupported(value)
    check = judge.check(value, document)
    return lambda v: not isinstance(v, dict) or all(check(x) for k, x in v.items() if k not in names)


# What may stand beside unevaluatedProperties (and in the definitions its $ref leads to) for the keys
# evaluated to be only those ``properties`` name: a shared definition a place adds keys to. Applicators
# that evaluate keys on some branches only (anyOf, if, patternProperties ...) are left to jsonschema.
_NAMING_PROPERTIES = frozenset({"type", "properties", "required", "minProperties", "maxProperties", "$ref",
                                "unevaluatedProperties"})


def _unevaluated(judge: Judge, value: Any, schema: Any, document: Any) -> Check:
    if value is not False:
        raise Unsupported("unevaluatedProperties")
    names = frozenset(_evaluated_names(judge, schema, document))
    return lambda v: not isinstance(v, dict) or all(k in names for k in v)


def _evaluated_names(judge: Judge, schema: Any, document: Any) -> list[str]:
    """The keys ``schema`` evaluates: its ``properties`` and those of what its ``$ref`` leads to."""
    if not isinstance(schema, dict) or schema.keys() - _ANNOTATIONS - _NAMING_PROPERTIES \
            or not isinstance(schema.get("properties", {}), dict):
        raise Unsupported("unevaluatedProperties")
    names = list(schema.get("properties", {}))
    if "$ref" in schema:
        names += _evaluated_names(judge, *judge._resolve(schema["$ref"], document))
    return names


def _required(judge: Judge, value: Any, schema: Any, document: Any) -> Check:
    if not isinstance(value, list):
        raise Unsupported(value)
    names = tuple(value)
    return lambda v: not isinstance(v, dict) or all(n in v for n in names)


def _property_names(judge: Judge, value: Any, schema: Any, document: Any) -> Check:
    check = judge.check(value, document)
    return lambda v: not isinstance(v, dict) or all(check(k) for k in v)


def _if(judge: Judge, value: Any, schema: Any, document: Any) -> Check:
    test = judge.check(value, document)
    then = judge.check(schema["then"], document) if "then" in schema else None
    else_ = judge.check(schema["else"], document) if "else" in schema else None

    def if_(v: Any) -> bool:
        if test(v):
            return then is None or then(v)
        return else_ is None or else_(v)
    return if_


def _all_of(judge: Judge, value: Any, schema: Any, document: Any) -> Check:
    if not isinstance(value, list):
        raise Unsupported(value)
    checks = tuple(judge.check(s, document) for s in value)
    return lambda v: all(c(v) for c in checks)


def _any_of(judge: Judge, value: Any, schema: Any, document: Any) -> Check:
    if not isinstance(value, list):
        raise Unsupported(value)
    checks = tuple(judge.check(s, document) for s in value)
    return lambda v: any(c(v) for c in checks)


def _not(judge: Judge, value: Any, schema: Any, document: Any) -> Check:
    check = judge.check(value, document)
    return lambda v: not check(v)


def _items(judge: Judge, value: Any, schema: Any, document: Any) -> Check:
    if "prefixItems" in schema:
        raise Unsupported("prefixItems")
    check = judge.check(value, document)
    return lambda v: not isinstance(v, list) or all(check(x) for x in v)


def _pattern(judge: Judge, value: Any, schema: Any, document: Any) -> Check:
    if not isinstance(value, str):
        raise Unsupported(value)
    search = re.compile(value).search  # what re.search(value, ...) compiles and caches
    return lambda v: not isinstance(v, str) or search(v) is not None


def _bound(test: Callable[[Any, Any], bool], counted: Callable[[Any], bool] | None = None) -> Any:
    """A keyword bounding a number (``counted`` None) or the size of a value of one type."""

    def make(judge: Judge, value: Any, schema: Any, document: Any) -> Check:
        if not _is_number(value):
            raise Unsupported(value)
        if counted is None:
            return lambda v: not _is_number(v) or test(v, value)
        of_type = counted
        return lambda v: not of_type(v) or test(len(v), value)
    return make


def _at_least(n: Any, bound: Any) -> bool:
    return not n < bound  # as jsonschema asks it: a value is refused when it is less


def _at_most(n: Any, bound: Any) -> bool:
    return not n > bound


_KEYWORDS: dict[str, Callable[[Judge, Any, Any, Any], Check]] = {
    "type": _type,
    "enum": _enum,
    "const": _const,
    "$ref": _ref,
    "properties": _properties,
    "additionalProperties": _additional,
    "unevaluatedProperties": _unevaluated,
    "required": _required,
    "propertyNames": _property_names,
    "if": _if,
    "allOf": _all_of,
    "anyOf": _any_of,
    "not": _not,
    "items": _items,
    "pattern": _pattern,
    "minimum": _bound(_at_least),
    "maximum": _bound(_at_most),
    "minLength": _bound(_at_least, _TYPES["string"]),
    "maxLength": _bound(_at_most, _TYPES["string"]),
    "minItems": _bound(_at_least, _TYPES["array"]),
    "maxItems": _bound(_at_most, _TYPES["array"]),
    "minProperties": _bound(_at_least, _TYPES["object"]),
    "maxProperties": _bound(_at_most, _TYPES["object"]),
}
