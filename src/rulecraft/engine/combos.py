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

A ``same`` or ``run`` may also ask for runs of n-of-a-kind groups (``each``), an order given by an
expression (``order``), kickers and wild pieces: those are read by ``combo_chains``. Any combination
may say when a set of pieces is one of its plays after all (``where``, a condition on the play) and,
in a climbing round, which plays of other classes it beats (``beats``).

Every play of a combination gets a *class* (plays are comparable only within a class) and a
*strength* (higher beats lower; ties go to the earlier play), both expressions evaluated in the
trick round where the play is made (so "stronger when led" is expressible).
"""

from __future__ import annotations

import itertools
import math
import weakref
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rulecraft.dsl import CompiledExpr
from rulecraft.engine.combo_chains import Shape, readings
from rulecraft.engine.combo_groups import group_plays
from rulecraft.errors import SourcePos

if TYPE_CHECKING:
    from rulecraft.engine.moves import Move
    from rulecraft.engine.pieces import PieceTable

KINDS = ("single", "same", "run", "fixed", "table", "groups")
NOT_KNOWN: Any = object()  # Play.known_cls / known_strength not worked out (yet)


@dataclass(frozen=True, slots=True)
class TableEntry:
    id: str
    pattern: tuple[tuple[int, ...], ...]  # per position: allowed piece type indices
    cls: Any
    strength: float
    # When every position allows one type: per position (type, which copy of it in the hand), the
    # one way a hand can make the entry (what _pick_types finds); None when a position has alternatives.
    picks: tuple[tuple[int, int], ...] | None = field(init=False, default=None)
    types: tuple[int, ...] = field(init=False, default=())  # with picks: the play's types, sorted (its key)
    # What a hand must hold for the entry, as bit masks of piece types (bit t: type t), a test that
    # costs two operations: each type every way of making it needs at least once, and at least twice.
    need1: int = field(init=False, default=0)
    need2: int = field(init=False, default=0)

    # When positions have alternatives (and not too many): each way of choosing one type per position,
    # in the order _pick_types tries them, as (picks, types, need1, need2) like the fields above.
    ways: tuple[tuple[tuple[tuple[int, int], ...], tuple[int, ...], int, int], ...] | None = \
        field(init=False, default=None)

    def __post_init__(self) -> None:
        need1, need2 = _needs(self.pattern)
        object.__setattr__(self, "need1", need1)
        object.__setattr__(self, "need2", need2)
        if all(len(alts) == 1 for alts in self.pattern):
            object.__setattr__(self, "picks", _picks(tuple(t for (t,) in self.pattern)))
            object.__setattr__(self, "types", tuple(sorted(t for (t,) in self.pattern)))
        elif math.prod(len(alts) for alts in self.pattern) <= MAX_WAYS:
            object.__setattr__(self, "ways", tuple(
                (_picks(choice), tuple(sorted(choice)), *_needs(tuple((t,) for t in choice)))
                for choice in itertools.product(*self.pattern)))


MAX_WAYS = 64  # an entry with more ways of choosing its alternatives is searched (_pick_types) instead


def _picks(types: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """Per position (type, which copy of it in the hand): the one way a hand can take these types, in
    order, each position the next copy of its type not taken yet (what _pick_types takes)."""
    seen: dict[int, int] = {}
    picks = []
    for t in types:
        picks.append((t, seen.get(t, 0)))
        seen[t] = seen.get(t, 0) + 1
    return tuple(picks)


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
    # Every play of the other kinds made so far, by its pieces (and table entry): a play's values
    # follow from its pieces, so it is made once per ruleset and keeps its move (``Play.move``).
    made: dict[Any, Play] = field(default_factory=dict)
    shape: tuple[int, ...] = ()  # kind groups: the size of each group
    # kind table: size (None: any) -> the indices of the entries of that size, made on first use (a
    # follow asks only for the led size).
    of_size: dict[int | None, tuple[int, ...]] = field(default_factory=dict)
    # kind fixed: what a hand must hold, as TableEntry.need1 and need2 (bit masks of piece types)
    fixed_need: tuple[int, int] = field(init=False, default=(0, 0))
    fixed_picks: tuple[tuple[int, int], ...] = field(init=False, default=())  # kind fixed: as TableEntry.picks
    # kind run, made on first use (``_run_bits``): per piece, one bit for its group and value, so that
    # a hand with no run of the length asked is turned away by a few shifts; [] until made, [-1] when
    # the values are not small whole numbers.
    run_bits: list[int] = field(default_factory=list)
    # The general reading (combo_chains): a run of n-of-a-kind groups, kickers, wild pieces, an order by
    # expression. None: the plain loops below read the combination.
    chain: Shape | None = None
    order: CompiledExpr | None = None  # a piece's value in the order (an expression of `piece`), instead of `by`
    wild: CompiledExpr | None = None  # whether a piece is wild (an expression of `piece`)
    where: CompiledExpr | None = None  # whether a set of pieces is a play of this combination after all
    beats: CompiledExpr | None = None  # climbing: whether a play beats a play of another class

    def __post_init__(self) -> None:
        if self.fixed:
            object.__setattr__(self, "fixed_need", _needs(tuple((t,) for t in self.fixed)))
            object.__setattr__(self, "fixed_picks", _picks(self.fixed))


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
    kickers: tuple[int, ...] = ()  # the pieces played as kickers (the last of ``pieces``)
    size: int = field(init=False)  # len(pieces), kept: restrictions ask it of every candidate ('size')
    # The play's class and strength once worked out, when its combination's expression for it depends on
    # the play alone (``Tricks`` decides which); NOT_KNOWN until then. Every phase that rates the play
    # rates it with the same expression, so it is kept on the play. Not init fields: a copy with other
    # pieces (``dataclasses.replace``, as determinization remaps hidden pieces) works them out again.
    known_cls: Any = field(default=NOT_KNOWN, init=False, repr=False)
    known_strength: Any = field(default=NOT_KNOWN, init=False, repr=False)

    def __post_init__(self) -> None:
        self.size = len(self.pieces)


def _needs(pattern: tuple[tuple[int, ...], ...]) -> tuple[int, int]:
    """What every way of making ``pattern`` needs, as bit masks of piece types (bit t: type t): the types
    a position allows alone, at least once and at least twice (a position with alternatives needs none)."""
    counts: dict[int, int] = {}
    for alts in pattern:
        if len(alts) == 1:
            counts[alts[0]] = counts.get(alts[0], 0) + 1
    return sum(1 << t for t in counts), sum(1 << t for t, n in counts.items() if n > 1)


def _type_key(pieces: PieceTable, ps: Iterable[int]) -> tuple[int, ...]:
    return tuple(sorted(pieces.type_of[p] for p in ps))


def may_have(spec: ComboSpec, size: int | None) -> bool:
    """Whether some play of this combination can have ``size`` pieces (None: any size)."""
    if size is None:
        return True
    if spec.chain is not None:
        return spec.chain.may_have(size)
    kind = spec.kind
    if kind == "single":
        return size == 1
    if kind in ("same", "fixed", "table"):
        return size in spec.sizes
    if kind == "run":
        return spec.min_len <= size <= spec.max_len
    return size == sum(spec.shape)  # groups


def enumerate_all(specs: Sequence[ComboSpec], hand: Sequence[int], pieces: PieceTable,
                  size: int | None = None, ctx: Any = None) -> list[Play]:
    """``enumerate_plays`` of each combination in turn, the hand grouped by type once for all of them.

    ``ctx``: the evaluation context (its ``seat`` the seat whose hand it is), needed by a combination
    with an ``order``, a ``wild`` or a ``where`` (``needs_context``)."""
    out: list[Play] = []
    by_type: dict[int, list[int]] | None = None
    held: tuple[int, int] | None = None
    copies = pieces.has_copies
    for spec in specs:
        if not may_have(spec, size):
            continue
        kind = spec.kind
        if kind == "fixed" or kind == "table":
            if held is None:
                held = _held_of(hand, pieces.type_of)
            if kind == "fixed" and spec.chain is None:
                # A hand that lacks one of its pieces makes none (most hands, most leads): said by the masks,
                # before the hand is grouped by type.
                need1, need2 = spec.fixed_need
                if need1 & held[0] != need1 or need2 & held[1] != need2:
                    continue
            if by_type is None:
                by_type = _by_type(hand, pieces)
        if spec.chain is not None or spec.where is not None:
            out += _enumerate_general(spec, hand, pieces, size, ctx)
        else:
            out += _enumerate(spec, hand, pieces, size, by_type, copies, held)
    return out


def needs_context(spec: ComboSpec) -> bool:
    """Whether enumerating the combination's plays evaluates expressions (then it needs ``ctx``)."""
    return spec.order is not None or spec.wild is not None or spec.where is not None


