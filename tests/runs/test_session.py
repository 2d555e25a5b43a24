"""A game people play (``runs.session``), as both faces use it: its chance, moves as transactions, undo."""

from __future__ import annotations

from pathlib import Path

import pytest
from support import ruleset

from rulecraft.errors import IllegalMoveError, UsageError
from rulecraft.load import load_ruleset
from rulecraft.runs.log import read_log
from rulecraft.runs.session import MoveFailedError, Session, StaleMoveError, keyed_hands, table_seed

BROKEN = ("extends: rook\nname: rook-broken-house\nhand:\n  phases:\n    - id: play\n      on_round:\n"
          "        - id: house-bonus\n          when: 'true'\n          set: {bid: 'bid // (bid - bid)'}\n")


def bots_move(s: Session) -> None:
    while s.bot_to_act is not None:
        s.move(*s.choose_for_bot())


def test_a_tables_chance_is_secret_with_several_people_and_kept_when_typed_by_one() -> None:
    assert table_seed(7, 1) == 7 and table_seed(7, 0) == 7
    mixed = {table_seed(7, 2) for _ in range(5)}
    drawn = {table_seed(None, 1) for _ in range(5)}
    assert len(mixed) == len(drawn) == 5 and 7 not in mixed
    assert all(2**128 <= s < 2**256 for s in mixed | drawn)


def test_a_secret_seed_keys_every_hand_and_its_log_says_so_so_replay_and_resume_stay_exact(tmp_path: Path) -> None:
    assert keyed_hands(None, 1) and keyed_hands(7, 2) and keyed_hands(None, 3)
    assert not keyed_hands(7, 1)  # a seed one person chose: the game it has always named
    log = tmp_path / "g.jsonl"
    seed = table_seed(None, 2)
    s = Session.new(ruleset("hearts"), seed, ["human", "default", "human", "default"], log, hands_keyed=True)
    while s.st.hand_no < 3 and not s.st.is_over:  # two whole hands, each dealt by its own generator
        s.move(*(s.choose_for_bot() if s.bot_to_act is not None else (s.st.to_act, s.st.legal_moves()[0])))
    s.save()
    header, _ = read_log(log)
    assert header["hands_keyed"] is True
    again = Session.resume(log, ruleset("hearts"), None, log)
    assert again.st.hands_keyed and list(again.st.history) == list(s.st.history)
    unkeyed = Session.new(ruleset("hearts"), seed, ["human", "default", "human", "default"], None)
    assert unkeyed.st.hands_keyed is False and "hands_keyed" not in read_log_header(unkeyed, tmp_path)


def read_log_header(s: Session, tmp_path: Path) -> dict[str, object]:
    s.log_path = tmp_path / "other.jsonl"
    s.save()
    return read_log(s.log_path)[0]


def test_a_move_that_fails_at_run_time_leaves_the_game_and_its_log_as_they_were(tmp_path: Path) -> None:
    (tmp_path / "broken.yaml").write_text(BROKEN, encoding="utf-8")
    rs = load_ruleset(str(tmp_path / "broken.yaml"))
    log = tmp_path / "g.jsonl"
    s = Session.new(rs, 1, ["human", "first", "first", "first"], log)
    for _ in range(100):
        bots_move(s)
        s.save()
        history, version, saved = list(s.st.history), s.version, log.read_text(encoding="utf-8")
        move = next((m for m in s.st.legal_moves() if m.text != "pass"), s.st.legal_moves()[0])
        try:
            s.move(0, move, version, save=True)
        except MoveFailedError as exc:
            assert "broken.yaml:9:" in str(exc) and "ZeroDivisionError" in str(exc)
            break
    else:
        raise AssertionError("the broken rule never ran")
    assert list(s.st.history) == history and s.version == version and s.st.to_act == 0
    assert log.read_text(encoding="utf-8") == saved
    assert s.st.legal_moves()  # the game can go on (another move, or the rule mended)


def test_a_move_names_the_version_it_answers() -> None:
    s = Session.new(ruleset("rook"), 4, ["human", "random", "random", "random"], None)
    bots_move(s)
    at = s.version
    s.move(0, "pass", at)
    with pytest.raises(StaleMoveError):
        s.move(0, "pass", at)
    with pytest.raises(IllegalMoveError, match=r"not your turn|game is over"):
        s.move(0, "pass")


def test_undo_is_refused_after_a_reveal_and_after_the_end_and_otherwise_rewinds_the_bots(tmp_path: Path) -> None:
    s = Session.new(ruleset("rook"), 4, ["human", "random", "random", "random"], None)
    bots_move(s)
    bid = next(m.text for m in s.st.legal_moves() if m.text != "pass")
    s.move(0, bid)
    bots_move(s)
    after = list(s.st.history)
    assert s.undo(0) > 1
    s.move(0, bid)
    bots_move(s)
    assert list(s.st.history) == after  # the bots answered as before
    s.move(0, "pass")  # the auction ends and play begins: seat 0 sees cards it could not see
    bots_move(s)
    with pytest.raises(UsageError, match="you were shown"):
        s.undo(0)
    while not s.st.is_over:
        s.move(0, s.st.legal_moves()[0])
        bots_move(s)
    with pytest.raises(UsageError, match="the game is over"):
        s.undo(0)


def test_a_saved_game_resumes_as_it_was(tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    s = Session.new(ruleset("rook"), 2**200 + 3, ["human", "default", "default", "default"], log)
    bots_move(s)
    s.move(0, s.st.legal_moves()[-1], save=True)
    bots_move(s)
    s.save()
    header, _ = read_log(log)
    assert header["seed"] == 2**200 + 3
    again = Session.resume(log, ruleset("rook"), None, log)
    assert list(again.st.history) == list(s.st.history) and again.st.to_act == s.st.to_act
    move = again.st.legal_moves()[0]
    s.move(0, move)
    again.move(0, move)
    bots_move(s)
    bots_move(again)
    assert list(again.st.history) == list(s.st.history)  # the bots were warmed: they play on as before
