"""The board: where everything is during a game, in plain lists and small dicts (so ``clone()`` is cheap).

A piece is an int. ``zones`` holds one list per zone *instance* (a per-seat zone has one instance
per seat); ``loc[p]`` is the instance holding piece p; ``face_down[p]`` and ``downed_by[p]`` say how
it lies and who put it face down. Knowledge is kept alongside (``seen_public``, ``dealt_owner``,
``marks``, ``known``) because visibility rules and expressions need it. The flow of play (phases, hands, the
match) and the public API (legal moves, apply, view) live in ``engine.state``, whose ``State`` is a
Board under a Ruleset; phase kinds and effects, which sit below the ruleset, work on the Board.
"""

from __future__ import annotations

import functools
import math
import random
import weakref
from collections.abc import Iterator
from typing import Any, Self

from rulecraft.engine.combos import Play
from rulecraft.engine.equipment import Equipment
from rulecraft.engine.history import History
from rulecraft.engine.moves import Move
from rulecraft.errors import GivenChanceError, clip

NOBODY = -1
SHOWN = "@shown"  # the marks entry of pieces shown to every seat where they lie (no rule's mark name has '@')


class Board:
    """Where everything is in one game. ``engine.state.State`` adds the rules' procedure and the API."""

    __slots__ = (
        "__weakref__",  # the state's Ctx refers to it weakly (see Ctx)
        "_legal_cache",
        "_rng",
        "_rng_state",
        "active",
        "cells",
        "chance_feed",
        "ctx",
        "dealt_owner",
        "downed_by",
        "face_down",
        "fired",
        "hand_fired",
        "hand_limit",
        "hand_no",
        "hand_results",
        "hands_keyed",
        "history",
        "is_over",
        "known",
        "loc",
        "marks",
        "payments",
        "pdata",
        "pidx",
        "playing_for",
        "result",
        "rs",
        "seat_order",
        "seed",
        "seen_public",
        "shown_vars",
        "shows",
        "signal",
        "to_act",
        "tricks",
        "vars",
        "zones",
    )

    def __init__(self, rs: Equipment, seed: int) -> None:
        self.rs = rs
        self.seed = seed
        self._rng: random.Random | None = random.Random(seed)
        self._rng_state: Any = None  # the generator's state while no live generator is made (see rng)
        n_pieces = rs.pieces.count
        self.zones: list[list[int]] = [[] for _ in range(rs.zone_instance_count)]
        self.loc: list[int] = [0] * n_pieces
        self.face_down = bytearray(n_pieces)
        self.downed_by: list[int] = [NOBODY] * n_pieces
        self.seen_public = bytearray(n_pieces)
        self.dealt_owner: list[int] = [NOBODY] * n_pieces
        self.marks: dict[str, set[int]] = {}
        # piece -> (seat, zone instance): the seat knows the piece lies there, while it does (pieces it passed)
        self.known: dict[int, tuple[int, int]] = {}
        # Variables (var index, None) or entries (var index, entry) a ``show`` made public this hand, and
        # the public records of this hand's shows (views keep them past the hand's end: see views).
        self.shown_vars: frozenset[tuple[int, int | None]] = frozenset()
        self.shows: list[dict[str, Any]] = []
        # For zones laid out as a grid (a wall): zone instance -> piece in each cell, -1 once taken.
        self.cells: dict[int, list[int]] = {}
        self.vars: list[Any] = []
        self.tricks: list[int] = [0] * rs.seats.count
        self.active: tuple[int, ...] = tuple(range(rs.seats.count))  # seats playing this hand
        self.seat_order: list[int] = list(range(rs.seats.count))
        self.hand_no = 0
        # True: each hand draws from a generator of its own, made from the seed and the hand's number
        # (``engine.state.hand_generator``): what a seat sees of one hand's chance tells nothing of the next.
        self.hands_keyed = False
        self.hand_limit = 0  # a safety bound on the match (State sets it); a game may ask for less
        self.pidx = 0
        self.pdata: Any = None
        self.to_act: int | None = None
        self.playing_for: int | None = None  # the seat to_act decides for, when another seat's player decides
        self.is_over = False  # an attribute, not a property: a playout reads it after every move
        self.result: dict[str, Any] | None = None
        self.signal: str | None = None
        self.history = History()
        self.payments: list[dict[str, Any]] = []
        self.hand_results: list[dict[str, Any]] = []
        self.fired: dict[str, int] = {}
        self.hand_fired: dict[str, int] = {}
        self.chance_feed: list[Any] | None = None
        self.ctx = Ctx(self)
        self._legal_cache: list[Move] | None = None

    def clone(self) -> Self:
        c = type(self).__new__(type(self))
        c.rs = self.rs
        c.seed = self.seed
        if self._rng is not None:  # from now on this state and its clones share one snapshot
            self._rng_state, self._rng = self._rng.getstate(), None
        c._rng, c._rng_state = None, self._rng_state
        c.zones = [list(z) for z in self.zones]
        c.loc = list(self.loc)
        c.face_down = bytearray(self.face_down)
        c.downed_by = list(self.downed_by)
        c.seen_public = bytearray(self.seen_public)
        c.dealt_owner = list(self.dealt_owner)
        c.marks = {k: set(v) for k, v in self.marks.items()}
        c.known = dict(self.known)
        c.shown_vars = self.shown_vars  # (a frozenset: replaced, never changed)
        c.shows = list(self.shows) if self.shows else []
        c.cells = {k: list(v) for k, v in self.cells.items()}
        c.vars = [list(v) if isinstance(v, list) else v for v in self.vars]
        c.tricks = list(self.tricks)
        c.active = self.active
        c.seat_order = list(self.seat_order)
        c.hand_no = self.hand_no
        c.hands_keyed = self.hands_keyed
        c.hand_limit = self.hand_limit
        c.pidx = self.pidx
        c.pdata = self.pdata.copy() if self.pdata is not None else None
        c.to_act = self.to_act
        c.playing_for = self.playing_for
        c.is_over = self.is_over
        c.result = self.result
        c.signal = self.signal
        c.history = self.history.copy()
        c.payments = list(self.payments)
        c.hand_results = list(self.hand_results)
        c.fired = dict(self.fired)
        c.hand_fired = dict(self.hand_fired)
        c.chance_feed = list(self.chance_feed) if self.chance_feed is not None else None
        c.ctx = Ctx(c)
        c._legal_cache = self._legal_cache
        return c

    @property
    def rng(self) -> random.Random:
        """The game's one source of chance, made from the shared snapshot when first needed.

        Copying a generator's state costs far more than the rest of a clone, and most clones (a
        search's playouts) never shuffle or roll: so a clone gets the snapshot, not a generator.
        """
        r = self._rng
        if r is None:
            r = self._rng = random.Random.__new__(random.Random)
            r.setstate(self._rng_state)
            self._rng_state = None
        return r

    @rng.setter
    def rng(self, value: random.Random) -> None:
        self._rng, self._rng_state = value, None

    # ----------------------------------------------------------------- seats
    def seat_after(self, seat: int, n: int = 1) -> int:
        return (seat + n * self.rs.seats.direction) % self.rs.seats.count

    def active_after(self, seat: int, n: int = 1) -> int:
        """The n-th seat after ``seat`` in the direction of play, counting only active seats."""
        step = 1 if n >= 0 else -1
        s = seat
        for _ in range(abs(n)):
            for _ in range(self.rs.seats.count):
                s = self.seat_after(s, step)
                if s in self.active:
                    break
        return s

    def order_from(self, seat: int) -> tuple[int, ...]:
        """Active seats in the direction of play, starting with ``seat``."""
        return _order_from(self.rs.seats.count, self.rs.seats.direction, self.active, seat)

    # ----------------------------------------------------------------- zones and pieces
    def zone_instance(self, name: str, owner: Any = None) -> int:
        z = self.rs.zone_by_name[name]
        return z.instance(None if owner is None else int(owner))

    def zone_view(self, name: str, owner: Any = None) -> ZoneView:
        zi = self.zone_instance(name, owner)
        return ZoneView(self.zones[zi], self.loc, zi)

    def hand_instance(self, seat: int) -> int:
        return self.rs.hand_base + seat

    def hand_view(self, seat: int) -> ZoneView:
        zi = self.rs.hand_base + seat  # (hand_instance, without the call: asked by rule expressions often)
        return ZoneView(self.zones[zi], self.loc, zi)

    def hand(self, seat: int) -> list[int]:
        return self.zones[self.rs.hand_base + seat]

    def holds(self, seat: int, piece: int) -> bool:
        return self.loc[piece] == self.hand_instance(seat)

    def put(self, piece: int, zi: int, face_down: bool = False, by: int | None = None) -> None:
        """Move a piece to zone instance ``zi``; face-up placements in shared public zones are seen by all."""
        old = self.loc[piece]
        if old != zi:
            self.zones[old].remove(piece)
            self.zones[zi].append(piece)
            self.loc[piece] = zi
        self.face_down[piece] = 1 if face_down else 0
        if face_down and by is not None:
            self.downed_by[piece] = by
            shown = self.marks.get(SHOWN)
            if shown:  # a seat put it down in secret: which of its shown pieces went, only it knows
                shown.discard(piece)
                shown.difference_update(self.zones[old])
        if not face_down and self.rs.public_instance[zi]:
            self.seen_public[piece] = 1

    def gather(self, pieces: tuple[int, ...] | list[int], zi: int) -> None:
        """Move pieces to zone instance ``zi``, each lying as it lies (a captured trick)."""
        # What put(p, zi, face_down[p]) does, without a call per piece: captures move every round.
        zones, loc, face_down, dest = self.zones, self.loc, self.face_down, self.zones[zi]
        public = self.rs.public_instance[zi]
        for p in pieces:
            old = loc[p]
            if old != zi:
                zones[old].remove(p)
                dest.append(p)
                loc[p] = zi
            if public and not face_down[p]:
                self.seen_public[p] = 1

    def owned_instance(self, name: str, seat: int) -> int:
        """The instance of zone ``name`` that belongs to ``seat``: its own, its team's, or the only one."""
        z = self.rs.zone_by_name[name]
        return z.instance(None if z.per == "none" else self.rs.seats.team_of[seat] if z.per == "team" else seat)

    def put_from_top(self, src: int, targets: list[tuple[int, bool]]) -> None:
        """Move the first pieces of zone instance ``src``, in order, each to its (zone instance, face down).

        What ``put`` does piece by piece, in one pass: a deal moves a whole deck.
        """
        self.put_from_top_grouped(src, len(targets), grouped_targets(targets))

    def put_from_top_grouped(self, src: int, count: int, groups: list[tuple[int, bool, tuple[int, ...]]]) -> None:
        """``put_from_top`` with its targets grouped by ``grouped_targets`` (a deal works that out once)."""
        pile = self.zones[src]
        moving = pile[:count]
        if len(moving) != count:
            raise ValueError(f"{count} pieces to move from a zone holding {len(moving)}")
        del pile[:count]
        zones, loc, face_down, public = self.zones, self.loc, self.face_down, self.rs.public_instance
        seen = self.seen_public
        for zi, down, picks in groups:
            part = [moving[i] for i in picks]
            zones[zi].extend(part)
            flag = 1 if down else 0
            if not down and public[zi]:
                for p in part:
                    loc[p] = zi
                    face_down[p] = 0
                    seen[p] = 1
            else:
                for p in part:
                    loc[p] = zi
                    face_down[p] = flag

    def zone_of_instance(self, zi: int) -> Any:
        return self.rs.zone_of_instance[zi]

    def reveal(self, pieces: list[int]) -> None:
        for p in pieces:
            self.face_down[p] = 0
            self.seen_public[p] = 1

    # ----------------------------------------------------------------- variables, payments, counters
    def assign(self, var_index: int, index: Any, value: Any, add: bool) -> None:
        if index is None:
            self.vars[var_index] = held_number(self.vars[var_index] + value if add else value)
        else:
            table = self.vars[var_index]
            i = int(index)
            table[i] = held_number(table[i] + value if add else value)

    def var(self, name: str) -> Any:
        return self.vars[self.rs.var_index[name]]

    def transfer(self, account: int, payer: int, payee: int, amount: Any, rule: str, factors: tuple[str, ...]) -> None:
        chips = self.vars[account]
        chips[payer] = held_number(chips[payer] - amount)
        chips[payee] = held_number(chips[payee] + amount)
        self.payments.append({"rule": rule, "from": payer, "to": payee, "amount": amount, "factors": list(factors)})

    def note_fired(self, rule_id: str) -> None:
        self.fired[rule_id] = self.fired.get(rule_id, 0) + 1
        self.hand_fired[rule_id] = self.hand_fired.get(rule_id, 0) + 1

    # ----------------------------------------------------------------- chance
    def chance_shuffle(self, pieces: list[int]) -> list[int]:
        """A random order of ``pieces`` (from the log or scenario when one is being replayed)."""
        event = self._next_chance("shuffle")
        if event is not None:
            # Draw as the original game did, so chance after the given outcomes stays the same: a
            # replayed or resumed game deals its later hands exactly as the game it continues.
            self.rng.shuffle(list(pieces))
            pool = list(pieces)
            order = event.get("order")
            if not isinstance(order, list):
                raise GivenChanceError("a shuffle given must list the pieces in their order ('order')", event)
            try:
                ids = [self.piece_from_id(str(x), pool) for x in order]
            except (KeyError, ValueError) as exc:
                raise GivenChanceError(f"the shuffle given cannot be dealt: {_reason(exc)}", event) from None
            if pool:
                missing = ", ".join(self.rs.pieces.type_id(p) for p in pool)
                raise GivenChanceError(f"the shuffle given leaves out {clip(missing, 200)}", event)
            self.record_chance("shuffle", {"order": list(order)})
            return ids
        order = list(pieces)
        shuffle(self.rng, order)
        ids = self.rs.pieces.columns["id"]
        self.history.append({"type": "chance", "kind": "shuffle", "order": [ids[p] for p in order]})  # (record_chance)
        return order

    def chance_roll(self, dice: int, sides: int, where: dict[str, Any] | None = None) -> list[int]:
        """A roll of ``dice`` dice (from the log or scenario when one is being replayed). ``where`` adds to
        the record where the dice went and who may see them (``set``, ``seen_by``: see views.redact_event)."""
        event = self._next_chance("dice")
        if event is not None:
            for _ in range(dice):
                self.rng.randint(1, sides)  # keep the generator in step (see chance_shuffle)
            values = event.get("dice")
            if not (isinstance(values, list) and len(values) == dice
                    and all(isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= sides for v in values)):
                raise GivenChanceError(f"the dice given, {clip(values)}, cannot be a roll of {dice} "
                                       f"{'die' if dice == 1 else 'dice'} of {sides} sides", event)
            values = [int(v) for v in values]
        else:
            values = [self.rng.randint(1, sides) for _ in range(dice)]
        self.record_chance("dice", {"dice": values, **where} if where else {"dice": values})
        return values

    def _next_chance(self, kind: str) -> dict[str, Any] | None:
        """The next given outcome of this kind (shuffles and dice are matched separately, in order)."""
        if not self.chance_feed:
            return None
        for i, event in enumerate(self.chance_feed):
            if event.get("kind") == kind:
                given: dict[str, Any] = self.chance_feed.pop(i)
                return given
        return None

    def piece_from_id(self, type_id: str, pool: list[int]) -> int:
        """Resolve a logged piece type id to a piece int, taking each copy once."""
        t = self.rs.pieces.by_type_id.get(type_id)
        if t is None:
            raise KeyError(f"there is no piece '{clip(type_id)}'")
        for p in self.rs.pieces.instances[t]:
            if p in pool:
                pool.remove(p)
                return p
        raise ValueError(f"piece '{type_id}' appears more often than it exists")

    def record_chance(self, kind: str, outcome: dict[str, Any]) -> None:
        self.history.append({"type": "chance", "kind": kind, **outcome})


