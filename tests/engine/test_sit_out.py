"""The `sit_out` effect: seats that take no further part in a hand once the rules say so (a partner
whose partner plays alone), as if `seats.sits_out` had named them when the hand began."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from support import ruleset

from rulecraft.engine.build import build_from_data
from rulecraft.engine.game import Game
from rulecraft.engine.ruleset import Ruleset
from rulecraft.errors import RulecraftError


def _hearts_where(seats: str) -> Ruleset:
    """Hearts in the fourth hand of the rotation (no pass), where an effect before the play makes
    ``seats`` sit out."""
    data: dict[str, Any] = copy.deepcopy(ruleset("hearts").composed.data)  # type: ignore[union-attr]
    phases = data["hand"]["phases"]
    play = next(i for i, p in enumerate(phases) if p["id"] == "play")
    phases.insert(play, {"id": "alone", "kind": "effects", "effects": [{"id": "sits", "sit_out": {"seats": seats}}]})
    phases[play + 1]["first"] = "first(s for s in active() if holds(s, piece('c2')))"
    data["match"]["start"] = [{"set": {"passes": 3}}]
    return build_from_data(data, name="hearts", chosen={}, content_hash="test")


def test_a_seat_that_sits_out_is_passed_by_in_every_trick() -> None:
    rs = _hearts_where("[left_of(first(s for s in seats() if holds(s, piece('c2'))))]")
    st = Game(rs, 3).new_state()
    leader = st.to_act
    out = (leader + 1) % 4
    assert st.active == tuple(s for s in range(4) if s != out)
    assert st.fired.get("sits") == 1
    seen: list[int] = []
    while not st.is_over and st.hand_no == 1:
        seen.append(st.to_act)
        st.apply(st.legal_moves()[0].text)
    assert out not in seen and len(seen) == 3 * 13  # three seats play every trick
    assert st.hand_no == 2 and st.active == (0, 1, 2, 3)  # the next hand deals everyone in again


def test_sitting_out_every_seat_is_an_error_at_the_effect() -> None:
    rs = _hearts_where("seats()")
    with pytest.raises(RulecraftError, match="sit_out would leave no seat to play the hand"):
        Game(rs, 3).new_state()


def test_sit_out_needs_seats() -> None:
    rs = _hearts_where("[7]")
    with pytest.raises(RulecraftError, match=r"sit_out needs seats \(0 to 3\)"):
        Game(rs, 3).new_state()
