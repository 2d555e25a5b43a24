"""Free follows: a follower plays as many pieces as were led, face up, that need form no combination.

Some trick games let a seat that cannot (or will not) follow with the led
combination play any pieces of the lead's size face up; such a play wins nothing. The rule file says
which pieces a follow must hold as far as it can (``prefer``: the led suit): every free play holds
as many of them as the seat has, up to the lead's size, and its other pieces are any of the rest.
The phase's follow restrictions then judge free plays like any other candidate (a pair of the led
suit when one is held, say).

A free play is a face-up play with no combination (``combo`` is none) and no class: it never beats
the best play. Its pieces are one set per distinct choice of piece types (identical copies once),
each play made once per ruleset (``FaceDownPlays`` with ``face_up``). A phase where nothing may go
face down (``face_down: never``) offers them, unpreferred, to a follower who can form no combination.

A seat holding fewer preferred pieces than were led plays all of them and chooses the rest freely:
a void follower facing a throw of eight may play any eight of 25 pieces, some 200,000 sets. Those
sets are a ``FreeSets``: counted, indexed and searched by combinatorics, never listed, in the order
the list had (so a seeded game plays as it did). Its plays differ only in the pieces chosen freely,
and the follow restrictions judge them together, by the first of them: when it passes, all do; when it
is refused, each is judged on its own, listed (``Tricks._follow_options``).
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterator, Sequence
from typing import Any, overload

from rulecraft.engine.combos import FaceDownPlays, Play
from rulecraft.engine.phases.claims import multiset_table
from rulecraft.engine.pieces import PieceTable


class FreePlays:
    """The free plays of a hand: ``FaceDownPlays``' sets of pieces played face up (each made once)."""

    __slots__ = ("_sets", "_type_of")

    def __init__(self, pieces: PieceTable) -> None:
        self._sets = FaceDownPlays(pieces, face_up=True)
        self._type_of = pieces.type_of

    @property
    def made(self) -> FaceDownPlays:
        """The store the free plays are made in (a ``FreeSets``' plays are made there as they are read)."""
        return self._sets

    def plays(self, hand: Sequence[int], size: int, preferred: Callable[[int], bool] | None,
              taken: set[tuple[int, ...]]) -> list[Play]:
        """Every free play of ``size`` pieces of ``hand`` that holds as many ``preferred`` pieces as it
        can, except those whose piece types are in ``taken`` (the plays of a combination)."""
        if preferred is None:
            sets = self._sets.sets(hand, size)
        else:
            wanted = [p for p in hand if preferred(p)]
            if len(wanted) >= size:
                sets = self._sets.sets(wanted, size)
            else:  # every preferred piece, and the rest from the others
                chosen = set(wanted)
                rest = self._sets.sets([p for p in hand if p not in chosen], size - len(wanted))
                sets = [tuple(sorted((*wanted, *r))) for r in rest]
        if taken:  # (the same pieces as a combination's play: that play is the move)
            type_of = self._type_of
            sets = [ps for ps in sets if tuple(sorted(type_of[p] for p in ps)) not in taken]
        return self._sets.plays(sets)

    def chosen_freely(self, hand: Sequence[int], size: int, preferred: Callable[[int], bool],
                      taken: set[tuple[int, ...]]) -> FreeSets | None:
        """``plays``' sets, unlisted, when the seat holds fewer ``preferred`` pieces than ``size``: every
        one of them and the rest chosen freely. None when it holds enough (the plays are then all
        preferred pieces, each judged on its own) or when copies of a type are not consecutive pieces."""
        wanted = [p for p in hand if preferred(p)]
        if len(wanted) >= size:
            return None
        chosen = set(wanted)
        return FreeSets.of(tuple(wanted), [p for p in hand if p not in chosen], size - len(wanted),
                           self._type_of, taken)


