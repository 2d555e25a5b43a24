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

from collections.abc import Callable
from typing import Any


class BuildReuse:
    """Results of the last builds, by the identity of the rule data they were worked out from."""

    def __init__(self) -> None:
        self._by_object: dict[tuple[str, int], tuple[Any, Any]] = {}
        self._by_key: dict[tuple[Any, ...], tuple[tuple[Any, ...], Any]] = {}

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

    def get(self, kind: str, objects: tuple[Any, ...], extra: Any = ()) -> Any:
        """What was ``put`` for these ``objects`` (each the same object) and ``extra`` (equal), or None."""
        found = self._by_key.get((kind, tuple(map(id, objects)), extra))
        if found is not None and all(a is b for a, b in zip(found[0], objects, strict=True)):
            return found[1]
        return None

    def put(self, kind: str, objects: tuple[Any, ...], extra: Any, result: Any) -> None:
        self._by_key[(kind, tuple(map(id, objects)), extra)] = (objects, result)
