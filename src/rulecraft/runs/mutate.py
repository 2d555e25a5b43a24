"""Mutation testing of rule files: does the scenario suite notice when a rule is changed?

For every mutant of the rule files a suite plays (``runs/mutants.py``), each group of scenarios
whose rules the change reaches (the same ruleset and options; ``runs/suite.py``) gets the mutated
rules composed, checked and built once, and its scenarios are played against them until one fails:

- **killed**: a scenario failed (or the game stopped with an error, or ran past the time limit);
- **survived**: every scenario still passed — the suite does not pin that part of the rule. A
  survivor that changes no group's rules (it is in an option choice no scenario takes) says so;
- **invalid**: the mutated rules do not load (schema or semantic check) — not counted as killed;
- **equivalent**: a survivor listed, with a reason, in a scenario folder's ``mutants.yaml``; the
  listing is checked by seeded random games played in step with and without the mutant
  (``equivcheck``: every move offered compared, within a budget of moves), and one whose games differ
  is reported, as a listed mutant that a scenario kills is.

The mutants and the order they are tried in depend only on the files, so every run (with any
number of worker processes) gives the same figures. Only scenarios that pass with the rules as
written are used; the others are reported.
"""

from __future__ import annotations

import difflib
import random
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulecraft.errors import RulecraftError, UsageError
from rulecraft.runs.equivalent import Equivalent, load_equivalents
from rulecraft.runs.exprplaces import Places
from rulecraft.runs.mutants import Mutant, apply_mutant, enumerate_mutants
from rulecraft.runs.suite import Suite, build_composed, compose_group, load_suite, mutated_document

if TYPE_CHECKING:
    from rulecraft.engine.ruleset import Ruleset

KILLED, SURVIVED, INVALID, EQUIVALENT = "killed", "survived", "invalid", "equivalent"
NOT_REACHED = "no scenario plays rules that include it"
EQUIVALENT_MOVES = 20_000  # moves of seeded random games each listed equivalent is checked in


@dataclass(frozen=True, slots=True)
class Outcome:
    index: int
    status: str  # killed | survived | invalid (equivalent is decided afterwards)
    detail: str = ""  # killed: which scenario and why; invalid: the first problem; survived: NOT_REACHED or ''
    how: str = ""  # killed: failed | error | crash | timeout
    changed: str = ""  # a listed equivalent: the first seeded random game it changes ('' when none)


@dataclass
class Baseline:
    """The suite with the rules as written: which scenarios pass, and each group's content hash."""

    hashes: list[str]
    passing: list[int]  # scenario indices
    failures: list[str]  # scenarios that fail (or whose rules do not load) as written
    seconds: float


class _TimedOut(BaseException):
    """Raised by the alarm inside a mutant's run (a BaseException, so no engine ``except`` swallows it)."""


@contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    if seconds <= 0 or threading.current_thread() is not threading.main_thread() \
            or not hasattr(signal, "setitimer"):
        yield
        return

    def on_alarm(signum: int, frame: Any) -> None:
        raise _TimedOut

    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def _first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text.strip() else ""


def run_baseline(suite: Suite, places: Places | None = None) -> Baseline:
    """Play every scenario once against the rules as written (``places``: where each expression is read,
    gathered from the builds, when given)."""
    start = time.perf_counter()
    hashes: list[str] = []
    passing: list[int] = []
    failures: list[str] = []
    for group in suite.groups:
        hashes.append("")
        try:
            composed = compose_group(suite, group)
            hashes[-1] = composed.content_hash
            builder = places.builder() if places is not None else None
            rs = build_composed(composed, builder=builder)
            if places is not None and builder is not None:
                places.keep(builder, rs.trick_scope)
        except RulecraftError as exc:
            failures.extend(f"{suite.scenarios[i].path}: the rules do not load: {_first_line(str(exc))}"
                            for i in group.scenarios)
            continue
        for i in group.scenarios:
            sc = suite.scenarios[i]
            try:
                res = suite.play(i, rs)
            except RulecraftError as exc:
                failures.append(f"{sc.path}: {_first_line(str(exc))}")
                continue
            if res.passed:
                passing.append(i)
            else:
                failures.append(f"{sc.path}: {_first_line(res.failures[0])}")
    return Baseline(hashes, passing, failures, time.perf_counter() - start)