def _enumerate_general(spec: ComboSpec, hand: Sequence[int], pieces: PieceTable, size: int | None,
                       ctx: Any) -> list[Play]:
    """The plays of a combination read by ``combo_chains`` (or kept by its ``where``)."""
    if needs_context(spec) and ctx is None:
        raise RuntimeError(f"combination '{spec.id}' reads the game: its plays are enumerated with a context")
    if spec.chain is None:
        plays = _enumerate(spec, hand, pieces, size, None, pieces.has_copies)
    else:
        plays = _chain_plays(spec, hand, pieces, size, ctx)
    if spec.where is None:
        return plays
    saved = ctx.combo
    kept = []
    try:
        for play in plays:
            ctx.combo = play
            if spec.where(ctx):
                kept.append(play)
    finally:
        ctx.combo = saved
    return kept


def _chain_plays(spec: ComboSpec, hand: Sequence[int], pieces: PieceTable, size: int | None,
                 ctx: Any) -> list[Play]:
    """The plays of a run of groups, with kickers or wild pieces (``combo_chains``), made once each."""
    assert spec.chain is not None
    value_of = _piece_reader(spec.order, ctx) if spec.order is not None else _column(pieces, spec.by)
    wild = [p for p in hand if spec.wild(_bound(ctx, p))] if spec.wild is not None else []
    domain = None
    if wild:
        gcol = pieces.columns.get(spec.within or "") if spec.within else None
        all_values: dict[Any, set[Any]] = {}
        for p in range(pieces.count):  # every value a wild piece may stand for, per group
            v = value_of(p)
            if v is not None and p not in wild:
                all_values.setdefault(gcol[p] if gcol is not None else None, set()).add(v)

        def domain_of(g: Any) -> list[Any]:
            return sorted(all_values.get(g, ()))
        domain = domain_of
    ks = spec.chain.kickers
    kicker_of = _column(pieces, ks.by) if ks is not None else None
    group_of = _column(pieces, spec.within) if spec.within else None
    interned = spec.made
    out: list[Play] = []
    seen: set[tuple[Any, ...]] = set()
    for main, kick, top, low, g in readings(spec.chain, hand, pieces.type_of, value_of, group_of, kicker_of,
                                           wild, domain, size):
        ps = main + kick
        key = (-2, ps, top, low)
        if key in seen:
            continue
        seen.add(key)
        play = interned.get(key)
        if play is None:
            play = interned[key] = Play(spec.id, ps, True, key=top, low=low, group=g, kickers=kick)
        out.append(play)
    if ctx is not None:
        _unbind(ctx)
    return out


