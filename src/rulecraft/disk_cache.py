"""Results derived purely from content, kept between runs in the user's cache directory.

Each command starts in a fresh process, and much of what ``validate`` (or ``explain``) does first is
the same from one run to the next: reading the rule files with their positions, parsing the
expression texts, the schema's verdict on each part. What is kept here is keyed by the content it
was made from, and by a digest of the code that makes it (``version_of``: the source files, the
grammar or schema texts, Python's version), so a changed file or a new version of rulecraft is never
served an old result: it computes one and keeps that instead.

Best effort and never wrong: with no cache directory, or ``RULECRAFT_NO_CACHE=1`` in the environment,
everything is computed (lark's parser tables too, ``parser_cache``); a file that cannot be read, is
truncated, holds garbage or was written by another version (its header names the version and a
digest of its payload) is ignored, and written again. Files are written whole, then renamed over the
old one, so a reader never sees half of one.

Two shapes: a ``Table`` keeps many small results of one kind in one file, read once and written
once at exit when something was added (one read is cheaper than hundreds of small files); a
``Shelf`` keeps one file per entry, for large results a run needs few of (a rule file's located
data). Both are bounded: a table beyond its limit keeps the entries the last run used first; a shelf
at its limit loses its older half (by when they were written) when a process first adds to it.

Security: the entries are pickles, loaded from the user's own cache directory, which is trusted as
lark's table cache in the same folder is (lark pickles its tables too): whoever can write there can
already run code as the user. Nothing is read from anywhere else.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import hashlib
import marshal
import os
import pickle
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import CodeType
from typing import Any

NO_CACHE_ENV = "RULECRAFT_NO_CACHE"
STALE_DAYS = 30
_MAGIC = b"rulecraft-cache 1\n"
_PROTOCOL = 5


def cache_folder() -> Path | None:
    """rulecraft's folder in the user's cache directory (made if need be), or None: caching is off, or
    nothing can be written there."""
    if os.environ.get(NO_CACHE_ENV, "") not in ("", "0"):
        return None
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):  # unset, or relative: the XDG spec says to ignore it (not to fill the current folder)
        base = os.path.join(os.path.expanduser("~"), ".cache")
    folder = Path(base) / "rulecraft"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return folder


def version_of(*parts: str | bytes | Path) -> str:
    """A digest of what makes a kind of result: source files (given as paths), texts, and Python's version
    (pickles and the objects in them belong to one)."""
    h = hashlib.sha256(sys.version.encode("utf-8"))
    for part in parts:
        data = part.read_bytes() if isinstance(part, Path) else part
        h.update(b"\0" + (data if isinstance(data, bytes) else data.encode("utf-8")))
    return h.hexdigest()


def package_files(package: str, *names: str) -> list[Path]:
    """Files of an installed package, found without importing it, whose text stands for its version in
    ``version_of`` (a library that makes a kind of result is part of what makes it; asking the installed
    metadata for a version costs more than reading a file). Empty when the package is not installed."""
    import importlib.util

    spec = importlib.util.find_spec(package)
    if spec is None or spec.origin is None:
        return []
    here = Path(spec.origin).parent
    return [here / name for name in names]


def remove_stale(folder: Path, pattern: str, keep: Path) -> None:
    """Remove the files (or folders) matching ``pattern`` other than ``keep`` unused for STALE_DAYS: other
    versions' caches, so the folder does not grow with every upgrade."""
    before = time.time() - STALE_DAYS * 86400
    try:
        for old in folder.glob(pattern):
            stat = old.stat()
            if old != keep and max(stat.st_mtime, stat.st_atime) < before:
                if old.is_dir():
                    for f in old.iterdir():
                        f.unlink()
                    old.rmdir()
                else:
                    old.unlink()
    except OSError:  # best effort: another process may be removing the same file
        pass


def _encode(version: str, value: Any) -> bytes:
    payload = pickle.dumps(value, protocol=_PROTOCOL)
    return _MAGIC + version.encode("ascii") + b"\n" + hashlib.sha256(payload).digest() + payload


def _decode(version: str, blob: bytes) -> Any:
    """The value in ``blob``; raises ValueError if it is not whole and of this version."""
    head = _MAGIC + version.encode("ascii") + b"\n"
    if not blob.startswith(head):
        raise ValueError("another version, or not a cache file")
    digest, payload = blob[len(head):len(head) + 32], blob[len(head) + 32:]
    if hashlib.sha256(payload).digest() != digest:
        raise ValueError("truncated or changed")
    return pickle.loads(payload)


