"""Expressions that would cost without bound: refused at load time, at the expression, with the limit.

How the bound is counted (dsl/cost.py): a loop multiplies what it contains by its list's length, a
range counts its numbers, and a list from the game counts as many items as the ruleset has pieces
(the tiny game: 6). One evaluation may take 10,000,000 steps and hold 1,000,000 list values.
"""

from __future__ import annotations

import pytest
from cli_support import Cli, lines_of

HOW = "a loop multiplies what it contains by the length of its list; a range counts its numbers"


@pytest.mark.parametrize(("expression", "message"), [
    # the examples: 100,000 sums of 100,000 numbers; 100,000 lists of 100,000 numbers
    ("sum(sum(range(100000)) for a in range(100000))",
     f"this expression may take up to 10,000,400,002 steps each time it is computed; the limit is 10,000,000 steps "
     f"({HOW})"),
    ("count([[b for b in range(100000)] for a in range(100000)])",
     f"this expression may take up to 20,000,300,002 steps each time it is computed; the limit is 10,000,000 steps "
     f"({HOW})"),
    # a thousand lists of a thousand: few steps, but a million values held at once
    ("count([[b for b in range(1000)] for a in range(1000)])",
     f"this expression may hold up to 1,001,000 values in lists at once; the limit is 1,000,000 values ({HOW})"),
])
def test_eval_refuses_at_once(cli: Cli, expression: str, message: str) -> None:
    r = cli("eval", expression)
    assert (r.code, r.out) == (1, "")
    assert lines_of(r.err) == [f"<expression>:1:1: error: {message}", f"    1 | {expression}", "        ^"]


def test_within_the_bound_it_is_computed(cli: Cli) -> None:
    assert cli("eval", "sum(sum(range(1000)) for a in range(1000))").out == "499500000\n"


def test_a_derived_attribute_is_refused_where_it_is_written(cli: Cli) -> None:
    cli.tiny()
    cli.write("costly.yaml", 'extends: tiny.yaml\nname: tiny-costly\npieces:\n  - id: "{suit}-{rank}"\n'
                             '    derive:\n      weight: "sum(sum(range(100000)) for a in range(100000))"\n')
    r = cli("validate", "costly.yaml")
    assert r.code == 1
    assert r.out.splitlines()[0] == (
        f"costly.yaml:6:16: error: this expression may take up to 10,000,400,002 steps each time it is computed; "
        f"the limit is 10,000,000 steps ({HOW})")


def test_lists_from_the_game_count_as_many_items_as_there_are_pieces(cli: Cli) -> None:
    cli.tiny()
    cli.write("slow.yaml", "extends: tiny.yaml\nname: tiny-slow\nhand:\n  phases:\n    - id: play\n      lead:\n"
                           "        restrictions:\n          - id: slow\n"
                           '            allow: "count([[q for q in hand(seat)] for r in range(100000)]) > 0"\n')
    r = cli("validate", "slow.yaml")
    assert r.out.splitlines()[0] == (
        f"slow.yaml:9:21: error: this expression may hold up to 1,300,000 values in lists at once; the limit is "
        f"1,000,000 values ({HOW}, a list from the game as 6 items)")


def test_a_whole_number_too_long_to_print(cli: Cli) -> None:
    r = cli("eval", " * ".join(["1" + "0" * 99] * 50))  # 10^4950: 4,951 digits
    assert (r.code, r.out, r.err) == (1, "", "<expression>:1:1: error: the value is a whole number too long to "
                                             "print (more than 4,300 digits)\n")


def test_a_variable_that_grows_without_bound_is_stopped_at_its_effect(cli: Cli) -> None:
    # 10, 100, 10^4, 10^8, 10^16, 10^32: squared after every hand, the sixth square is refused.
    cli.tiny()
    cli.write("grow.yaml", 'extends: tiny.yaml\nname: grow\nvariables:\n  big: {scope: match, initial: 10}\n'
                           'match:\n  end_when: "false"\n  max_hands: 100\n  after_hand:\n'
                           '    - {id: square, set: {big: "big * big"}}\n')
    r = cli("simulate", "grow.yaml", "-n", "1")
    assert (r.code, r.err) == (1, "grow.yaml:9:7: error: effect 'square' cannot be done with the values its "
                                  "expressions gave: ValueError: the result has about 33 digits: variables hold "
                                  "numbers below 10^18 in size\n")


