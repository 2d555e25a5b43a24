"""``rulecraft serve``: the browser table on this machine (Starlette and uvicorn, imported only here).

Listed in the CLI's lazy command table, so ``rulecraft --help`` never imports the web stack; a
missing extra is a usage error naming the install command.
"""

from __future__ import annotations

import ipaddress
import socket
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
              help="Save each game's log here (created if missing), for replay and 'rulecraft play --resume'.")
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

        log_path = ensure_directory(log_dir, "--log-dir")
    import uvicorn

    from rulecraft.web.app import make_app

    loopback = host in ("127.0.0.1", "::1", "localhost")
    app = make_app(folders, log_path, allowed_hosts=["127.0.0.1", "localhost", "::1"] if loopback else None)
    sock = _listening_socket(host, port)  # bound here, so the address printed is the one in use (--port 0)
    port = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    click.echo(f"rulecraft table at http://{shown}:{port}/  (Ctrl-C stops it)")
    if not loopback:
        click.echo(f"note: listening on {host}: other machines can reach it; each seat's link is its only key")
    uvicorn.Server(uvicorn.Config(app, log_level="warning")).run(sockets=[sock])


def _listening_socket(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise UsageError(f"cannot listen on {host} port {port}: {exc.strerror or exc}") from None
    sock.set_inheritable(True)
    return sock
