"""What ``rulecraft play`` says between moves: the prompt in the game's words, the legal moves always
summarised (never dropped), rounds called as the phase kind calls them, and only what changed.

The pure functions are checked against the engine's own state (who led, who bid what, how many pieces
went to the nest); the terminal tests read a real game under a pseudo-terminal (``test_play.Terminal``).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path

from support import ruleset
from test_play import PROMPT, Terminal

from rulecraft.cli.move_input import move_summary, state_summary
from rulecraft.cli.prompts import decision_prompt, hand_events
from rulecraft.cli.table import Seats, changes, event_text, log_lines, piece_order, render_table
from rulecraft.engine.game import Game
from rulecraft.engine.ruleset import Ruleset
from rulecraft.engine.state import State
from rulecraft.engine.views import redact_event

SEATS4 = Seats(("you", "a", "b", "c"))


def advance(rs: Ruleset, seed: int, until: Callable[[State], bool], limit: int = 2000) -> State:
    """A game of ``rs`` played by seeded random moves until ``until`` holds (the test fails if it never does)."""
    st = Game(rs, seed).new_state()
    rng = random.Random(seed)
    for _ in range(limit):
        if until(st):
            return st
        assert not st.is_over, "the game ended before the state the test wants"
        legal = st.legal_moves()
        st.apply(legal[rng.randrange(len(legal))])
    raise AssertionError("the state the test wants never came")


def prompt(st: State, seats: Seats = SEATS4, lang: str | None = None) -> str:
    seat = st.to_act
    return decision_prompt(st.rs, st.view(seat), hand_events(st.history, seat), seats, lang)


def phase_kind(st: State) -> str:
    return "" if st.is_over else st.rs.phases[st.pidx].kind


# ---------------------------------------------------------------------- prompts
def test_the_nest_exchange_counts_the_pieces_given() -> None:
    rs = ruleset("rook")
    st = advance(rs, 3, lambda s: phase_kind(s) == "exchange")
    assert prompt(st) == "give 5 to the nest: 1 of 5"
    for n in range(2, 6):
        st.apply(st.legal_moves()[0])
        assert prompt(st) == f"give 5 to the nest: {n} of 5"
    st.apply(st.legal_moves()[0])
    assert phase_kind(st) == "choose" and prompt(st) == "choose trump"


def test_a_choice_set_into_a_variable_with_no_plain_name_reads_its_choices_by_their_labels() -> None:
    # Tien Gow's named pickup is set into 'pickup_named': an identifier, never shown as the question; the
    # pickup methods are read as words, not as the ids typed ('name two-columns').
    rs = ruleset("tien-gow")
    st = advance(rs, 3, lambda s: phase_kind(s) == "choose")
    assert len(st.legal_moves()) == 7
    assert prompt(st) == ("choose one: two columns, tiers from top, tiers from bottom, single columns, "
                          "alternate columns, middle out, outside in")
    assert "two-columns" not in prompt(st)


def test_pieces_passed_unseen_are_counted_in_one_line_not_shown_as_question_marks() -> None:
    # Hearts: each seat passes three cards, one 'give' each; seat 0 may not see the others'.
    rs = ruleset("hearts")
    st = advance(rs, 5, lambda s: phase_kind(s) == "tricks")
    seen = [e for e in (redact_event(e, 0) for e in st.history) if e is not None]
    lines = log_lines(seen, SEATS4, rs)
    for seat in (1, 2, 3):
        assert lines.count(f"seat {seat} ({SEATS4.labels[seat]}): give 3 pieces, unseen") == 1
    own = [line for line in lines if line.startswith("seat 0 (you): give ")]
    assert len(own) == 3 and all("?" not in line and "unseen" not in line for line in own)  # its own, by name
    assert not any("?" in line for line in lines)


def test_the_bidding_prompt_names_the_high_bid_and_its_bidder() -> None:
    rs = ruleset("rook")
    st = Game(rs, 5).new_state()
    first = st.to_act
    assert prompt(st) == "your bid (no bid yet)"
    st.apply("bid 85")
    st.apply("pass")
    assert prompt(st) == f"your bid (high bid 85 by {SEATS4.name(first)})"
    st.apply("bid 95")
    assert prompt(st).endswith(f"(high bid 95 by {SEATS4.name((first + 2) % 4)})")


def test_a_trick_prompt_says_which_trick_and_whose_lead() -> None:
    rs = ruleset("rook")
    st = advance(rs, 7, lambda s: phase_kind(s) == "tricks")
    leader = st.to_act
    assert prompt(st) == "trick 1: your lead"
    st.apply(st.legal_moves()[0])
    assert prompt(st) == f"trick 1: your play to {SEATS4.name(leader)}'s lead"
    for _ in range(3):
        st.apply(st.legal_moves()[0])
    winner = next(e for e in reversed(st.history) if e.get("type") == "round")["winner"]
    assert st.to_act == winner and prompt(st) == "trick 2: your lead"


def test_a_climbing_prompt_says_what_to_beat() -> None:
    rs = ruleset("big-two")
    st = Game(rs, 5).new_state()
    assert prompt(st) == "round 1: your lead"
    leader = st.to_act
    st.apply("play d3")  # the lowest card leads (seed 5 deals it to the seat to act)
    assert prompt(st) == f"round 1: beat {SEATS4.name(leader)}'s d3, or pass"


def test_a_challenge_prompt_names_the_claim_and_the_claimant() -> None:
    rs = ruleset("doubt")
    st = advance(rs, 4, lambda s: (s.view(s.to_act).get("public") or {}).get("responding") == s.to_act)
    claim = st.view(st.to_act)["public"]["challengeable"]
    assert prompt(st) == (f"{SEATS4.name(claim['seat'])} claims {claim['count']} × {claim['value']}: "
                          "challenge or accept?")


def test_a_claim_prompt_says_what_may_be_claimed_and_how_many() -> None:
    rs = ruleset("doubt", per_play="up-to-four")
    st = advance(rs, 4, lambda s: (s.view(s.to_act).get("public") or {}).get("to_play") == s.to_act
                 and bool(s.view(s.to_act)["public"].get("previous")))
    public = st.view(st.to_act)["public"]
    assert prompt(st) == f"claim {' or '.join(public['may_claim'])}: 1 to 4 face down"


def test_passing_cards_counts_them_and_a_bid_each_seat_makes_is_asked_as_a_bid() -> None:
    hearts = ruleset("hearts")
    st = Game(hearts, 1).new_state()
    assert prompt(st) == "give 3: 1 of 3"
    st.apply(st.legal_moves()[0])
    assert prompt(st) == "give 3: 2 of 3"
    spades = ruleset("spades")
    st = advance(spades, 1, lambda s: phase_kind(s) == "each_seat" and s.legal_moves()[0].verb == "bid")
    assert prompt(st) == "your bid"


def test_a_phase_named_in_the_language_asked_introduces_its_prompt() -> None:
    rs = ruleset("big-two")
    st = Game(rs, 5).new_state()
    name = rs.display.names.term("phases", "play", "zh") if rs.display else None
    assert name
    assert prompt(st, lang="zh") == f"{name}: round 1: your lead"


# ---------------------------------------------------------------------- the legal moves, always
def test_fourteen_moves_are_all_listed() -> None:
    # The bidder holds 14 pieces after taking the nest: the old table dropped its 'you may' line.
    rs = ruleset("rook")
    st = advance(rs, 3, lambda s: phase_kind(s) == "exchange")
    lines = state_summary(st, piece_order(rs))
    text = " ".join(line.strip() for line in lines)
    held = sorted((rs.pieces.type_id(p) for p in st.hand(st.to_act)), key=piece_order(rs))
    assert len(held) == 14
    assert text == "you may: give " + ", ".join(held)


def test_a_long_list_is_cut_but_every_kind_of_move_stays() -> None:
    texts = [f"play p-{i}" for i in range(150)] + ["pass", "call redeal"] + [f"bid {b}" for b in range(70, 125, 5)]
    lines = move_summary(texts, width=80, lines=3)
    text = " ".join(line.strip() for line in lines)
    assert len(lines) <= 3 and all(len(line) <= 80 for line in lines)
    assert "; pass; call redeal; bid 70, 75 … 120" in text
    shown = re.findall(r"p-\d+", text)
    assert shown == [f"p-{i}" for i in range(len(shown))] and 3 <= len(shown) < 150
    assert f"… (+{150 - len(shown)})" in text and "(163 moves: '?' lists them)" in text


def test_plays_of_several_pieces_and_claims_read_as_such() -> None:
    assert move_summary(["play a-1", "play a-1 a-2 a-3", "pass"]) == ["you may: play a-1, [a-1 a-2 a-3]; pass"]
    assert move_summary(["claim 5: h5", "claim 5: h5 s5", "claim 6: d6"], total=9000) == [
        "you may: claim 5, 6 with pieces from your hand (9,000 moves: '?' lists them)"]


# ---------------------------------------------------------------------- rounds by their name
def test_a_trick_is_won_and_a_climbing_round_is_won() -> None:
    event = {"type": "round", "winner": 2, "value": 1}
    assert event_text(event, SEATS4, ruleset("rook")) == "seat 2 (b) wins the trick"
    assert event_text(event, SEATS4, ruleset("big-two")) == "seat 2 (b) wins the round"


# ---------------------------------------------------------------------- only what changed
def test_between_two_decisions_only_what_changed_is_said() -> None:
    rs = ruleset("rook")
    st = advance(rs, 7, lambda s: phase_kind(s) == "tricks")
    me = st.to_act
    before = st.view(me)
    st.apply(st.legal_moves()[0])
    while st.to_act != me:
        st.apply(st.legal_moves()[0])
    after = st.view(me)
    lines = changes(rs, before, after, SEATS4)
    trick = " ".join(after["zones"]["trick"].get("pieces", []))
    won = next(e for e in reversed(st.history) if e.get("type") == "round")["winner"]
    # a whole trick was played and taken: the count of tricks changed, and the trick now on the table
    assert lines[0].startswith("  tricks: ") and f"seat {won}: 1" in lines[0]
    assert (f"  trick: {trick}" in lines) == bool(trick)
    assert not any(line.startswith(("options:", "seats:", "variables:", "your hand", "  score:")) for line in lines)
    assert len(lines) < len(render_table(rs, after, SEATS4)) // 3


def test_the_hand_is_shown_again_when_pieces_come_into_it() -> None:
    rs = ruleset("hearts")
    st = Game(rs, 2).new_state()
    me = st.to_act
    before = st.view(me)
    while st.legal_moves()[0].verb == "give":
        st.apply(st.legal_moves()[0])
    while st.to_act != me:
        st.apply(st.legal_moves()[0])
    lines = changes(rs, before, st.view(me), SEATS4)
    got = sorted(set(before_ids := [rs.pieces.type_id(p) for p in st.hand(me)]) -
                 set(before["zones"][f"hand[{me}]"]["pieces"]))
    assert len(got) == 3 and len(before_ids) == 13
    header = next(line for line in lines if line.startswith("your hand"))
    assert header == f"your hand (13 pieces; new: {' '.join(sorted(got, key=piece_order(rs)))}):"


def asked(screen: str) -> str:
    """The prompt's words: the start of the line that the prompt ``[seat N]> `` ends."""
    return screen.rpartition("\n")[2]


