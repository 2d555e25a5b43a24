"""Running a simulation's games in chunks: in this process, in local worker processes, or on a dask cluster.

Work crosses process boundaries as a ``RunSpec`` (the ruleset's name or path, its options and preset,
the agents, the seed): plain values that pickle, never a ``Ruleset``. Each worker process loads the
ruleset once and keeps it; each chunk returns the plain records of its games plus the content hash of
the ruleset it loaded, so a worker that read a different file is caught instead of silently mixing
rules. Records are merged in game index order (``simulate.summarize``), so how a run was split never
changes its numbers.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulecraft.engine.ruleset import Ruleset
from rulecraft.errors import RulecraftError, UsageError, clip
from rulecraft.load import load_ruleset
from rulecraft.runs.simulate import Summary, play_record, summarize


@dataclass(frozen=True, slots=True)
class RunSpec:
    """Everything a worker needs to play games of a run, as plain picklable values."""

    ruleset: str
    options: tuple[tuple[str, str], ...]
    preset: str | None
    agents: tuple[str, ...]
    seed: int
    max_hands: int | None = None
    max_moves: int | None = None  # games stopped after this many moves (``simulate.cut_result``)

    @classmethod
    def make(cls, ruleset: str, options: dict[str, str] | None, preset: str | None, agents: list[str], seed: int,
             max_hands: int | None = None, max_moves: int | None = None) -> RunSpec:
        return cls(ruleset, tuple(sorted((options or {}).items())), preset, tuple(agents), seed, max_hands, max_moves)

    def load(self) -> Ruleset:
        return load_ruleset(self.ruleset, dict(self.options), self.preset)


_LOADED: dict[tuple[str, tuple[tuple[str, str], ...], str | None], Ruleset] = {}


def _ruleset(spec: RunSpec) -> Ruleset:
    """The spec's ruleset, loaded once per process."""
    key = (spec.ruleset, spec.options, spec.preset)
    rs = _LOADED.get(key)
    if rs is None:
        rs = _LOADED[key] = spec.load()
    return rs


def run_chunk(spec: RunSpec, start: int, stop: int, log_dir: str | None = None) -> tuple[str, list[dict[str, Any]]]:
    """Play games ``start`` to ``stop - 1`` of the run; returns (ruleset content hash, their records)."""
    rs = _ruleset(spec)
    on_game = None
    if log_dir is not None:
        from rulecraft.runs.files import ensure_directory
        from rulecraft.runs.log import write_log

        ensure_directory(log_dir, "--log-dir")  # the command made it; a cluster's worker may need to

        def on_game(i: int, st: Any) -> None:
            write_log(Path(log_dir) / f"game-{i:06d}.jsonl", st, list(spec.agents))

    records = [play_record(rs, spec.seed, i, spec.agents, spec.max_hands, on_game, spec.max_moves)
               for i in range(start, stop)]
    return rs.content_hash, records


def chunk_bounds(n: int, size: int) -> Iterator[tuple[int, int]]:
    """The chunks of games 0..n-1, made as they are asked for: a run of 10**12 games holds none in advance."""
    return ((a, min(a + size, n)) for a in range(0, n, size))


IN_FLIGHT = 2  # tasks handed to each worker ahead of its results, so work queued is bounded by the workers


def default_chunk_size(n: int, workers: int) -> int:
    """Small enough to balance the load and move a progress bar, big enough to keep overhead low."""
    return max(1, min(25, math.ceil(n / (4 * max(workers, 1)))))


def run_games(spec: RunSpec, n: int, *, workers: int = 1, dask: str | Any | None = None,
              chunk_size: int | None = None, log_dir: str | None = None,
              progress: Callable[[int], None] | None = None) -> list[dict[str, Any]]:
    """The records of games 0..n-1, in index order, computed where asked.

    ``workers`` > 1 uses that many local processes; ``dask`` is a scheduler address (or a
    ``distributed.Client``) to run the same chunks on a cluster.
    """
    from rulecraft.runs.pool import local_workers  # (with the process pool, imported when games are run)

    _LOADED.clear()  # a run reads its rule files afresh: they may have changed since an earlier run in this process
    expected = _ruleset(spec).content_hash
    size = chunk_size or default_chunk_size(n, workers if dask is None else 8)
    bounds = chunk_bounds(n, size)
    workers = local_workers(workers, math.ceil(n / size))
    if dask is not None:
        results = _run_dask(spec, bounds, dask, log_dir, progress)
    elif workers > 1:
        results = _run_processes(spec, bounds, workers, log_dir, progress)
    else:
        results = []
        for a, b in bounds:
            results.append(run_chunk(spec, a, b, log_dir))
            if progress is not None:
                progress(b - a)
    records: list[dict[str, Any]] = []
    for content_hash, recs in results:
        if content_hash != expected:
            raise RulecraftError(f"a worker loaded a different '{spec.ruleset}' (hash {content_hash[:12]}, "
                                 f"expected {expected[:12]}): give workers the same rule files")
        records.extend(recs)
    records.sort(key=lambda r: r["index"])
    return records