def _write(path: Path, blob: bytes) -> None:
    """Write ``blob`` to ``path`` whole (a temporary file renamed over it), or not at all."""
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    except OSError:
        return
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(blob)
        os.replace(tmp, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(tmp)


class Table:
    """Many small results of one kind in one file: read at the first lookup, written at exit if changed."""

    def __init__(self, kind: str, version: str, limit: int) -> None:
        self.kind, self.version, self.limit = kind, version, limit
        self._path: Path | None = None
        self._entries: dict[str, Any] | None = None
        self._used: set[str] = set()
        self._dirty = False

    def _load(self) -> dict[str, Any]:
        self._entries = {}
        folder = cache_folder()
        if folder is None:
            return self._entries
        self._path = folder / f"{self.kind}-{self.version[:16]}.pickle"
        try:
            entries = _decode(self.version, self._path.read_bytes())
            if not isinstance(entries, dict):
                raise ValueError("not a table")
            self._entries = entries
        except FileNotFoundError:
            remove_stale(folder, f"{self.kind}-*.pickle", self._path)
        except Exception:  # anything unreadable is ignored and written again
            self._dirty = True
        atexit.register(self.save)
        return self._entries

    def get(self, key: str) -> Any | None:
        entries = self._entries if self._entries is not None else self._load()
        value = entries.get(key)
        if value is not None:
            self._used.add(key)
        return value

    def put(self, key: str, value: Any) -> None:
        entries = self._entries if self._entries is not None else self._load()
        entries[key] = value
        self._used.add(key)
        self._dirty = True

    def save(self) -> None:
        """Write the table if this process added to it (or found it unreadable)."""
        if not self._dirty or self._path is None or self._entries is None:
            return
        entries = self._entries
        if len(entries) > self.limit:  # keep what this run used, then the others, up to the limit
            kept = [k for k in entries if k in self._used][-self.limit:]
            room = self.limit - len(kept)
            others = [k for k in entries if k not in self._used][-room:] if room > 0 else []
            entries = {k: entries[k] for k in others + kept}
        _write(self._path, _encode(self.version, entries))
        self._dirty = False


class Shelf:
    """One file per result, for large results a run needs few of."""

    def __init__(self, kind: str, version: str, limit: int) -> None:
        self.kind, self.version, self.limit = kind, version, limit
        self._pruned = False

    def _folder(self) -> Path | None:
        base = cache_folder()
        if base is None:
            return None
        folder = base / f"{self.kind}-{self.version[:16]}"
        if not folder.is_dir():
            try:
                folder.mkdir(exist_ok=True)
            except OSError:
                return None
            remove_stale(base, f"{self.kind}-*", folder)
        return folder

    @staticmethod
    def _name(key: bytes) -> str:
        return hashlib.sha256(key).hexdigest()[:40] + ".pickle"

    def get(self, key: bytes) -> Any | None:
        folder = self._folder()
        if folder is None:
            return None
        try:
            stored_key, value = _decode(self.version, (folder / self._name(key)).read_bytes())
        except Exception:  # missing, unreadable or another version's: computed and put again
            return None
        return value if stored_key == key else None

    def put(self, key: bytes, value: Any) -> None:
        folder = self._folder()
        if folder is None:
            return
        if not self._pruned:  # once a process, before its first entry: listing the folder costs
            self._pruned = True
            self._prune(folder)
        _write(folder / self._name(key), _encode(self.version, (key, value)))

    def _prune(self, folder: Path) -> None:
        """Remove the oldest files (by when they were written) beyond the limit."""
        try:
            files = list(folder.glob("*.pickle"))
            if len(files) >= self.limit:
                files.sort(key=lambda f: f.stat().st_mtime)
                for old in files[:len(files) - self.limit // 2]:
                    old.unlink()
        except OSError:  # best effort: another process may be pruning too
            pass


@functools.cache
def _code() -> Table:
    return Table("generated-code", version_of(marshal.dumps(marshal.version)), limit=20_000)


def compiled(source: str, name: str, make: Callable[[], CodeType]) -> CodeType:
    """Python's compile of ``source`` (code rulecraft generated, compiled by ``make`` when not kept), kept
    between runs as marshal data, which is how Python keeps its own bytecode: a code object depends only
    on its text, its name and the Python that compiled it (the table's version)."""
    key = hashlib.sha256(f"{name}\0{source}".encode("utf-8", "surrogatepass")).hexdigest()[:40]
    kept = _code().get(key)
    if isinstance(kept, bytes):
        try:
            code = marshal.loads(kept)
        except (ValueError, EOFError, TypeError):  # not marshal data: made again, and kept again
            code = None
        if isinstance(code, CodeType):
            return code
    code = make()
    _code().put(key, marshal.dumps(code))
    return code
