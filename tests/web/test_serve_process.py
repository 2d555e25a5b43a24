"""``rulecraft serve`` as a process, where timing and the operating system matter: keep-alive answers
without Nagle's 40 ms wait, IPv6 loopback, slow clients and a small limit on open files, SIGTERM,
and tables that do not wait on each other's bots.
"""

from __future__ import annotations

import http.client
import re
import resource
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")


@contextmanager
def serving(cwd: Path, *args: str, preexec: Callable[[], None] | None = None
            ) -> Iterator[tuple[str, int, subprocess.Popen[str]]]:
    """``rulecraft serve --port 0 ARGS`` running; (host, port, process)."""
    proc = subprocess.Popen([sys.executable, "-m", "rulecraft.cli.main", "serve", "--port", "0", "--no-local", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=cwd, preexec_fn=preexec)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        found = re.match(r"rulecraft table at http://\[?([^\]/]+?)\]?:(\d+)/", line)
        assert found, line + (proc.stderr.read() if proc.stderr else "")
        host, port = found.group(1), int(found.group(2))
        for _ in range(100):
            try:
                socket.create_connection((host, port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)
        yield host, port, proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=30)


def request(host: str, port: int, method: str, path: str, fields: dict[str, str] | None = None,
            timeout: float = 30) -> tuple[int, str, dict[str, str]]:
    c = http.client.HTTPConnection(host, port, timeout=timeout)
    body = urllib.parse.urlencode(fields) if fields is not None else None
    headers = {"content-type": "application/x-www-form-urlencoded"} if body is not None else {}
    c.request(method, path, body=body, headers=headers)
    r = c.getresponse()
    text = r.read().decode("utf-8", "replace")
    c.close()
    return r.status, text, {k.lower(): v for k, v in r.getheaders()}


def test_kept_alive_answers_do_not_wait_for_a_delayed_acknowledgement(tmp_path: Path) -> None:
    """With Nagle's algorithm on, each answer after the first on a kept-alive connection waited ~40 ms."""
    with serving(tmp_path) as (host, port, _):
        c = http.client.HTTPConnection(host, port, timeout=30)
        times = []
        for _ in range(30):
            t = time.perf_counter()
            c.request("GET", "/static/table.css")
            c.getresponse().read()
            times.append(time.perf_counter() - t)
        assert statistics.median(times) < 0.025, times


def test_serving_ipv6_loopback_answers_its_own_address(tmp_path: Path) -> None:
    if not socket.has_ipv6:
        pytest.skip("no IPv6 here")
    try:
        socket.socket(socket.AF_INET6).bind(("::1", 0))
    except OSError:
        pytest.skip("no IPv6 loopback here")
    with serving(tmp_path, "--host", "::1") as (host, port, _):
        assert host == "::1"
        status, text, _ = request(host, port, "GET", "/")
        assert status == 200 and "Start a game" in text


def test_sigterm_stops_the_server_while_a_comparison_runs(tmp_path: Path) -> None:
    with serving(tmp_path) as (host, port, proc):
        fields = {"a": "1", "a.ref": "rook", "b.ref": "rook", "n": "400", "agent": "ismcts", "seed": "1"}
        threading.Thread(target=lambda: _quietly(request, host, port, "POST", "/compare", fields, 600),
                         daemon=True).start()
        threading.Thread(target=lambda: _quietly(request, host, port, "GET", "/compare?" + urllib.parse.urlencode(
            fields), None, 600), daemon=True).start()
        time.sleep(3)  # the work under way
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=20)
        assert proc.returncode is not None


def test_slow_clients_and_a_small_limit_on_open_files_leave_the_server_reachable_and_quiet(tmp_path: Path) -> None:
    """400 clients that send half a request head, under a limit of 256 open files: a new client is still
    served at once, and the server says so in a line or two, not a traceback a second."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256))

    with serving(tmp_path, preexec=limit) as (host, port, proc):
        slow = []
        for _ in range(400):
            try:
                s = socket.create_connection((host, port), timeout=5)
                s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # and never the rest
                slow.append(s)
            except OSError:
                break
        time.sleep(2)
        started = time.monotonic()
        status, text, _ = request(host, port, "GET", "/", timeout=30)
        assert status == 200 and "Start a game" in text
        assert time.monotonic() - started < 5
        time.sleep(12)  # past the time a request head may take: the slow ones are gone
        status, _, _ = request(host, port, "GET", "/", timeout=30)
        assert status == 200
        for s in slow:
            s.close()
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=20)
        assert proc.stderr is not None
        err = proc.stderr.read()
        assert "Traceback" not in err and len(err) < 4000, err[:4000]


def test_a_table_never_waits_on_another_tables_bots(tmp_path: Path) -> None:
    """While the searching bots of one table think through their opening bids, another table's page answers
    at once (the bots once ran under a lock every request took)."""
    with serving(tmp_path) as (host, port, _):
        status, _, headers = request(host, port, "POST", "/start", {"ref": "rook", "seed": "1", "seat.0": "human",
                                                                   "seat.1": "first", "seat.2": "first",
                                                                   "seat.3": "first"})
        assert status == 303
        quick = headers["location"]
        cookie = headers["set-cookie"].split(";")[0]  # (one person: the seat is the starting browser's)
        busy = {"ref": "hearts", "seed": "1", "seat.0": "ismcts", "seat.1": "ismcts", "seat.2": "ismcts",
                "seat.3": "human"}
        for _ in range(8):  # eight tables whose bots search (passing, leading) before their person's first move
            threading.Thread(target=lambda: _quietly(request, host, port, "POST", "/start", busy, 600),
                             daemon=True).start()
        time.sleep(0.5)
        times = []
        for _ in range(20):
            t = time.perf_counter()
            c = http.client.HTTPConnection(host, port, timeout=60)
            c.request("GET", f"{quick}/version", headers={"cookie": cookie})
            assert c.getresponse().status == 200
            times.append(time.perf_counter() - t)
            time.sleep(0.05)
        assert max(times) < 1.5, times  # (each of the tables above held every page for its bots' whole opening)


def _quietly(fn: Callable[..., object], *args: object) -> None:
    with suppress(OSError):
        fn(*args)
