"""Logs: they replay to the same state, refuse another ruleset, and name the line that is broken."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support import ruleset

from rulecraft.errors import LogError
from rulecraft.runs.log import log_lines, read_log, replay, write_atomic, write_log
from rulecraft.runs.simulate import play_game


@pytest.fixture(scope="module")
def game():  # type: ignore[no-untyped-def]
    rs = ruleset("rook")
    st, _ = play_game(rs, 3, ["random"] * 4, max_hands=2)
    return rs, st


def test_log_replays_to_the_same_state(tmp_path: Path, game) -> None:  # type: ignore[no-untyped-def]
    rs, st = game
    path = tmp_path / "g.jsonl"
    write_log(path, st, ["random"] * 4)
    final, states = replay(path, rs, keep_states=True)
    assert final.view(None) == st.view(None)
    assert final.result == st.result
    moves = sum(1 for e in st.history if e["type"] == "move")
    assert len(states) == moves
    # stepping: the state before move k, replayed only up to k, is the same state
    part, _ = replay(path, rs, upto=10)
    assert part.view(None) == states[10].view(None)


def test_a_log_saved_with_a_byte_order_mark_replays(tmp_path: Path, game) -> None:  # type: ignore[no-untyped-def]
    # An editor on some systems writes one at the start of a UTF-8 file; rule files are read with it too.
    rs, st = game
    path = tmp_path / "g.jsonl"
    write_log(path, st, ["random"] * 4)
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    final, _ = replay(path, rs)
    assert final.view(None) == st.view(None)
    assert final.result == st.result


def test_log_from_other_options_is_refused(tmp_path: Path, game) -> None:  # type: ignore[no-untyped-def]
    _, st = game
    path = tmp_path / "g.jsonl"
    write_log(path, st)
    other = ruleset("rook", bird_rank="lowest")
    with pytest.raises(LogError, match=r"different ruleset.*bird_rank"):
        replay(path, other)


def test_corrupt_line_is_named(tmp_path: Path, game) -> None:  # type: ignore[no-untyped-def]
    _rs, st = game
    lines = log_lines(st)
    lines[5] = lines[5][:-3]
    path = tmp_path / "g.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(LogError, match=r"g\.jsonl:6:\d+: error: not valid JSON"):
        read_log(path)


def test_tampered_move_is_refused_with_its_line(tmp_path: Path, game) -> None:  # type: ignore[no-untyped-def]
    rs, st = game
    lines = log_lines(st)
    index = next(i for i, line in enumerate(lines) if '"move": "bid' in line or '"move": "pass' in line)
    event = json.loads(lines[index])
    event["move"] = "bid 125"
    lines[index] = json.dumps(event)
    path = tmp_path / "g.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(LogError, match=rf"g\.jsonl:{index + 1}:1: error: move 'bid 125' is not legal here"):
        replay(path, rs)


def test_not_a_log(tmp_path: Path) -> None:
    path = tmp_path / "x.jsonl"
    path.write_text('{"type": "move"}\n', encoding="utf-8")
    with pytest.raises(LogError, match="starts with a header"):
        read_log(path)
    with pytest.raises(LogError, match="cannot read"):
        read_log(tmp_path / "missing.jsonl")


def test_redacted_log_hides_others_hands_and_cannot_replay(tmp_path: Path, game) -> None:  # type: ignore[no-untyped-def]
    rs, st = game
    path = tmp_path / "seat1.jsonl"
    write_log(path, st, viewer=1)
    text = path.read_text(encoding="utf-8")
    # the deal's order (which would reveal every hand) is not in a seat's log
    assert '"order"' not in text
    # seat 1 sees its own discards into the nest, not another bidder's
    for line in text.splitlines()[1:]:
        e = json.loads(line)
        if e["type"] == "move" and e["move"].startswith("give") and e["seat"] != 1:
            assert e["move"] == "give ?"
    with pytest.raises(LogError, match="redacted for seat 1"):
        replay(path, rs)


def test_atomic_write_leaves_nothing_on_failure(tmp_path: Path) -> None:
    path = tmp_path / "out.jsonl"
    path.write_text("old\n", encoding="utf-8")

    def lines():  # type: ignore[no-untyped-def]
        yield "one"
        raise RuntimeError("disk full")

    with pytest.raises(RuntimeError):
        write_atomic(path, lines())
    assert path.read_text(encoding="utf-8") == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.jsonl"]


def test_partial_replay_keeps_later_chance_the_same() -> None:
    """A game resumed from its log (chance outcomes given only up to a point) deals on as the original."""
    from rulecraft.engine.game import Game

    rs = ruleset("rook")
    original, _ = play_game(rs, 12, ["random"] * 4, max_hands=3)
    first_shuffle = [e for e in original.history if e["type"] == "chance"][:1]
    resumed = Game(rs, 12, 3).new_state(chance=first_shuffle)
    later = [e for e in original.history if e["type"] == "chance"][1]
    # play the resumed game with the original's moves; its second deal must be the original's
    for e in original.history:
        if e["type"] == "move":
            resumed.apply(e["move"])
    assert [e for e in resumed.history if e["type"] == "chance"][1] == later
    assert resumed.view(None) == original.view(None)
