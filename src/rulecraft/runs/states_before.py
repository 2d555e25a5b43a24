"""The state before each move of a replayed game, without holding one whole state per move.

A state carries its history, so a state kept before each of a game's N moves holds N²/2 events: a
12,000-move log (a 200-hand match) took 550 MB to step through, and a longer one ran out of memory.
``StatesBefore`` keeps one state in every ``spacing`` (about √N) and makes any other again from the
nearest kept one by playing the moves between them, which replay exactly as they did the first time.
Memory is then about N^1.5 events, and a step costs at most √N moves.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from typing import overload

from rulecraft.engine.state import State

MIN_SPACING = 32


class StatesBefore(Sequence[State]):
    """Filled by ``record`` as a log is replayed; then ``[i]`` is a fresh copy of the state before move i."""

    def __init__(self, moves_expected: int) -> None:
        self.spacing = max(MIN_SPACING, math.isqrt(max(moves_expected, 0)) + 1)
        self._kept: list[State] = []
        self._moves: list[str] = []

    def record(self, st: State, move: str) -> None:
        """``st`` is the state before ``move`` (which is then applied to it)."""
        if len(self._moves) % self.spacing == 0:
            self._kept.append(st.clone())
        self._moves.append(move)

    def __len__(self) -> int:
        return len(self._moves)

    @overload
    def __getitem__(self, index: int) -> State: ...

    @overload
    def __getitem__(self, index: slice) -> list[State]: ...

    def __getitem__(self, index: int | slice) -> State | list[State]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        start = index // self.spacing * self.spacing
        st = self._kept[index // self.spacing].clone()
        for move in self._moves[start:index]:
            st.apply(move)
        return st

    def __iter__(self) -> Iterator[State]:
        """Every state in order, each a copy of its own, made by playing the game forwards once."""
        if not self._moves:
            return
        st = self._kept[0].clone()
        for move in self._moves:
            yield st.clone()
            st.apply(move)
