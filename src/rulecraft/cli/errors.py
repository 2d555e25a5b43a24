"""How user errors reach the terminal: one message per problem, exit 1 (2 for usage), no traceback."""

from __future__ import annotations

import errno
import os
import sys
import traceback
from collections.abc import Sequence
from pathlib import Path

import click

from rulecraft.errors import RulecraftError, UsageError, clip

INTERNAL_ERROR = 3  # a bug in rulecraft, not in what the user gave it
TRACEBACK_ENV = "RULECRAFT_TRACEBACK"


def run_cli(group: click.Group, args: Sequence[str] | None = None) -> int:
    """Run the command line (``args``, or the process's own) and return its exit status.

    Every error a user can cause is a RulecraftError or a click error: a message and exit 1 (2 for
    usage). Anything else is a bug; it is still reported in one line, never as a traceback, unless
    RULECRAFT_TRACEBACK is set.
    """
    given = sys.argv[1:] if args is None else list(args)
    for i, arg in enumerate(given, 1):
        if "\0" in arg:  # no system call takes it (a process's own arguments cannot even hold one)
            click.echo(f"error: argument {i} contains a NUL character", err=True)
            return 2
    try:
        # Without standalone mode click returns (not raises) the code of ``ctx.exit(n)``.
        if args is None:
            rv = group.main(standalone_mode=False)
        else:
            rv = group.main(args=list(args), prog_name="rulecraft", standalone_mode=False)
    except click.exceptions.Abort as exc:
        if isinstance(exc.__cause__, KeyboardInterrupt):  # click turns Ctrl-C into Abort: it is still Ctrl-C
            click.echo("interrupted", err=True)
            return 130
        click.echo("aborted", err=True)
        return 1
    except click.exceptions.Exit as exc:
        return int(exc.exit_code)
    except SystemExit as exc:  # a command's sys.exit(n): the status, also when run in process
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except click.ClickException as exc:
        exc.show()
        return exc.exit_code
    except UsageError as exc:
        click.echo(f"error: {exc}", err=True)
        return 2
    except RulecraftError as exc:
        click.echo(str(exc) if str(exc).count(": error: ") else f"error: {exc}", err=True)
        return 1
    except BrokenPipeError:
        return 1
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        return 130
    except Exception as exc:
        if isinstance(exc, OSError) and exc.errno in _PATH_ERRNOS:
            # A path the user named that the system cannot look up at all: their name, not a bug.
            where = clip(exc.filename) if exc.filename else "a path"
            click.echo(f"error: {where}: {exc.strerror}", err=True)
            return 2
        if os.environ.get(TRACEBACK_ENV):
            raise
        click.echo(internal_error(exc), err=True)
        return INTERNAL_ERROR
    return rv if isinstance(rv, int) else 0


# What the system says of a path a user named that cannot even be looked up.
_PATH_ERRNOS = frozenset({errno.ENAMETOOLONG, errno.ELOOP, errno.ENOTDIR})


def internal_error(exc: BaseException) -> str:
    """One line for a bug: what failed and where in rulecraft, and how to get the whole traceback."""
    frames = traceback.extract_tb(exc.__traceback__) if exc.__traceback__ else []
    ours = [f for f in frames if "rulecraft" in Path(f.filename).parts]
    last = ours[-1] if ours else (frames[-1] if frames else None)
    at = f" at {Path(last.filename).name}:{last.lineno}" if last else ""
    text = str(exc).split("\n", 1)[0][:200]
    return (f"internal error: {type(exc).__name__}: {text}{at} (a bug in rulecraft, please report it; "
            f"{TRACEBACK_ENV}=1 shows the traceback)")


def fail_usage(message: str) -> None:
    raise UsageError(message)


def echo_err(message: str) -> None:
    click.echo(message, err=True)
