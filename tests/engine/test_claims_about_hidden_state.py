"""Claims whose truth is an expression over hidden state, valued in an ordered set the rule file gives.

A claim may put down no pieces (``counts: {min: 0}``) and say something about what the seats hold
("seven 4s among everyone's dice"): ``claim.truth`` judges it, ``reveal`` turns up for everyone what
settles it, ``challenge.asked: on_turn`` lets the seat on turn doubt instead of raising, named
``calls`` assert something else (an exact count), and ``goes_out: never`` keeps seats with empty hands
in the turn. Claim values may be an ordered set of (field, field) values with a ``higher`` rule.
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
from support import DICE_TABLE, rules_from_text

from rulecraft.engine.game import Game
from rulecraft.engine.ruleset import Ruleset
from rulecraft.errors import IllegalMoveError, RuleFileError
from rulecraft.load import load_ruleset

RULES = """
name: sums
title: a claim about the sum of hidden dice
seats: {count: 3, direction: clockwise}
""" + DICE_TABLE + """  - {id: pile, visibility: all}
  - {id: removed, visibility: nobody}
variables:
  cup: {scope: hand, per: seat, type: list, initial: [], visibility: owner}
  lost: {scope: match, per: seat, initial: 0}
functions:
  total(): "sum(sum(cup[s]) for s in seats())"
hand:
  phases:
    - {id: roll, kind: dice, for: "s in seats()", dice: 1, sides: 6, set: "cup[s]"}
    - id: claims
      kind: claims
      claim:
        values:
          fields: {at_least: "range(3, 19)", parity: "['any', 'even']"}
          when: "parity == 'any' or at_least > 10"
          name: "text(at_least) + parity"
          order: "at_least * 2 + (1 if parity == 'even' else 0)"
        rule: higher
        truth: "total() >= at_least(claim_value) and (parity(claim_value) == 'any' or total() % 2 == 0)"
        counts: {min: 0}
      passing: false
      challenge:
        asked: on_turn
        calls:
          - id: exact
            holds: "total() == at_least(claim_value)"
            when: "seat != 0"
            message: "seat 0 never calls exact"
      reveal: {variables: [cup]}
      goes_out: never
      on_reveal:
        - {when: "called == 'challenge'", add: {"lost[player if lie else challenger]": 1}}
        - {when: "called == 'exact' and not upheld", add: {"lost[challenger]": 1}}
        - {end_phase: true}
match:
  end_when: "hand_number >= 2"
  max_hands: 2
  score: "0 - lost[seat]"
