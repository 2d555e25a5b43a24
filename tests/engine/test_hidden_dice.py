"""Dice are equipment: their faces follow the visibility of the variable they are rolled into.

A roll into another seat's cup (a per-seat ``owner`` variable) or into a ``nobody`` variable must not
show in a seat's view, its copy of the log, its replay or its adapter observations; the full log keeps
the faces so the game replays exactly; a ``show`` makes them public for everyone at once, and reaches
every view and log even when it comes as the hand ends.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from support import DICE_TABLE, rules_from_text

from rulecraft.engine.determinize import determinize
from rulecraft.engine.game import Game
from rulecraft.engine.ruleset import Ruleset
from rulecraft.errors import ExpressionRuntimeError, RuleFileError
from rulecraft.runs.log import log_lines, replay_lines
from rulecraft.wording import Seats, event_text

RULES = """
name: hidden-dice
title: dice in cups
seats: {count: 3, direction: clockwise, sits_out: "left[seat] == 0"}
""" + DICE_TABLE + """variables:
  left: {scope: match, per: seat, initial: 3, description: "dice each seat still has"}
  cup: {scope: hand, per: seat, type: list, initial: [], visibility: owner, description: "each seat's dice"}
  secret: {scope: hand, type: list, initial: [], visibility: nobody}
  guess: {scope: hand, initial: 0}
hand:
  phases:
    - {id: roll, kind: dice, for: "s in active()", dice: "left[s]", sides: 6, set: "cup[s]"}
    - {id: hidden-roll, kind: dice, dice: 2, sides: 6, set: secret}
    - {id: guess, kind: choose, seat: "0", from: "[1, 2]", set: guess}
    - id: settle
      kind: effects
      effects:
        - {show: {variables: [cup]}}
        - {add: {"left[1]": -1}}
match:
  end_when: "hand_number >= 3"
  max_hands: 5
  score: "left[seat]"