def _column(pieces: PieceTable, attr: str | None) -> Any:
    col = pieces.columns.get(attr or "", [])
    return col.__getitem__ if col else (lambda p: None)


def _bound(ctx: Any, p: int) -> Any:
    """``ctx`` with ``piece`` bound to ``p`` (an ``order`` or ``wild`` expression reads ``ctx.piece``)."""
    ctx.piece = p
    return ctx


def _unbind(ctx: Any) -> None:
    ctx.piece = None


def _piece_reader(expr: CompiledExpr, ctx: Any) -> Any:
    """A piece's value in an order given by an expression (worked out once per piece per call)."""
    memo: dict[int, Any] = {}

    def value_of(p: int) -> Any:
        v = memo.get(p, memo)
        if v is memo:
            v = memo[p] = expr(_bound(ctx, p))
        return v
    return value_of


def _held_of(hand: Sequence[int], type_of: Sequence[int]) -> tuple[int, int]:
    """``_held(_by_type(hand, pieces))``, from the hand itself."""
    once = twice = 0
    for p in hand:
        bit = 1 << type_of[p]
        twice |= once & bit
        once |= bit
    return once, twice


def _held(by_type: dict[int, list[int]]) -> tuple[int, int]:
    """Bit masks of the piece types a hand holds (bit t: type t), at least once and at least twice."""
    once = twice = 0
    for t, group in by_type.items():
        once |= 1 << t
        if len(group) > 1:
            twice |= 1 << t
    return once, twice


