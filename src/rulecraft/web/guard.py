"""What every request passes before the app sees it, and what every answer carries (an ASGI middleware).

- **The name it was sent to** (the Host header, IPv6 literals in brackets included): serving this
  machine only, a page of another site whose name is made to point at 127.0.0.1 is refused.
- **Whose page sent it**: a request that changes anything (every one that is not GET or HEAD) must
  come from this server's own pages: ``Sec-Fetch-Site`` says so (every current browser sends it),
  else ``Origin`` must name this server. A request carrying neither is no browser's (a script, the
  test client): no other site's page can make one, so it passes.
- **How much it sends**: the body is counted while it streams in and refused (413) the moment it
  passes the route's bound, so a 1 GB upload costs what the bound does, not 1 GB.
- **What the browser may do with the answer**: a content security policy with no inline script and
  no framing, no sniffing of types, no referrer (a seat's link is in its address), nothing cached.
  A failure of the server's own is answered here too (a plain 500 with those headers; its traceback
  goes to the server's log), not by Starlette's last resort outside every middleware.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

SAFE_METHODS = frozenset({"GET", "HEAD"})
CSP = ("default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
       "font-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
]
NO_STORE = (b"cache-control", b"no-store")


class TooLargeError(Exception):
    """The body passed its bound while it streamed in."""


class Guard:
    def __init__(self, app: ASGIApp, allowed_hosts: list[str] | None = None,
                 body_limit: Callable[[str, str], int] | None = None) -> None:
        self.app = app
        self.allowed = {h.lower() for h in allowed_hosts} if allowed_hosts else None
        self.body_limit = body_limit or (lambda method, path: 64 * 1024)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        method = scope["method"]
        if self.allowed is not None and host_name(headers.get("host", "")) not in self.allowed:
            await _plain(send, 400, "Invalid host header")
            return
        if method not in SAFE_METHODS and not same_site(headers):
            await _plain(send, 403, "refused: this request was sent by another site's page")
            return
        limit = self.body_limit(method, scope["path"])
        length = headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > limit):
            await _plain(send, 413, f"refused: a request here sends at most {limit} bytes")
            return
        received = 0

        async def counted() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise TooLargeError
            return message

        started = False
        cache = not scope["path"].startswith("/static/")

        async def secured(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                extra = [*HEADERS, *([NO_STORE] if cache else [])]
                names = {name for name, _ in extra}
                message["headers"] = [*(h for h in message.get("headers", []) if h[0].lower() not in names), *extra]
            await send(message)

        try:
            await self.app(scope, counted, secured)
        except TooLargeError:
            if not started:
                await _plain(secured, 413, f"refused: a request here sends at most {limit} bytes")
        except Exception:  # a bug of the server's own: the answer is guarded, the traceback goes to the log
            if not started:
                await _plain(secured, 500, "the server failed")
            raise


def host_name(host: str) -> str:
    """The name in a Host header, without its port: ``[::1]:8000`` -> ``::1``, ``localhost:80`` -> ``localhost``."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:host.index("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def same_site(headers: Headers) -> bool:
    site = headers.get("sec-fetch-site")
    if site is not None:
        return site in ("same-origin", "none")
    origin = headers.get("origin")
    if origin is None:
        return True  # no browser's request: no other site's page made it
    return origin in (f"http://{headers.get('host', '')}", f"https://{headers.get('host', '')}")


async def _plain(send: Callable[[Message], Any], status: int, text: str) -> None:
    body = text.encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                            (b"content-length", str(len(body)).encode()), *HEADERS, NO_STORE]})
    await send({"type": "http.response.body", "body": body})
