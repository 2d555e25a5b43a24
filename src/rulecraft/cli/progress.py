"""A progress bar on stderr when it is a terminal, and nothing otherwise (pipes and logs stay clean)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import click


@contextmanager
def progress_bar(length: int, label: str) -> Iterator[Callable[[int], None]]:
    """Yields ``update(n)``: n more units done."""
    if not sys.stderr.isatty():
        yield lambda n: None
        return
    with click.progressbar(length=length, label=label, file=sys.stderr) as bar:
        yield bar.update
