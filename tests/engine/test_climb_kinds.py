"""The climbing round's kinds, each on a small game written for the test: plays that beat other classes
(``beats``), runs of groups in an order given by an expression, kickers and wild pieces, equal plays,
what a play makes its player do (``give``, ``choose``, ``lead``), where a round goes (``capture``,
``close_round``), plays out of turn (``interrupt``), calls on a turn, restrictions that forbid passing
(``compel``), ``end_when`` after every play, and ``on_play`` ids in ``fired``."""

from __future__ import annotations

import copy
from typing import Any

import pytest
import yaml

from rulecraft.engine.build import build_from_data
from rulecraft.engine.game import Game
from rulecraft.engine.ruleset import Ruleset
from rulecraft.engine.state import State
from rulecraft.errors import IllegalMoveError, RuleFileError

MINI = yaml.safe_load("""
name: mini-climb
seats: {count: 3, direction: clockwise}
pieces:
  - id: "{suit}{n}"
    generate: {suit: [a, b, c, d], n: [1, 2, 3, 4, 5, 6, 7, 8, 9]}
  - {id: w, attributes: {suit: w, n: 20}}
zones:
  - {id: deck, visibility: nobody}
  - {id: hand, per: seat, visibility: owner}
  - {id: trick, visibility: all}
  - {id: pile, visibility: all}
  - {id: won, per: seat, visibility: all}
variables:
  dealer: {scope: match, type: seat, initial: 0}
  place: {scope: hand, per: seat, type: number, initial: 0}
  named: {scope: hand, type: number, initial: 0}
  gift: {scope: hand, type: seat, initial: 0}
  called: {scope: hand, per: seat, type: bool, initial: false}
combinations:
  - {id: single, kind: single, strength: "n(piece)"}
  - {id: pair, kind: same, by: n, size: 2, strength: top, wild: "piece == piece('w')"}
  - {id: run, kind: run, by: n, min: 3, strength: top, wild: "piece == piece('w')"}
  - {id: bomb, kind: same, by: n, size: 4, class: "'bomb'", strength: top, beats: "true"}
hand:
  phases:
    - {id: shuffle, kind: shuffle, zone: deck}
    - {id: deal, kind: deal, from: deck, to: hand, first: 0, count: 5}
    - {id: play, kind: climb, first: 0, zone: trick, discard: pile, places: place, end_when: "count(finished) >= 1"}
match:
  end_when: "true"
  max_hands: 1
  score: "-count(hand(seat))"
""")


def _rules(**play: Any) -> Ruleset:
    data = copy.deepcopy(MINI)
    phase = next(p for p in data["hand"]["phases"] if p["id"] == "play")
    for key, value in play.items():
        if value is None:
            phase.pop(key, None)
        else:
            phase[key] = value
    return build_from_data(data, name="mini-climb", chosen={}, content_hash="test")


def _with_combos(rs_data: dict[str, Any], combos: list[dict[str, Any]]) -> Ruleset:
    data = copy.deepcopy(rs_data)
    data["combinations"] = combos
    return build_from_data(data, name="mini-climb", chosen={}, content_hash="test")


def _state(rs: Ruleset, hands: list[list[str]]) -> State:
    """A game whose deal gives each seat the pieces listed (five each), the rest left in the deck."""
    ids = [rs.pieces.type_id(p) for p in range(rs.pieces.count)]
    order = [h[i] for i in range(5) for h in hands]
    order += [x for x in ids if x not in order]
    return Game(rs, 1).new_state(chance=[{"type": "chance", "kind": "shuffle", "order": order}])


def _text(move: str) -> str:
    """A move's text with its pieces in order, as ``_legal`` writes it (a play names a set of pieces)."""
    verb, *words = move.split()
    return " ".join([verb, *sorted(words)])


def _legal(st: State) -> set[str]:
    return {_text(m.text) for m in st.legal_moves()}


HANDS = [["a1", "a2", "a3", "a9", "w"], ["b2", "b4", "c4", "d4", "a4"], ["c1", "c5", "c6", "c7", "c9"]]


def test_a_bomb_beats_a_play_of_another_class_and_only_a_bomb_answers_it() -> None:
    st = _state(_rules(), HANDS)
    st.apply("play a1 a2 a3")
    assert "play a4 b4 c4 d4" in _legal(st)  # a bomb on a run: another class, and its combination beats
    assert "play b2" not in _legal(st)  # a single does not
    st.apply("play a4 b4 c4 d4")
    assert _legal(st) == {"pass"}  # seat 2's run is of another class; only a higher bomb would do


