"""Readings: when the same pieces form two combinations, the move says which (``play 1-5 1-5 as supreme``).

A phase offers each play a combination makes of a hand. Two combinations can make a play of the same
pieces (a pair that is also a supreme pair, five cards that are both a straight and a flush): two
*readings* of one set of pieces, which may compare, score or be restricted differently. Such plays are
told apart by the combination's id, the reading's name: their moves are ``play PIECES as NAME``, a
scenario or a log can pin the reading taken, and a restriction refusing one reading never lets the
other pass in its name. Readings of the same pieces with the same name (a combination listed twice)
cannot be told apart, and only the first is offered.

A move written without a reading (every move text and log written before readings were named) means
the *first* reading: the combination the phase lists first, exactly as such a move was always taken
when that reading was allowed. A set of pieces with one reading keeps its plain move.

Which combinations may make plays of the same pieces is worked out once per phase (``overlapping``),
so a phase whose combinations never meet (a hand of singles, sets and runs of one attribute) spends
nothing on readings at a decision.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from rulecraft.engine.combos import ComboSpec, Play, enumerate_plays, may_have

if TYPE_CHECKING:
    from rulecraft.engine.moves import Move, MoveBook
    from rulecraft.engine.pieces import PieceTable

GENERATED = ("single", "same", "run", "groups")
MAX_SIZE = 64  # sizes of plays looked at when comparing two combinations' sizes


def overlapping(combos: Sequence[ComboSpec], pieces: PieceTable, ctx: Any = None) -> frozenset[str]:
    """The combinations of a phase that may make a play of the same pieces as another of them (``ctx``:
    the evaluation context, for a combination that reads the game: ``combos.enumerate_all``)."""
    out: set[str] = set()
    for a, b in itertools.combinations(combos, 2):
        if a.id == b.id or _may_meet(a, b, pieces, ctx):  # (a combination listed twice meets itself)
            out.update((a.id, b.id))
    return frozenset(out)


def _sizes(spec: ComboSpec) -> set[int]:
    return {n for n in range(1, MAX_SIZE + 1) if may_have(spec, n)}


def _may_meet(a: ComboSpec, b: ComboSpec, pieces: PieceTable, ctx: Any) -> bool:
    """Whether some set of pieces is a play of both (True when it cannot be ruled out)."""
    if not _sizes(a) & _sizes(b):
        return False
    for x, y in ((a, b), (b, a)):
        listed = _listed_plays(x, pieces)
        if listed is not None:  # every play of x is known: is one of them a play of y?
            return any(_makes(y, ps, pieces, ctx) for ps in listed)
    if a.kind in GENERATED and b.kind in GENERATED and a.by is not None and a.by == b.by:
        kinds = {a.kind, b.kind}
        # n of a kind share one value; a run's values are all different; groups hold at least two values.
        if kinds == {"same", "run"}:
            return False
        if "groups" in kinds and kinds & {"same", "run"}:
            return False
    return True


def _listed_plays(spec: ComboSpec, pieces: PieceTable) -> list[tuple[int, ...]] | None:
    """Every play of a ``fixed`` or ``table`` combination as piece instances (the lowest copies of each
    type), or None when it has too many ways to list or is of a generated kind."""
    if spec.kind == "fixed":
        ways = [tuple(spec.fixed)]
    elif spec.kind == "table":
        ways = []
        for e in spec.entries:
            if e.picks is not None:
                ways.append(tuple(t for t, _n in e.picks))
            elif e.ways is not None:
                ways.extend(tuple(t for t, _n in way[0]) for way in e.ways)
            else:
                return None
    else:
        return None
    out = []
    for types in ways:
        taken: dict[int, int] = {}
        ps = []
        for t in types:
            copies = pieces.instances[t]
            n = taken.get(t, 0)
            if n >= len(copies):
                break
            ps.append(copies[n])
            taken[t] = n + 1
        else:
            out.append(tuple(ps))
    return out


def _makes(spec: ComboSpec, ps: tuple[int, ...], pieces: PieceTable, ctx: Any) -> bool:
    """Whether ``spec`` makes a play of exactly the pieces ``ps`` (by type)."""
    want = sorted(pieces.type_of[p] for p in ps)
    return any(sorted(pieces.type_of[p] for p in play.pieces) == want
               for play in enumerate_plays(spec, list(ps), pieces, len(ps), ctx=ctx))


def type_key(play: Play, type_of: list[int]) -> tuple[int, ...]:
    return tuple(sorted(type_of[p] for p in play.pieces))


def ambiguous(every: Sequence[Play], names: frozenset[str], type_of: list[int]) -> set[tuple[int, ...]]:
    """The sets of piece types (sorted) that ``every`` holds plays of under two readings or more."""
    first: dict[tuple[int, ...], str | None] = {}
    out: set[tuple[int, ...]] = set()
    for play in every:
        if play.combo in names:
            key = type_key(play, type_of)
            seen = first.setdefault(key, play.combo)
            if seen != play.combo:
                out.add(key)
    return out


def offered(every: Sequence[Play], allowed: list[Play], names: frozenset[str], pieces: PieceTable,
            book: MoveBook, move_of: Callable[[Play], Move]) -> tuple[list[Move], list[Play]]:
    """The moves of the ``allowed`` plays (those of ``every`` the restrictions let through), each play
    of pieces with several readings in ``every`` named by its reading, and a reading met twice (by two
    combinations of one name) offered once."""
    if not names:
        return [p.move or move_of(p) for p in allowed], allowed
    type_of = pieces.type_of
    several = ambiguous(every, names, type_of)
    moves: list[Move] = []
    plays: list[Play] = []
    done: set[tuple[tuple[int, ...], str | None]] = set()
    for p in allowed:
        if p.combo not in names:
            moves.append(p.move or move_of(p))
            plays.append(p)
            continue
        key = type_key(p, type_of)
        if (key, p.combo) in done:  # the same reading again: not to be told apart, offered once
            continue
        done.add((key, p.combo))
        moves.append(book.get("play", p.pieces, p.combo or "") if key in several else p.move or move_of(p))
        plays.append(p)
    return moves, plays


def readings_of(combos: Sequence[ComboSpec], chosen: list[int], pieces: PieceTable, ctx: Any = None) -> list[Play]:
    """The plays of exactly the pieces ``chosen`` that the combinations make, one per name, in their order."""
    want = sorted(pieces.type_of[p] for p in chosen)
    out: list[Play] = []
    names: set[str] = set()
    for spec in combos:
        if spec.id in names:
            continue
        for play in enumerate_plays(spec, chosen, pieces, len(chosen), ctx=ctx):
            if sorted(pieces.type_of[p] for p in play.pieces) == want:
                out.append(play)
                names.add(spec.id)
                break
    return out


def reading_name(combos: Sequence[ComboSpec], chosen: list[int], pieces: PieceTable, asked: str,
                 ctx: Any = None) -> str:
    """The name a move of the pieces ``chosen`` carries for the reading ``asked`` ('' for the first):
    '' when the pieces have one reading; the combination's id when they have several (a table entry's
    id is taken for its combination's). Raises ValueError, saying which readings there are, when
    ``asked`` names none of them."""
    found = readings_of(combos, chosen, pieces, ctx)
    if not asked:
        return found[0].combo or "" if len(found) > 1 else ""
    for play in found:
        if asked in (play.combo, play.entry):
            return (play.combo or "") if len(found) > 1 else ""
    if not found:
        raise ValueError("these pieces form no combination here")
    names = ", ".join(str(p.combo) for p in found)
    raise ValueError(f"these pieces are not played as '{asked}' here: they form {names}")