"""


@pytest.fixture(scope="module")
def rs(tmp_path_factory: pytest.TempPathFactory) -> Ruleset:
    return rules_from_text(tmp_path_factory.mktemp("dice"), RULES)


def _cup(rs: Ruleset, st: object, seat: int) -> list[int]:
    return list(st.vars[rs.var_index["cup"]][seat])  # type: ignore[attr-defined]


def test_each_seat_sees_its_own_dice_and_only_how_many_the_others_rolled(rs: Ruleset) -> None:
    st = Game(rs, 3).new_state()
    cups = [_cup(rs, st, s) for s in range(3)]
    assert all(len(c) == 3 for c in cups)
    for seat in range(3):
        shown = st.view(seat)["variables"]
        assert shown["cup"] == [c if s == seat else None for s, c in enumerate(cups)]
        assert "secret" not in shown
    assert st.view(None)["variables"]["cup"] == cups
    for seat in range(3):
        rolls = [json.loads(line) for line in log_lines(st, viewer=seat) if '"chance"' in line]
        assert [r.get("dice") for r in rolls] == [c if s == seat else None for s, c in enumerate(cups)] + [None]
        assert [r["count"] for r in rolls if "count" in r] == [3, 3, 2]  # how many, never which faces
        assert [r["set"] for r in rolls] == ["cup[0]", "cup[1]", "cup[2]", "secret"]


def test_the_full_log_keeps_every_face_and_replays_exactly(rs: Ruleset) -> None:
    st = Game(rs, 3).new_state()
    while not st.is_over:
        st.apply(st.legal_moves()[0])
    full = log_lines(st)
    rolls = [json.loads(line) for line in full if '"chance"' in line]
    assert all("dice" in r for r in rolls)
    again = replay_lines(full, rs)
    assert again.history == st.history and again.vars == st.vars


def test_a_redacted_log_cannot_stand_in_for_the_game(rs: Ruleset) -> None:
    from rulecraft.errors import LogError

    st = Game(rs, 3).new_state()
    with pytest.raises(LogError, match="redacted for seat 1"):
        replay_lines(log_lines(st, viewer=1), rs)


def test_a_seat_that_lost_a_die_rolls_fewer_and_one_with_none_rolls_nothing(rs: Ruleset) -> None:
    st = Game(rs, 3).new_state()
    st.apply("name 1")  # hand 1 ends: seat 1 loses a die
    assert [len(_cup(rs, st, s)) for s in range(3)] == [3, 2, 3]
    st.apply("name 1")
    st.apply("name 1")  # seat 1 now has none: it sits out, and nothing is rolled for it
    assert st.is_over
    hand3 = [e for e in st.history if e.get("type") == "chance"][-4:]
    assert [e.get("set") for e in hand3] == ["cup[0]", "cup[1]", "cup[2]", "secret"]
    assert [len(e["dice"]) for e in hand3] == [3, 1, 3, 2]


def test_a_show_as_the_hand_ends_reaches_every_view_and_log(rs: Ruleset) -> None:
    st = Game(rs, 3).new_state()
    cups = [_cup(rs, st, s) for s in range(3)]
    st.apply("name 2")  # the show runs as hand 1 ends; hand 2 begins before anyone is asked again
    assert st.hand_no == 2
    for seat in range(3):
        view = st.view(seat)
        assert view["shown_last_hand"] == {"hand": 1, "shown": [{"type": "show", "variables": {"cup": cups}}]}
        assert view["variables"]["cup"][(seat + 1) % 3] is None  # this hand's dice are hidden again
        shows = [json.loads(line) for line in log_lines(st, viewer=seat) if '"show"' in line]
        assert shows == [{"type": "show", "variables": {"cup": cups}}]
    line = event_text(shows[0], Seats(("a", "b", "c")), rs)
    dice = [", ".join(map(str, cup)) for cup in cups]
    assert line == f"shown to all: cup: seat 0: {dice[0]}; seat 1: {dice[1]}; seat 2: {dice[2]}"


def test_a_show_during_the_hand_makes_the_dice_public_until_it_ends(tmp_path: Path) -> None:
    guess = "    - {id: guess, kind: choose"
    early = "    - {id: early, kind: effects, effects: [{show: {variables: ['cup[2]']}}]}\n"
    rs = rules_from_text(tmp_path, RULES.replace(guess, early + guess))
    st = Game(rs, 4).new_state()
    cups = [_cup(rs, st, s) for s in range(3)]
    assert st.view(0)["variables"]["cup"] == [cups[0], None, cups[2]]  # seat 2's cup was shown, not seat 1's
    assert st.view(1)["variables"]["cup"] == [None, cups[1], cups[2]]
    assert st.view(0)["shown"] == [{"type": "show", "variables": {"cup[2]": cups[2]}}]


def test_hidden_dice_are_rolled_again_in_a_searcher_s_world_and_its_own_are_kept(rs: Ruleset) -> None:
    st = Game(rs, 5).new_state()
    cups = [_cup(rs, st, s) for s in range(3)]
    changed = 0
    for k in range(20):
        world = determinize(st, 0, random.Random(k))
        assert _cup(rs, world, 0) == cups[0]
        assert [len(_cup(rs, world, s)) for s in range(3)] == [3, 3, 3]
        changed += _cup(rs, world, 1) != cups[1]
    assert changed >= 15  # (three dice: the same faces again one time in 216)
    assert _cup(rs, st, 1) == cups[1]  # the real game is untouched


def test_dice_into_a_variable_of_the_wrong_kind_are_refused_at_the_rule(tmp_path: Path) -> None:
    numbers = RULES.replace("cup: {scope: hand, per: seat, type: list, initial: []",
                            "cup: {scope: hand, per: seat, type: number, initial: 0")
    with pytest.raises(RuleFileError, match=r"the dice rolled are a list, but 'cup' \(each entry\) holds a number"):
        rules_from_text(tmp_path, numbers)


def test_a_count_that_is_no_number_of_dice_is_an_error_at_the_rule(tmp_path: Path) -> None:
    rs = rules_from_text(tmp_path, RULES.replace('dice: "left[s]"', 'dice: "left[s] - 4"'), "negative.yaml")
    with pytest.raises(ExpressionRuntimeError, match=r"negative.yaml:16:59: error: .*gave -1, which is no number"):
        Game(rs, 1).new_state()
