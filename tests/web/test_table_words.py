"""What the table says, from a seat's view: the rule file's labels and places, never the engine's structures."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest

pytest.importorskip("markupsafe")

from rulecraft.engine.game import Game
from rulecraft.load import load_ruleset
from rulecraft.web.render import table_html
from rulecraft.wording import Seats, public_rows

SEATS = Seats(("you", "a", "b", "c"))


def text(page: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def seat_cell(page: str, seat: int) -> str:
    return text(page.split(f'data-seat="{seat}"><b>')[1].split("</li>")[0])


def test_spades_seats_show_partner_dealer_and_side_scores_by_their_labels() -> None:
    rs = load_ruleset("spades")
    view: dict[str, Any] = Game(rs, 1).new_state().view(0)
    view["variables"].update({"dealer": 3, "score": [120, -40], "bid": [4, 0, 3, 2]})
    page = str(table_html(rs, view, [], SEATS))
    assert "partner" in seat_cell(page, 0) and "seat 2 (b)" in seat_cell(page, 0)
    assert "dealer" in seat_cell(page, 3) and "dealer" not in seat_cell(page, 0)
    assert re.search(r"side's score\s+-40", seat_cell(page, 1))  # a team's score at each of its seats
    assert re.search(r"side's score\s+120", seat_cell(page, 2))
    assert re.search(r"bid\s+nil", seat_cell(page, 1)) and re.search(r"bid\s+3", seat_cell(page, 2))


def test_a_hand_is_grouped_under_the_suits_names_and_unplayable_cards_are_dimmed() -> None:
    rs = load_ruleset("hearts")
    view: dict[str, Any] = Game(rs, 1).new_state().view(0)
    view.update({"to_act": 0, "phase": "play", "legal": ["play h3", "play h9"]})
    view["zones"]["hand[0]"] = {"count": 3, "pieces": ["h3", "h9", "sQ"]}
    page = str(table_html(rs, view, [], SEATS))
    assert re.findall(r'<span class="glabel">(.*?)</span>', page) == ["hearts", "spades"]
    dimmed = re.findall(r'class="piece card unplayable" data-piece="(\w+)"', page)
    assert dimmed == ["sQ"]
    assert 'aria-disabled="true"' in page.split('data-piece="sQ"')[1].split(">")[0]


def test_the_claims_picture_is_said_in_words() -> None:
    public = {"attribute": "rank", "claims": [{"seat": 1, "value": "5", "count": 2}], "pile": 2,
              "challengeable": {"seat": 1, "value": "5", "count": 2}, "passed": [2, 3], "challenge_until": "x",
              "may_pass": False, "counts": [1, 4], "over_claims": False}
    rows = dict(public_rows(public, SEATS))
    assert rows == {"claims on the pile": "seat 1 (a): 2 × 5", "pieces in the pile": "2",
                    "may be challenged": "seat 1 (a): 2 × 5", "passed": "seat 2 (b), seat 3 (c)",
                    "may pass": "no", "pieces a claim": "1 to 4",
                    "may claim more than exist": "no"}


def test_a_nil_bid_is_a_button_saying_nil() -> None:
    rs = load_ruleset("spades")
    view: dict[str, Any] = Game(rs, 1).new_state().view(0)
    view.update({"to_act": 0, "phase": "bidding", "legal": ["bid 0", "bid 1"]})
    page = str(table_html(rs, view, [], SEATS))
    assert '<button class="move" data-move="bid 0">bid nil</button>' in page
    assert '<button class="move" data-move="bid 1">bid 1</button>' in page


def test_the_end_of_hand_sheet_says_who_took_what_and_the_running_scores() -> None:
    rs = load_ruleset("hearts")
    view: dict[str, Any] = Game(rs, 1).new_state().view(0)
    view["hand_number"] = 2
    view["variables"].update({"score": [3, 0, 20, 3]})
    events = [{"type": "hand", "number": 1}, {"type": "round", "winner": 2}, {"type": "round", "winner": 2},
              {"type": "round", "winner": 0}, {"type": "hand_end", "number": 1, "voided": False},
              {"type": "hand", "number": 2}]
    page = str(table_html(rs, view, events, SEATS))
    sheet = page.split('id="sheet"')[1].split("</section>")[0]
    assert 'data-ended="1"' in page and "Hand 1 is over" in sheet
    rows = [text(r).split() for r in re.findall(r"<tr>(.*?)</tr>", sheet.split("<tbody>")[1])]
    # seat, rounds won, then the seat's variables as the table shows them: dealer badge, points, this hand
    assert [r[:4] for r in rows] == [["seat", "0", "(you)", "1"], ["seat", "1", "(a)", "0"],
                                     ["seat", "2", "(b)", "2"], ["seat", "3", "(c)", "0"]]
    assert rows[2][-2] == "20"  # the running score
    assert "<th scope=\"col\">tricks won</th>" in sheet  # Hearts' players say tricks


@pytest.mark.parametrize(("ref", "word"), [("hearts", "trick"), ("big-two", "round")])
def test_the_table_calls_a_round_what_the_games_players_call_it(ref: str, word: str) -> None:
    rs = load_ruleset(ref)
    view: dict[str, Any] = Game(rs, 1).new_state().view(0)
    piece = rs.pieces.types[0].id
    events = [{"type": "hand", "number": 1}, {"type": "move", "seat": 1, "move": f"play {piece}"}]
    page = text(str(table_html(rs, view, events, SEATS)))
    assert f"this {word}" in page and re.search(rf"\b{word}s\s+0", page), page[:600]


def test_pieces_shown_in_one_place_are_said_with_the_place_once() -> None:
    from rulecraft.wording import event_text

    rs = load_ruleset("hearts")
    shown = {"type": "show", "pieces": [["h2", "hand[1]"], ["c2", "hand[0]"], ["h3", "hand[1]"]]}
    assert event_text(shown, SEATS, rs) == "shown to all: h2, h3 in hand (seat 1); c2 in hand (seat 0)"


def centre(page: str) -> str:
    return text(page.split('class="centre"')[1].split("</section>")[0])


def test_a_bid_not_doubled_says_nothing_and_a_doubled_one_says_by_which_call() -> None:
    rs = load_ruleset("bridge")
    view: dict[str, Any] = Game(rs, 1).new_state().view(0)
    view["variables"].update({"contract": [4, "S"], "doubled": 0, "trump": "S"})
    assert "doubled" not in centre(str(table_html(rs, view, [], SEATS)))  # never "doubled 0"
    view["variables"]["doubled"] = 1
    assert re.search(r"doubled\s+double\b", centre(str(table_html(rs, view, [], SEATS))))
    view["variables"]["doubled"] = 2
    assert re.search(r"doubled\s+redouble\b", centre(str(table_html(rs, view, [], SEATS))))


def test_a_value_not_set_yet_is_left_unsaid_not_shown_as_a_dash() -> None:
    rs = load_ruleset("tien-gow")
    view: dict[str, Any] = Game(rs, 1).new_state().view(0)
    view["variables"].update({"win_method": "", "dealer_terms": 2})
    page = centre(str(table_html(rs, view, [], SEATS)))
    assert "won by" not in page and "–" not in page and re.search(r"dealer's terms\s+2", page)
    view["variables"]["win_method"] = "supreme"
    assert re.search(r"won by\s+supreme", centre(str(table_html(rs, view, [], SEATS))))