def grouped_targets(targets: list[tuple[int, bool]]) -> list[tuple[int, bool, tuple[int, ...]]]:
    """Targets of ``put_from_top`` by destination: (zone instance, face down, positions from the top).

    Each destination receives its pieces in the order they come off the pile, as one by one.
    """
    groups: dict[tuple[int, bool], list[int]] = {}
    for i, target in enumerate(targets):
        groups.setdefault(target, []).append(i)
    return [(zi, down, tuple(picks)) for (zi, down), picks in groups.items()]


def _shuffle_inline(rng: random.Random, x: list[int]) -> None:
    """``rng.shuffle(x)``, drawing exactly what it draws, without two Python calls per piece.

    This is CPython's ``Random.shuffle`` with ``_randbelow_with_getrandbits`` written into its loop:
    a hand's shuffle is a tenth of a short playout's setup, most of it those calls.
    """
    getrandbits = rng.getrandbits
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


# The inline loop is used only where it is known to draw as ``Random.shuffle`` does (a Python whose
# shuffle or _randbelow differ, or a generator class that overrides them, keeps the method).
_INLINE_OK = (random.Random.shuffle.__code__.co_names == ("_randbelow", "reversed", "range", "len")
              and random.Random._randbelow is random.Random._randbelow_with_getrandbits)  # type: ignore[attr-defined]


