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
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rulecraft.engine.combos import FaceDownPlays, Play
from rulecraft.engine.pieces import PieceTable


class FreePlays:
    """The free plays of a hand: ``FaceDownPlays``' sets of pieces played face up (each made once)."""

    __slots__ = ("_sets", "_type_of")

    def __init__(self, pieces: PieceTable) -> None:
        self._sets = FaceDownPlays(pieces, face_up=True)
        self._type_of = pieces.type_of

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
