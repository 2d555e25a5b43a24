"""Writing files so that nothing is lost: every file rulecraft writes (logs, saves, plots) goes through here.

- **Atomic**: the content goes to a hidden temporary file beside the target, which is then renamed
  over it, so a reader never sees half a file and a crash never leaves one. Ctrl-C and ``kill``
  (SIGINT, SIGTERM, SIGHUP) are held back while the temporary file exists and delivered right
  after, so an interruption lands before or after a write, never between its two steps: no
  temporary file is left behind (only SIGKILL, which nothing can catch, could).
- **Honours the umask**: a new file gets the mode a plain ``open`` would give it (``mkstemp``'s own
  is 0600); a file replaced keeps its mode. A file that holds secrets (the log of a game people play,
  every hand in it) asks for ``PRIVATE``: readable by its owner only, whatever the umask.
- **Never creates directories** the user did not ask for: the target's directory must exist
  (``--log-dir`` is created by the command, itself only, before any game is played).
- **Errors are messages**: a disk that is full or a directory that is not writable is a
  RulecraftError naming the file, not a traceback.
"""

from __future__ import annotations

import contextlib
import os
import signal
import stat
import tempfile
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from rulecraft.errors import RulecraftError, UsageError, clip

PRIVATE = 0o600
_HELD = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))


class OutputError(RulecraftError):
    """A file could not be written (the message names it and says why)."""


def write_lines(path: str | Path, lines: Iterable[str], mode: int | None = None, follow_links: bool = True) -> None:
    """Write ``lines`` (each followed by a newline) to ``path`` atomically (``mode``, ``follow_links``: write_file)."""

    def produce(tmp: str) -> None:
        with open(tmp, "w", encoding="utf-8") as fh:
            for line in lines:
                fh.write(line + "\n")

    write_file(path, produce, mode, follow_links)


def write_file(path: str | Path, produce: Callable[[str], None], mode: int | None = None,
               follow_links: bool = True) -> None:
    """``produce(tmp)`` writes the content to the temporary path ``tmp``; it is then renamed to ``path``.

    A symbolic link is written through: the file it names gets the content and the link stays a link
    (renaming over the link itself would put a plain file in its place). With ``follow_links`` False a
    link is never followed: the file takes the link's place (a folder others may write to, where a
    link could send a game's log to a file they read). ``mode``: the mode of a new file (the umask's
    otherwise); a file replaced keeps its own.
    """
    shown = path = Path(path)
    if follow_links:
        path = _through_link(path)
    directory = path.parent
    if not directory.is_dir():
        raise OutputError(f"cannot write {shown}: {_no_directory(directory)}")
    with _signals_held():
        try:
            fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
        except OSError as exc:
            raise OutputError(f"cannot write {shown}: {exc.strerror or exc}") from None
        try:
            os.close(fd)
            produce(tmp)
            os.chmod(tmp, _mode_for(path, mode, follow_links))
            os.replace(tmp, path)
        except BaseException as exc:
            Path(tmp).unlink(missing_ok=True)
            if isinstance(exc, OSError):
                raise OutputError(f"cannot write {shown}: {exc.strerror or exc}") from None
            raise


def _through_link(path: Path) -> Path:
    """The file ``path`` names, following symbolic links (one that leads nowhere: the file it would name)."""
    if not path.is_symlink():
        return path
    problem = _link_problem(path)
    if problem:
        raise OutputError(f"cannot write {path}: {problem}")
    return Path(os.path.realpath(path))


def _link_problem(path: Path) -> str:
    """What is wrong with the symbolic link ``path`` as a place to write, or ''."""
    try:
        os.stat(path)
    except FileNotFoundError:
        return ""  # a link to a file not made yet: writing makes it
    except OSError as exc:  # a loop of links, or one through something that is no directory
        return f"a symbolic link that cannot be followed ({exc.strerror or exc})"
    return ""


def _checked(what: str, path: str | Path, check: Callable[[], Path]) -> Path:
    if str(path) == "":  # Path("") is ".": an empty --log-dir wrote its logs here, an empty --plot nothing
        raise UsageError(f"{what} is empty: name a path")
    try:
        return check()
    except OSError as exc:  # a path the system cannot look up at all (too long, no permission)
        raise UsageError(f"{what} {clip(path)}: {exc.strerror or exc}") from None


def ensure_directory(path: str | Path, what: str) -> Path:
    """The directory ``path`` for output, created if it is missing (itself only: its parent must exist).

    Raises UsageError naming ``what`` (the option, e.g. ``--log-dir``) when it cannot be.
    """
    return _checked(what, path, lambda: _ensure_directory(Path(path), what))


def _ensure_directory(p: Path, what: str) -> Path:
    path = p
    if p.is_dir():
        return p
    if p.exists():
        raise UsageError(f"{what} {path}: not a directory")
    if not p.parent.is_dir():
        raise UsageError(f"{what} {path}: cannot create it: {_no_directory(p.parent)} (only the last directory of "
                         "the path is created)")
    try:
        p.mkdir()
    except OSError as exc:
        raise UsageError(f"{what} {path}: cannot create the directory: {exc.strerror or exc}") from None
    return p


def check_writable(path: str | Path, what: str) -> Path:
    """Check, before any work, that a file can be written at ``path``: its directory exists and it is no directory."""
    return _checked(what, path, lambda: _check_writable(Path(path), what))


def _check_writable(p: Path, what: str) -> Path:
    path = p
    if p.is_dir():
        raise UsageError(f"{what} {path}: is a directory, not a file")
    if not p.parent.is_dir():
        raise UsageError(f"{what} {path}: {_no_directory(p.parent)}")
    if p.exists() and not p.is_file():
        raise UsageError(f"{what} {path}: not a regular file")
    problem = _link_problem(p) if p.is_symlink() else ""
    if problem:
        raise UsageError(f"{what} {path}: {problem}")
    return p


def _no_directory(p: Path) -> str:
    return f"{p} is not a directory" if p.exists() else f"there is no directory {p}"


def _mode_for(path: Path, mode: int | None = None, follow_links: bool = True) -> int:
    try:
        info = path.stat() if follow_links else path.lstat()
        if stat.S_ISREG(info.st_mode):
            return stat.S_IMODE(info.st_mode)  # a file replaced keeps its mode
    except OSError:
        pass
    return (0o666 if mode is None else mode) & ~_umask()


def _umask() -> int:
    mask = os.umask(0o022)  # reading the umask means setting it; put it straight back
    os.umask(mask)
    return mask


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """Hold back SIGINT, SIGTERM and SIGHUP (delivered when the block ends), where the platform can."""
    if not _HELD or not hasattr(signal, "pthread_sigmask"):
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)