def shuffle(rng: random.Random, x: list[int]) -> None:
    """Shuffle ``x`` in place exactly as ``rng.shuffle(x)`` does (the same draws, the same order)."""
    if _INLINE_OK and type(rng) is random.Random:
        _shuffle_inline(rng, x)
    else:
        rng.shuffle(x)


MAX_HELD_NUMBER = 10**18


def held_number(value: Any) -> Any:
    """``value``, checked when it is a number a variable is to hold: finite and below 10^18 in size.

    A rule that multiplies a score by itself every hand would otherwise grow it without bound (and
    past what a log can write): the effect doing so is reported at its position instead.
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return value
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"the result is {value}: variables hold finite numbers")
    if not -MAX_HELD_NUMBER < value < MAX_HELD_NUMBER:
        digits = int(abs(int(value)).bit_length() * 0.30103) + 1
        raise ValueError(f"the result has about {digits:,} digits: variables hold numbers below 10^18 in size")
    return value


def _reason(exc: Exception) -> str:
    return str(exc.args[0]) if exc.args else str(exc)


@functools.lru_cache(maxsize=1024)
def _order_from(count: int, direction: int, active: tuple[int, ...], seat: int) -> tuple[int, ...]:
    # Asked at every trick and auction: a handful of distinct answers per ruleset, so remembered.
    return tuple((seat + i * direction) % count for i in range(count) if (seat + i * direction) % count in active)


class Ctx:
    """Mutable slots read by compiled expressions. Phase kinds document which slots they set."""

    __slots__ = ("bind", "cand", "combo", "extra", "memo", "piece", "seat", "st")

    def __init__(self, st: Board | None = None) -> None:
        # None only where no game is read (constants at load time, `rulecraft eval` without a game).
        # A weak reference: the state holds its Ctx, and a strong one back would make every state a
        # reference cycle, freed only by the cyclic garbage collector. A playout drops a state (or a
        # clone) per hand, and the collections that garbage set off took 2% of a playout on a quiet
        # machine and a sixth on a loaded one (benchmarks/README.md).
        self.st: Board = weakref.proxy(st) if st is not None else None  # type: ignore[assignment]
        self.seat: int | None = None
        self.piece: int | None = None
        self.cand: tuple[int, ...] = ()
        self.combo: Play | None = None  # the candidate play (or, after a round, the lead)
        self.bind: dict[str, Any] = {}
        self.extra: dict[str, Any] = {}
        # Rule functions' results by their arguments (dsl.compiler.MEMO): a dict only while a phase
        # builds one decision's options, when the state cannot change; None otherwise.
        self.memo: dict[Any, Any] | None = None


class ZoneView:
    """A read-only view of one zone instance for expressions: iterable, sized, O(1) membership."""

    __slots__ = ("_loc", "_pieces", "_zi")

    def __init__(self, pieces: list[int], loc: list[int], zi: int) -> None:
        self._pieces = pieces
        self._loc = loc
        self._zi = zi

    def __iter__(self) -> Iterator[int]:
        return iter(self._pieces)

    def __len__(self) -> int:
        return len(self._pieces)

    def __contains__(self, piece: object) -> bool:
        return isinstance(piece, int) and 0 <= piece < len(self._loc) and self._loc[piece] == self._zi

    def __getitem__(self, i: int) -> int:
        return self._pieces[i]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ZoneView):
            return self._pieces == other._pieces
        if isinstance(other, list):
            return self._pieces == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]
