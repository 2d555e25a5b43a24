"""Invariants that must hold in every reachable state of every game, checked over many seeded games.

- every piece is in exactly one zone, and the location table agrees with the zones;
- a seat's view never shows a piece in another seat's hand or in a hidden zone;
- while the game is not over someone is to act and has at least one legal move;
- replaying the game's log reaches the same final state.
"""

from __future__ import annotations

import pytest
from support import ruleset

from rulecraft.engine.game import Game
from rulecraft.engine.state import State
from rulecraft.runs.invariants import state_problems
from rulecraft.runs.log import log_lines, replay_lines
from rulecraft.runs.simulate import play_game

CRAZY_EIGHTS = "crazy-eights"
FAN_TAN = "fan-tan"
DUMMY_WHIST = "dummy-whist"
KNOCK_OUT = "knock-out-whist"
# Rook with random agents rarely reaches 300 (the bidder usually fails), so matches are kept short.
GAMES = [("rook", {}, seed) for seed in range(6)] + [
    ("rook", {"bird_rank": "lowest", "ones": "kept"}, 100),
    ("rook", {"nest_to": "bidder", "first_lead": "left-of-bidder", "bird_forced": "only-trump"}, 101),
    ("luk-fu", {}, 7),
    ("luk-fu", {"players": "4", "old_cards": "public-plus-original-run", "five_tricks": "unbeatable"}, 8),
    ("tien-gow", {}, 9),
    ("tien-gow", {"bunmu_son": "wen-loses-to-long-seven", "pickup": "tiers-from-bottom"}, 10),
    # a shed phase: draws from a stock, refilled from the pile; a play that makes its player choose
    (CRAZY_EIGHTS, {}, 11),
    (CRAZY_EIGHTS, {"players": "2", "draw": "one", "empty_stock": "reshuffle", "action_cards": "on"}, 12),
    (CRAZY_EIGHTS, {"players": "3", "draw_when": "any-time", "draw": "three", "action_cards": "on"}, 13),
    # a penalty that grows as twos pass it on, drawn whole; passes by choice
    (CRAZY_EIGHTS, {"players": "3", "action_cards": "stacking", "empty_stock": "reshuffle"}, 14),
    (CRAZY_EIGHTS, {"players": "2", "action_cards": "stacking", "draw_when": "any-time"}, 15),
    (FAN_TAN, {"passing": "any-time"}, 16),
    # a seat whose decisions another seat's player makes (a dummy), laid face up at the deal or after the lead
    (DUMMY_WHIST, {}, 17),
    (DUMMY_WHIST, {"players": "2", "dummy_exposed": "after-the-opening-lead"}, 18),
    # seats knocked out for the rest of the match (sits_out reading a match variable), hands shrinking
    (KNOCK_OUT, {}, 19),
    (KNOCK_OUT, {"players": "7"}, 20),
]


def check_state(st: State) -> None:
    problems = state_problems(st)
    assert not problems, problems


@pytest.mark.parametrize(("ref", "options", "seed"), GAMES)
def test_invariants_hold_and_replay_matches(ref: str, options: dict[str, str], seed: int) -> None:
    rs = ruleset(ref, **options)
    final, moves = play_game(rs, seed, ["random"] * rs.seats.count, on_state=check_state, max_hands=12)
    assert final.is_over and moves > 0
    replayed = replay_lines(log_lines(final, ["random"] * rs.seats.count), rs)
    assert replayed.view(None) == final.view(None)
    assert replayed.history == final.history


def test_same_seed_same_game_byte_for_byte() -> None:
    rs = ruleset("rook")
    a, _ = play_game(rs, 7, ["random"] * 4, max_hands=5)
    b, _ = play_game(rs, 7, ["random"] * 4, max_hands=5)
    c, _ = play_game(rs, 8, ["random"] * 4, max_hands=5)
    assert log_lines(a, ["random"] * 4) == log_lines(b, ["random"] * 4)
    assert log_lines(a, ["random"] * 4) != log_lines(c, ["random"] * 4)


def test_invariants_catch_a_broken_state(monkeypatch: pytest.MonkeyPatch) -> None:
    """The checker is not vacuous: a duplicated piece, a leaked hand and a dead end are each caught."""
    rs = ruleset("rook")
    live = Game(rs, 4).new_state()
    assert not state_problems(live)

    broken = live.clone()
    piece = broken.zones[broken.loc[0]].pop()
    broken.zones[0].extend([piece, piece])
    assert any("2 places" in p for p in state_problems(broken, check_views=False))

    stuck = live.clone()
    stuck.to_act = None
    assert "no seat is to act" in " ".join(state_problems(stuck, check_views=False))

    honest = State.view

    def leaky(st: State, seat: int | None) -> dict:  # type: ignore[type-arg]
        out = honest(st, seat)
        other = (int(seat or 0) + 1) % 4
        out["zones"][f"hand[{other}]"]["pieces"] = [rs.pieces.type_id(p) for p in st.hand(other)]
        return out

    monkeypatch.setattr(State, "view", leaky)
    assert any("may not see" in p for p in state_problems(live))