def single_plays(spec: ComboSpec, hand: Sequence[int], pieces: PieceTable) -> list[Play]:
    """``enumerate_plays`` of a ``single`` combination: one made play per piece, identical copies once
    (the first copy in the hand)."""
    made = spec.singles
    type_of = pieces.type_of
    if len(pieces.types) == len(type_of):
        return [made[p] for p in hand]
    first: dict[int, int] = {}
    for p in hand:
        first.setdefault(type_of[p], p)
    return [made[p] for p in first.values()]


def enumerate_plays(spec: ComboSpec, hand: Sequence[int], pieces: PieceTable, size: int | None = None,
                    by_type: dict[int, list[int]] | None = None, ctx: Any = None) -> list[Play]:
    """Every distinct play of this combination from ``hand`` (identical copies counted once).

    ``by_type``: the hand grouped by type (``_by_type``), when the caller has it already; ``ctx`` as for
    ``enumerate_all``.
    """
    if not may_have(spec, size):
        return []  # no play of this combination has that many pieces
    if spec.chain is not None or spec.where is not None:
        return _enumerate_general(spec, hand, pieces, size, ctx)
    return _enumerate(spec, hand, pieces, size, by_type, pieces.has_copies)


def _enumerate(spec: ComboSpec, hand: Sequence[int], pieces: PieceTable, size: int | None,
               by_type: dict[int, list[int]] | None, copies: bool, held: tuple[int, int] | None = None) -> list[Play]:
    """``enumerate_plays`` of a combination that can have ``size`` pieces (``_may_have``).

    ``copies``: ``pieces.has_copies``, asked once by the caller; ``held``: ``_held(by_type)``, when made."""
    kind = spec.kind
    if kind == "single":  # the hot path of every trick game: one made play per piece
        made = spec.singles
        if not copies:
            return [made[p] for p in hand]
        type_of = pieces.type_of
        types: set[int] = set()
        out: list[Play] = []
        for p in hand:  # one play per distinct piece type
            t = type_of[p]
            if t not in types:
                types.add(t)
                out.append(made[p])
        return out
    out = []
    interned = spec.made
    sid = spec.id
    # Sets of a kind and runs are distinct sets of pieces by construction; only identical copies
    # (or a table's patterns, which may list the same pieces twice) can repeat a play.
    seen: set[tuple[int, ...]] | None = set() if copies or kind in ("fixed", "table") else None
    type_of = pieces.type_of
    if kind == "same":
        col = pieces.columns.get(spec.by or "", [])
        groups: dict[Any, list[int]] = {}
        for p in hand:
            v = col[p]
            if v is not None:
                members = groups.get(v)
                if members is None:
                    groups[v] = [p]
                else:
                    members.append(p)
        sizes = spec.sizes if size is None else (size,)
        for value, members in groups.items():
            for n in sizes:
                if len(members) >= n:
                    for ps in itertools.combinations(members, n):
                        if seen is not None and not _first_of_types(seen, type_of, ps):
                            continue
                        play = interned.get((-1, ps))
                        if play is None:
                            play = interned[(-1, ps)] = Play(sid, ps, True, key=value)
                        out.append(play)
    elif kind == "run":
        lo, hi = (spec.min_len, spec.max_len) if size is None else (size, size)
        bits = spec.run_bits or _run_bits(spec, pieces)
        if bits[0] >= 0:  # (a run of lo values is lo consecutive bits of the hand's mask)
            m = 0
            for p in hand:
                m |= bits[p]
            r = m
            for i in range(1, lo):
                r &= m >> i
            if not r:
                return out
        col = pieces.columns.get(spec.by or "", [])
        gcol = pieces.columns.get(spec.within or "", []) if spec.within else None
        groups2: dict[Any, dict[Any, list[int]]] = {}
        for p in hand:
            v = col[p]
            if v is None:
                continue
            g = None
            if gcol is not None:
                g = gcol[p]
                if g is None:
                    continue
            by_value = groups2.get(g)
            if by_value is None:
                by_value = groups2[g] = {}
            members = by_value.get(v)
            if members is None:
                by_value[v] = [p]
            else:
                members.append(p)
        for g, by_value in groups2.items():
            if len(by_value) < lo:
                continue  # too few values for any run
            values = sorted(by_value)
            # Maximal stretches of consecutive values, then every sub-run of allowed length.
            start = 0
            for i in range(1, len(values) + 1):
                if i == len(values) or values[i] != values[i - 1] + 1:
                    stretch = values[start:i]
                    for length in range(lo, min(hi, len(stretch)) + 1):
                        for j in range(len(stretch) - length + 1):
                            run_values = stretch[j : j + length]
                            top, low = run_values[-1], run_values[0]
                            for ps in itertools.product(*(by_value[v] for v in run_values)):
                                if seen is not None and not _first_of_types(seen, type_of, ps):
                                    continue
                                play = interned.get((-1, ps))
                                if play is None:
                                    play = interned[(-1, ps)] = Play(sid, ps, True, key=top, low=low, group=g)
                                out.append(play)
                    start = i
    elif kind == "fixed":
        if by_type is None:
            by_type = _by_type(hand, pieces)
        once, twice = held if held is not None else _held(by_type)
        need1, need2 = spec.fixed_need
        if need1 & once != need1 or need2 & twice != need2:  # (the hand lacks one of its pieces)
            return out
        got = []  # the one way of taking its pieces, as _pick_types takes it
        for t, n in spec.fixed_picks:
            group = by_type.get(t)
            if group is None or len(group) <= n:  # (a type needed three times or more, held twice)
                return out
            got.append(group[n])
        ps = tuple(got)
        play = interned.get((-1, ps))
        if play is None:
            play = interned[(-1, ps)] = Play(sid, ps, True)
        out.append(play)
    elif kind == "groups":
        for ps, top, low in group_plays(spec.by or "", spec.shape, hand, pieces):
            if seen is not None and not _first_of_types(seen, type_of, ps):
                continue
            play = interned.get((-1, ps))
            if play is None:
                play = interned[(-1, ps)] = Play(sid, ps, True, key=top, low=low)
            out.append(play)
    elif kind == "table":
        if by_type is None:
            by_type = _by_type(hand, pieces)  # once for all entries: a table may list dozens
        # Entries of the size asked, in the table's order, that the hand may make: what each needs is
        # checked against the hand's types as bit masks before any piece is looked for.
        ids = spec.of_size.get(size)
        if ids is None:
            ids = spec.of_size[size] = tuple(i for i, e in enumerate(spec.entries)
                                             if size is None or len(e.pattern) == size)
        once, twice = held if held is not None else _held(by_type)
        entries = spec.entries
        assert seen is not None  # (tables are always deduplicated)
        for i in ids:
            entry = entries[i]
            need = entry.need1
            if need & once != need:
                continue
            need = entry.need2
            if need & twice != need:
                continue
            picks = entry.picks
            if picks is None:
                ways = entry.ways
                if ways is None:
                    for ps in _pick_types(by_type, entry.pattern):
                        if _first_of_types(seen, type_of, ps):
                            out.append(_table_play(spec, i, ps))
                    continue
                # Each way of choosing the alternatives, in _pick_types's order: as one type per position.
                for picks, key, need1, need2 in ways:
                    if need1 & once != need1 or need2 & twice != need2:
                        continue
                    got = []
                    for t, n in picks:
                        group = by_type.get(t)
                        if group is None or len(group) <= n:
                            break
                        got.append(group[n])
                    else:
                        if key not in seen:
                            seen.add(key)
                            ps = tuple(got)
                            play = interned.get((i, ps))
                            out.append(play if play is not None else _table_play(spec, i, ps))
                continue
            # One type per position: the hand makes it in one way, or none; its types are known.
            got = []
            for t, n in picks:
                group = by_type.get(t)
                if group is None or len(group) <= n:
                    break
                got.append(group[n])
            else:
                key = entry.types
                if key not in seen:
                    seen.add(key)
                    ps = tuple(got)
                    play = interned.get((i, ps))
                    out.append(play if play is not None else _table_play(spec, i, ps))
    return out


