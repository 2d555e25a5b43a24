"""Chance as explicit decisions of nature: a game that stops where it would shuffle or roll.

The engine draws every shuffle and roll from its seeded generator, unless the outcome is given
(``Board.chance_feed``: how logs and scenarios replay a game). ``ChanceState`` is a State that never
draws: where no outcome is given it raises ``ChanceNeeded``, saying what is to be shuffled or rolled.
``Pending`` runs a step (the start of the game, or a move) on a copy of the state before it; each time
the step needs an outcome it stops, the outcome is chosen from outside one piece or die at a time
(``outcomes``, ``add``), and the step is run again from the same copy with every outcome so far given.
So an OpenSpiel chance node is one draw: which piece type comes next off the shuffle (with its chance,
copies remaining over pieces remaining) or one die's face.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from rulecraft.engine.moves import Move
from rulecraft.engine.ruleset import Ruleset
from rulecraft.engine.state import State, start


class ChanceNeeded(Exception):
    """The game needs a chance outcome nobody gave: a shuffle of ``pieces`` or a roll of ``dice`` dice."""

    def __init__(self, kind: str, pieces: list[int] | None = None, dice: int = 0, sides: int = 0) -> None:
        super().__init__(kind)
        self.kind = kind
        self.pieces = pieces or []
        self.dice = dice
        self.sides = sides


class ChanceState(State):
    """A State whose chance comes only from given outcomes (see the module docstring)."""

    __slots__ = ()

    def chance_shuffle(self, pieces: list[int]) -> list[int]:
        if not any(e.get("kind") == "shuffle" for e in self.chance_feed or ()):
            raise ChanceNeeded("shuffle", pieces=list(pieces))
        return super().chance_shuffle(pieces)

    def chance_roll(self, dice: int, sides: int, where: dict[str, Any] | None = None) -> list[int]:
        if not any(e.get("kind") == "dice" for e in self.chance_feed or ()):
            raise ChanceNeeded("dice", dice=dice, sides=sides)
        return super().chance_roll(dice, sides, where)


class Pending:
    """A step waiting for chance: the state before it (None: the game's start), the move, the outcomes so far."""

    __slots__ = ("before", "drawn", "given", "move", "need")

    def __init__(self, before: ChanceState | None, move: Move | None) -> None:
        self.before = before
        self.move = move
        self.given: list[dict[str, Any]] = []  # whole outcomes (a shuffle's order, a roll)
        self.drawn: list[int] = []  # the current one so far: piece types drawn, or die faces
        self.need: ChanceNeeded | None = None

    def copy(self) -> Pending:
        c = Pending(self.before, self.move)  # ``before`` is never changed: the step runs on its clones
        c.given = [dict(e) for e in self.given]
        c.drawn = list(self.drawn)
        c.need = self.need
        return c

    def run(self, rs: Ruleset, max_hands: int | None) -> ChanceState | None:
        """Run the step with the outcomes given so far: the state after it, or None (``need`` says what for)."""
        if self.before is None:
            st = ChanceState(rs, 0)
            if max_hands:
                st.hand_limit = min(st.hand_limit, max_hands)
        else:
            st = self.before.clone()
        st.chance_feed = [dict(e) for e in self.given]
        try:
            if self.before is None:
                start(st)
            else:
                assert self.move is not None
                st.apply(self.move)
        except ChanceNeeded as need:
            self.need = need
            return None
        self.need = None
        return st

    def outcomes(self, rs: Ruleset) -> list[tuple[int, float]]:
        """The next draw's outcomes and chances: (piece type, p) for a shuffle, (face - 1, p) for a die."""
        need = self.need
        assert need is not None
        if need.kind == "dice":
            return [(face, 1.0 / need.sides) for face in range(need.sides)]
        left = Counter(rs.pieces.type_of[p] for p in need.pieces)
        left.subtract(self.drawn)
        total = sum(left.values())
        return [(t, k / total) for t, k in sorted(left.items()) if k > 0]

    def add(self, rs: Ruleset, outcome: int) -> bool:
        """Record one draw; True when the current outcome is whole (then it is given and ``drawn`` starts again)."""
        need = self.need
        assert need is not None
        self.drawn.append(outcome)
        if need.kind == "dice":
            if len(self.drawn) < need.dice:
                return False
            self.given.append({"kind": "dice", "dice": [face + 1 for face in self.drawn]})
        else:
            if len(self.drawn) < len(need.pieces):
                return False
            ids = rs.pieces.types
            self.given.append({"kind": "shuffle", "order": [ids[t].id for t in self.drawn]})
        self.drawn = []
        return True
