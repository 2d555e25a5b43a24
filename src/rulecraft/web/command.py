"""``rulecraft serve``: the browser table on this machine (Starlette and uvicorn, imported only here).

Listed in the CLI's lazy command table, so ``rulecraft --help`` never imports the web stack; a
missing extra is a usage error naming the install command.
"""

from __future__ import annotations

import ipaddress
import os
from pathlib import Path

import click

from rulecraft.errors import UsageError

INSTALL = "pip install 'rulecraft[web]'"


def register(group: click.Group) -> None:
    group.add_command(serve)


def require_web() -> None:
    try:
        import jinja2  # noqa: F401
        import multipart  # noqa: F401
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError as exc:
        raise UsageError(f"rulecraft serve needs the web extra ({exc.name} is missing): {INSTALL}") from None


@click.command()
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="The port to listen on (0: any free port).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on; only this machine can connect unless you give another.")
@click.option("--rules-dir", "rules_dirs", multiple=True, type=click.Path(file_okay=False), metavar="DIR",
              help="A folder whose rule files a browser may choose (repeatable; default: the current folder).")
@click.option("--no-local", is_flag=True, help="Offer the bundled rulesets only.")
@click.option("--log-dir", type=click.Path(file_okay=False), default=None, metavar="DIR",
              help="Keep each game's log here (created if missing, readable by you only): games in progress are "
                   "taken up again after a restart; logs replay, and 'rulecraft play --resume' continues them.")
def serve(port: int, host: str, rules_dirs: tuple[str, ...], no_local: bool, log_dir: str | None) -> None:
    """Serve a table in the browser: play any ruleset with friends or bots, one secret link per seat."""
    require_web()
    try:
        ipaddress.ip_address(host)
    except ValueError:
        if host != "localhost":
            raise UsageError(f"--host {host!r}: give an IP address (127.0.0.1, ::1, 0.0.0.0 ...)") from None
    folders: list[str | Path] = [] if no_local else [*(rules_dirs or (".",))]
    for f in folders:
        if not Path(f).is_dir():
            raise UsageError(f"--rules-dir {f}: no such folder")
    log_path = None
    if log_dir is not None:
        from rulecraft.runs.files import ensure_directory

        made = not Path(log_dir).exists()
        log_path = ensure_directory(log_dir, "--log-dir")
        if made:
            os.chmod(log_path, 0o700)  # every hand of every game is in it: for your eyes only
    from rulecraft.web.app import make_app
    from rulecraft.web.server import listening_socket, run

    loopback = host in ("127.0.0.1", "::1", "localhost")
    app = make_app(folders, log_path, allowed_hosts=["127.0.0.1", "localhost", "::1"] if loopback else None)
    try:
        sock = listening_socket(host, port)  # bound here, so the address printed is the one in use (--port 0)
    except OSError as exc:
        raise UsageError(f"cannot listen on {host} port {port}: {exc.strerror or exc}") from None
    port = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    click.echo(f"rulecraft table at http://{shown}:{port}/  (Ctrl-C stops it)", nl=True)
    if not loopback:
        click.echo(f"note: listening on {host}: other machines can reach it; each seat's link is its only key")
    if log_path is None:
        click.echo("note: games are lost when the server stops (--log-dir DIR keeps them)")
    run(app, sock)
