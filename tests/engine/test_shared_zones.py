"""A phase that names a zone without an owner (the zone it shuffles, deals from, plays rounds to, takes a
wall from, keeps a claims pile in ...) needs a shared zone: naming a per-seat zone there is refused when
the rule file is built, at the name, instead of failing in the middle of a game."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from support import ruleset

from rulecraft.engine.build import build_from_data
from rulecraft.errors import RuleFileError


def _phase(data: dict[str, Any], pid: str) -> dict[str, Any]:
    return next(p for p in data["hand"]["phases"] if p["id"] == pid)


CASES = [  # game, phase, where in the phase, what the message calls it
    ("doubt", "shuffle", ["zone"], "the zone a shuffle shuffles"),
    ("rook", "deal", ["from"], "the zone a deal deals from"),
    ("rook", "deal", ["side", "zone"], "a deal's side zone"),
    ("rook", "nest", ["take"], "the zone an exchange takes from"),
    ("rook", "nest", ["to"], "the zone an exchange gives to"),
    ("rook", "play", ["zone"], "the zone a round is played to"),
    ("big-two", "play", ["zone"], "the zone a round is played to"),
    ("big-two", "play", ["discard"], "the zone a finished round is put in"),
    ("doubt", "play", ["pile"], "the pile of a claims phase"),
    ("tien-gow", "build-wall", ["from"], "the zone a wall is built from"),
    ("tien-gow", "pickup", ["wall"], "the wall a pickup takes from"),
]


@pytest.mark.parametrize(("game", "pid", "path", "role"), CASES)
def test_a_per_seat_zone_where_a_shared_one_is_needed_is_refused_at_load(game: str, pid: str, path: list[str],
                                                                         role: str) -> None:
    data = copy.deepcopy(ruleset(game).composed.data)  # type: ignore[union-attr]
    target = _phase(data, pid)
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = "hand"
    with pytest.raises(RuleFileError, match=f"{role} is one shared zone; 'hand' has one instance per seat"):
        build_from_data(data, name=game, chosen={}, content_hash="test")