def test_beats_is_refused_in_a_trick_round() -> None:
    data = copy.deepcopy(MINI)
    data["hand"]["phases"][2] = {"id": "play", "kind": "tricks", "first": 0, "combinations": ["single", "bomb"]}
    with pytest.raises(RuleFileError, match="only a climbing round reads"):
        build_from_data(data, name="mini-climb", chosen={}, content_hash="test")


def test_a_wild_piece_stands_for_a_missing_value_and_the_strongest_reading_is_offered() -> None:
    st = _state(_rules(), HANDS)
    moves = _legal(st)
    assert {"play a9 w", "play a1 w", "play a1 a2 w", "play a1 a3 w"} <= moves  # a pair, and a gap filled
    assert "play w" in moves and "play w w" not in moves  # alone it is a single, never a pair of itself
    from rulecraft.engine.combos import enumerate_plays

    st.ctx.seat = 0
    readings = [p.key for p in enumerate_plays(st.rs.combinations["run"], st.hand(0), st.rs.pieces, ctx=st.ctx)
                if sorted(st.rs.pieces.type_id(x) for x in p.pieces) == ["a2", "a3", "w"]]
    assert sorted(readings) == [3, 4]  # 2 3 and the wild: 1-2-3 or 2-3-4
    st.apply("play a2 a3 w")
    assert st.pdata.plays[-1].key == 4  # the strongest reading is the one offered


def test_runs_of_groups_in_an_order_given_by_an_expression() -> None:
    combos = [{"id": "single", "kind": "single", "strength": "n(piece)"},
              {"id": "pairs", "kind": "run", "order": "n(piece) if n(piece) != 5 else none", "each": 2,
               "min": 2, "strength": "top"}]
    data = copy.deepcopy(MINI)
    data["combinations"] = combos
    rs = build_from_data(data, name="mini-climb", chosen={}, content_hash="test")
    st = _state(rs, [["a2", "b2", "a3", "b3", "a4"], ["b4", "c4", "d4", "a5", "b5"], ["c5", "d5", "c6", "d6", "c9"]])
    assert _text("play a2 b2 a3 b3") in _legal(st)
    assert not any(len(m.split()) == 6 for m in _legal(st))  # a lone 4 makes no third pair
    st.apply("play a2 b2 a3 b3")
    assert not any(len(m.split()) == 5 for m in _legal(st))  # seat 1's 4s and 5s: 5 has no place in the order


def _deal6(rs: Ruleset, hands: list[list[str]]) -> State:
    ids = [rs.pieces.type_id(p) for p in range(rs.pieces.count)]
    order = [h[i] for i in range(6) for h in hands]
    order += [x for x in ids if x not in order]
    return Game(rs, 1).new_state(chance=[{"type": "chance", "kind": "shuffle", "order": order}])


@pytest.mark.parametrize("distinct", [False, True])
def test_kickers_share_a_value_only_when_distinct_is_false(distinct: bool) -> None:
    data = copy.deepcopy(MINI)
    data["combinations"] = [{"id": "single", "kind": "single", "strength": "n(piece)"},
                            {"id": "four-two", "kind": "same", "by": "n", "size": 4,
                             "kickers": {"size": 1, "count": 2, "distinct": distinct}, "strength": "top"}]
    data["hand"]["phases"][1]["count"] = 6
    rs = build_from_data(data, name="mini-climb", chosen={}, content_hash="test")
    st = _deal6(rs, [["a4", "b4", "c4", "d4", "a5", "b5"], ["c1", "c2", "c3", "c6", "c7", "c8"],
                     ["c5", "d5", "a6", "b6", "c9", "d9"]])
    moves = _legal(st)
    assert (_text("play a4 b4 c4 d4 a5 b5") in moves) is not distinct  # 4444+55: two single kickers of one value
    assert _text("play a4 b4 c4 d4 a5") not in moves  # one kicker is not two


def test_an_equal_play_may_follow_where_equal_holds_and_equalled_tells_it() -> None:
    rs = _rules(equal="true", on_play=[{"id": "equal-skips", "when": "equalled", "skip": "1"}])
    st = _state(rs, [["a2", "a5", "a6", "a7", "a8"], ["b2", "b9", "c9", "d9", "a9"], ["c2", "c5", "c6", "c7", "c8"]])
    st.apply("play a2")
    assert "play b2" in _legal(st)  # as strong as the 2 led: allowed by `equal`
    st.apply("play b2")
    assert st.to_act == 0  # seat 2 skipped by the equal play's item
    assert st.fired.get("equal-skips") == 1
    plain = _state(_rules(), [["a2", "a5", "a6", "a7", "a8"], ["b2", "b9", "c9", "d9", "a9"],
                              ["c2", "c5", "c6", "c7", "c8"]])
    plain.apply("play a2")
    assert "play b2" not in _legal(plain)