def _run_bits(spec: ComboSpec, pieces: PieceTable) -> list[int]:
    """``ComboSpec.run_bits``, made and kept: piece p's bit is ``group * stride + value - lowest`` (0 for
    a piece without a value or a group), a stride one wider than the values' span so that no run of
    bits crosses from one group into the next; [-1] when a value is not a whole number or they span
    more than 64."""
    col = pieces.columns.get(spec.by or "", [])
    gcol = pieces.columns.get(spec.within or "", []) if spec.within else None
    values = [v for v in col if v is not None]
    bits = [-1]
    if values and all(isinstance(v, int) and not isinstance(v, bool) for v in values) \
            and max(values) - min(values) < 64:
        low, stride = int(min(values)), int(max(values) - min(values)) + 2
        groups: dict[Any, int] = {}
        bits = []
        for p in range(pieces.count):
            v = col[p]
            g = gcol[p] if gcol is not None else 0
            if v is None or g is None:
                bits.append(0)
            else:
                bits.append(1 << (groups.setdefault(g, len(groups)) * stride + int(v) - low))
    spec.run_bits[:] = bits
    return bits


def _table_play(spec: ComboSpec, i: int, ps: tuple[int, ...]) -> Play:
    """The play of table entry ``i`` made of the pieces ``ps``, made once per ruleset."""
    play = spec.made.get((i, ps))
    if play is None:
        entry = spec.entries[i]
        play = spec.made[(i, ps)] = Play(spec.id, ps, True, entry=entry.id, entry_cls=entry.cls,
                                         entry_strength=entry.strength)
    return play


