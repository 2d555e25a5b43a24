"""What a seat may see is derived from the declarations alone: an information-set property.

For every bundled ruleset and every option choice and preset: two games whose first deals differ only
in pieces seat s cannot see, followed by the same moves (as long as each is legal in both), must give
s identical views and identical seat-filtered logs until s is shown one of the pieces that differ, or
the hand is scored. A variable computed from
a hidden hand and declared public, a legal-move list that depends on another seat's pieces, or a log
event that names a hidden piece makes the two differ.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest

from rulecraft.engine.game import Game
from rulecraft.engine.ruleset import Ruleset
from rulecraft.engine.state import State
from rulecraft.engine.views import visible
from rulecraft.load import load_ruleset
from rulecraft.rules.compose import compose
from rulecraft.rules.registry import list_bundled
from rulecraft.runs.log import log_lines

MOVES_PER_HAND = 400  # a bound on the walk; every bundled hand is shorter
SEEDS = 12  # twin games tried per configuration, until ENOUGH moves were compared
ENOUGH = 30


def _configurations() -> Iterator[tuple[str, dict[str, str], str | None]]:
    """Every bundled ruleset with its defaults, each non-default option choice, and each preset."""
    for ref in list_bundled():
        base = compose(ref)
        yield ref, {}, None
        for opt in base.options:
            for choice in opt.choices:
                if choice.id != opt.default:
                    yield ref, {opt.id: choice.id}, None
        for preset in base.presets:
            yield ref, {}, preset.id


CONFIGURATIONS = list(_configurations())


@cache
def _ruleset(ref: str, options: tuple[tuple[str, str], ...], preset: str | None) -> Ruleset:
    return load_ruleset(ref, dict(options), preset)


def _label(config: tuple[str, dict[str, str], str | None]) -> str:
    ref, options, preset = config
    return ref + "".join(f" {k}={v}" for k, v in options.items()) + (f" preset={preset}" if preset else "")


def _first_hand_chance(st: State) -> list[dict[str, Any]]:
    """The chance outcomes of the game so far (the first hand's shuffle and dice), as a feed."""
    return [dict(e) for e in st.history if e.get("type") == "chance"]


def _twin(rs: Ruleset, seed: int, seat: int, rng: random.Random) -> tuple[State, State, set[str]] | None:
    """Game A, game B dealt the same except two pieces of different types hidden from ``seat``, and the
    two types (identical copies are told apart by nobody, so the deal swaps types, not copies)."""
    first = Game(rs, seed).new_state()
    if first.is_over or first.hand_no != 1:
        return None
    chance = _first_hand_chance(first)
    # A replays the first game's chance outcomes too, so that in A, as in B, the k-th copy of a type
    # named in the shuffle is the type's k-th piece (a drawn shuffle places copies in any order).
    a = Game(rs, seed).new_state(chance=[dict(e) for e in chance])
    shuffle = next((e for e in chance if e["kind"] == "shuffle"), None)
    if shuffle is None:
        return None
    hidden = [p for p in range(rs.pieces.count) if not visible(a, p, seat)]
    pairs = [(p, q) for p in hidden for q in hidden
             if p < q and a.loc[p] != a.loc[q] and rs.pieces.type_id(p) != rs.pieces.type_id(q)]
    if not pairs:
        return None
    p, q = rng.choice(pairs)
    order = list(shuffle["order"])
    i, j = _position(rs, order, p), _position(rs, order, q)
    order[i], order[j] = order[j], order[i]
    shuffle["order"] = order
    b = Game(rs, seed).new_state(chance=chance)
    assert _deal(a) != _deal(b), "the twin games were dealt alike"
    return a, b, {rs.pieces.type_id(p), rs.pieces.type_id(q)}


def _position(rs: Ruleset, order: list[str], piece: int) -> int:
    """Where ``piece`` is in a logged shuffle: the k-th copy of a type is the k-th time it is named."""
    type_id = rs.pieces.type_id(piece)
    k = rs.pieces.instances[rs.pieces.by_type_id[type_id]].index(piece)
    return [i for i, x in enumerate(order) if x == type_id][k]


def _deal(st: State) -> list[list[str]]:
    return [sorted(st.rs.pieces.type_id(p) for p in zone) for zone in st.zones]


def _sees_any(st: State, seat: int, types: set[str]) -> bool:
    return any(visible(st, p, seat) for p in range(st.rs.pieces.count) if st.rs.pieces.type_id(p) in types)


def _seen(st: State, seat: int) -> dict[str, Any]:
    """The seat's view, each zone's pieces as a multiset: which copy of identical pieces a move took
    changes the order of a hand, and the order says nothing about hidden pieces."""
    view = st.view(seat)
    for entry in view["zones"].values():
        if "pieces" in entry:
            entry["pieces"] = sorted(entry["pieces"])
    return view


def _same_for(seat: int, a: State, b: State, where: str) -> None:
    assert _seen(a, seat) == _seen(b, seat), f"{where}: seat {seat}'s view depends on pieces it cannot see"
    assert log_lines(a, viewer=seat) == log_lines(b, viewer=seat), \
        f"{where}: seat {seat}'s log depends on pieces it cannot see"


@pytest.mark.parametrize("config", CONFIGURATIONS, ids=[_label(c) for c in CONFIGURATIONS])
def test_a_seat_learns_nothing_from_what_it_cannot_see(config: tuple[str, dict[str, str], str | None]) -> None:
    ref, options, preset = config
    rs = _ruleset(ref, tuple(sorted(options.items())), preset)
    compared = made = 0
    for seed in range(SEEDS):
        if compared >= ENOUGH:
            break
        rng = random.Random(seed)
        seat = rng.randrange(rs.seats.count)
        twins = _twin(rs, seed, seat, rng)
        if twins is None:
            continue
        made += 1
        a, b, swapped = twins
        _same_for(seat, a, b, f"seed {seed}, after the deal")
        for step in range(MOVES_PER_HAND):
            legal = a.legal_moves()
            move = legal[rng.randrange(len(legal))]
            try:
                b.apply(str(move))
            except Exception:  # the move uses a swapped piece, or is legal only with A's pieces: stop here
                break
            a.apply(move)
            if a.is_over or a.hand_no != 1:
                break  # the hand was scored: what it hid may be shown now
            if _sees_any(a, seat, swapped) or _sees_any(b, seat, swapped):
                break  # the seat has now seen where the games differ (it took the nest, a claim was revealed)
            _same_for(seat, a, b, f"seed {seed}, after move {step + 1} ({move})")
            compared += 1
    if not made:  # e.g. two seats holding every piece: the other hand is the only place a seat cannot see
        pytest.skip("no two places hidden from a seat hold different pieces after the deal")
    assert compared, f"{_label(config)}: no twin games could be compared"


def test_the_property_catches_a_public_variable_computed_from_a_hidden_hand(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # A leak planted on purpose: every seat's view shows how many pieces each other seat holds of
    # the first suit... as a public variable would. The property must fail.
    import rulecraft.engine.state as state_module

    honest = state_module.board_view

    def leaky(st: Any, seat: int | None) -> dict[str, Any]:
        out = honest(st, seat)
        out["variables"]["leak"] = [sorted(st.hand(s)) for s in range(st.rs.seats.count)]
        return out

    monkeypatch.setattr(state_module, "board_view", leaky)
    with pytest.raises(AssertionError, match="depends on pieces it cannot see"):
        test_a_seat_learns_nothing_from_what_it_cannot_see(("rook", {}, None))
