"""Long work a browser asks for (a comparison, a replay of a long log), off the event loop and bounded.

A job runs while its page asks how it is going: the page polls its progress (games played, moves
replayed), and a job whose page has stopped asking (the client left) is cancelled, as is one past its
time. At most a few jobs of a kind run at once on the whole server; one more is refused with a message,
not queued without end.

A comparison plays its games in a child process (``_compare_games``): it can be stopped at once (a
game of a searching agent may take minutes, and no thread can be stopped), and it does not take the
server's interpreter from the pages. A replay stays in this process (its states are what the replay
pages show) and stops at the next progress report once cancelled.
"""

from __future__ import annotations

import multiprocessing
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rulecraft.errors import RulecraftError, UsageError

ABANDONED = 20.0  # seconds without a look at its progress: the client left
MAX_SECONDS = 120.0  # a job's time, at most
MAX_RUNNING = 2  # jobs of one kind at once, on the whole server
KEPT = 32  # finished jobs kept for their pages


class Cancelled(Exception):
    """The job was cancelled (its client left, or its time ran out)."""


@dataclass
class Job:
    kind: str
    total: int
    token: str = field(default_factory=lambda: secrets.token_urlsafe(18))
    done: int = 0
    result: Any = None
    error: str | None = None
    finished: bool = False
    stopped: str | None = None  # why it was cancelled
    started: float = field(default_factory=time.monotonic)
    seen: float = field(default_factory=time.monotonic)
    deadline: float = MAX_SECONDS
    cancel: threading.Event = field(default_factory=threading.Event)

    def check(self, done: int | None = None) -> None:
        """Progress so far; raises Cancelled once the job is to stop."""
        if done is not None:
            self.done = done
        if self.cancel.is_set():
            raise Cancelled

    def as_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "done": self.done, "total": self.total, "finished": self.finished,
                "error": self.error, "stopped": self.stopped}


class Jobs:
    def __init__(self, max_running: int = MAX_RUNNING, abandoned: float = ABANDONED,
                 deadline: float = MAX_SECONDS) -> None:
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._lock = threading.Lock()
        self.max_running = max_running
        self.abandoned = abandoned
        self.deadline = deadline
        self._stop = threading.Event()
        threading.Thread(target=self._watch, name="rulecraft-jobs", daemon=True).start()

    def submit(self, kind: str, total: int, work: Callable[[Job], Any]) -> Job:
        """Run ``work(job)`` in a thread of its own; UsageError when the server runs its most of this kind."""
        with self._lock:
            running = sum(1 for j in self._jobs.values() if j.kind == kind and not j.finished)
            if running >= self.max_running:
                raise UsageError(f"the server is running its most of this kind of work ({running} at once): try again "
                                 "in a minute")
            job = Job(kind, total, deadline=self.deadline)
            self._jobs[job.token] = job
            finished = [t for t, j in self._jobs.items() if j.finished]
            for token in finished[:max(0, len(finished) - KEPT)]:
                del self._jobs[token]
        threading.Thread(target=self._run, args=(job, work), name=f"rulecraft-{kind}", daemon=True).start()
        return job

    def get(self, token: str) -> Job | None:
        job = self._jobs.get(token) if isinstance(token, str) else None
        if job is not None:
            job.seen = time.monotonic()
        return job

    def stop(self) -> None:
        self._stop.set()
        for job in list(self._jobs.values()):
            job.cancel.set()

    def _run(self, job: Job, work: Callable[[Job], Any]) -> None:
        try:
            job.result = work(job)
        except Cancelled:
            job.stopped = job.stopped or "cancelled"
        except RulecraftError as exc:
            job.error = str(exc)
        except Exception as exc:  # a failure of the server's own: said in one line, the server goes on
            job.error = f"the server failed ({type(exc).__name__})"
        finally:
            job.finished = True

    def _watch(self) -> None:
        while not self._stop.wait(0.5):
            now = time.monotonic()
            for job in list(self._jobs.values()):
                if job.finished or job.cancel.is_set():
                    continue
                if now - job.seen > self.abandoned:
                    job.stopped = "its page was closed"
                    job.cancel.set()
                elif now - job.started > job.deadline:
                    job.stopped = f"it ran for {job.deadline:.0f} s, the most this server gives one"
                    job.cancel.set()


# ---------------------------------------------------------------------- a comparison, in a child process
Side = tuple[str, dict[str, str], "str | None"]  # a rule file, its options, its preset


def compare_games(job: Job, sides: list[Side], games: int, seed: int, agent: str) -> list[list[dict[str, Any]]]:
    """Game i of each side in turn, in a child process; the records of the games both sides finished.

    Cancelled (the client left, or the time ran out) with some games played, the comparison is of those.
    """
    ctx = multiprocessing.get_context("spawn")  # (a fork of a server with threads could inherit a held lock)
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_compare_games, args=(child, sides, games, seed, agent), daemon=True)
    proc.start()
    child.close()
    records: list[list[dict[str, Any]]] = [[] for _ in sides]
    try:
        while True:
            if job.cancel.is_set():
                break
            if not parent.poll(0.2):
                if not proc.is_alive() and not parent.poll(0):
                    raise UsageError("the comparison stopped without an answer")
                continue
            try:
                message = parent.recv()
            except EOFError:
                raise UsageError("the comparison stopped without an answer") from None
            if message[0] == "game":
                records[message[1]].append(message[2])
                job.done = min(len(r) for r in records)
            elif message[0] == "error":
                raise UsageError(message[1])
            else:
                break
    finally:
        if proc.is_alive():
            proc.kill()
        proc.join(5)
        parent.close()
    n = min(len(r) for r in records)
    if n == 0:
        job.check()
        raise UsageError("no game was played")
    return [r[:n] for r in records]


def _compare_games(conn: Any, sides: list[Side], games: int, seed: int, agent: str) -> None:
    import contextlib
    import os

    from rulecraft.load import load_ruleset
    from rulecraft.runs.simulate import play_record

    with contextlib.suppress(OSError):
        os.nice(10)  # behind the server's pages
    try:
        rulesets = [load_ruleset(path, options, preset) for path, options, preset in sides]
        for i in range(games):
            for k, rs in enumerate(rulesets):
                conn.send(("game", k, play_record(rs, seed, i, [agent] * rs.seats.count)))
        conn.send(("done",))
    except RulecraftError as exc:
        conn.send(("error", str(exc)))
    except Exception as exc:
        conn.send(("error", f"the comparison failed ({type(exc).__name__})"))
    finally:
        conn.close()
