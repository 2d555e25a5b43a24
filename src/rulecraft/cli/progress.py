"""A progress bar on stderr when it is a terminal, and nothing otherwise (pipes and logs stay clean)."""

from __future__ import annotations

import shutil
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


@contextmanager
def status_line() -> Iterator[Callable[[str], None] | None]:
    """Yields ``tell(text)``, which rewrites one status line on stderr (a terminal only; else None).

    For work whose length is not known in advance (``validate --simulate``): says what is being done
    now, and the line is cleared when the work ends, so only the results remain.
    """
    if not sys.stderr.isatty():
        yield None
        return
    width = max(20, shutil.get_terminal_size().columns - 1)

    def tell(text: str) -> None:
        sys.stderr.write("\r" + text[:width].ljust(width))
        sys.stderr.flush()

    try:
        yield tell
    finally:
        sys.stderr.write("\r" + " " * width + "\r")
        sys.stderr.flush()
