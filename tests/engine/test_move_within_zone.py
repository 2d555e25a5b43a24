"""A ``move`` effect from a zone to the same zone puts the pieces at its end (a card buried at the
bottom of the stock), as a move to another zone does; it used to do nothing, without a word."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from rulecraft.engine.build import build_from_data
from rulecraft.engine.game import Game
from rulecraft.rules.compose import compose

EIGHTS = Path(__file__).resolve().parents[2] / "variants" / "crazy-eights" / "base.yaml"


def _deck_after_starter(extra: list[dict[str, Any]]) -> list[str]:
    data = copy.deepcopy(compose(str(EIGHTS), {}).data)
    phases = data["hand"]["phases"]
    at = next(i for i, p in enumerate(phases) if p["id"] == "starter") + 1
    phases[at:at] = extra
    st = Game(build_from_data(data, name="crazy-eights", chosen={}, content_hash="test"), 5).new_state()
    return [st.rs.pieces.type_id(p) for p in st.zones[st.rs.zone_by_name["deck"].base]]


def test_moving_pieces_within_their_zone_puts_them_at_its_end() -> None:
    plain = _deck_after_starter([])
    buried = _deck_after_starter([{"id": "bury-top-two", "kind": "effects", "effects": [
        {"id": "bury", "move": {"from": "deck", "to": "deck", "pieces": "[zone('deck')[1], zone('deck')[0]]"}}]}])
    assert buried == [*plain[2:], plain[1], plain[0]]  # at the bottom, in the order the move names them