class MutantRunner:
    """Decides one mutant's fate; one per process (workers build their own from the same files)."""

    def __init__(self, suite: Suite, mutants: Sequence[Mutant], baseline: Baseline, timeout: float,
                 listed: frozenset[int] = frozenset(), moves: int = 0) -> None:
        self.suite = suite
        self.mutants = mutants
        self.hashes = baseline.hashes
        self.passing = set(baseline.passing)
        self.timeout = timeout
        self.listed = listed  # the mutants listed as equivalent: checked in ``moves`` moves of random games each
        self.moves = moves
        self._written: dict[int, Ruleset] = {}  # each group's rules as written, built when first needed
        self._kept: dict[tuple[int, int], Any] = {}  # random games as written (equivcheck)

    def evaluate(self, m: Mutant) -> Outcome:
        reached: list[tuple[int, Ruleset]] = []
        try:
            with _time_limit(self.timeout):
                out = self._evaluate(m, reached)
        except _TimedOut:
            return Outcome(m.index, KILLED, f"ran past the time limit of {self.timeout:g} s", "timeout")
        if out.status == SURVIVED and m.index in self.listed and self.moves > 0 and reached:
            out = replace(out, changed=self._changes_games(reached))
        return out

    def _changes_games(self, reached: list[tuple[int, Ruleset]]) -> str:
        """Whether seeded random games tell the mutant from the rules as written (``equivcheck``)."""
        from rulecraft.runs.equivcheck import first_difference

        written = []
        for gi, _rs in reached:
            if gi not in self._written:
                self._written[gi] = build_composed(compose_group(self.suite, self.suite.groups[gi]), schema=False)
            written.append(self._written[gi])
        return first_difference(written, [rs for _gi, rs in reached], self.moves, self._kept)

    def _evaluate(self, m: Mutant, reached_groups: list[tuple[int, Ruleset]]) -> Outcome:
        doc = self.suite.docs[m.file]
        replaced = {m.file: mutated_document(doc, apply_mutant(doc.data, m))}
        reached = False
        built: dict[str, Ruleset] = {}  # by content hash: groups whose options come to the same rules share one
        for gi in self.suite.groups_using(m.file):
            group = self.suite.groups[gi]
            scenarios = [i for i in group.scenarios if i in self.passing]
            if not scenarios:
                continue
            rs, problem = self._rules(gi, replaced, built)
            if problem:
                return Outcome(m.index, INVALID, f"{group.label}: {problem}")
            if rs is None:  # the change does not reach this group's rules
                continue
            reached = True
            if all(r is not rs for _g, r in reached_groups):
                reached_groups.append((gi, rs))
            for i in scenarios:
                sc = self.suite.scenarios[i]
                try:
                    res = self.suite.play(i, rs)
                except RulecraftError as exc:
                    return Outcome(m.index, KILLED, f"{sc.path}: {_first_line(str(exc))}", "error")
                except Exception as exc:  # a changed rule may break what the engine assumes of valid rules
                    return Outcome(m.index, KILLED, f"{sc.path}: {type(exc).__name__}: {exc}", "crash")
                if not res.passed:
                    return Outcome(m.index, KILLED, f"{sc.path}: {_first_line(res.failures[0])}", "failed")
        return Outcome(m.index, SURVIVED, "" if reached else NOT_REACHED)

    def _rules(self, gi: int, replaced: dict[str, Any], built: dict[str, Ruleset]) -> tuple[Ruleset | None, str]:
        """The group's mutated ruleset (None when the change leaves its rules as they were), or a problem.

        The schema check, the slowest step, runs with the first group the change reaches: every
        option's patch is checked whatever the options, so other options add little to check.
        """
        group = self.suite.groups[gi]
        try:
            composed = compose_group(self.suite, group, replaced)
            h = composed.content_hash
            if h == self.hashes[gi]:
                return None, ""
            if h not in built:
                built[h] = build_composed(composed, schema=not built)
            return built[h], ""
        except RulecraftError as exc:
            return None, _first_line(str(exc)) or type(exc).__name__
        except Exception as exc:  # a rule the checks let through but the builder cannot take
            return None, f"{type(exc).__name__}: {exc}"


