"""Where lark keeps the LALR tables of a grammar between runs: a file in the user's cache directory.

Building the tables of the expression grammar or of the text form's grammar costs ~0.1 s, on every
command that reads one; lark's ``cache`` reads them back instead. Each version of the grammars has a
file of its own, named by a digest of their texts (and of lark's and Python's versions, which lark also
checks): two installed versions of rulecraft sharing one file would each build the tables again and
write them over the other's, every other run. Files of other versions that have not been used for
``STALE_DAYS`` are removed when a new one is made, so the folder does not grow with every upgrade.
"""

from __future__ import annotations

import hashlib
import os
import sys
import time
from pathlib import Path

import lark

STALE_DAYS = 30


def table_file(kind: str, *grammars: str) -> Path | None:
    """The cache file for ``grammars`` (``kind`` names what they parse), or None where nothing can be written."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = Path(base) / "rulecraft"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:  # no cache where there is nowhere to write one: the tables are built each time
        return None
    digest = hashlib.sha256("\0".join((lark.__version__, sys.version, *grammars)).encode("utf-8")).hexdigest()
    path = folder / f"{kind}-{digest[:16]}.lark"
    if not path.exists():
        _remove_stale(folder, kind, path)
    return path


def _remove_stale(folder: Path, kind: str, keep: Path) -> None:
    """Remove this kind's table files of other versions unused for STALE_DAYS (read or written: lark reads
    a file whenever its version runs, and the access time says so where the system keeps it)."""
    before = time.time() - STALE_DAYS * 86400
    try:
        for old in folder.glob(f"{kind}*.lark"):  # (also the single file of versions before digests)
            stat = old.stat()
            if old != keep and max(stat.st_mtime, stat.st_atime) < before:
                old.unlink()
    except OSError:  # a cache is best effort: another process may be removing the same file
        pass
