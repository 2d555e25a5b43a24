"""Determinization: one complete game state a seat could be in, sampled from what that seat knows.

A search agent must not read hidden pieces. It plays on a *determinization* instead: a clone of the
state in which every piece the seat cannot account for is dealt again at random into the places such
pieces occupy (other seats' hands, face-down pieces it did not put down, hidden zones such as the
deck, a wall's cells), keeping each place's size, since how many pieces a seat or zone holds is
public. What the seat can account for stays put:

* pieces it sees now (``views.visible``: its hand, face-up pieces in shared zones, pieces it put
  face down itself);
* pieces it saw face up that have since gone, still face up, into a zone nobody sees (a captured
  trick): it watched them go there. A piece that went into a seat's hand is hidden again, since
  that seat may have played it face down since, and only the holder knows.

The hidden places are taken in a fixed order (zone, then position) and filled with a shuffle of the
hidden pool drawn from the agent's RNG alone, so the result depends only on what the seat may know
and on that RNG — never on which hidden piece really is where. What belongs to a *place* moves with
the place (zone, face down, who put it down, who was dealt it); what belongs to a piece's identity
and is public stays with the piece (seen face up, public marks). The clone's own RNG is reseeded
from the agent's RNG, so chance later in the game (a next deal) is not the real game's either.

Dice the seat may not see (other seats' cups: ``views.sees_variable``) are rolled again from the
agent's RNG, keeping how many each holds, which is public.

Only the seat to act is determinized for: the phases' cached options of that seat (built from its
own, visible hand) stay valid in the clone.

A caller that has learnt more (a seat that could not follow a suit holds none of it) passes ``fits``:
``fits(zone_instance, piece)`` says whether ``piece`` may lie in that zone instance, and the shuffle is
repaired by swaps between hidden places until every piece fits its place (as far as swaps can do it:
what cannot be repaired is left as drawn, so a sample always exists).

Phase data may hold pieces too (a trick's face-down plays, a claim's pieces); by the phase kinds'
convention such fields are named ``pieces`` or ``*_pieces``, and :func:`remap_pieces` rewrites them.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from typing import Any

from rulecraft.engine.history import History
from rulecraft.engine.phases.dice import dice_targets
from rulecraft.engine.state import State
from rulecraft.engine.views import sees_variable, visible


def accounted_for(st: State, piece: int, seat: int) -> bool:
    """Whether ``seat`` knows where ``piece`` is (see the module docstring)."""
    if visible(st, piece, seat):
        return True
    if st.face_down[piece] or not st.seen_public[piece]:
        return False
    return bool(st.zone_of_instance(st.loc[piece]).per == "none")


def hidden_pieces(st: State, seat: int) -> list[int]:
    """The pieces ``seat`` cannot account for, in piece order (a public set, whatever their places)."""
    return [p for p in range(st.rs.pieces.count) if not accounted_for(st, p, seat)]


def determinize(st: State, seat: int, rng: random.Random, light: bool = True,
                fits: Callable[[int, int], bool] | None = None) -> State:
    """A clone of ``st`` with the pieces hidden from ``seat`` dealt again at random into their places.

    ``light`` drops the game's history and past hand results from the clone: searches do not read
    them, and copying a long match's history for every playout would dominate the cost.
    """
    c = _light_clone(st) if light else st.clone()
    hidden = hidden_pieces(st, seat)
    hidden_set = set(hidden)
    # Places in a fixed order (zone instance, then position): the k-th hidden place receives the
    # k-th piece of a shuffle of the hidden set, so which hidden piece truly lies where never matters.
    held = [p for zone in st.zones for p in zone if p in hidden_set]
    shuffled = list(hidden)
    rng.shuffle(shuffled)
    if fits is not None:
        _repair(held, shuffled, [st.loc[p] for p in held], fits, rng)
    mapping = dict(zip(held, shuffled, strict=True))  # the piece now at old p's place
    if mapping:
        _apply_mapping(st, c, mapping)
    _reroll_hidden_dice(c, seat, rng)
    c.rng = random.Random(rng.getrandbits(64))
    c._legal_cache = None
    return c


def _reroll_hidden_dice(c: State, seat: int, rng: random.Random) -> None:
    """Roll again, from the agent's RNG, every die ``seat`` may not see (other seats' cups): how many
    dice each holds is public, their faces are not. Done in place of the real ones, in a fixed order."""
    for vi, sides in dice_targets(c.rs):
        value = c.vars[vi]
        entries = range(len(value)) if c.rs.variables[vi].per != "none" else (None,)
        for entry in entries:
            if sees_variable(c, vi, entry, seat):
                continue
            faces = value if entry is None else value[entry]
            if isinstance(faces, list):
                rolled = [rng.randint(1, sides) if isinstance(f, int) else f for f in faces]
                if entry is None:
                    c.vars[vi] = rolled
                else:
                    value[entry] = rolled


def _repair(held: list[int], shuffled: list[int], places: list[int], fits: Callable[[int, int], bool],
            rng: random.Random) -> None:
    """Swap pieces between places until each fits its place (``places[i]``: the zone instance of place i)."""
    n = len(shuffled)
    for i in range(n):
        if fits(places[i], shuffled[i]):
            continue
        start = rng.randrange(n)
        for k in range(n):
            j = (start + k) % n
            if j != i and fits(places[i], shuffled[j]) and fits(places[j], shuffled[i]):
                shuffled[i], shuffled[j] = shuffled[j], shuffled[i]
                break


def _light_clone(st: State) -> State:
    history, results = st.history, st.hand_results
    st.history, st.hand_results = History(), []
    try:
        return st.clone()
    finally:
        st.history, st.hand_results = history, results


def _apply_mapping(src: State, c: State, mapping: dict[int, int]) -> None:
    for zi, zone in enumerate(c.zones):
        if any(p in mapping for p in zone):
            c.zones[zi] = [mapping.get(p, p) for p in zone]
    for zi, cells in c.cells.items():
        c.cells[zi] = [mapping.get(p, p) if p >= 0 else p for p in cells]
    for old, new in mapping.items():
        c.loc[new] = src.loc[old]
        c.face_down[new] = src.face_down[old]
        c.downed_by[new] = src.downed_by[old]
        c.dealt_owner[new] = src.dealt_owner[old]
    if src.known:  # who knows what lies in a place goes with the place
        c.known = {mapping.get(p, p): where for p, where in src.known.items()}
    if c.pdata is not None:
        c.pdata = remap_pieces(c.pdata, mapping)


def exchange(st: State, a: int, b: int) -> None:
    """Swap the places of pieces ``a`` and ``b`` in ``st``, in place (a sampled world adjusted afterwards).

    As in :func:`determinize`, what belongs to a place (zone and position, face down, who put it down,
    who was dealt it) stays with the place, and the phase data's piece fields follow the pieces.
    """
    if a == b:
        return
    za, zb = st.loc[a], st.loc[b]
    ia, ib = st.zones[za].index(a), st.zones[zb].index(b)
    st.zones[za][ia], st.zones[zb][ib] = b, a
    for cells in st.cells.values():
        for i, p in enumerate(cells):
            if p in (a, b):
                cells[i] = b if p == a else a
    st.loc[a], st.loc[b] = zb, za
    st.face_down[a], st.face_down[b] = st.face_down[b], st.face_down[a]
    st.downed_by[a], st.downed_by[b] = st.downed_by[b], st.downed_by[a]
    st.dealt_owner[a], st.dealt_owner[b] = st.dealt_owner[b], st.dealt_owner[a]
    if st.pdata is not None:
        st.pdata = remap_pieces(st.pdata, {a: b, b: a})
    st._legal_cache = None


_LEAVES = frozenset({int, str, float, bool, tuple, dict, type(None)})  # what remap_pieces leaves as it is


def remap_pieces(obj: Any, mapping: dict[int, int], top: bool = True) -> Any:
    """``obj`` (phase data) with the piece references in its ``pieces`` / ``*_pieces`` fields remapped.

    Walks dataclass fields and lists. Only the top object (the clone's own copy of the phase data) is
    updated in place; anything below it may be shared with the state it was cloned from, so a list or
    dataclass that changes is replaced by a changed copy.
    """
    if isinstance(obj, list):
        if all(type(item) in _LEAVES for item in obj):  # (a phase's record of public events grows all game)
            return obj
        items = [remap_pieces(item, mapping, False) for item in obj]
        return items if any(a is not b for a, b in zip(items, obj, strict=True)) else obj
    if not dataclasses.is_dataclass(obj) or isinstance(obj, type):
        return obj
    changes: dict[str, Any] = {}
    for f in dataclasses.fields(obj):
        value = getattr(obj, f.name)
        if f.name == "pieces" or f.name.endswith("_pieces"):
            if isinstance(value, (tuple, list)) and any(p in mapping for p in value):
                changes[f.name] = type(value)(mapping.get(p, p) for p in value)
        elif isinstance(value, list) or (dataclasses.is_dataclass(value) and not isinstance(value, type)):
            new = remap_pieces(value, mapping, False)
            if new is not value:
                changes[f.name] = new
    if not changes:
        return obj
    params = getattr(obj, "__dataclass_params__", None)
    if not top or (params is not None and params.frozen):
        return dataclasses.replace(obj, **changes)
    for name, value in changes.items():
        setattr(obj, name, value)
    return obj
