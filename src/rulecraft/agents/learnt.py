"""What an agent learns from a ruleset by playing it: worked out once per ruleset in a process, and kept
between runs in the user's cache directory (``disk_cache.Shelf``).

An entry is keyed by the ruleset's content hash and chosen options, and the shelf's version is a digest
of every source file of rulecraft: what learning runs is the engine as much as the agent, so any change
to the code learns again (once per ruleset).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from rulecraft.disk_cache import Shelf, version_of

if TYPE_CHECKING:
    from rulecraft.engine.ruleset import Ruleset

T = TypeVar("T")


def once_per_ruleset(memo: dict[int, tuple[Ruleset, T]], rs: Ruleset, make: Callable[[Ruleset], T]) -> T:
    """``make(rs)``, remembered in ``memo`` for as long as ``rs`` is the ruleset at its id."""
    kept = memo.get(id(rs))
    if kept is None or kept[0] is not rs:
        kept = (rs, make(rs))
        memo[id(rs)] = kept
    return kept[1]


@functools.cache
def shelf(name: str) -> Shelf:
    """The kept results of one kind of learning, one file per ruleset (see the module docstring)."""
    package = Path(__file__).resolve().parents[1]
    return Shelf(name, version_of(*sorted(package.rglob("*.py"))), limit=1_000)


def ruleset_key(rs: Ruleset) -> bytes:
    """A ruleset's entry on a shelf: its content and chosen options."""
    return f"{rs.content_hash}\0{json.dumps(sorted(rs.chosen.items()))}".encode()


__all__ = ["once_per_ruleset", "ruleset_key", "shelf"]
