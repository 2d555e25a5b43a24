"""Local worker processes that stop when their run stops.

Ctrl-C at a terminal reaches every process of the foreground group, workers included. A worker of
``concurrent.futures`` turns it into the result of the task it was running and takes the next one, and
leaving a ``ProcessPoolExecutor`` by an exception waits for every task still queued: ``simulate
--workers 2`` went on playing after Ctrl-C (and a run that stopped on an error in one chunk waited for
the others). Here the workers ignore SIGINT, so the run alone decides what an interruption means, and
a run left by any exception cancels what is queued and ends its workers at once. A worker writing a
file holds SIGTERM back until the file is whole (``runs.files``), so ending one loses no file.
"""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Any


def local_workers(asked: int, tasks: int) -> int:
    """How many local processes to start for ``tasks`` pieces of work when ``asked`` for that many: never more
    than there is work for, nor than the machine has CPUs (at least two, so asking for workers always uses
    them) — the figures do not depend on it, and ``--workers 10000`` is not ten thousand processes."""
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, min(asked, tasks, max(2, cpus)))


@contextlib.contextmanager
def worker_pool(workers: int, initializer: Callable[..., None] | None = None,
                initargs: tuple[Any, ...] = ()) -> Iterator[ProcessPoolExecutor]:
    """A pool of ``workers`` processes (each runs ``initializer(*initargs)`` first), ended with the block."""
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_start_worker, initargs=(initializer, initargs))
    try:
        yield pool
    except BaseException:
        _stop(pool)
        raise
    pool.shutdown(wait=True)


def _start_worker(initializer: Callable[..., None] | None, initargs: tuple[Any, ...]) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if initializer is not None:
        initializer(*initargs)


def _stop(pool: ProcessPoolExecutor) -> None:
    """Cancel the queued tasks and end the workers now, without waiting for the running ones."""
    processes = list((getattr(pool, "_processes", None) or {}).values())  # the pool has no public handle on them
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        with contextlib.suppress(Exception):
            process.terminate()
    for process in processes:
        with contextlib.suppress(Exception):
            process.join(timeout=5)
