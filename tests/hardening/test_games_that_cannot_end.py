"""Games that cannot end: a rule problem at the end_when that never holds, with the seed and the bound.

The tiny game deals 3 cards each to 2 seats: a hand is 6 moves. With end_when false and max_hands
100,000, the 100,000-move bound comes first, after 16,666 whole hands (100,000 // 6).
"""

from __future__ import annotations

from cli_support import Cli

NO_END = """\
extends: tiny.yaml
name: tiny-noend
match:
  end_when: "false"
  max_hands: 100000
"""
MESSAGE = ("noend.yaml:4:14: error: {}a game with seed 1000020 did not end within 100,000 moves (16,666 hands "
           "played): the match's end_when never held, and max_hands is 100,000")


def test_simulate_names_the_end_when_the_seed_and_the_bound(cli: Cli) -> None:
    cli.tiny()
    cli.write("noend.yaml", NO_END)
    r = cli("simulate", "noend.yaml", "-n", "3")
    assert (r.code, r.out, r.err) == (1, "", MESSAGE.format("") + "\n")


def test_validate_simulate_is_bounded_and_plays_no_other_configuration(cli: Cli) -> None:
    # Two configurations (option bonus=ten, bonus=twenty): the second is built but not played, so the
    # refusal costs one game's bound, not one per configuration.
    cli.tiny()
    cli.write("noend.yaml", NO_END)
    r = cli("validate", "--simulate", "5", "noend.yaml")
    assert (r.code, r.out, r.err) == (1, MESSAGE.format("cannot be played: ") + "\n1 problem in 1 of 1 file\n", "")


def test_validate_simulate_move_and_time_bounds_are_options(cli: Cli) -> None:
    cli.tiny()
    cli.write("noend.yaml", NO_END)
    r = cli("validate", "--simulate", "1", "--max-moves", "600", "noend.yaml")
    assert r.out == ("noend.yaml:4:14: error: cannot be played: a game with seed 1000020 did not end within 600 moves "
                     "(100 hands played): the match's end_when never held, and max_hands is 100,000\n"
                     "1 problem in 1 of 1 file\n")
    r = cli("validate", "--simulate", "1", "--time-limit", "0", "noend.yaml")
    assert r.code == 2 and "Invalid value for '--time-limit'" in r.err


SLOW_THEN_STUCK = NO_END + """\
options:
  - id: capture
    description: "Where a trick goes."
    default: won
    choices:
      - {id: won, description: "To the winner's pile.", patch: {}}
      - id: hand
        description: "Back to the winner's hand: the loser runs out while the winner still leads."
        patch: {match: {end_when: "true"}, hand: {phases: [{id: play, capture: {to: hand}}]}}
"""


def test_a_game_cut_by_the_time_limit_is_too_slow_to_check_not_endless(cli: Cli) -> None:
    # Out of time before the bound on moves, a game is not shown to be endless: a warning says it was
    # not played to its end, the file is not failed for it, and the next configuration is still played
    # (capture=hand's game, which leaves a seat without a legal move, is reported after the warning).
    cli.tiny()
    cli.write("noend.yaml", SLOW_THEN_STUCK)
    # (100,000 moves of the tiny game take seconds; the stuck game is stuck within its first ten moves)
    r = cli("validate", "--simulate", "3", "--time-limit", "0.5", "noend.yaml")
    lines = r.out.splitlines()
    assert r.code == 1
    assert lines[0].startswith("noend.yaml:1:1: warning: not played to its end: game with seed 1000020, after ")
    assert lines[0].endswith(" played, 2 more games not played): too slow to play to its end within the time limit, "
                             "so whether it ends was not checked")
    assert "noend.yaml:1:1: error: with option capture=hand: cannot be played: game with seed 1000020, after 7 " \
           "moves: seat 0 is to act but has no legal move" in lines
    assert "did not end" not in r.out


def test_a_seat_left_without_a_legal_move_is_a_rule_problem_in_simulate(cli: Cli) -> None:
    # Captured cards go back to the winner's hand, so the loser runs out while the winner still leads:
    # the loser is asked to follow with nothing to play.
    cli.tiny()
    cli.write("loop.yaml", "extends: tiny.yaml\nname: tiny-loop\nhand:\n  phases:\n    - id: play\n"
                           "      capture: {to: hand}\n")
    r = cli("simulate", "loop.yaml", "-n", "1")
    assert (r.code, r.err) == (1, "tiny.yaml:28:7: error: a game with seed 1000020 reached a state where seat 0 is "
                                  "to act but has no legal move (hand 1, in phase 'play' (tricks))\n")