def test_the_terminal_shows_the_whole_table_once_then_what_changed(tmp_path: Path) -> None:
    term = Terminal(["play", "rook", "--seed", "11", "--seats", "human,first,first,first", "--log",
                     str(tmp_path / "g.jsonl"), "--hands", "3"], tmp_path)
    try:
        first, _ = term.expect(PROMPT)
        assert first.count("=== Rook") == 1 and asked(first) == "your bid (no bid yet) "
        assert "you may: pass; bid 70, 75 … 120" in first
        screens = []
        for move in ("pass", "pass", "bid 120", "give red-8", "give red-10"):
            term.send(move)
            screen, _ = term.expect(PROMPT)
            screens.append((screen, asked(screen)))
        # hands 2 and 3 begin with their header and the new hand, not the whole table
        for screen, _ in screens[:2]:
            assert screen.count("=== Rook") == 1 and "options:" not in screen and "your hand (9 pieces):" in screen
        # having won the bid with 120, seat 0 takes the nest: its hand is shown with the five new pieces
        assert "declarer: seat 0 (you)" in screens[2][0] and "your hand (14 pieces; new: " in screens[2][0]
        assert screens[2][1] == "give 5 to the nest: 1 of 5 "
        assert "you may: give " in screens[2][0]
        assert screens[4][1] == "give 5 to the nest: 3 of 5 " and "nest: red-8 red-10" in screens[4][0]
        assert all("=== Rook" not in screen for screen, _ in screens[2:])
        term.send("table")
        whole, _ = term.expect(PROMPT)
        assert "=== Rook" in whole and "options:" in whole and "you may: give " in whole
        term.send("quit")
        term.expect("game saved to")
        assert term.finish() == 0
    finally:
        term.kill()
