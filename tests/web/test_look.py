"""Pieces drawn from ``display.draw``: tiles with their pips and red dots, cards with inks and captions."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("markupsafe")

from rulecraft.errors import RuleFileError
from rulecraft.load import load_ruleset
from rulecraft.web.look import piece_html
from rulecraft.wording import hand_groups, named_value


def pips(svg: str) -> list[str]:
    return re.findall(r'<circle [^>]*fill="([^"]+)"', svg)


def test_a_tile_has_the_pips_its_id_names_with_ones_and_fours_red() -> None:
    rs = load_ruleset("tien-gow")
    tile = str(piece_html(rs, "1-4"))
    assert 'data-piece="1-4"' in tile and "<svg" in tile
    assert pips(tile) == ["#d32f2f"] * 5  # 1 + 4, all red
    three_five = pips(str(piece_html(rs, "3-5")))
    assert len(three_five) == 8 and "#d32f2f" not in three_five
    heaven = pips(str(piece_html(rs, "6-6")))
    assert heaven.count("#d32f2f") == 6 and len(heaven) == 12  # half of the 6-6 is red


def test_a_card_shows_its_rank_its_suit_by_name_and_its_ink() -> None:
    rook = load_ruleset("rook")
    card = str(piece_html(rook, "green-12"))
    assert '<span class="corner">12</span>' in card and ">green<" in card and "color:#2e7d32" in card
    assert '<span class="corner">Bird</span>' in str(piece_html(rook, "rook-bird"))
    luk = load_ruleset("luk-fu")
    coins = str(piece_html(luk, "coins-3", lang="zh"))
    assert ">錢<" in coins and '<span class="corner">3</span>' in coins  # the suit by its name in the table's language
    assert "color:#c62828" in str(piece_html(luk, "strings-9"))  # a red card
    assert "color:#212121" in str(piece_html(luk, "strings-8"))
    assert ">♥<" in str(piece_html(load_ruleset("yukushi"), "hQ"))


@pytest.mark.parametrize("ref", ["doubt", "hearts", "spades", "big-two"])
def test_a_plain_pack_shows_the_rank_large_the_suit_as_its_symbol_and_red_suits_red(ref: str) -> None:
    rs = load_ruleset(ref)
    ids, ranks, suits = (rs.pieces.columns[c] for c in ("id", "rank", "suit"))
    for suit, symbol, ink in (("h", "♥", "#c62828"), ("d", "♦", "#c62828"), ("s", "♠", "#212121"),
                              ("c", "♣", "#212121")):
        i = suits.index(suit)  # the first card of the suit
        card = str(piece_html(rs, ids[i]))
        assert f'<span class="corner">{ranks[i]}</span>' in card, card
        assert f">{symbol}<" in card and f"color:{ink}" in card, card


def test_a_hand_is_grouped_and_sorted_as_the_display_says() -> None:
    rs = load_ruleset("rook")
    groups = hand_groups(rs, ["black-5", "red-14", "red-6", "rook-bird", "yellow-9"], None)
    assert groups == [("red", ["red-6", "red-14"]), ("yellow", ["yellow-9"]), ("black", ["black-5"]),
                      ("bird", ["rook-bird"])]


def test_draw_naming_an_unknown_attribute_or_piece_is_an_error_at_its_line(tmp_path: Path) -> None:
    f = tmp_path / "house.yaml"
    f.write_text("extends: rook\nname: house\ndisplay:\n  draw:\n    corner: rnak\n    labels: {no-such: X}\n",
                 encoding="utf-8")
    with pytest.raises(RuleFileError) as err:
        load_ruleset(str(f))
    text = str(err.value)
    assert "house.yaml:5:13" in text and "unknown piece attribute 'rnak' (did you mean 'rank'?)" in text
    assert "unknown piece 'no-such'" in text


@pytest.mark.parametrize("ref", ["hearts", "spades", "big-two"])
def test_a_plain_packs_suits_are_named_in_full_in_english(ref: str) -> None:
    # The suits' letters are the ids' first letter; with --lang en each group and suit reads its name.
    rs = load_ruleset(ref)
    assert [named_value(rs, "suit", s, "en") for s in "cdhs"] == ["clubs (c)", "diamonds (d)", "hearts (h)",
                                                                  "spades (s)"]
    assert named_value(rs, "suit", "h", None) == "h"  # no language chosen: the id alone