def _run_processes(spec: RunSpec, bounds: Iterator[tuple[int, int]], workers: int, log_dir: str | None,
                   progress: Callable[[int], None] | None) -> list[tuple[str, list[dict[str, Any]]]]:
    from concurrent.futures import FIRST_COMPLETED, Future, wait

    from rulecraft.runs.pool import worker_pool

    results = []
    with worker_pool(workers) as pool:
        pending: dict[Future[tuple[str, list[dict[str, Any]]]], int] = {}
        for a, b in itertools.chain(bounds, [(-1, -1)]):
            if a >= 0:
                pending[pool.submit(run_chunk, spec, a, b, log_dir)] = b - a
            # A chunk is submitted only when a worker will want it soon: the queue stays IN_FLIGHT per worker.
            while pending and (a < 0 or len(pending) >= IN_FLIGHT * workers):
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for fut in done:
                    results.append(fut.result())
                    if progress is not None:
                        progress(pending[fut])
                    del pending[fut]
    return results


SCHEMES = ("tcp", "tls", "ws", "wss", "ucx")
CONNECT_TIMEOUT = 5  # seconds: a scheduler that does not answer by then is reported, not waited for


def check_dask_address(address: str) -> None:
    """Refuse an address that cannot name a scheduler (a usage error), before anything is loaded or played."""
    scheme, sep, rest = address.partition("://")
    if not sep:
        scheme, rest = "tcp", address
    host, colon, port = rest.rpartition(":")
    host = host.strip("[]")
    problem = ""
    if scheme not in SCHEMES:
        problem = f"unknown protocol '{scheme}' (one of {', '.join(SCHEMES)})"
    elif not colon:
        problem = "it needs a host and a port"
    elif not port.isdigit() or not 0 < int(port) < 65536:
        problem = f"'{clip(port)}' is not a port number (1-65535)"
    elif not host:
        problem = "it names no host"
    if problem:
        raise UsageError(f"--dask {clip(address)}: not a scheduler address: {problem}; write tcp://HOST:PORT, "
                         "e.g. tcp://10.0.0.5:8786")


def _run_dask(spec: RunSpec, bounds: Iterator[tuple[int, int]], dask: str | Any, log_dir: str | None,
              progress: Callable[[int], None] | None) -> list[tuple[str, list[dict[str, Any]]]]:
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise UsageError("--dask needs dask.distributed: pip install 'rulecraft[dask]'") from None
    own = isinstance(dask, str)
    if own:
        check_dask_address(dask)
    try:
        client = Client(dask, timeout=CONNECT_TIMEOUT) if own else dask
    except (OSError, ValueError, TypeError) as exc:  # the address was checked: this is the network's answer
        raise RulecraftError(f"cannot reach the dask scheduler at {dask}: {exc}") from None
    assert not isinstance(client, str)
    try:
        # As with local processes, chunks are submitted as earlier ones finish, not all at once.
        ahead = IN_FLIGHT * max(1, len(client.nthreads()) if hasattr(client, "nthreads") else 8)
        sizes: dict[Any, int] = {}
        running = as_completed()

        def submit_next() -> None:
            for a, b in itertools.islice(bounds, 1):
                fut = client.submit(run_chunk, spec, a, b, log_dir, pure=False)
                sizes[fut.key] = b - a
                running.add(fut)

        for _ in range(ahead):
            submit_next()
        results = []
        for fut in running:
            results.append(fut.result())
            if progress is not None:
                progress(sizes.pop(fut.key))
            submit_next()
        return results
    finally:
        if own:
            client.close()


def simulate_run(spec: RunSpec, n: int, *, workers: int = 1, dask: str | Any | None = None,
                 log_dir: str | None = None, progress: Callable[[int], None] | None = None,
                 chunk_size: int | None = None) -> Summary:
    """``simulate`` for a RunSpec, wherever its games run; the Summary is the same whichever way."""
    start = time.perf_counter()
    records = run_games(spec, n, workers=workers, dask=dask, chunk_size=chunk_size, log_dir=log_dir,
                        progress=progress)
    rs = _ruleset(spec)  # as the run loaded it
    return summarize(rs.identity, n, spec.seed, list(spec.agents), records, time.perf_counter() - start)