# What can really grow is bounded; what cannot is worked out. Numbers worked out at load time count
# as what they are, so a file whose ranges are written with constants is not refused for a guess.
FOLDED = "sum(sum(range(6 * 6 * max_dice)) for a in range(6 * 6 * max_dice))"


def test_constants_are_worked_out(cli: Cli) -> None:
    # 180 sums of 180 numbers: about 65,000 steps (counted at the 100,000 a range may give, 10^10).
    assert cli("eval", FOLDED, "--set", "max_dice=5").out == f"{180 * sum(range(180))}\n"
    cli.tiny()
    cli.write("dice.yaml", f'extends: tiny.yaml\nname: tiny-dice\nconstants: {{max_dice: 5}}\nhand:\n'
                           f'  phases:\n    - id: scoring\n      effects:\n'
                           f'        - {{id: dice, add: {{"score[0]": "{FOLDED}"}}}}\n')
    assert cli("validate", "dice.yaml").out == "ok: 1 file valid (2 configurations checked)\n"


def test_a_range_over_a_number_with_a_declared_range_is_bounded_by_it(cli: Cli) -> None:
    # hand_number runs from 1 to the match's max_hands (20), a hand's length to the pieces (6): a
    # hand-worked choice list over range(hand_size() + 1), as an Oh Hell written last month has it, with a
    # loop over the hand in each choice, costs a few hundred steps (counted at 100,000 numbers a range,
    # 100,000 x (6 + ...) steps each time: refused).
    cli.tiny()
    cli.write("bids.yaml", 'extends: tiny.yaml\nname: tiny-bids\nvariables:\n  bid: {scope: hand, per: seat, '
                           'initial: 0}\nfunctions:\n  hand_size(): "count(hand(seat)) + hand_number % 2"\n'
                           '  bid_choices(k): "[b for b in range(hand_size() + 1) if count(p for p in hand(k) if '
                           'suit(p) == \'a\') + sum(bid) >= 0]"\nhand:\n  phases:\n    - id: bidding\n'
                           '      kind: each_seat\n      $before: play\n      first: "left_of(dealer)"\n'
                           '      choose: {from: "bid_choices(seat)", set: "bid[seat]", verb: bid}\n'
                           'match:\n  max_hands: 20\n')
    assert cli("validate", "bids.yaml").out == "ok: 1 file valid (2 configurations checked)\n"
    r = cli("simulate", "bids.yaml", "-n", "3")
    assert r.code == 0, r.err


GROWS = """\
extends: tiny.yaml
name: tiny-grows
variables:
  big: {scope: match, initial: 100}
hand:
  phases:
    - id: scoring
      effects:
        - {id: costly, add: {"score[0]": "sum(sum(range(big)) for a in range(big))"}}
match:
  after_hand:
    - {id: grow, set: {big: "big * 10"}}
  end_when: "hand_number >= 3"
"""


def test_a_range_of_a_length_not_known_is_bounded_as_it_runs(cli: Cli) -> None:
    # 'big' is a variable: nothing bounds it at load time. Counted at 100,000 numbers a range, the sum
    # of sums would be refused; instead each range may give as many numbers as keep the expression within
    # bounds (999: 999 lists of 999 numbers held is about a million values), checked as it runs. With
    # big = 100 the first hand is scored; with big = 1,000 the second hand's scoring fails, at the rule.
    cli.tiny()
    cli.write("grows.yaml", GROWS)
    assert cli("validate", "grows.yaml").out == "ok: 1 file valid (2 configurations checked)\n"
    r = cli("simulate", "grows.yaml", "-n", "1")
    assert (r.code, r.out) == (1, "")
    assert r.err == ("grows.yaml:9:43: error: phase 'scoring' effect costly: ValueError: range() here would give "
                     "1,000 numbers; it may give at most 999, so that this expression takes at most 10,000,000 "
                     "steps and holds at most 1,000,000 values each time it is computed (a loop multiplies what "
                     "it contains by the length of its list) (in 'sum(sum(range(big)) for a in range(big))')\n")


def test_known_parts_too_costly_on_their_own_are_still_refused(cli: Cli) -> None:
    # The range of a variable's length could give nothing at all, and the rest would still cost 10^10.
    r = cli("eval", "count([sum(range(100000)) for a in range(100000)]) + count(range(x))", "--set", "x=3")
    assert r.code == 1 and "may take up to 10,000," in r.err
