"""Combinations: which pieces may be played together, and how plays compare.

Kinds (all general; a ruleset lists the ones it uses under ``combinations``):

- ``single``: one piece.
- ``same``: n pieces sharing the value of an attribute (``by: rank``, ``sizes: [3, 4]``).
- ``run``: consecutive values of an attribute within a group (``by: rank``, ``within: suit``,
  ``min: 3``), one piece per value.
- ``fixed``: exactly the listed piece types (``pieces: [coins-1, ...]``).
- ``table``: listed entries, each a list of piece types where an item may be a list of
  alternatives; entries carry their own ``class`` and ``strength``.
- ``groups``: groups each sharing a value of an attribute, of the sizes ``shape`` gives (``[3, 2]``:
  a full house); see ``combo_groups``.

Every play of a combination gets a *class* (plays are comparable only within a class) and a
*strength* (higher beats lower; ties go to the earlier play), both expressions evaluated in the
trick round where the play is made (so "stronger when led" is expressible).
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rulecraft.dsl import CompiledExpr
from rulecraft.engine.combo_groups import group_plays
from rulecraft.errors import SourcePos

if TYPE_CHECKING:
    from rulecraft.engine.moves import Move
    from rulecraft.engine.pieces import PieceTable

KINDS = ("single", "same", "run", "fixed", "table", "groups")


@dataclass(frozen=True, slots=True)
class TableEntry:
    id: str
    pattern: tuple[tuple[int, ...], ...]  # per position: allowed piece type indices
    cls: Any
    strength: float
    # When every position allows one type: per position (type, which copy of it in the hand), the
    # one way a hand can make the entry (what _pick_types finds); None when a position has alternatives.
    picks: tuple[tuple[int, int], ...] | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        if all(len(alts) == 1 for alts in self.pattern):
            seen: dict[int, int] = {}
            picks = []
            for (t,) in self.pattern:
                picks.append((t, seen.get(t, 0)))
                seen[t] = seen.get(t, 0) + 1
            object.__setattr__(self, "picks", tuple(picks))


@dataclass(frozen=True, slots=True)
class ComboSpec:
    id: str
    kind: str
    sizes: tuple[int, ...]  # how many pieces its plays have (same, fixed, table)
    by: str | None
    within: str | None
    min_len: int
    max_len: int
    fixed: tuple[int, ...]  # piece type indices (with repeats)
    entries: tuple[TableEntry, ...]
    cls: CompiledExpr | None
    strength: CompiledExpr | None
    value: CompiledExpr | None
    ends_play: bool
    description: str
    pos: SourcePos
    # kind single: each piece's play, made once (indexed by piece), so a trick game's hot path
    # (one play per piece in hand, at every decision) builds no objects.
    singles: tuple[Play, ...] = ()
    # kind table: piece type -> indices of the entries whose first position allows it.
    entries_starting_with: dict[int, tuple[int, ...]] = field(default_factory=dict)
    # Every play of the other kinds made so far, by its pieces (and table entry): a play's values
    # follow from its pieces, so it is made once per ruleset and keeps its move (``Play.move``).
    made: dict[Any, Play] = field(default_factory=dict)
    shape: tuple[int, ...] = ()  # kind groups: the size of each group


@dataclass(slots=True, eq=False)
class Play:
    """A candidate or actual play: which combination, which pieces, and its descriptive values.

    Compared by identity: a decision's candidates are distinct objects, and a single's play is one
    shared object per piece (``ComboSpec.singles``), never changed once made.
    """

    combo: str | None  # None: a face-down play
    pieces: tuple[int, ...]
    face_up: bool = True
    key: Any = None  # same: the shared value; run: the top value
    low: Any = None  # run: the bottom value
    group: Any = None  # run: the shared group value
    entry: str | None = None
    entry_cls: Any = None
    entry_strength: float = 0.0
    move: Move | None = None  # the move that makes this play, once known


def _type_key(pieces: PieceTable, ps: Iterable[int]) -> tuple[int, ...]:
    return tuple(sorted(pieces.type_of[p] for p in ps))


def enumerate_plays(spec: ComboSpec, hand: Sequence[int], pieces: PieceTable, size: int | None = None) -> list[Play]:
    """Every distinct play of this combination from ``hand`` (identical copies counted once)."""
    if spec.kind == "single" and not pieces.has_copies:
        # The hot path of every trick game: no identical copies, so one made play per piece.
        made = spec.singles
        return [made[p] for p in hand] if size in (None, 1) else []
    if size is not None and ((spec.kind in ("same", "fixed", "table") and size not in spec.sizes)
                             or (spec.kind == "run" and not spec.min_len <= size <= spec.max_len)):
        return []  # no play of this combination has that many pieces
    out: list[Play] = []
    seen: set[tuple[int, ...]] = set()
    interned = spec.made
    # Sets of a kind and runs are distinct sets of pieces by construction; only identical copies
    # (or a table's patterns, which may list the same pieces twice) can repeat a play.
    dedupe = pieces.has_copies or spec.kind in ("fixed", "table")

    def add(ps: tuple[int, ...], slot: int = -1, **kw: Any) -> None:
        if size is not None and len(ps) != size:
            return
        if dedupe:  # one play per distinct set of piece types
            k = _type_key(pieces, ps)
            if k in seen:
                return
            seen.add(k)
        play = interned.get((slot, ps))
        if play is None:
            play = interned[(slot, ps)] = Play(spec.id, ps, True, **kw)
        out.append(play)

    if spec.kind == "single":
        if size in (None, 1):
            made = spec.singles
            type_of = pieces.type_of
            for p in hand:  # one play per distinct piece type
                t = type_of[p]
                if (t,) not in seen:
                    seen.add((t,))
                    out.append(made[p])
    elif spec.kind == "same":
        col = pieces.columns.get(spec.by or "", [])
        groups: dict[Any, list[int]] = defaultdict(list)
        for p in hand:
            if col[p] is not None:
                groups[col[p]].append(p)
        for value, members in groups.items():
            for n in spec.sizes:
                if (size is None or n == size) and len(members) >= n:
                    for ps in itertools.combinations(members, n):
                        add(tuple(ps), key=value)
    elif spec.kind == "run":
        col = pieces.columns.get(spec.by or "", [])
        gcol = pieces.columns.get(spec.within or "", []) if spec.within else None
        groups2: dict[Any, dict[Any, list[int]]] = defaultdict(lambda: defaultdict(list))
        for p in hand:
            g = gcol[p] if gcol is not None else None
            if col[p] is None or (gcol is not None and g is None):
                continue
            groups2[g][col[p]].append(p)
        for g, by_value in groups2.items():
            values = sorted(by_value)
            # Maximal stretches of consecutive values, then every sub-run of allowed length.
            start = 0
            for i in range(1, len(values) + 1):
                if i == len(values) or values[i] != values[i - 1] + 1:
                    stretch = values[start:i]
                    for length in range(spec.min_len, min(spec.max_len, len(stretch)) + 1):
                        if size is not None and length != size:
                            continue
                        for j in range(len(stretch) - length + 1):
                            run_values = stretch[j : j + length]
                            for ps in itertools.product(*(by_value[v] for v in run_values)):
                                add(tuple(ps), key=run_values[-1], low=run_values[0], group=g)
                    start = i
    elif spec.kind == "fixed":
        for ps in _pick_types(_by_type(hand, pieces), [(t,) for t in spec.fixed]):
            add(ps)
    elif spec.kind == "groups":
        if size is None or size == sum(spec.shape):
            for ps, top, low in group_plays(spec.by or "", spec.shape, hand, pieces):
                add(ps, key=top, low=low)
    elif spec.kind == "table":
        by_type = _by_type(hand, pieces)  # once for all entries: a table may list dozens
        # Only entries whose first piece the hand holds, in the table's order.
        starts = spec.entries_starting_with
        for i in sorted({i for t in by_type for i in starts.get(t, ())}):
            entry = spec.entries[i]
            if size is not None and len(entry.pattern) != size:
                continue
            picks = entry.picks
            if picks is None:
                found = _pick_types(by_type, entry.pattern)
            else:  # one type per position: the hand makes it in one way, or none
                got = []
                for t, n in picks:
                    group = by_type.get(t)
                    if group is None or len(group) <= n:
                        break
                    got.append(group[n])
                else:
                    add(tuple(got), i, entry=entry.id, entry_cls=entry.cls, entry_strength=entry.strength)
                continue
            for ps in found:
                add(ps, i, entry=entry.id, entry_cls=entry.cls, entry_strength=entry.strength)
    return out


def _by_type(hand: Sequence[int], pieces: PieceTable) -> dict[int, list[int]]:
    """The pieces of ``hand`` grouped by type."""
    by_type: dict[int, list[int]] = {}
    type_of = pieces.type_of
    for p in hand:
        t = type_of[p]
        group = by_type.get(t)
        if group is None:
            by_type[t] = [p]
        else:
            group.append(p)
    return by_type


def _pick_types(by_type: dict[int, list[int]], pattern: Sequence[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """Ways to take one piece per pattern position (each position: allowed types) from a hand grouped by type."""
    # Most entries need a type the hand lacks: check every position has one before searching.
    for alternatives in pattern:
        if not any(t in by_type for t in alternatives):
            return []
    results: list[tuple[int, ...]] = []

    def rec(i: int, used: dict[int, int], acc: list[int]) -> None:
        if i == len(pattern):
            results.append(tuple(acc))
            return
        for t in pattern[i]:
            n = used.get(t, 0)
            avail = by_type.get(t)
            if avail and n < len(avail):
                used[t] = n + 1
                acc.append(avail[n])
                rec(i + 1, used, acc)
                acc.pop()
                used[t] = n

    rec(0, {}, [])
    return results


class FaceDownPlays:
    """Every distinct set of ``size`` pieces of a hand, face down; each play made once per ruleset.

    A game that allows discarding face down offers every such set at every decision; keeping the
    plays (and, through ``Play.move``, their moves) spares rebuilding them each time. There are at
    most C(pieces, size) of them.
    """

    __slots__ = ("_made", "_pieces")

    def __init__(self, pieces: PieceTable) -> None:
        self._pieces = pieces
        self._made: dict[tuple[int, ...], Play] = {}

    def from_hand(self, hand: Sequence[int], size: int) -> list[Play]:
        return self.plays(self.sets(hand, size))

    def plays(self, sets: Iterable[tuple[int, ...]]) -> list[Play]:
        """The face-down plays of these sets of pieces (each sorted), made once."""
        made = self._made
        out = []
        for ps in sets:
            play = made.get(ps)
            if play is None:
                play = made[ps] = Play(None, ps, False)
            out.append(play)
        return out

    def sets(self, hand: Sequence[int], size: int) -> list[tuple[int, ...]]:
        """The distinct sets of ``size`` pieces of ``hand``, in order: the plays ``from_hand`` makes."""
        type_of = self._pieces.type_of
        ordered = sorted(hand)
        if len({type_of[p] for p in ordered}) == len(ordered):  # no identical copies: nothing to merge
            return list(itertools.combinations(ordered, size))
        return _distinct_sets(ordered, type_of, size)

    def play(self, ps: tuple[int, ...]) -> Play:
        """The face-down play of these pieces (sorted), made once."""
        play = self._made.get(ps)
        if play is None:
            play = self._made[ps] = Play(None, ps, False)
        return play


def _distinct_sets(ordered: list[int], type_of: list[int], size: int) -> list[tuple[int, ...]]:
    """Every distinct set of ``size`` pieces of ``ordered`` (sorted), identical copies counted once.

    The same sets, in the same order, as keeping the first of each set of types in
    ``itertools.combinations(ordered, size)``: the first of them takes the lowest pieces of each type,
    so only those are generated (a piece may be taken only after the copy of its type just below it).
    """
    n = len(ordered)
    below = []  # the position of the copy of the same type just below, or -1
    last: dict[int, int] = {}
    for i, p in enumerate(ordered):
        t = type_of[p]
        below.append(last.get(t, -1))
        last[t] = i
    taken = bytearray(n)
    acc: list[int] = []
    out: list[tuple[int, ...]] = []

    def rec(start: int, k: int) -> None:
        for i in range(start, n - k + 1):
            j = below[i]
            if j >= 0 and not taken[j]:
                continue
            acc.append(ordered[i])
            if k == 1:
                out.append(tuple(acc))
            else:
                taken[i] = 1
                rec(i + 1, k - 1)
                taken[i] = 0
            acc.pop()

    if 0 < size <= n:
        rec(0, size)
    elif size == 0:
        out.append(())
    return out
