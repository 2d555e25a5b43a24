"""Runs of n-of-a-kind groups, kickers and wild pieces: the general reading of ``same`` and ``run``.

A ``same`` or ``run`` combination is read here, rather than by the plain loops of ``combos``, when
it asks for any of:

- ``each: n`` (a run): n pieces of every value of the run, not one — consecutive pairs (``each: 2``,
  ``min: 3``: 33 44 55), consecutive triples (an airplane: ``each: 3, min: 2``);
- ``order``: the value a piece has in the run's order given by an expression of ``piece`` (read at
  each decision, so the order may change from hand to hand: a trump suit, a rank turned round),
  instead of an attribute (``by``); a piece whose value is ``none`` takes part in no run;
- ``kickers``: extra groups played with the main part (``size`` pieces sharing a value of
  ``kickers.by``, ``count`` of them and ``per_value`` more for each value of the main part), each of
  a value the main part does not have, and with ``distinct: false`` free to share a value with each
  other (four of a kind with a pair as its two single kickers, 4444+55);
- ``wild``: pieces for which an expression of ``piece`` holds stand for any value the main part
  lacks (never as kickers), and always at least one piece of the main part is a natural one.

The main part's values are consecutive whole numbers for a run; ``top`` is the highest, ``bottom``
the lowest (the shared value for ``same``). A set of pieces that can be read as a run in several
ways — a wild piece at either end, 333 444 555 666 read with either end's triple as kickers — gives
one play per reading; the phase chooses among them (``Climb``: the strongest).

This module knows nothing of plays or of expressions: ``combos`` hands it each piece's value and
says which pieces are wild, and makes the plays from the piece sets it returns.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

# A reading: (main pieces, kicker pieces, top value, bottom value, group value)
Reading = tuple[tuple[int, ...], tuple[int, ...], Any, Any, Any]


@dataclass(frozen=True, slots=True)
class Kickers:
    """The extra groups a combination carries: ``size`` pieces sharing a value of ``by`` per group,
    ``count`` groups plus ``per_value`` for each value of the main part; ``distinct``: whether the
    groups must have different values from each other."""

    size: int
    count: int
    per_value: int
    distinct: bool
    by: str

    def units(self, length: int) -> int:
        """How many kicker groups a main part of ``length`` values carries."""
        return self.count + self.per_value * length


@dataclass(frozen=True, slots=True)
class Shape:
    """The main part of a combination: ``lengths`` (values in a run; 1 for ``same``), each with
    ``each`` pieces (one of ``eachs`` for ``same``), consecutive or not."""

    eachs: tuple[int, ...]
    lengths: tuple[int, ...]
    consecutive: bool
    kickers: Kickers | None
    # (pieces, length, each) for every size a play can have, shortest main part first: made once
    sizes: tuple[tuple[int, int, int], ...] = field(init=False, default=())

    def __post_init__(self) -> None:
        ks = self.kickers
        object.__setattr__(self, "sizes", tuple(sorted(
            {(length * each + (ks.units(length) * ks.size if ks is not None else 0), length, each)
             for each in self.eachs for length in self.lengths}, key=lambda x: (x[1], x[2], x[0]))))

    def may_have(self, size: int) -> bool:
        return any(n == size for n, _, _ in self.sizes)


def readings(shape: Shape, hand: Sequence[int], type_of: Sequence[int], value_of: Callable[[int], Any],
             group_of: Callable[[int], Any] | None, kicker_of: Callable[[int], Any] | None,
             wild: Sequence[int], domain: Callable[[Any], Sequence[Any]] | None,
             size: int | None) -> Iterator[Reading]:
    """Every way ``hand`` makes the combination (pieces of one type counted once: the lowest copies).

    ``value_of(p)``: the piece's value in the main part's order (None: none); ``group_of``: its group
    (a run's ``within``); ``kicker_of``: its value as a kicker; ``wild``: the hand's wild pieces;
    ``domain(group)``: every value a wild piece may stand for in that group (when there are wilds).
    """
    wilds = sorted(wild)
    wild_set = set(wild)
    groups: dict[Any, dict[Any, list[int]]] = {}
    for p in hand:
        if p in wild_set:
            continue
        v = value_of(p)
        if v is None:
            continue
        g = group_of(p) if group_of is not None else None
        if group_of is not None and g is None:
            continue
        groups.setdefault(g, {}).setdefault(v, []).append(p)
    sizes = shape.sizes if size is None else tuple(x for x in shape.sizes if x[0] == size)
    for g, by_value in groups.items():
        values = _values(shape, by_value, wilds, domain(g) if wilds and domain is not None else None)
        for _n, length, each in sizes:
            if length > len(by_value) + (len(wilds) // each if shape.consecutive else 0):
                break  # (more values than the hand has, even with its wild pieces; the sizes go on longer)
            for window in _windows(shape, values, by_value, length, bool(wilds)):
                for main, top, low in _mains(window, by_value, each, wilds, type_of):
                    if shape.kickers is None:
                        yield main, (), top, low, g
                        continue
                    left = [w for w in wilds if w not in main]
                    for kick in _kickers(shape.kickers, length, hand, main, wild_set, left, type_of, kicker_of):
                        yield main, kick, top, low, g


def _values(shape: Shape, by_value: dict[Any, list[int]], wilds: list[int], domain: Sequence[Any] | None) -> list[Any]:
    """The values a main part may take, in order: the hand's (for a run, whole numbers, and with wild
    pieces every value of the domain too)."""
    if not shape.consecutive:
        return sorted(by_value, key=_order_key)
    present = sorted(v for v in by_value if _whole(v))
    return sorted({*present, *(v for v in domain or () if _whole(v))}) if wilds else present


def _windows(shape: Shape, values: list[Any], by_value: dict[Any, list[int]], length: int,
             wild: bool) -> Iterator[list[Any]]:
    """The lists of values a main part of ``length`` values may take."""
    if not shape.consecutive:  # one value, at least one natural piece of it
        for v in values:
            yield [v]
        return
    for i in range(len(values) - length + 1):
        window = values[i:i + length]
        if window[-1] - window[0] != length - 1:
            continue  # not consecutive
        if wild and not any(v in by_value for v in window):
            continue  # (wilds alone are no run)
        yield window


def _mains(values: list[Any], by_value: dict[Any, list[int]], each: int, wilds: list[int],
           type_of: Sequence[int]) -> Iterator[tuple[tuple[int, ...], Any, Any]]:
    """(pieces, top, bottom) for each way of taking ``each`` pieces of every value, wild pieces
    standing in for some of them."""
    if not wilds:  # (the common case: every value's pieces from the hand, or no play)
        groups = [by_value.get(v, []) for v in values]
        if any(len(g) < each for g in groups):
            return
        for parts in itertools.product(*(list(_distinct(g, each, type_of)) for g in groups)):
            yield tuple(sorted(p for part in parts for p in part)), values[-1], values[0]
        return
    haves = [len(by_value.get(v, ())) for v in values]

    # How many natural pieces of each value, the wild pieces making up the rest: most naturals first,
    # never more wild pieces than the hand holds. (The recursion goes through an argument: a closure
    # naming itself would be a reference cycle.)
    def counts_of(i: int, budget: int, acc: tuple[int, ...], rec: Any) -> Iterator[tuple[int, ...]]:
        if i == len(values):
            yield acc
            return
        for c in range(min(haves[i], each), max(0, each - budget) - 1, -1):
            yield from rec(i + 1, budget - (each - c), (*acc, c), rec)

    for counts in counts_of(0, len(wilds), (), counts_of):
        if sum(counts) == 0:
            continue  # (wild pieces alone make nothing)
        need = each * len(values) - sum(counts)
        choices = [list(_distinct(by_value.get(v, []), c, type_of)) for v, c in zip(values, counts, strict=True)]
        choices.append(list(_distinct(wilds, need, type_of)))
        for parts in itertools.product(*choices):
            yield tuple(sorted(p for part in parts for p in part)), values[-1], values[0]


def _kickers(ks: Kickers, length: int, hand: Sequence[int], main: tuple[int, ...], wild: set[int],
             wilds_left: list[int], type_of: Sequence[int],
             kicker_of: Callable[[int], Any] | None) -> Iterator[tuple[int, ...]]:
    """Each way of taking the kicker groups from what the main part leaves. A wild piece the main part
    did not use may complete a group of two or more (a pair of 6s made of a 6 and the wild); every
    group has a natural piece."""
    assert kicker_of is not None
    used = set(main)
    taken = {kicker_of(p) for p in main if p not in wild}
    pool: dict[Any, list[int]] = {}
    for p in hand:
        if p in used or p in wild:
            continue
        v = kicker_of(p)
        if v is None or v in taken:
            continue
        pool.setdefault(v, []).append(p)
    units = ks.units(length)
    values = sorted(pool, key=_order_key)
    picks: Iterator[tuple[Any, ...]] = (itertools.combinations(values, units) if ks.distinct
                                       else itertools.combinations_with_replacement(values, units))
    w = len(wilds_left) if ks.size > 1 else 0
    for pick in picks:
        groups: dict[Any, int] = {}
        for v in pick:
            groups[v] = groups.get(v, 0) + 1
        # For each value, how many natural pieces: at most what it needs, at least one a group, and
        # what the wild pieces cannot make up.
        ranges = [range(min(len(pool[v]), n * ks.size), max(n, n * ks.size - w) - 1, -1) for v, n in groups.items()]
        for naturals in itertools.product(*ranges):
            filled = sum(n * ks.size - c for (_v, n), c in zip(groups.items(), naturals, strict=True))
            if filled > w:
                continue
            choices = [list(_distinct(pool[v], c, type_of)) for v, c in zip(groups, naturals, strict=True)]
            choices.append(list(_distinct(wilds_left, filled, type_of)))
            for parts in itertools.product(*choices):
                yield tuple(sorted(p for part in parts for p in part))


def _distinct(members: list[int], n: int, type_of: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """Every distinct set of ``n`` of ``members`` (identical copies counted once: the lowest copies)."""
    by_type: dict[int, list[int]] = {}
    for p in sorted(members):
        by_type.setdefault(type_of[p], []).append(p)
    if all(len(ps) == 1 for ps in by_type.values()):
        yield from itertools.combinations(sorted(members), n)
        return
    kinds = list(by_type.values())

    # The recursion goes through an argument: a closure naming itself would be a reference cycle.
    def rec(i: int, left: int, acc: tuple[int, ...], rec: Any) -> Iterator[tuple[int, ...]]:
        if left == 0:
            yield acc
            return
        if i == len(kinds):
            return
        for k in range(min(left, len(kinds[i])), -1, -1):
            yield from rec(i + 1, left - k, acc + tuple(kinds[i][:k]), rec)

    yield from rec(0, n, (), rec)


def _whole(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and float(v).is_integer()


def _order_key(v: Any) -> tuple[int, Any]:
    """Values of mixed types sort by type first (numbers before text), so the order is fixed."""
    return (0, v) if isinstance(v, (int, float)) and not isinstance(v, bool) else (1, repr(v))


__all__ = ["Kickers", "Reading", "Shape", "readings"]