def test_a_play_makes_its_player_give_pieces_to_the_next_seat() -> None:
    rs = _rules(on_play=[{"id": "sevens-give", "when": "n(piece) == 7", "give": {"count": "1", "to": "next(seat, 1)"}}])
    st = _state(rs, [["a7", "a2", "a3", "a4", "a5"], ["b2", "b3", "b4", "b5", "b6"], ["c2", "c3", "c4", "c5", "c6"]])
    st.apply("play a7")
    assert st.to_act == 0 and _legal(st) == {"give a2", "give a3", "give a4", "give a5"}
    st.apply("give a3")
    assert st.to_act == 1
    assert "a3" in {st.rs.pieces.type_id(p) for p in st.hand(1)}
    assert st.fired.get("sevens-give") == 1


def test_a_play_may_discard_up_to_a_count_and_stop_sooner() -> None:
    rs = _rules(on_play=[{"id": "tens-discard", "when": "n(piece) == 9", "give": {"count": "2", "zone": "pile",
                                                                                  "up_to": True}}])
    st = _state(rs, [["a9", "a2", "a3", "a4", "a5"], ["b2", "b3", "b4", "b5", "b6"], ["c2", "c3", "c4", "c5", "c6"]])
    st.apply("play a9")
    assert "pass" in _legal(st)
    st.apply("give a2")
    st.apply("pass")  # stopped after one
    assert st.to_act == 1 and len(st.hand(0)) == 3
    assert [st.rs.pieces.type_id(p) for p in st.zones[st.zone_instance("pile")]] == ["a2"]


def test_choose_and_lead_items() -> None:
    rs = _rules(on_play=[{"id": "name-it", "when": "n(piece) == 1", "choose": {"from": "[2, 3]", "set": "named"}},
                         {"id": "to-seat-two", "when": "n(piece) == 1", "lead": "2", "clear": True}])
    st = _state(rs, [["a1", "a2", "a3", "a4", "a5"], ["b2", "b3", "b4", "b5", "b6"], ["c2", "c3", "c4", "c5", "c6"]])
    st.apply("play a1")
    assert st.to_act == 0 and _legal(st) == {"name 2", "name 3"}
    st.apply("name 3")
    assert st.vars[st.rs.var_index["named"]] == 3
    assert st.to_act == 2  # the round cleared, and seat 2 named by `lead` leads the next


def test_capture_to_a_seat_the_winner_names_and_close_round() -> None:
    rs = _rules(discard=None, close_round=True,
                capture={"to": "won", "seat": "gift if n(first(best_play)) == 9 else trick_winner",
                         "choose": {"when": "n(first(best_play)) == 9", "from": "[1, 2]", "set": "gift"}})
    st = _state(rs, [["a9", "a2", "a3", "a4", "a5"], ["b2", "b3", "b4", "b5", "b6"], ["c1", "c3", "c4", "c5", "c6"]])
    st.apply("play a9")
    st.apply("pass")
    st.apply("pass")
    assert st.to_act == 0 and _legal(st) == {"name 1", "name 2"}  # the 9 won: its player gives the round away
    st.apply("name 2")
    assert [st.rs.pieces.type_id(p) for p in st.zones[st.zone_instance("won", 2)]] == ["a9"]
    assert st.to_act == 0  # the winner still leads the next round
    for move in ("play a2", "pass", "pass", "play a3", "pass", "pass", "play a4", "pass", "pass"):
        st.apply(move)
    assert {st.rs.pieces.type_id(p) for p in st.zones[st.zone_instance("won", 0)]} == {"a2", "a3", "a4"}
    st.apply("play a5")
    assert st.is_over  # seat 0 out: the hand ends, and the round of its last play with it (close_round)
    assert "a5" in {st.rs.pieces.type_id(p) for p in st.zones[st.zone_instance("won", 0)]}
    kept = _rules(discard=None, capture={"to": "won"})
    st = _state(kept, [["a9", "a2", "a3", "a4", "a5"], ["b2", "b3", "b4", "b5", "b6"], ["c1", "c3", "c4", "c5", "c6"]])
    for move in ("play a9", "pass", "pass", "play a2", "pass", "pass", "play a3", "pass", "pass", "play a4", "pass",
                 "pass", "play a5"):
        st.apply(move)
    assert st.is_over
    assert "a5" not in {st.rs.pieces.type_id(p) for p in st.zones[st.zone_instance("won", 0)]}  # left in play


