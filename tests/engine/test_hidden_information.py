"""What a seat may see is derived from the declarations alone: an information-set property.

For every bundled ruleset and every option choice and preset: two games whose first deals differ only
in pieces seat s cannot see, followed by the same moves (as long as each is legal in both), must give
s identical views and identical seat-filtered logs until s is shown one of the pieces that differ, or
the hand is scored. A variable computed from
a hidden hand and declared public, a legal-move list that depends on another seat's pieces, or a log
event that names a hidden piece makes the two differ.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from rulecraft.engine.determinize import accounted_for
from rulecraft.engine.game import Game
from rulecraft.engine.ruleset import Ruleset
from rulecraft.engine.state import State
from rulecraft.engine.views import visible
from rulecraft.load import load_ruleset
from rulecraft.rules.compose import compose
from rulecraft.rules.registry import list_bundled
from rulecraft.runs.log import log_lines

SEEDS = 4  # games A per configuration
SWAPS = 4  # games B per game A, each dealt with another two hidden pieces swapped
HORIZON = 30  # moves compared after the deal (what a hand reveals of a deal, it mostly reveals early)
LOOK_AHEAD = 4  # other moves tried one step ahead at each step of the walk
WALK = 40  # moves walked at most to reach the first deal




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
    ref = Path(ref).stem if ref.endswith(".yaml") else ref
    return ref + "".join(f" {k}={v}" for k, v in options.items()) + (f" preset={preset}" if preset else "")


def _first_hand_chance(st: State) -> list[dict[str, Any]]:
    """The chance outcomes of the game so far (the first hand's shuffle and dice), as a feed."""
    return [dict(e) for e in st.history if e.get("type") == "chance"]


def _hidden_pairs(st: State, seat: int) -> list[tuple[int, int]]:
    """Pairs of pieces of different types, both hidden from ``seat``, lying in different places. A piece
    the whole table saw face up before it was put where nobody sees it (a starter card turned up and
    buried in the stock) is not hidden: the seat knows where it went."""
    rs = st.rs
    hidden = [p for p in range(rs.pieces.count) if not accounted_for(st, p, seat)]
    return [(p, q) for p in hidden for q in hidden
            if p < q and st.loc[p] != st.loc[q] and rs.pieces.type_id(p) != rs.pieces.type_id(q)]


def _replay(rs: Ruleset, seed: int, chance: list[dict[str, Any]], moves: list[str]) -> State | None:
    st = Game(rs, seed).new_state(chance=[dict(e) for e in chance])
    for text in moves:
        try:
            st.apply(text)
        except Exception:  # B's pieces do not allow a move A made before the twins part
            return None
    return st


def _twins(rs: Ruleset, seed: int, seat: int, rng: random.Random) -> tuple[State, list[tuple[State, set[str]]]] | None:
    """Game A, and games B dealt the same except two pieces of different types hidden from ``seat``, each
    with its two types (identical copies are told apart by nobody, so a deal swaps types, not copies).

    A is walked with random moves until its first hand has dealt pieces the seat cannot see to two
    places (some games ask a decision before dealing: which way to take the wall)."""
    walk = Game(rs, seed).new_state()
    moves: list[str] = []
    while not _hidden_pairs(walk, seat):
        if walk.is_over or walk.hand_no != 1 or len(moves) >= WALK:
            return None
        legal = walk.legal_moves()
        move = legal[rng.randrange(len(legal))]
        walk.apply(move)
        moves.append(str(move))
    chance = _first_hand_chance(walk)
    # A replays the walk's chance outcomes too, so that in A, as in B, the k-th copy of a type named
    # in the shuffle is the type's k-th piece (a drawn shuffle places copies in any order).
    a = _replay(rs, seed, chance, moves)
    shuffle = next((e for e in chance if e["kind"] == "shuffle"), None)
    if a is None or shuffle is None:
        return None
    pairs = _hidden_pairs(a, seat)
    original = list(shuffle["order"])
    twins: list[tuple[State, set[str]]] = []
    for p, q in rng.sample(pairs, min(len(pairs), 4 * SWAPS)):
        order = list(original)
        i, j = _position(rs, order, p), _position(rs, order, q)
        order[i], order[j] = order[j], order[i]
        shuffle["order"] = order
        b = _replay(rs, seed, chance, moves)
        # Two pieces dealt to one hand and parted by moves since then would give B the same game.
        if b is not None and _deal(a) != _deal(b):
            twins.append((b, {rs.pieces.type_id(p), rs.pieces.type_id(q)}))
            if len(twins) == SWAPS:
                break
    return (a, twins) if twins else None


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


def _look_ahead(a: State, b: State, seat: int, swapped: set[str], rng: random.Random, where: str) -> None:
    """The same check one move further, for a few other moves than the walk takes: a leak that needs
    one choice (a seat passing rather than bidding) is found without walking every path."""
    if a.is_over or b.to_act != a.to_act:
        return
    legal = list(itertools.islice(a.legal_moves(), 200))
    for move in rng.sample(legal, min(len(legal), LOOK_AHEAD)):
        a2, b2 = a.clone(), b.clone()
        try:
            b2.apply(str(move))
        except Exception:
            continue
        a2.apply(move)
        if a2.is_over or a2.hand_no != 1 or _sees_any(a2, seat, swapped) or _sees_any(b2, seat, swapped):
            continue
        _same_for(seat, a2, b2, f"{where}, then {move}")


@pytest.mark.parametrize("config", CONFIGURATIONS, ids=[_label(c) for c in CONFIGURATIONS])
def test_a_seat_learns_nothing_from_what_it_cannot_see(config: tuple[str, dict[str, str], str | None]) -> None:
    ref, options, preset = config
    rs = _ruleset(ref, tuple(sorted(options.items())), preset)
    compared = made = 0
    for seed in range(SEEDS):
        rng = random.Random(seed)
        seat = rng.randrange(rs.seats.count)
        found = _twins(rs, seed, seat, rng)
        if found is None:
            continue
        made += 1
        a, live = found
        for b, _ in live:
            _same_for(seat, a, b, f"seed {seed}, after the deal")
        for step in range(HORIZON):
            legal = a.legal_moves()
            move = legal[rng.randrange(len(legal))]
            still = []
            for b, swapped in live:
                try:
                    b.apply(str(move))
                except Exception:  # the move uses a swapped piece, or is legal only with A's pieces
                    continue
                still.append((b, swapped))
            a.apply(move)
            if a.is_over or a.hand_no != 1:
                break  # the hand was scored: what it hid may be shown now
            # A seat that has now seen where the games differ (it took the nest, a claim was revealed)
            # may tell them apart from here on.
            live = [(b, swapped) for b, swapped in still
                    if not _sees_any(a, seat, swapped) and not _sees_any(b, seat, swapped)]
            if not live:
                break
            for b, swapped in live:
                _same_for(seat, a, b, f"seed {seed}, after move {step + 1} ({move})")
                compared += 1
                _look_ahead(a, b, seat, swapped, rng, f"seed {seed}, after move {step + 1} ({move})")
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
