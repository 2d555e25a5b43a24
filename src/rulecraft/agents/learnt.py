"""What an agent learns from a ruleset by playing it: worked out once per ruleset in a process, and kept
between runs in the user's cache directory (``disk_cache.Shelf``).

An entry is keyed by the ruleset's content hash and chosen options, and the shelf's version is a digest
of every source file of rulecraft: what learning runs is the engine as much as the agent, so any change
to the code learns again (once per ruleset).
"""

from __future__ import annotations

import functools
import json
import sys
import time
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


class Progress:
    """How far a piece of learning has gone, on one line of stderr, once it has taken more than ``QUIET`` seconds
    (a terminal only: pipes and logs stay clean; the line is cleared when learning ends). Learning is done once
    per ruleset and kept on disk, so a user sees this the first time a ruleset is played, and not again."""

    QUIET = 1.0

    def __init__(self, what: str, total: int) -> None:
        self.what, self.total, self.done = what, total, 0
        self.start = time.monotonic()
        self.shown = False
        self.tty = sys.stderr.isatty()

    def __enter__(self) -> Progress:
        return self

    def update(self, n: int) -> None:
        self.done += n
        if self.tty and time.monotonic() - self.start > self.QUIET:
            sys.stderr.write(f"\r{self.what}: {min(100, 100 * self.done // max(self.total, 1))}%")
            sys.stderr.flush()
            self.shown = True

    def __exit__(self, *exc: object) -> None:
        if self.shown:
            sys.stderr.write("\r" + " " * (len(self.what) + 7) + "\r")
            sys.stderr.flush()


__all__ = ["Progress", "once_per_ruleset", "ruleset_key", "shelf"]
