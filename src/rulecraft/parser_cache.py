"""Where the LALR tables of a grammar come from: shipped with rulecraft, or kept in the user's cache directory.

Building the tables of the expression grammar or of the text form's grammar costs ~0.07-0.09 s of CPU each, on
every command that reads one. So rulecraft ships them, made from its grammars by ``scripts/parser_tables.py``
(package data under ``_parser_tables/``), and a parser is loaded from them when they were made from the same
grammar texts and options by the installed version of lark (the file's first line is a digest of those, then
the version of lark that made them; lark's own serialisation, ``Lark.save``, is what follows it, and only the
lark that wrote it reads it back). With another lark, or shipped tables that are missing or unreadable, lark's
``cache`` keeps tables it builds in a file of the user's cache directory instead; that file is named by a
digest of the grammar texts (and of lark's and Python's versions, which lark also checks): two installed
versions of rulecraft sharing one file would each build the tables again and write them over the other's,
every other run. Files of other versions that have not been used for ``STALE_DAYS`` are removed when a new one
is made, so the folder does not grow with every upgrade. ``tests/dsl/test_parser_tables.py`` fails when the
shipped tables are not those of the grammars.
"""

from __future__ import annotations

import hashlib
import io
import pickle
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import lark

from rulecraft.disk_cache import STALE_DAYS, cache_folder, remove_stale

__all__ = ["SHIPPED_DIR", "STALE_DAYS", "lalr_parser", "shipped_key", "shipped_lark_version", "table_file",
           "write_shipped"]

SHIPPED_DIR = Path(__file__).resolve().parent / "_parser_tables"
"""Where the tables made by ``scripts/parser_tables.py`` are (package data)."""

# Options lark does not keep with the tables: given again when they are loaded (``postlex``), or only
# where the grammar is read (``import_paths``: the imported files' texts are part of the digest instead).
_NOT_KEPT = ("cache", "postlex", "import_paths", "source_path")


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


def shipped_key(grammar: str, imported: Sequence[str], postlex: object | None, options: dict[str, Any],
                lark_version: str | None = None) -> str:
    """What shipped tables must have been made from to serve: the grammar texts, the options, the kind of
    post-lexer and lark's version (its serialisation is its own; ``lark_version``: another than the one
    installed). Not Python's: the tables are plain data."""
    kept = sorted((k, repr(v)) for k, v in options.items() if k not in _NOT_KEPT)
    layout = "" if postlex is None else f"{type(postlex).__module__}.{type(postlex).__qualname__}"
    text = "\0".join((lark_version or lark.__version__, grammar, *imported, repr(kept), layout))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _shipped_file(kind: str) -> Path:
    return SHIPPED_DIR / f"{kind}.tables"


def shipped_lark_version(kind: str) -> str | None:
    """The version of lark that made the shipped tables (their first line: the key, then the version)."""
    try:
        with _shipped_file(kind).open("rb") as f:
            head = f.readline().split()
    except OSError:
        return None
    return head[1].decode("ascii", "replace") if len(head) == 2 else None


def _from_shipped(kind: str, key: str, postlex: object | None) -> lark.Lark | None:
    try:
        blob = _shipped_file(kind).read_bytes()
    except OSError:
        return None
    head, _, payload = blob.partition(b"\n")
    if head.split(b" ", 1)[0] != key.encode("ascii"):  # other grammars, options or lark: built (or cached)
        return None
    try:
        saved = pickle.loads(payload)
        # The loader lark's own cache and standalone parsers use: the same version of lark wrote the data.
        loaded: lark.Lark = lark.Lark._load_from_dict(  # type: ignore[no-untyped-call]
            saved["data"], saved["memo"], postlex=postlex)
    except Exception:  # damaged: built instead, as if none were shipped
        return None
    return loaded


def lalr_parser(kind: str, grammar: str, *, imported: Sequence[str] = (), postlex: object | None = None,
                **options: Any) -> lark.Lark:
    """An LALR parser for ``grammar`` (``imported``: the texts of the grammar files it imports), from the
    shipped tables when they were made from the same texts and options by this lark, else from (or into)
    lark's cache in the user's cache directory, else built."""
    key = shipped_key(grammar, imported, postlex, options)
    parser = _from_shipped(kind, key, postlex)
    if parser is not None:
        return parser
    cache = table_file(kind, grammar, *imported)
    return lark.Lark(grammar, parser="lalr", postlex=postlex, cache=str(cache) if cache is not None else False,
                     **options)


def write_shipped(kind: str, grammar: str, *, imported: Sequence[str] = (), postlex: object | None = None,
                  **options: Any) -> Path:
    """Build the tables and write them where ``lalr_parser`` looks for shipped ones (``scripts/parser_tables.py``)."""
    parser = lark.Lark(grammar, parser="lalr", postlex=postlex, **options)
    out = io.BytesIO()
    parser.save(out, exclude_options=_NOT_KEPT)
    path = _shipped_file(kind)
    path.parent.mkdir(parents=True, exist_ok=True)
    head = f"{shipped_key(grammar, imported, postlex, options)} {lark.__version__}"
    path.write_bytes(head.encode("ascii") + b"\n" + out.getvalue())
    return path