"""


@pytest.fixture(scope="module")
def rs(tmp_path_factory: pytest.TempPathFactory) -> Ruleset:
    return rules_from_text(tmp_path_factory.mktemp("sums"), RULES)


def _rolled(rs: Ruleset, faces: list[int]) -> object:
    return Game(rs, 1).new_state(chance=[{"kind": "dice", "dice": [f]} for f in faces])


def test_the_values_are_the_combinations_the_rule_file_keeps_in_its_order(rs: Ruleset) -> None:
    phase = next(p for p in rs.phases if p.id == "claims")
    assert phase.values[:4] == ["3any", "4any", "5any", "6any"]
    assert phase.values[-3:] == ["17even", "18any", "18even"]
    assert "10even" not in phase.values  # 'when' left it out
    assert len(phase.values) == 16 + 8


def test_a_claim_of_no_pieces_is_a_move_and_the_seat_on_turn_may_doubt_it(rs: Ruleset) -> None:
    st = _rolled(rs, [6, 5, 1])
    legal = [m.text for m in st.legal_moves()]  # type: ignore[attr-defined]
    assert legal[0] == "claim 3any" and "challenge" not in legal  # nothing to doubt yet
    st.apply("claim 11even")  # type: ignore[attr-defined]
    legal = [m.text for m in st.legal_moves()]  # type: ignore[attr-defined]
    assert legal[:2] == ["challenge", "call exact"] and "claim 11even" not in legal and "claim 12any" in legal
    assert st.to_act == 1 and st.pdata.window is None  # type: ignore[attr-defined]  # no response window


def test_a_doubt_turns_every_cup_up_first_and_judges_the_claim_by_its_expression(rs: Ruleset) -> None:
    st = _rolled(rs, [6, 5, 1])  # total 12: "11even" is true, "12any" true, "13any" false
    st.apply("claim 11even")  # type: ignore[attr-defined]
    st.apply("challenge")  # type: ignore[attr-defined]
    kinds = [e["type"] for e in st.history if e["type"] in ("show", "reveal")]  # type: ignore[attr-defined]
    assert kinds == ["show", "reveal"]  # the dice are shown to all before the claim is judged
    reveal = next(e for e in st.history if e["type"] == "reveal")  # type: ignore[attr-defined]
    assert reveal["lie"] is False and reveal["pieces"] == [] and reveal["challenger"] == 1
    assert st.var("lost") == [0, 1, 0]  # type: ignore[attr-defined]  # the doubter was wrong


def test_a_false_claim_costs_its_maker(rs: Ruleset) -> None:
    st = _rolled(rs, [6, 5, 1])
    st.apply("claim 13any")  # type: ignore[attr-defined]
    st.apply("challenge")  # type: ignore[attr-defined]
    assert st.var("lost") == [1, 0, 0]  # type: ignore[attr-defined]


def test_a_named_call_is_judged_by_what_it_asserts(rs: Ruleset) -> None:
    st = _rolled(rs, [6, 5, 1])
    st.apply("claim 12any")  # type: ignore[attr-defined]
    st.apply("call exact")  # type: ignore[attr-defined]  # exactly 12: right
    reveal = next(e for e in st.history if e["type"] == "reveal")  # type: ignore[attr-defined]
    assert (reveal["call"], reveal["upheld"], reveal["lie"]) == ("exact", True, False)
    assert st.var("lost") == [0, 0, 0]  # type: ignore[attr-defined]


def test_a_call_its_condition_refuses_is_refused_in_the_rule_s_words(rs: Ruleset) -> None:
    st = _rolled(rs, [6, 5, 1])
    st.apply("claim 4any")  # type: ignore[attr-defined]
    st.apply("claim 5any")  # type: ignore[attr-defined]
    st.apply("claim 6any")  # type: ignore[attr-defined]  # seat 0 is on turn again
    assert "call exact" not in [m.text for m in st.legal_moves()]  # type: ignore[attr-defined]
    with pytest.raises(IllegalMoveError, match="seat 0 never calls exact"):
        st.apply("call exact")  # type: ignore[attr-defined]
    with pytest.raises(IllegalMoveError, match="claims rise: after 6any a claim must come later"):
        st.apply("claim 5any")  # type: ignore[attr-defined]


def test_the_hidden_dice_stay_hidden_until_the_doubt(rs: Ruleset) -> None:
    st = _rolled(rs, [6, 5, 1])
    st.apply("claim 11even")  # type: ignore[attr-defined]
    assert st.view(1)["variables"]["cup"] == [None, [5], None]  # type: ignore[attr-defined]
    st.apply("challenge")  # type: ignore[attr-defined]
    assert st.view(1)["shown_last_hand"]["shown"][0]["variables"] == {"cup": [[6], [5], [1]]}  # type: ignore[attr-defined]


def test_a_seat_may_weigh_a_claim_on_a_world_it_samples(rs: Ruleset) -> None:
    st = _rolled(rs, [6, 5, 1])
    phase = next(p for p in rs.phases if p.id == "claims")
    assert phase.would_hold(st, "12any", 0) and not phase.would_hold(st, "13any", 0)
    assert phase.would_hold(st, "12any", 0, "exact") and not phase.would_hold(st, "11any", 0, "exact")
    assert st.pdata.last_value is None  # type: ignore[attr-defined]  # the state is left as it was


# ---------------------------------------------------------------------- counts {min: 0} where pieces are played
def test_counts_min_0_lets_a_doubt_game_claim_no_cards() -> None:
    base = load_ruleset("doubt")
    assert base.composed is not None
    data = copy.deepcopy(base.composed.data)
    data["hand"]["phases"][2]["claim"]["counts"] = {"min": 0, "max": 1}
    from rulecraft.engine.build import build_from_data

    rs = build_from_data(data, name="doubt", chosen={}, content_hash="test")
    st = Game(rs, 1).new_state()
    assert "claim A" in [m.text for m in st.legal_moves()]
    st.apply("claim A")  # nothing put down: a claim about no cards
    assert st.pdata.claims == [(1, "A", 0)]


# ---------------------------------------------------------------------- refused at load, at the rule
@pytest.mark.parametrize(("old", "new", "message"), [
    ('        truth: "total() >= at_least(claim_value) and (parity(claim_value) == \'any\' or total() % 2 == 0)"\n',
     "", "a claim names the 'attribute' its pieces are claimed to have, or says by 'truth'"),
    ('name: "text(at_least) + parity"', 'name: "parity"', "two values are named 'any'"),
    ('name: "text(at_least) + parity"', 'name: "text(at_least) + \' \' + parity"', "a value's name is a word"),
    ('fields: {at_least: "range(3, 19)"', 'fields: {count: "range(3, 19)"',
     "the field 'count' would be read as 'count(value)', but 'count' already names something"),
    ('fields: {at_least: "range(3, 19)"', 'fields: {at_least: "range(3, 9000)"', "a set holds at most 10,000 values"),
    ('fields: {at_least: "range(3, 19)"', 'fields: {at_least: "num_seats"', "unknown name 'num_seats'"),
])
def test_a_claim_that_cannot_work_is_refused_where_it_is_written(tmp_path: Path, old: str, new: str,
                                                                  message: str) -> None:
    assert old in RULES
    with pytest.raises(RuleFileError, match=message.replace("(", r"\(").replace(")", r"\)")):
        rules_from_text(tmp_path, RULES.replace(old, new))


# ---------------------------------------------------------------------- a claim about pieces nobody played
HELD = """
name: held
title: a claim about the cards in the next player's hand
seats: {count: 3, direction: clockwise}
pieces:
  - {id: "{suit}{rank}", generate: {suit: [h, s], rank: [1, 2, 3]}}