# --------------------------------------------------------------------------- the run
@dataclass
class MutationReport:
    suite: Suite
    mutants: list[Mutant]  # those tried (all, or the sample)
    total: int  # how many the files have
    outcomes: dict[int, Outcome]
    baseline: Baseline
    equivalents: list[Equivalent] = field(default_factory=list)
    seconds: float = 0.0

    def status(self, m: Mutant) -> str:
        st = self.outcomes[m.index].status
        if st == SURVIVED and self.listing(m) is not None:
            return EQUIVALENT
        return st

    def listing(self, m: Mutant) -> Equivalent | None:
        """The entry of a mutants list that names ``m`` as equivalent, if any."""
        return next((e for e in self.equivalents if e.matches(m)), None)

    def by_status(self, status: str) -> list[Mutant]:
        return [m for m in self.mutants if self.status(m) == status]

    def stale_equivalents(self) -> list[Equivalent]:
        """Listed mutants that do not exist any more (when every mutant was tried)."""
        if len(self.mutants) < self.total:
            return []
        return [e for e in self.equivalents if not any(e.matches(m) for m in self.mutants)]

    def likely_meant(self, e: Equivalent) -> str | None:
        """For a listed mutant that does not exist: where a mutant making the same change is, when
        one is near what the entry names (a rule path written as one guesses it, `pieces[0]` for
        `pieces[{suit}{rank}]`), as the entry would name it."""
        same = [m for m in self.mutants if m.change == e.change]
        if e.rule is not None:
            rules = sorted({m.rule for m in same})
            close = difflib.get_close_matches(e.rule, rules, n=1, cutoff=0.6)
            return f"rule: \"{close[0]}\"" if close else None
        if e.at is not None:
            file = e.at.rsplit(":", 2)[0]
            in_file = [m for m in same if m.file == file]
            return f"at: {in_file[0].at}" if len(in_file) == 1 else None
        return None

    def killed_equivalents(self) -> list[tuple[Equivalent, Mutant]]:
        """Listed as equivalent, yet a scenario kills it (or it does not load): the listing is wrong."""
        return [(e, m) for m in self.mutants if self.outcomes[m.index].status != SURVIVED
                for e in self.equivalents if e.matches(m)]

    def changed_equivalents(self) -> list[tuple[Equivalent, Mutant, str]]:
        """Listed as equivalent, and no scenario kills it, yet seeded random games tell it apart."""
        return [(e, m, self.outcomes[m.index].changed) for m in self.mutants
                if self.status(m) == EQUIVALENT and self.outcomes[m.index].changed
                for e in self.equivalents if e.matches(m)]

    def by_operator(self) -> dict[str, dict[str, Any]]:
        """The figures of each kind of change, the kinds in the order first met."""
        kinds = list(dict.fromkeys(m.operator for m in self.mutants))
        return {k: self.figures([m for m in self.mutants if m.operator == k]) for k in kinds}

    def figures(self, mutants: Sequence[Mutant]) -> dict[str, Any]:
        counts = {s: 0 for s in (KILLED, SURVIVED, INVALID, EQUIVALENT)}
        for m in mutants:
            counts[self.status(m)] += 1
        judged = counts[KILLED] + counts[SURVIVED]
        return {"mutants": len(mutants), "killed": counts[KILLED], "survived": counts[SURVIVED],
                "invalid": counts[INVALID], "equivalent": counts[EQUIVALENT],
                "kill_rate": round(counts[KILLED] / judged, 4) if judged else None}

    def kill_rate(self) -> float | None:
        rate = self.figures(self.mutants)["kill_rate"]
        return float(rate) if rate is not None else None

    def as_json(self) -> dict[str, Any]:
        out = self.figures(self.mutants)
        out["total_mutants"] = self.total
        out["survivors"] = [self._entry(m) for m in self.by_status(SURVIVED)]
        out["equivalents"] = [{**self._entry(m), "reason": self._reason(m)} for m in self.by_status(EQUIVALENT)]
        out["stale_equivalents"] = [{"at": e.at, "rule": e.rule, "change": e.change, "listed_at": str(e.where)}
                                    for e in self.stale_equivalents()]
        out["killed_equivalents"] = [{**self._entry(m), "listed_at": str(e.where),
                                      "detail": self.outcomes[m.index].detail}
                                     for e, m in self.killed_equivalents()]
        out["changed_equivalents"] = [{**self._entry(m), "listed_at": str(e.where), "detail": detail}
                                      for e, m, detail in self.changed_equivalents()]
        out["by_operator"] = self.by_operator()
        out["rulesets"] = [{"file": f, "rulesets": self.suite.rulesets_of(f),
                            **self.figures([m for m in self.mutants if m.file == f])} for f in self.suite.files]
        out["scenarios"] = {"total": len(self.suite.scenarios), "passing": len(self.baseline.passing),
                            "failing_as_written": self.baseline.failures}
        out["results"] = [{**self._entry(m), "status": self.status(m), "how": self.outcomes[m.index].how,
                           "detail": self.outcomes[m.index].detail} for m in self.mutants]
        return out

    def _reason(self, m: Mutant) -> str:
        e = self.listing(m)
        return e.reason if e is not None else ""

    def _entry(self, m: Mutant) -> dict[str, Any]:
        entry: dict[str, Any] = {"index": m.index, "at": m.at, "file": m.file, "line": m.line, "col": m.col,
                                 "rule": m.rule, "occurrence": m.occurrence, "operator": m.operator,
                                 "change": m.change}
        if self.outcomes[m.index].status == SURVIVED:
            entry["reached"] = self.outcomes[m.index].detail != NOT_REACHED
        return entry


