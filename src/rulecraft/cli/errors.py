"""How user errors reach the terminal: one message per problem, exit 1 (2 for usage), no traceback."""

from __future__ import annotations

import click

from rulecraft.errors import RulecraftError, UsageError


def run_cli(group: click.Group) -> int:
    try:
        # Without standalone mode click returns (not raises) the code of ``ctx.exit(n)``.
        rv = group.main(standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        return 1
    except click.exceptions.Exit as exc:
        return int(exc.exit_code)
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
    return rv if isinstance(rv, int) else 0


def fail_usage(message: str) -> None:
    raise UsageError(message)


def echo_err(message: str) -> None:
    click.echo(message, err=True)
