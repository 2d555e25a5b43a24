"""What one build of a ruleset can hand to the next build of the same files (``rulecraft validate``).

Validating a ruleset builds it once per option choice and preset, and each configuration's data
shares most of its mappings and lists with the others: composition lays a patch over the layers by
making new containers only along the paths it changes, and nothing downstream changes rule data
(``rules/compose.py``). A part of the data that is the *same object* as one an earlier build read is
the same content at the same places in the files, so what was worked out from it alone can be
used again. Everything here is keyed by those objects (kept, so an id is never reused for another
value) and, where a result also depends on other data, by that data too. Never by name.

Only what came out of a build without a problem is kept: a problem is always found again, and
reported at its place, by building in full.

A ``BuildReuse`` lives as long as the validation of one file: data given to ``build_from_data`` by
other callers may be changed between builds (tests copy and edit it), so no build shares without one.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from rulecraft.dsl import Scope
from rulecraft.dsl.bindings import MacroBinding
from rulecraft.dsl.compiler import describe_binding
from rulecraft.rules.located import same_located


class BuildReuse:
    """Results of the last builds, by the identity of the rule data they were worked out from."""

    def __init__(self, phases: bool = False) -> None:
        # Whether a phase built from the same inputs as before may be the one built then (bound to that
        # build's scopes): only where the ruleset built is not played, as by a validation without games.
        self.phases = phases
        self._same: dict[str, list[Any]] = {}
        self.tokens: dict[Any, int] = {}  # distinct descriptions of scope answers, numbered (ScopeAnswers)
        self._by_object: dict[tuple[str, int], tuple[Any, Any]] = {}
        self._by_key: dict[tuple[Any, ...], tuple[tuple[Any, ...], Any]] = {}
        self._objects: dict[tuple[str, tuple[int, ...]], tuple[Any, ...]] = {}

    def of(self, kind: str, value: Any, compute: Callable[[Any], Any]) -> Any:
        """``compute(value)``, once for each mapping or list ``value`` (by identity) and ``kind`` of result."""
        if not isinstance(value, (dict, list)):
            return compute(value)
        found = self._by_object.get((kind, id(value)))
        if found is not None and found[0] is value:
            return found[1]
        result = compute(value)
        self._by_object[(kind, id(value))] = (value, result)
        return result

    def same(self, kind: str, value: Any) -> Any:
        """``value``, or the first value given for ``kind`` that is the same located data (the same
        values of the same types at the same places: ``rules/located.py`` ``same_located``).

        Composition lays a file's overlay over its base after the base's option patch, so a section
        the overlay changes is made anew for every option choice, the same each time."""
        if not isinstance(value, (dict, list)):
            return value
        known = self._same.setdefault(kind, [])

        def first_same(v: Any) -> Any:
            for k in known:
                if same_located(k, v):
                    return k
            known.append(v)
            return v

        return self.of(f"same {kind}", value, first_same)

    def get(self, kind: str, objects: tuple[Any, ...], extra: Any = ()) -> Any:
        """What was ``put`` for these ``objects`` (each the same object) and ``extra`` (equal), or None."""
        found = self._by_key.get((kind, tuple(map(id, objects)), extra))
        if found is not None and all(a is b for a, b in zip(found[0], objects, strict=True)):
            return found[1]
        return None

    def put(self, kind: str, objects: tuple[Any, ...], extra: Any, result: Any) -> None:
        self._by_key[(kind, tuple(map(id, objects)), extra)] = (objects, result)
        self._objects[(kind, tuple(map(id, objects)))] = objects

    def known(self, kind: str, objects: tuple[Any, ...]) -> bool:
        """Whether anything was ``put`` for these ``objects`` (each the same object), whatever its ``extra``:
        when nothing was, ``get`` would find nothing, and the extra need not be worked out."""
        found = self._objects.get((kind, tuple(map(id, objects))))
        return found is not None and all(a is b for a, b in zip(found, objects, strict=True))


# ----------------------------------------------------------------- what a phase's build reads
# A phase of the hand is built from its own data, the equipment (pieces, zones, variables, seats,
# combinations: built from their sections) and the answers of the scopes its expressions are compiled
# in. Most option choices patch a constant or a rule function, which only a phase that names it can
# read: the words of a phase's data (and of the rule functions those name, and so on) are a superset
# of the names it can reach. The descriptions (``describe_binding``, every constant's value
# included) are everything a build can learn of a binding besides the identity of the values it
# binds (those are the previous build's, and a validation discards the ruleset it builds).

_WORD = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")


# Keys whose values are labels, never read as names: a phase's kind, an item's id.
_LABELS = frozenset({"kind", "id"})


def words(value: Any) -> frozenset[str]:
    """Every word written in ``value`` (its keys and strings, all the way down; not its labels)."""
    found: set[str] = set()
    _collect_words(value, found)
    return frozenset(found)


def _collect_words(value: Any, found: set[str]) -> None:
    if isinstance(value, str):
        found.update(_WORD.findall(value))
    elif isinstance(value, dict):
        for k, v in value.items():
            _collect_words(k, found)
            if k not in _LABELS or not isinstance(v, str):
                _collect_words(v, found)
    elif isinstance(value, list):
        for v in value:
            _collect_words(v, found)


def engine_names(scope: Scope, stop: Scope) -> tuple[Any, ...]:
    """The description of every binding declared from ``scope`` up to, not including, ``stop``."""
    out: list[Any] = []
    s: Scope | None = scope
    while s is not None and s is not stop:
        out.append((s.name, tuple(describe_binding(b, every_value=True) for b in s.own_bindings())))
        s = s.parent
    return tuple(out)


class ScopeAnswers:
    """What one build's ``scope`` answers for words, each word asked once per build.

    ``token`` numbers the distinct answers (and engine descriptions) of all builds: equal answers get
    the same number, so a key holding it is hashed without hashing the descriptions again."""

    def __init__(self, scope: Scope, tokens: dict[Any, int]) -> None:
        self.scope = scope
        self.tokens = tokens
        self._answers: dict[str, Any] = {}
        self._bodies: dict[str, frozenset[str]] = {}

    def token(self, value: Any) -> int:
        return self.tokens.setdefault(value, len(self.tokens))

    def reachable(self, written: frozenset[str]) -> frozenset[str]:
        """``written`` and the words of every rule function they name, transitively."""
        found = set(written)
        todo = list(found)
        while todo:
            for w in self._body(todo.pop()) - found:
                found.add(w)
                todo.append(w)
        return frozenset(found)

    def _body(self, name: str) -> frozenset[str]:
        body = self._bodies.get(name)
        if body is None:
            b = self.scope.lookup_function(name)
            body = self._bodies[name] = words(b.body) if isinstance(b, MacroBinding) else frozenset()
        return body

    def of(self, names: frozenset[str]) -> int:
        """The token of what the scope answers for each of ``names``, as a name and as a function."""
        return self.token(tuple(self._answer(n) for n in sorted(names)))

    def _answer(self, name: str) -> Any:
        found = self._answers.get(name)
        if found is None:
            scope = self.scope
            found = self._answers[name] = self.token((name, describe_binding(scope.lookup_name(name), every_value=True),
                                                      describe_binding(scope.lookup_function(name), every_value=True)))
        return found
