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
import sys
from pathlib import Path

import lark

from rulecraft.disk_cache import STALE_DAYS, cache_folder, remove_stale

__all__ = ["STALE_DAYS", "table_file"]


def table_file(kind: str, *grammars: str) -> Path | None:
    """The cache file for ``grammars`` (``kind`` names what they parse), or None where nothing can be written
    (or caching is off: ``RULECRAFT_NO_CACHE``)."""
    folder = cache_folder()
    if folder is None:  # the tables are built each time
        return None
    digest = hashlib.sha256("\0".join((lark.__version__, sys.version, *grammars)).encode("utf-8")).hexdigest()
    path = folder / f"{kind}-{digest[:16]}.lark"
    if not path.exists():
        # (also the single file of versions before digests; lark reads a file whenever its version
        # runs, and the access time says so where the system keeps it)
        remove_stale(folder, f"{kind}*.lark", path)
    return path
