"""A bounded load on ``rulecraft serve`` over loopback: many people playing at once, as their pages do.

    python benchmarks/web_load.py                         # 40 clients for 60 s against this checkout
    python benchmarks/web_load.py --src /tmp/old/src      # against another checkout's code (its src folder)
    python benchmarks/web_load.py --clients 10 --seconds 20

The server runs as its own process (``rulecraft serve --port 0 --no-local``). Each client is one person
at a Rook table of their own against three ``first`` bots: it starts the table, opens its seat's page,
then, until the time is up, asks for the table's version (``/version``) as the page's poll does (every
0.1 s while bots are to move; a page asks every second), and on its turn fetches the table
(``/table``), picks a legal move from it and sends it (``/move``, naming the version it answers),
starting a new table when a game ends. Reported: moves made per second (the
people's, all clients together), the latency of a move (p50, p99) and of every request, and what was
lost: requests that failed or timed out, and moves refused though legal (none of either is expected).

No third-party client: a small HTTP/1.1 client on asyncio streams, one kept-alive connection per
client, so the clients cost little beside the server on a small machine.
"""

from __future__ import annotations

import argparse
import asyncio
import html
import json
import os
import random
import re
import statistics
import subprocess
import sys
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LEGAL = re.compile(r'data-legal="([^"]*)"')
POLL = 0.1  # seconds between two looks while the bots move (a page looks every second)


@dataclass
class Tally:
    moves: int = 0
    games: int = 0
    requests: int = 0
    failed: int = 0  # no answer, an error status, a timeout
    refused: int = 0  # a legal move refused
    move_times: list[float] = field(default_factory=list)
    request_times: list[float] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


class Client:
    """One kept-alive connection, its cookies, and the requests a page makes."""

    def __init__(self, host: str, port: int, tally: Tally) -> None:
        self.host, self.port, self.tally = host, port, tally
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.cookies: dict[str, str] = {}

    async def request(self, method: str, path: str, fields: dict[str, str] | None = None
                      ) -> tuple[int, dict[str, str], bytes]:
        started = time.perf_counter()
        try:
            answer = await asyncio.wait_for(self._request(method, path, fields), 30)
        except (TimeoutError, OSError, asyncio.IncompleteReadError, ValueError) as exc:
            await self.close()
            self.tally.failed += 1
            self.tally.problems.append(f"{method} {path.split('/')[1]}: {type(exc).__name__}")
            return 0, {}, b""
        self.tally.requests += 1
        self.tally.request_times.append(time.perf_counter() - started)
        if answer[0] >= 500:
            self.tally.failed += 1
            self.tally.problems.append(f"{method} {path.split('/')[1]}: {answer[0]}")
        return answer

    async def _request(self, method: str, path: str, fields: dict[str, str] | None
                       ) -> tuple[int, dict[str, str], bytes]:
        if self.writer is None or self.writer.is_closing():
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        assert self.reader is not None and self.writer is not None
        body = urllib.parse.urlencode(fields).encode() if fields is not None else b""
        head = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}", "Connection: keep-alive"]
        if self.cookies:
            head.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        if fields is not None:
            head += ["Content-Type: application/x-www-form-urlencoded", f"Content-Length: {len(body)}"]
        self.writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + body)
        await self.writer.drain()
        status_line = await self.reader.readline()
        if not status_line:
            raise ConnectionResetError("closed")
        status = int(status_line.split()[1])
        headers: dict[str, str] = {}
        while True:
            line = (await self.reader.readline()).decode("latin-1").rstrip("\r\n")
            if not line:
                break
            name, _, value = line.partition(":")
            name, value = name.strip().lower(), value.strip()
            if name == "set-cookie":
                key, _, rest = value.partition("=")
                self.cookies[key] = rest.split(";")[0]
            headers[name] = value
        if headers.get("transfer-encoding") == "chunked":
            data = b""
            while True:
                size = int((await self.reader.readline()).strip(), 16)
                if size == 0:
                    await self.reader.readline()
                    break
                data += await self.reader.readexactly(size)
                await self.reader.readline()
        else:
            data = await self.reader.readexactly(int(headers.get("content-length", "0")))
        if headers.get("connection") == "close":
            await self.close()
        return status, headers, data

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.writer = None