def _first_of_types(seen: set[tuple[int, ...]] | None, type_of: list[int], ps: tuple[int, ...]) -> bool:
    """Whether ``ps`` is the first play made of its set of piece types (recording it in ``seen``)."""
    assert seen is not None
    k = tuple(sorted(type_of[p] for p in ps))
    if k in seen:
        return False
    seen.add(k)
    return True


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

    # The recursion goes through an argument: a closure naming itself would be a reference cycle.
    def rec(i: int, used: dict[int, int], acc: list[int], rec: Any) -> None:
        if i == len(pattern):
            results.append(tuple(acc))
            return
        for t in pattern[i]:
            n = used.get(t, 0)
            avail = by_type.get(t)
            if avail and n < len(avail):
                used[t] = n + 1
                acc.append(avail[n])
                rec(i + 1, used, acc, rec)
                acc.pop()
                used[t] = n

    rec(0, {}, [], rec)
    return results


# Plays a store keeps past a game's end (per phase, ruleset and process). A game of a double pack meets
# new sets of pieces in every game (Sheng Ji: some 0.08 MB a game), so a long simulation or a server
# kept every one. Plays are compared by identity (one object per set) within a decision and between
# the generic and generated paths, so a store starts again only as a game begins (``between_games``),
# never while one is deciding.
PLAYS_KEPT = 100_000
# Every store, weakly (a ruleset let go takes its stores with it); a list of references, not a WeakSet:
# this is read as every game begins, and a WeakSet's iteration costs as much as a short game's deal.
_STORES: list[weakref.ref[FaceDownPlays]] = []


def between_games() -> None:
    """A game begins: every store of plays grown past ``PLAYS_KEPT`` starts again."""
    gone = False
    for ref in _STORES:
        store = ref()
        if store is None:
            gone = True
        elif len(store._made) > PLAYS_KEPT:
            store._made.clear()
            store._one = [None] * len(store._one)  # (its one-piece plays are in the store)
    if gone:
        _STORES[:] = [ref for ref in _STORES if ref() is not None]