def sample(mutants: list[Mutant], max_mutants: int | None, seed: int) -> list[Mutant]:
    """At most ``max_mutants`` of them, chosen by ``seed``, in their own order."""
    if max_mutants is None or max_mutants >= len(mutants):
        return mutants
    picked = random.Random(seed).sample(range(len(mutants)), max_mutants)
    return [mutants[i] for i in sorted(picked)]


@dataclass
class MutationPlan:
    """What a run will do: the suite as written, its mutants, and which of them are tried."""

    paths: list[str]
    suite: Suite
    equivalents: list[Equivalent]
    baseline: Baseline
    mutants: list[Mutant]  # every mutant of the files
    tried: list[Mutant]  # all of them, or a sample

    def listed(self) -> frozenset[int]:
        """The mutants a mutants list names as equivalent."""
        return frozenset(m.index for m in self.mutants if any(e.matches(m) for e in self.equivalents))

    def run(self, *, workers: int = 1, timeout: float | None = None,
            progress: Callable[[int], None] | None = None, moves: int = EQUIVALENT_MOVES) -> MutationReport:
        """Decide every tried mutant's fate; ``progress(1)`` after each. The figures do not depend on ``workers``.

        ``moves``: moves of seeded random games each listed equivalent is checked in, played in step with
        and without it (0: none)."""
        start = time.perf_counter()
        limit = timeout if timeout is not None else max(30.0, 10 * self.baseline.seconds)
        if workers > 1 and len(self.tried) > 1:
            outcomes = _run_processes(self, limit, workers, progress, moves)
        else:
            runner = MutantRunner(self.suite, self.mutants, self.baseline, limit, self.listed(), moves)
            outcomes = {}
            for m in self.tried:
                outcomes[m.index] = runner.evaluate(m)
                if progress is not None:
                    progress(1)
        return MutationReport(self.suite, self.tried, len(self.mutants), outcomes, self.baseline, self.equivalents,
                              self.baseline.seconds + time.perf_counter() - start)


def plan_mutations(paths: Sequence[str | Path], *, max_mutants: int | None = None, seed: int = 1) -> MutationPlan:
    """Read the scenarios under ``paths`` and the rule files they play, play the suite as written, list the mutants."""
    suite = load_suite(paths)
    if not suite.scenarios:
        raise UsageError("no scenario files found")
    equivalents = load_equivalents(paths)
    places = Places()
    baseline = run_baseline(suite, places)
    everything = enumerate_mutants((suite.docs[f] for f in suite.files), places)
    return MutationPlan([str(p) for p in paths], suite, equivalents, baseline, everything,
                        sample(everything, max_mutants, seed))


def mutation_test(paths: Sequence[str | Path], *, workers: int = 1, max_mutants: int | None = None, seed: int = 1,
                  timeout: float | None = None, moves: int = EQUIVALENT_MOVES) -> MutationReport:
    """Mutation-test the rule files the scenarios under ``paths`` play."""
    return plan_mutations(paths, max_mutants=max_mutants, seed=seed).run(workers=workers, timeout=timeout,
                                                                         moves=moves)


# --------------------------------------------------------------------------- worker processes
_RUNNER: MutantRunner | None = None


def _init_worker(paths: Sequence[str], baseline: Baseline, timeout: float, mutants: list[Mutant],
                 listed: frozenset[int], moves: int) -> None:
    """Each worker reads the same files and is given the mutants (listing them needs every group built)."""
    global _RUNNER
    suite = load_suite(paths)
    _RUNNER = MutantRunner(suite, mutants, baseline, timeout, listed, moves)


def _evaluate_in_worker(index: int, describe: str) -> Outcome:
    assert _RUNNER is not None
    m = _RUNNER.mutants[index]
    if m.describe() != describe:
        raise RulecraftError(f"a worker's mutant {index} is '{m.describe()}', not '{describe}'")
    return _RUNNER.evaluate(m)


def _run_processes(plan: MutationPlan, timeout: float, workers: int,
                   progress: Callable[[int], None] | None, moves: int) -> dict[int, Outcome]:
    from concurrent.futures import as_completed

    from rulecraft.runs.pool import local_workers, worker_pool

    args = (plan.paths, plan.baseline, timeout, plan.mutants, plan.listed(), moves)
    outcomes: dict[int, Outcome] = {}
    with worker_pool(local_workers(workers, len(plan.tried)), _init_worker, args) as pool:
        futures = [pool.submit(_evaluate_in_worker, m.index, m.describe()) for m in plan.tried]
        for fut in as_completed(futures):
            out = fut.result()
            outcomes[out.index] = out
            if progress is not None:
                progress(1)
    return outcomes