async def person(host: str, port: int, index: int, deadline: float, tally: Tally) -> None:
    rng = random.Random(index)
    client = Client(host, port, tally)
    seat_url = None
    while time.monotonic() < deadline:
        if seat_url is None:
            fields = {"ref": "rook", "seed": str(index * 1000 + tally.games), "seat.0": "human",
                      "seat.1": "first", "seat.2": "first", "seat.3": "first"}
            status, headers, _ = await client.request("POST", "/start", fields)
            if status != 303:
                await asyncio.sleep(0.5)
                continue
            seat_url = headers["location"]
            await client.request("GET", seat_url)
        status, _, data = await client.request("GET", f"{seat_url}/version")
        if status != 200:
            await asyncio.sleep(0.2)
            continue
        state = json.loads(data)
        if state["over"]:
            tally.games += 1
            seat_url = None
            continue
        if state["to_act"] != 0:
            await asyncio.sleep(POLL)  # the bots move (in the background, for a server that moves them so)
            continue
        status, headers, data = await client.request("GET", f"{seat_url}/table")
        found = LEGAL.search(data.decode("utf-8", "replace"))
        if status != 200 or not found:
            continue
        legal = json.loads(html.unescape(found.group(1)))
        version = headers.get("x-table-version", str(state["version"]))
        move = rng.choice(legal)
        started = time.perf_counter()
        status, _, data = await client.request("POST", f"{seat_url}/move", {"move": move, "version": version})
        if status == 200:
            tally.moves += 1
            tally.move_times.append(time.perf_counter() - started)
        elif status:
            tally.refused += 1
            tally.problems.append(f"move refused: {data[:200]!r}")
    await client.close()


def serve(src: str | None) -> tuple[subprocess.Popen[str], str, int]:
    env = dict(os.environ)
    if src:
        env["PYTHONPATH"] = src
    proc = subprocess.Popen([sys.executable, "-m", "rulecraft.cli.main", "serve", "--port", "0", "--no-local"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    found = re.search(r"http://([\d.]+):(\d+)/", line)
    if not found:
        proc.kill()
        raise SystemExit(f"the server did not start: {line}")
    return proc, found.group(1), int(found.group(2))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--src", default=None, help="the src folder of the code to serve (default: this checkout's)")
    args = parser.parse_args()
    proc, host, port = serve(args.src)
    tally = Tally()
    try:
        time.sleep(1.0)
        started = time.monotonic()
        deadline = started + args.seconds

        async def run() -> None:
            await asyncio.gather(*(person(host, port, i, deadline, tally) for i in range(args.clients)))

        asyncio.run(run())
        elapsed = time.monotonic() - started
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
    moves = sorted(tally.move_times)
    every = sorted(tally.request_times)

    def pct(xs: list[float], p: float) -> float:
        return xs[min(len(xs) - 1, int(p * len(xs)))] * 1000 if xs else float("nan")

    print(f"{args.clients} clients, {elapsed:.1f} s, code: {args.src or 'this checkout'}")
    print(f"  moves: {tally.moves} ({tally.moves / elapsed:.1f}/s), games finished: {tally.games}")
    print(f"  move latency: p50 {pct(moves, 0.5):.1f} ms, p99 {pct(moves, 0.99):.1f} ms")
    print(f"  every request ({tally.requests}): p50 {pct(every, 0.5):.1f} ms, p99 {pct(every, 0.99):.1f} ms, "
          f"mean {statistics.fmean(every) * 1000 if every else float('nan'):.1f} ms")
    print(f"  lost: {tally.failed} requests failed, {tally.refused} legal moves refused")
    for problem in sorted(set(tally.problems))[:10]:
        print(f"    {problem}")


if __name__ == "__main__":
    main()
