"""Serving the app with uvicorn, and what a server on a shared machine needs besides.

- **The socket**: IPv4 or IPv6 (``--host ::1``), TCP with Nagle's algorithm off on every connection
  (a kept-alive answer would otherwise wait 40 ms for the client's delayed acknowledgement).
- **Slow clients are timed out** (``GuardedH11Protocol``): a request head must arrive whole within
  ``HEAD_SECONDS`` of the connection being free, a body may not stall for ``BODY_SECONDS``, and an
  answer the client stops reading is dropped after ``WRITE_SECONDS``. uvicorn times out only idle
  kept-alive connections.
- **Descriptors are never exhausted by clients**: connections are capped below the process's limit
  on open files (raised to its hard limit first); at the cap, a new connection takes the place of the
  oldest one still waiting for a request, or is closed. Should ``accept`` fail anyway, one line says
  so (once a minute), not a traceback a second.
- **SIGTERM and Ctrl-C stop it**: open connections get ``STOP_SECONDS`` to finish, then the bots'
  and jobs' threads (daemons) and the comparisons' child processes go with the process.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import time
from typing import Any, ClassVar

from uvicorn.protocols.http.h11_impl import H11Protocol

HEAD_SECONDS = 10.0
BODY_SECONDS = 15.0
WRITE_SECONDS = 30.0
KEEP_ALIVE_SECONDS = 5
STOP_SECONDS = 3
SWEEP_SECONDS = 1.0
FILES_KEPT = 128  # descriptors kept for the server's own files, pipes and threads
BACKLOG = 64  # connections waiting to be accepted, and accepted at once before any is looked at
MAX_CONNECTIONS = 4096
log = logging.getLogger("rulecraft.serve")


def raise_file_limit() -> int:
    """Raise this process's limit on open files to its hard limit; the connections allowed under it."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
        if soft != resource.RLIM_INFINITY and soft < wanted:
            with contextlib.suppress(ValueError, OSError):
                resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        # (a burst of accepted connections is looked at only after it: room for one is kept besides)
        limit = MAX_CONNECTIONS if soft == resource.RLIM_INFINITY else soft - FILES_KEPT - BACKLOG
    except ImportError:  # pragma: no cover - not on this platform
        limit = 512
    return max(16, min(MAX_CONNECTIONS, limit))


class GuardedH11Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 connection, timing out slow clients and keeping the number of connections bounded."""

    max_connections = MAX_CONNECTIONS

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        now = time.monotonic()
        self._free_since: float | None = now  # no request in progress since then
        self._last_data = now
        self._paused_since: float | None = None
        super().connection_made(transport)
        if len(self.connections) > self.max_connections:
            waiting = [c for c in self.connections if isinstance(c, GuardedH11Protocol) and c is not self
                       and c._free_since is not None]
            if waiting:
                min(waiting, key=lambda c: c._free_since or 0.0).transport.abort()
            else:
                transport.abort()
                return
        _Sweeper.start(self.loop, self.connections)

    def data_received(self, data: bytes) -> None:
        self._last_data = time.monotonic()
        super().data_received(data)
        if self.cycle is not None and not self.cycle.response_complete:
            self._free_since = None

    def on_response_complete(self) -> None:
        self._free_since = time.monotonic()
        super().on_response_complete()

    def pause_writing(self) -> None:
        self._paused_since = time.monotonic()
        super().pause_writing()

    def resume_writing(self) -> None:
        self._paused_since = None
        super().resume_writing()

    def too_slow(self, now: float) -> bool:
        if self._free_since is not None:
            return now - self._free_since > HEAD_SECONDS
        cycle = self.cycle
        if cycle is not None and cycle.more_body and now - self._last_data > BODY_SECONDS:
            return True
        return self._paused_since is not None and now - self._paused_since > WRITE_SECONDS


class _Sweeper:
    """Once a second, close the connections of clients too slow to be served (one sweeper per event loop)."""

    _running: ClassVar[dict[int, asyncio.TimerHandle]] = {}

    @classmethod
    def start(cls, loop: asyncio.AbstractEventLoop, connections: set[Any]) -> None:
        if id(loop) in cls._running:
            return

        def sweep() -> None:
            now = time.monotonic()
            for conn in list(connections):
                if isinstance(conn, GuardedH11Protocol) and not conn.transport.is_closing() and conn.too_slow(now):
                    conn.transport.abort()
            cls._running[id(loop)] = loop.call_later(SWEEP_SECONDS, sweep)

        cls._running[id(loop)] = loop.call_later(SWEEP_SECONDS, sweep)


def listening_socket(host: str, port: int) -> socket.socket:
    """A TCP socket bound to ``host`` (IPv4 or IPv6) and ``port``; OSError if it cannot be."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP named: asyncio turns Nagle's algorithm off only on sockets that say they are TCP.
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if family == socket.AF_INET6:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
    try:
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def run(app: Any, sock: socket.socket) -> None:
    """Serve ``app`` on ``sock`` until SIGTERM or Ctrl-C."""
    import uvicorn

    GuardedH11Protocol.max_connections = raise_file_limit()
    config = uvicorn.Config(app, http=GuardedH11Protocol, log_level="warning", lifespan="off", backlog=BACKLOG,
                            timeout_keep_alive=KEEP_ALIVE_SECONDS, timeout_graceful_shutdown=STOP_SECONDS)
    server = uvicorn.Server(config)

    async def serve() -> None:
        asyncio.get_running_loop().set_exception_handler(_quiet)
        await server.serve(sockets=[sock])

    asyncio.run(serve())
    for name in ("bots", "jobs"):  # (their threads are daemons; the jobs' child processes are told to stop)
        worker = getattr(getattr(app, "state", None), name, None)
        if worker is not None:
            worker.stop()


_said: dict[str, float] = {}


def _quiet(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    """The event loop's problems in one line each, at most once a minute per kind (no traceback floods)."""
    message = str(context.get("message", "event loop problem"))
    exc = context.get("exception")
    key = message.split(":")[0]
    now = time.monotonic()
    if now - _said.get(key, -1e9) < 60:
        return
    _said[key] = now
    detail = f": {type(exc).__name__}: {exc}" if exc is not None else ""
    log.warning("rulecraft serve: %s%s", message, detail)
