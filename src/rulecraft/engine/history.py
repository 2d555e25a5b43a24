"""The record of a game: every event in order, each a dict as the event log writes it.

Moves are most of a game's events, and a playout records one at every step, so a move is kept as
``(seat, move)`` and shown as its event (``{"type": "move", "seat": ..., "move": "play red-14"}``)
only when read. Building that dict for every move of every playout cost more than a tenth of a
playout's time; reading the history (logs, views, agents that follow the table talk) is rare.
Every other event (chance, rounds, reveals, hand ends) is kept as the dict it was recorded as.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, overload

if TYPE_CHECKING:
    from rulecraft.engine.moves import Move

Event = dict[str, Any]
_Entry = Event | tuple[int | None, "Move"]


class History(Sequence[Event]):
    """A sequence of event dicts; ``add_move`` records a move, ``append`` any other event."""

    __slots__ = ("_entries", "append")

    def __init__(self, events: Iterable[Event] = ()) -> None:
        self._entries: list[_Entry] = list(events)
        # ``append(event)`` records any other event, and ``append((seat, move))`` is ``add_move``: the
        # list's own append, no Python call (a playout records a move at every step, a round at every trick).
        self.append: Callable[[_Entry], None] = self._entries.append

    def add_move(self, seat: int | None, move: Move) -> None:
        self._entries.append((seat, move))

    @property
    def entries(self) -> Sequence[_Entry]:
        """The entries as recorded, not to be changed: a move as ``(seat, move)``, any other event as its dict.

        For readers that follow a game as it grows (an observation kept up to date from the events
        since it was last asked): no dict is built per move, and an entry of a copy *is* the original's.
        """
        return self._entries

    # Pickled and copied as its entries: ``append`` is made again, bound to the copy's own list.
    def __getstate__(self) -> list[_Entry]:
        return self._entries

    def __setstate__(self, entries: list[_Entry]) -> None:
        self._entries = entries
        self.append = entries.append

    def copy(self) -> History:
        """An independent history with the same events (recorded events are never changed)."""
        c = History.__new__(History)
        c._entries = self._entries.copy()
        c.append = c._entries.append
        return c

    def __len__(self) -> int:
        return len(self._entries)

    @overload
    def __getitem__(self, index: int) -> Event: ...

    @overload
    def __getitem__(self, index: slice) -> list[Event]: ...

    def __getitem__(self, index: int | slice) -> Event | list[Event]:
        if isinstance(index, slice):
            return [_shown(e) for e in self._entries[index]]
        return _shown(self._entries[index])

    def __iter__(self) -> Iterator[Event]:
        return map(_shown, self._entries)

    def __eq__(self, other: object) -> bool:
        # As events (a move by its text): a replay may play another copy of the same piece.
        if isinstance(other, (History, list)):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable, like a list

    def __repr__(self) -> str:
        return f"History({list(self)!r})"


def _shown(entry: _Entry) -> Event:
    """The event dict of an entry (a fresh dict for a move: changing it changes nothing recorded)."""
    if isinstance(entry, tuple):
        seat, move = entry
        return {"type": "move", "seat": seat, "move": move.text}
    return entry