zones:
  - {id: deck, visibility: nobody}
  - {id: hand, per: seat, visibility: owner}
  - {id: pile, visibility: all}
  - {id: removed, visibility: nobody}
variables:
  lost: {scope: match, per: seat, initial: 0}
hand:
  phases:
    - {id: deal, kind: deal, count: 2}
    - id: claims
      kind: claims
      claim:
        values: ["0", "1", "2"]
        rule: higher
        truth: "count(p for p in hand(next(player, 1)) if suit(p) == 'h') >= number(claim_value)"
        counts: {min: 0, max: 0}
      passing: false
      challenge: {asked: on_turn}
      reveal: {pieces: "hand(next(player, 1))"}
      goes_out: never
      on_reveal:
        - {add: {"lost[player if lie else challenger]": 1}}
        - {end_phase: true}
match:
  end_when: "true"
  max_hands: 1
  score: "0 - lost[seat]"
"""


def test_a_claim_about_cards_nobody_played_is_settled_by_showing_them(tmp_path: Path) -> None:
    rs = rules_from_text(tmp_path, HELD)
    # The deck in this order, dealt one at a time from seat 0: seat 1 holds h2 and s2.
    st = Game(rs, 1).new_state(chance=[{"kind": "shuffle", "order": ["h1", "h2", "h3", "s1", "s2", "s3"]}])
    assert sorted(st.view(1)["zones"]["hand[1]"]["pieces"]) == ["h2", "s2"]
    assert "pieces" not in st.view(0)["zones"]["hand[1]"]  # seat 0 does not see seat 1's hand
    st.apply("claim 1")  # seat 0: "the next player holds at least one heart" (it puts nothing down)
    assert st.view(2)["zones"]["hand[1]"].get("pieces") is None
    st.apply("challenge")  # seat 1 doubts a claim about its own hand
    show = next(e for e in st.history if e["type"] == "show")
    assert sorted(show["pieces"]) == [["h2", "hand[1]"], ["s2", "hand[1]"]]  # shown to all, where they lie
    assert sorted(st.view(0)["zones"]["hand[1]"]["pieces"]) == ["h2", "s2"]
    assert next(e for e in st.history if e["type"] == "reveal")["lie"] is False
    assert st.result is not None and st.result["scores"] == [0, -1, 0]  # the doubter was wrong