def test_a_seat_may_play_out_of_turn_after_each_play() -> None:
    rs = _rules(interrupt={"combinations": ["bomb"]})
    st = _state(rs, [["a1", "a2", "a3", "a9", "c8"], ["b2", "b3", "b5", "b6", "b7"], ["a4", "b4", "c4", "d4", "c9"]])
    st.apply("play a1")
    assert st.to_act == 2  # seat 1's turn is next: seat 2 is asked first whether it plays out of turn
    assert _legal(st) == {"pass", "play a4 b4 c4 d4"}
    st.apply("play a4 b4 c4 d4")
    assert st.pdata.interrupted
    assert st.to_act == 1 and _legal(st) == {"pass"}  # a new window after the bomb: seat 1, then seat 0's turn
    st.apply("pass")
    assert st.to_act == 0  # the turn goes on from the seat after the bomb
    st.apply("pass")
    assert st.to_act == 1  # after a pass nobody is asked: windows open after plays
    st.apply("pass")
    assert st.to_act == 2 and "pass" not in _legal(st)  # the bomb won the round


def test_every_other_seat_is_asked_whatever_it_holds() -> None:
    rs = _rules(interrupt={"combinations": ["bomb"]})
    st = _state(rs, HANDS)
    st.apply("play a1")
    assert st.to_act == 2 and _legal(st) == {"pass"}  # asked though it holds no bomb: asking shows nothing
    st.apply("pass")
    assert st.to_act == 1


def test_a_call_on_a_turn_and_a_compelling_restriction() -> None:
    rs = _rules(calls=[{"id": "boast", "when": "not called[seat]", "effects": [{"set": {"called[seat]": "true"}}]}],
                follow={"restrictions": [{"id": "play-a-nine", "when": "any(n(p) == 9 for p in hand(seat))",
                                          "allow": "any(n(p) == 9 for p in play)", "if_able": True,
                                          "compel": True, "message": "a 9 must be played when it can"}]})
    st = _state(rs, [["a1", "a2", "a3", "a4", "a5"], ["b9", "b3", "b4", "b5", "b6"], ["c1", "c3", "c4", "c5", "c6"]])
    assert "call boast" in _legal(st)
    st.apply("call boast")
    assert st.to_act == 0 and "call boast" not in _legal(st)  # the call does not end the turn
    assert st.fired.get("boast") == 1
    st.apply("play a1")
    assert _legal(st) == {"play b9", "call boast"}  # it can play its 9: it may neither pass nor play another card
    with pytest.raises(IllegalMoveError, match="a 9 must be played"):
        st.apply("pass")


def test_end_when_is_asked_after_every_play() -> None:
    rs = _rules(end_when="size == 3")
    st = _state(rs, HANDS)
    st.apply("play a1 a2 a3")
    assert st.is_over  # nobody went out, but end_when held after the play


@pytest.mark.parametrize(("combo", "message"), [
    ({"id": "x", "kind": "same", "by": "n", "size": 2, "each": 2}, "'each' .* is for a run"),
    ({"id": "x", "kind": "run", "order": "n(piece)", "kickers": {"size": 1, "count": 1}}, "kickers need 'by'"),
    ({"id": "x", "kind": "same", "by": "n", "size": 3, "kickers": {"size": 1}}, "kickers need 'count'"),
    ({"id": "x", "kind": "single", "wild": "true"}, "read only by combinations of kind same or run"),
])
def test_a_combination_asking_for_what_its_kind_cannot_do_is_refused_where_written(combo: dict[str, Any],
                                                                                    message: str) -> None:
    data = copy.deepcopy(MINI)
    data["combinations"].append(combo)
    with pytest.raises(RuleFileError, match=message):
        build_from_data(data, name="mini-climb", chosen={}, content_hash="test")


def test_a_gift_to_a_seat_and_a_zone_at_once_is_refused() -> None:
    with pytest.raises(RuleFileError, match="not both"):
        _rules(on_play=[{"id": "both", "give": {"count": "1", "to": "0", "zone": "pile"}}])
    with pytest.raises(RuleFileError, match="interrupt needs 'combinations'"):
        _rules(interrupt={"combinations": []})