class FaceDownPlays:
    """Every distinct set of ``size`` pieces of a hand, face down; each play made once per ruleset.

    A game that allows discarding face down offers every such set at every decision; keeping the
    plays (and, through ``Play.move``, their moves) spares rebuilding them each time. There are at
    most C(pieces, size) of them; the store is bounded between games (``PLAYS_KEPT``).

    With ``face_up``, the same sets played face up forming no combination (a follow where none can be
    formed and nothing may go face down): such a play is rated nothing and never beats another.
    """

    __slots__ = ("__weakref__", "_face_up", "_made", "_one", "_pieces", "_runs")

    def __init__(self, pieces: PieceTable, face_up: bool = False) -> None:
        self._pieces = pieces
        self._face_up = face_up
        self._made: dict[tuple[int, ...], Play] = {}
        type_of = pieces.type_of
        self._one: list[Play | None] = [None] * len(type_of)  # each piece's one-piece play, once made
        # whether a piece's type never comes before the type of a lower piece (then copies are together)
        self._runs = all(a <= b for a, b in itertools.pairwise(type_of))
        _STORES.append(weakref.ref(self))

    @property
    def pieces(self) -> PieceTable:
        """The ruleset's pieces (what a set's piece numbers are)."""
        return self._pieces

    @property
    def face_up(self) -> bool:
        """Whether the plays are made face up (free follows) rather than face down."""
        return self._face_up

    def from_hand(self, hand: Sequence[int], size: int) -> list[Play]:
        return self.plays(self.sets(hand, size))

    def plays(self, sets: Iterable[tuple[int, ...]]) -> list[Play]:
        """The face-down plays of these sets of pieces (each sorted), made once."""
        made = self._made
        out = []
        for ps in sets:
            play = made.get(ps)
            if play is None:
                play = made[ps] = self._new(ps)
            out.append(play)
        return out

    def _new(self, ps: tuple[int, ...]) -> Play:
        play = Play(None, ps, self._face_up)
        if self._face_up:  # (no combination: no class, no strength, and nothing to work out)
            play.known_cls = play.known_strength = None
        return play

    def ones(self, hand: Sequence[int]) -> list[Play]:
        """``from_hand(hand, 1)`` (the most common follow): the lowest copy of each type, in order."""
        type_of = self._pieces.type_of
        one = self._one
        out: list[Play] = []
        if self._runs:  # (copies of a type are consecutive pieces: in order, a type's copies are together)
            last = -1
            for p in sorted(hand):
                t = type_of[p]
                if t != last:
                    last = t
                    play = one[p]
                    out.append(play if play is not None else self._one_made(p))
            return out
        types: set[int] = set()
        for p in sorted(hand):
            t = type_of[p]
            if t not in types:
                types.add(t)
                play = one[p]
                out.append(play if play is not None else self._one_made(p))
        return out

    def _one_made(self, p: int) -> Play:
        play = self._one[p] = self.play((p,))
        return play

    def sets(self, hand: Sequence[int], size: int) -> list[tuple[int, ...]]:
        """The distinct sets of ``size`` pieces of ``hand``, in order: the plays ``from_hand`` makes."""
        type_of = self._pieces.type_of
        ordered = sorted(hand)
        if size == 1:  # (the most common follow) the lowest copy of each type, in order
            types: set[int] = set()
            out: list[tuple[int, ...]] = []
            for p in ordered:
                t = type_of[p]
                if t not in types:
                    types.add(t)
                    out.append((p,))
            return out
        if len({type_of[p] for p in ordered}) == len(ordered):  # no identical copies: nothing to merge
            return list(itertools.combinations(ordered, size))
        return _distinct_sets(ordered, type_of, size)

    def play(self, ps: tuple[int, ...]) -> Play:
        """The play of these pieces (sorted), made once."""
        play = self._made.get(ps)
        if play is None:
            play = self._made[ps] = self._new(ps)
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

    # The recursion goes through an argument: a closure naming itself would be a reference cycle,
    # left (with everything it holds) for the cyclic garbage collector after every call.
    def rec(start: int, k: int, rec: Any) -> None:
        for i in range(start, n - k + 1):
            j = below[i]
            if j >= 0 and not taken[j]:
                continue
            acc.append(ordered[i])
            if k == 1:
                out.append(tuple(acc))
            else:
                taken[i] = 1
                rec(i + 1, k - 1, rec)
                taken[i] = 0
            acc.pop()

    if 0 < size <= n:
        rec(0, size, rec)
    elif size == 0:
        out.append(())
    return out