class FreeSets(Sequence[tuple[int, ...]]):
    """Every set of ``fixed`` and ``size`` more pieces of a pool (identical copies counted once, sorted),
    but those whose piece types are ``taken``: in the order of ``FaceDownPlays.sets`` of the pool.

    The pool's pieces, sorted, fall into blocks of one piece type. The sets are listed as
    ``itertools.combinations`` lists them, keeping the first of each choice of types: block by block,
    the sets taking most copies of a block first (its lowest copies), down to those taking none. So the
    r-th set is found by counting (``multiset_table``: how many sets the later blocks make) and a set's
    place likewise, without listing any other.
    """

    __slots__ = ("_at", "_blocks", "_excluded", "_fixed", "_fixed_types", "_size", "_total", "_type_of",
                 "_ways")

    def __init__(self, fixed: tuple[int, ...], blocks: list[list[int]], size: int, type_of: list[int],
                 taken: set[tuple[int, ...]]) -> None:
        self._fixed = fixed
        self._fixed_types = sorted(type_of[p] for p in fixed)
        self._blocks = blocks
        self._size = size
        self._type_of = type_of
        self._at = {type_of[b[0]]: i for i, b in enumerate(blocks)}  # a piece type's block
        self._ways = multiset_table([len(b) for b in blocks], size)
        total = self._ways[0][size]
        # The sets a combination's play already offers (a few), by their place among all the sets.
        excluded = {self._rank_types(t) for t in taken}
        excluded.discard(None)
        self._excluded: list[int] = sorted(r for r in excluded if r is not None)
        self._total = total - len(self._excluded)

    @classmethod
    def of(cls, fixed: tuple[int, ...], pool: Sequence[int], size: int, type_of: list[int],
           taken: set[tuple[int, ...]]) -> FreeSets | None:
        """The sets of ``fixed`` and ``size`` pieces of ``pool``; None when copies of a type are not
        consecutive in the sorted pool (the order of the list is then not one of blocks)."""
        blocks: list[list[int]] = []
        for p in sorted(pool):
            if blocks and type_of[blocks[-1][0]] == type_of[p]:
                blocks[-1].append(p)
            else:
                blocks.append([p])
        if len({type_of[b[0]] for b in blocks}) != len(blocks):
            return None
        return cls(fixed, blocks, size, type_of, taken)

    def __len__(self) -> int:
        return self._total

    @overload
    def __getitem__(self, i: int) -> tuple[int, ...]: ...
    @overload
    def __getitem__(self, i: slice) -> list[tuple[int, ...]]: ...

    def __getitem__(self, i: int | slice) -> tuple[int, ...] | list[tuple[int, ...]]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self._total))]
        if i < 0:
            i += self._total
        if not 0 <= i < self._total:
            raise IndexError(i)
        for e in self._excluded:  # (the place among all the sets: past every excluded one up to it)
            if e > i:
                break
            i += 1
        return self._unrank(i)

    def __iter__(self) -> Iterator[tuple[int, ...]]:
        for i in range(self._total):
            yield self[i]

    def index(self, pieces: object, start: int = 0, stop: int | None = None) -> int:
        """The place of this set of pieces (sorted, as the sets are); ValueError when it is not one."""
        if isinstance(pieces, tuple) and len(pieces) == len(self._fixed) + self._size:
            r = self._rank_types(tuple(sorted(self._type_of[p] for p in pieces)))
            if r is not None:
                before = bisect.bisect_left(self._excluded, r)  # (excluded sets listed before it)
                excluded = before < len(self._excluded) and self._excluded[before] == r
                i = r - before
                if not excluded and start <= i < (self._total if stop is None else stop) and self[i] == pieces:
                    return i
        raise ValueError(f"{pieces!r} is not one of the sets")

    def __contains__(self, pieces: object) -> bool:
        try:
            self.index(pieces)
        except ValueError:
            return False
        return True

    def find_types(self, types: Sequence[int]) -> tuple[int, ...] | None:
        """The set whose pieces have these types (any order), or None."""
        r = self._rank_types(tuple(sorted(types)))
        if r is None or r in self._excluded:
            return None
        return self._unrank(r)

    @property
    def size(self) -> int:
        """How many pieces every set has."""
        return len(self._fixed) + self._size

    def type_counts(self) -> tuple[dict[int, int], dict[int, int]]:
        """(how many pieces of each type every set holds, how many more of each type a set may hold)."""
        fixed: dict[int, int] = {}
        for t in self._fixed_types:
            fixed[t] = fixed.get(t, 0) + 1
        return fixed, {self._type_of[b[0]]: len(b) for b in self._blocks}

    def lowest(self, key: Callable[[int], Any]) -> tuple[int, ...] | None:
        """The set whose freely chosen pieces are the lowest by ``key`` (ties: the lower piece), or None
        when that set is excluded (a combination's play)."""
        pool = sorted((p for block in self._blocks for p in block), key=key)
        return self.find_types([self._type_of[p] for p in (*self._fixed, *pool[:self._size])])

    def _unrank(self, r: int) -> tuple[int, ...]:
        """The r-th set of all (none excluded)."""
        ways, k = self._ways, self._size
        out = list(self._fixed)
        for g, block in enumerate(self._blocks):
            if k == 0:
                break
            after = ways[g + 1]
            for c in range(min(len(block), k), -1, -1):  # most copies first
                n = after[k - c]
                if r < n:
                    out.extend(block[:c])
                    k -= c
                    break
                r -= n
        out.sort()
        return tuple(out)

    def _rank_types(self, types: tuple[int, ...]) -> int | None:
        """The place among all the sets of the set with these piece types (sorted), or None."""
        rest = list(types)
        for t in self._fixed_types:  # (the fixed pieces are in every set)
            try:
                rest.remove(t)
            except ValueError:
                return None
        if len(rest) != self._size:
            return None
        counts: dict[int, int] = {}
        for t in rest:
            g = self._at.get(t)
            if g is None:
                return None
            counts[g] = counts.get(g, 0) + 1
        ways, k, r = self._ways, self._size, 0
        for g, block in enumerate(self._blocks):
            c = counts.get(g, 0)
            if c > len(block):
                return None
            after = ways[g + 1]
            r += sum(after[k - d] for d in range(c + 1, min(len(block), k) + 1))  # the sets with more copies
            k -= c
            if k == 0:
                break
        return r


class FreeFollowing(Sequence[Play]):
    """A follow's allowed plays when its free plays are a ``FreeSets``: the other plays allowed
    (``head``), then one free play per set, made (once, in ``made``) only when read."""

    __slots__ = ("head", "made", "sets")

    def __init__(self, head: list[Play], sets: FreeSets, made: FaceDownPlays) -> None:
        self.head, self.sets, self.made = head, sets, made

    def __len__(self) -> int:
        return len(self.head) + len(self.sets)

    @overload
    def __getitem__(self, i: int) -> Play: ...
    @overload
    def __getitem__(self, i: slice) -> list[Play]: ...

    def __getitem__(self, i: int | slice) -> Play | list[Play]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        n = len(self.head)
        if i < 0:
            i += len(self)
        if 0 <= i < n:
            return self.head[i]
        if not n <= i < len(self):
            raise IndexError(i)
        return self.made.play(self.sets[i - n])
