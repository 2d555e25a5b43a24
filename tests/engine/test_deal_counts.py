"""A deal's count: more pieces than the zone holds is a rule problem named at the count (hands of 12
where the rules say 13 went unnoticed), and so is a count that is no number of pieces."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulecraft.engine.game import Game
from rulecraft.errors import RulecraftError
from rulecraft.load import load_ruleset

GAME = """\
name: my-game
seats: {count: 4}
zones:
  - {id: deck, visibility: nobody}
  - {id: kitty, visibility: nobody}
  - {id: hand, per: seat, visibility: owner}
pieces:
  - id: "c{rank}"
    generate: {rank: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18,
                      19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36]}
    attributes: {}
hand:
  phases:
    - {id: shuffle, kind: shuffle, zone: deck}
    - {id: deal, kind: deal, from: deck, to: hand, count: COUNT SIDE}
    - {id: score, kind: effects, effects: []}
match:
  end_when: "true"
"""


def _hands(tmp_path: Path, count: str, side: str = "") -> list[int]:
    path = tmp_path / "my-game.yaml"
    path.write_text(GAME.replace("COUNT", count).replace(" SIDE", side), encoding="utf-8")
    rs = load_ruleset(str(path))
    st = Game(rs, 1, 1).new_state()
    return [len(st.hand(s)) for s in range(4)]


def test_a_deal_the_deck_can_give(tmp_path: Path) -> None:
    assert _hands(tmp_path, "9") == [9, 9, 9, 9]  # 36 exactly
    assert _hands(tmp_path, "8", ", side: {zone: kitty, total: 4}") == [8, 8, 8, 8]  # 32 + a kitty of 4


@pytest.mark.parametrize(("count", "side", "said"), [
    ("13", "", "deal 'deal' asks for 13 pieces for each of 4 seats (52 in all), but 'deck' holds 36"),
    ('"10 if seat == 0 else 9"', "", "asks for 37 pieces for 4 seats (37 in all), but 'deck' holds 36"),
    ("9", ", side: {zone: kitty, total: 4}", "9 pieces for each of 4 seats and 4 for 'kitty' (40 in all)"),
])
def test_asking_for_more_than_the_zone_holds_is_an_error_at_the_count(tmp_path: Path, count: str, side: str,
                                                                      said: str) -> None:
    with pytest.raises(RulecraftError) as info:
        _hands(tmp_path, count, side)
    assert said in str(info.value)
    assert "my-game.yaml:15:" in str(info.value)  # the deal's line


@pytest.mark.parametrize(("count", "said"), [
    ("-1", "gave -1 for seat 0, which is no number of pieces"),
    ('"2.5 if seat == 0 else 2"', "gave 2.5 for seat 0, which is no number of pieces"),
    ('"seat < 2"', "a number is expected here"),  # refused when the rules load
])
def test_a_count_that_is_no_number_of_pieces_is_an_error(tmp_path: Path, count: str, said: str) -> None:
    with pytest.raises(RulecraftError) as info:
        _hands(tmp_path, count)
    assert said in str(info.value)
    assert "my-game.yaml:15:" in str(info.value)
