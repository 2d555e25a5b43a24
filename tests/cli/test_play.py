"""``rulecraft play`` and ``rulecraft replay`` driven through their real terminal interface.

Each game test runs the installed command under a pseudo-terminal and plays one seat by typing, as a
person would: at every prompt it asks for the legal moves ('?'), checks them against a *mirror* — the
same ruleset, seed and bots run in this process through the Python API — and types one. The mirror
also says which moves must be refused and why, so the refusal text on the screen is checked against
the engine's own explanation, and the final scores against the engine's result.
"""

from __future__ import annotations

import codecs
import fcntl
import itertools
import os
import re
import select
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from support import ruleset

from rulecraft.agents.base import make_agent
from rulecraft.cli.table import Seats, render_table
from rulecraft.engine.game import Game
from rulecraft.engine.state import State
from rulecraft.errors import IllegalMoveError
from rulecraft.runs.log import write_log

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 60.0
PROMPT = re.compile(r"\[seat (\d+)\]> ")
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[=>]")


class Terminal:
    """A command running under a pty: type lines, wait for text (a tiny pexpect on the standard library)."""

    def __init__(self, args: list[str], cwd: Path, timeout: float = TIMEOUT) -> None:
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 60, 200, 0, 0))
        env = {**os.environ, "TERM": "dumb", "PYTHONIOENCODING": "utf-8", "COLUMNS": "200"}
        self.proc = subprocess.Popen([sys.executable, "-m", "rulecraft.cli.main", *args], stdin=slave,
                                     stdout=slave, stderr=slave, cwd=cwd, env=env, start_new_session=True)
        os.close(slave)
        self.fd = master
        self.buf = ""
        self.seen = ""  # everything read so far
        self.deadline = time.monotonic() + timeout
        self._dec = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self.eof = False

    def _read(self) -> None:
        left = self.deadline - time.monotonic()
        if left <= 0:
            self.kill()
            raise TimeoutError(f"timed out; last output:\n{self.seen[-3000:]}")
        ready, _, _ = select.select([self.fd], [], [], min(left, 1.0))
        if not ready:
            return
        try:
            data = os.read(self.fd, 65536)
        except OSError:  # EIO: the child closed the terminal
            data = b""
        if not data:
            self.eof = True
            return
        text = ANSI.sub("", self._dec.decode(data)).replace("\r\n", "\n").replace("\r", "")
        self.buf += text
        self.seen += text

    def expect(self, pattern: re.Pattern[str] | str) -> tuple[str, re.Match[str]]:
        """Read until ``pattern`` appears; returns (text before it, the match) and consumes both."""
        rx = re.compile(re.escape(pattern)) if isinstance(pattern, str) else pattern
        while True:
            m = rx.search(self.buf)
            if m:
                before = self.buf[:m.start()]
                self.buf = self.buf[m.end():]
                return before, m
            if self.eof:
                raise AssertionError(f"ended before {rx.pattern!r}; last output:\n{self.seen[-3000:]}")
            self._read()

    def send(self, line: str) -> None:
        os.write(self.fd, (line + "\n").encode())

    def send_raw(self, data: bytes) -> None:
        os.write(self.fd, data)

    def finish(self) -> int:
        while not self.eof:
            self._read()
        try:
            return self.proc.wait(timeout=max(1.0, self.deadline - time.monotonic()))
        finally:
            os.close(self.fd)

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()


class Mirror:
    """The same game in this process: it knows every hand, so it can say what must happen on screen."""

    def __init__(self, name: str, options: dict[str, str], seed: int, agents: list[str],
                 max_hands: int | None) -> None:
        self.rs = ruleset(name, **options)
        self.st: State = Game(self.rs, seed, max_hands).new_state()
        self.bots = {s: make_agent(a, seed, s) for s, a in enumerate(agents) if a != "human"}

    def run_bots(self) -> None:
        while not self.st.is_over and self.st.to_act in self.bots:
            seat = self.st.to_act
            assert seat is not None
            self.st.apply(self.bots[seat].choose(self.st, seat))

    def refusal(self, text: str) -> str | None:
        try:
            self.st.clone().parse_move(text)
        except IllegalMoveError as exc:
            return str(exc)
        return None


def listed_moves(screen: str) -> list[str]:
    """The moves '?' printed: the indented lines after 'legal moves (N):', up to a summary line."""
    _, _, rest = screen.rpartition("legal moves (")
    out = []
    for line in rest.splitlines()[1:]:
        if not line.startswith("  ") or line.startswith("  … and"):
            break
        out.append(line.strip())
    return out


Chooser = Callable[[Mirror, list[str]], str]


def first_move(mirror: Mirror, listed: list[str]) -> str:
    return listed[0]


def claims_move(mirror: Mirror, listed: list[str]) -> str:
    """In a claims game: let claims stand (shorter games), otherwise the first listed move."""
    return "accept" if "accept" in listed else listed[0]


def play_game(tmp_path: Path, name: str, *, seed: int, options: dict[str, str] | None = None,
              agents: list[str] | None = None, hands: int | None = 1, choose: Chooser = first_move,
              refuse: Callable[[Mirror], str | None] | None = None) -> tuple[Mirror, str]:
    """Play one seat (0) of ``name`` through the terminal until the game ends; returns the mirror and screen."""
    options = options or {}
    probe = ruleset(name, **options)
    agents = agents or ["human"] + ["random"] * (probe.seats.count - 1)
    mirror = Mirror(name, options, seed, agents, hands)
    log = tmp_path / f"{name}.jsonl"
    args = ["play", name, "--seed", str(seed), "--seats", ",".join(agents), "--log", str(log)]
    args += [a for k, v in options.items() for a in ("-o", f"{k}={v}")]
    if hands is not None:
        args += ["--hands", str(hands)]
    term = Terminal(args, tmp_path)
    refused = False
    try:
        while True:
            mirror.run_bots()
            if mirror.st.is_over:
                break
            _, m = term.expect(PROMPT)
            assert int(m.group(1)) == mirror.st.to_act == 0
            term.send("?")
            screen, _ = term.expect(PROMPT)
            listed = listed_moves(screen)
            assert listed == [mv.text for mv in itertools.islice(mirror.st.legal_moves(), len(listed))]
            assert listed, screen
            if refuse is not None and not refused:
                bad = refuse(mirror)
                if bad is not None:
                    why = mirror.refusal(bad)
                    assert why is not None
                    term.send(bad)
                    screen, _ = term.expect(PROMPT)
                    assert f"refused: {why}" in screen, screen
                    refused = True
            move = choose(mirror, listed)
            term.send(move)
            mirror.st.apply(move)
        term.expect("game over; log saved to")
        assert term.finish() == 0
    finally:
        term.kill()
    assert mirror.st.result is not None
    scores = "  ".join(f"seat {s}: {v:g}" if isinstance(v, float) else f"seat {s}: {v}"
                       for s, v in enumerate(mirror.st.result["scores"]))
    assert f"scores: {scores}" in term.seen, term.seen[-2000:]
    assert log.exists()
    return mirror, term.seen


def unplayable_piece(mirror: Mirror) -> str | None:
    """'play X' for a piece X in hand that may not be played alone now (None when every piece may)."""
    st = mirror.st
    legal = {m.text for m in st.legal_moves()}
    if not any(t.startswith("play ") for t in legal):
        return None
    for p in st.hand(0):
        text = f"play {st.rs.pieces.type_id(p)}"
        if text not in legal:
            return text
    return None


# ---------------------------------------------------------------------- a whole hand of each game
def test_rook_whole_hand(tmp_path: Path) -> None:
    def refuse(mirror: Mirror) -> str | None:
        return unplayable_piece(mirror)

    mirror, seen = play_game(tmp_path, "rook", seed=3, refuse=refuse)
    assert mirror.st.hand_no == 1 and mirror.st.result["hands"] == 1
    assert "refused: you must follow the led suit if you can" in seen
    # Without --lang the terminal speaks the rule file's own words: a variable by its name, the id beside it.
    assert "hand 1 ends" in seen and "game score (score): team 0+2:" in seen


def test_rook_refuses_a_low_bid(tmp_path: Path) -> None:
    def refuse(mirror: Mirror) -> str | None:
        return "bid 65" if any(m.verb == "bid" for m in mirror.st.legal_moves()) else None

    _, seen = play_game(tmp_path, "rook", seed=5, agents=["human", "first", "first", "first"], refuse=refuse)
    assert "refused: a bid must be at least" in seen


def test_luk_fu_whole_hand(tmp_path: Path) -> None:
    _, seen = play_game(tmp_path, "luk-fu", seed=2, refuse=unplayable_piece)
    assert "refused: " in seen
    assert "chips: seat 0:" in seen


def test_yukushi_whole_game(tmp_path: Path) -> None:
    def refuse(mirror: Mirror) -> str | None:
        public = mirror.st.view(0).get("public", {})
        if public.get("to_play") == 0 and public.get("turn_value") is not None:
            other = next(v for v in public["totals"] if v != public["turn_value"])
            return f"claim {other}: {mirror.st.rs.pieces.type_id(mirror.st.hand(0)[0])}"
        return None

    mirror, seen = play_game(tmp_path, "yukushi", seed=4, agents=["human", "bluffer", "bluffer", "bluffer"],
                             hands=None, choose=claims_move, refuse=refuse)
    assert not mirror.st.result["truncated"]
    assert "refused: this turn's claim is" in seen


def test_doubt_whole_game(tmp_path: Path) -> None:
    def refuse(mirror: Mirror) -> str | None:
        public = mirror.st.view(0).get("public", {})
        if public.get("to_play") == 0 and public.get("may_claim"):
            wrong = next(v for v in public["totals"] if v not in public["may_claim"])
            return f"claim {wrong}: {mirror.st.rs.pieces.type_id(mirror.st.hand(0)[0])}"
        return None

    mirror, seen = play_game(tmp_path, "doubt", seed=3, options={"players": "3"},
                             agents=["human", "bluffer", "bluffer"], hands=None, choose=claims_move, refuse=refuse)
    assert not mirror.st.result["truncated"]
    assert "refused: claims rise" in seen


def test_tien_gow_whole_hand(tmp_path: Path) -> None:
    if not (ROOT / "variants" / "tien-gow" / "base.yaml").exists():
        pytest.skip("variants/tien-gow/base.yaml is not written yet")
    try:
        ruleset("tien-gow")
    except Exception as exc:  # the rule file is being written: skip while it does not load
        pytest.skip(f"tien-gow does not load yet: {str(exc).splitlines()[0]}")
    _, seen = play_game(tmp_path, "tien-gow", seed=1, refuse=unplayable_piece)
    assert "game over" in seen


# ---------------------------------------------------------------------- session commands
def _start(tmp_path: Path, *extra: str) -> Terminal:
    return Terminal(["play", "rook", "--seed", "3", "--log", str(tmp_path / "g.jsonl"), *extra], tmp_path)


def _hand_block(screen: str) -> str:
    _, _, hand = screen.rpartition("your hand (")
    return hand.split("to act:")[0]


def test_undo_takes_back_the_move_and_the_replies(tmp_path: Path) -> None:
    # The person bids first (seat 1, left of the dealer) and random bots bid on after it: were the
    # person last to bid after three passes, its bid would win and show it the nest (undo then refused).
    term = _start(tmp_path, "--seats", "random,human,random,random")
    try:
        before, _ = term.expect(PROMPT)
        term.send("?")
        listing, _ = term.expect(PROMPT)
        bid = min((m for m in listed_moves(listing) if m.startswith("bid ")), key=lambda m: int(m.split(" ")[1]))
        term.send(bid)  # the lowest bid: the bots bid on; nothing hidden is shown before seat 0 is to act again
        after_move, _ = term.expect(PROMPT)
        assert f"seat 1 (you): {bid}" in after_move
        term.send("undo")
        undone, _ = term.expect(PROMPT)
        assert "undone: your last move and" in undone
        assert _hand_block(undone) == _hand_block(before)
        assert "phase" not in undone or ", bidding ===" in undone
        term.send(bid)  # the same move gets the same replies: the bots were rewound too
        again, _ = term.expect(PROMPT)
        assert again.split("=== ")[0].strip() == after_move.split("=== ")[0].strip()
        term.send("quit")
        term.expect("game saved to")
        assert term.finish() == 0
    finally:
        term.kill()


def test_undo_is_refused_once_something_hidden_was_shown_since_the_move(tmp_path: Path) -> None:
    """Seat 0 passes (final in Rook): the bots finish the auction and play, so seat 0 sees cards it could not
    see when it passed. Undoing the pass would keep that knowledge: refused, and the game goes on unchanged."""
    term = _start(tmp_path)
    try:
        term.expect(PROMPT)
        term.send("pass")
        term.expect(PROMPT)
        term.send("table")  # (after a move only what changed is shown: the whole table, hand and all)
        after_move, _ = term.expect(PROMPT)
        term.send("undo")
        refused, _ = term.expect(PROMPT)
        assert "refused: undo would take back a move after which you were shown " in refused
        term.send("table")
        table, _ = term.expect(PROMPT)
        assert _hand_block(table) == _hand_block(after_move)
        term.send("quit")
        term.expect("game saved to")
        assert term.finish() == 0
    finally:
        term.kill()


def test_a_rule_failing_at_run_time_refuses_the_move_and_the_game_goes_on_as_it_was(tmp_path: Path) -> None:
    """A house rule that validates but divides by zero when a trick ends: the move that ends the trick is
    refused with the rule's place, the table is as before it, and the game is saved as it was."""
    (tmp_path / "broken.yaml").write_text(
        "extends: rook\nname: rook-broken-house\nhand:\n  phases:\n    - id: play\n      on_round:\n"
        "        - id: house-bonus\n          when: 'true'\n          set: {bid: 'bid // (bid - bid)'}\n",
        encoding="utf-8")
    term = Terminal(["play", "broken.yaml", "--seed", "1", "--seats", "human,first,first,first", "--log", "g.jsonl"],
                    tmp_path)
    try:
        screen, _ = term.expect(PROMPT)
        for _ in range(60):
            term.send("table")
            before, _ = term.expect(PROMPT)
            term.send("?")
            listing, _ = term.expect(PROMPT)
            move = next((m for m in listed_moves(listing) if m != "pass"), "pass")
            term.send(move)
            screen, _ = term.expect(PROMPT)
            if "refused: the move was not made" in screen:
                break
        assert "broken.yaml:9:" in screen and "ZeroDivisionError" in screen
        term.send("table")
        again, _ = term.expect(PROMPT)
        assert again == before
        term.send("quit")
        term.expect("game saved to")
        assert term.finish() == 0
    finally:
        term.kill()
    from rulecraft.runs.log import replay

    st, _ = replay(tmp_path / "g.jsonl", ruleset(str(tmp_path / "broken.yaml")))
    assert st.to_act == 0 and move in [m.text for m in st.legal_moves()]  # saved just before the refused move


def test_quit_and_resume_continue_from_the_same_state(tmp_path: Path) -> None:
    term = _start(tmp_path)
    try:
        term.expect(PROMPT)
        term.send("pass")
        term.expect(PROMPT)
        term.send("table")  # (after a move only what changed is shown: the whole table on request)
        table, _ = term.expect(PROMPT)
        term.send("quit")
        term.expect("game saved to")
        assert term.finish() == 0
    finally:
        term.kill()
    resumed = Terminal(["play", "--resume", str(tmp_path / "g.jsonl")], tmp_path)
    try:
        screen, _ = resumed.expect(PROMPT)
        assert "resumed" in screen
        assert _hand_block(screen) == _hand_block(table)
        assert screen.split("=== ", 1)[1] == table.split("=== ", 1)[1]
        resumed.send_raw(b"\x04")  # Ctrl-D saves too
        resumed.expect("game saved to")
        assert resumed.finish() == 0
    finally:
        resumed.kill()


def test_resume_under_another_ruleset_is_refused(tmp_path: Path) -> None:
    rs = ruleset("rook")
    st = Game(rs, 1).new_state()
    write_log(tmp_path / "r.jsonl", st, ["human", "random", "random", "random"])
    out = subprocess.run([sys.executable, "-m", "rulecraft.cli.main", "play", "luk-fu", "--resume",
                          str(tmp_path / "r.jsonl")], capture_output=True, text=True, cwd=tmp_path, timeout=TIMEOUT)
    assert out.returncode == 1
    assert "r.jsonl:1:1: error: this log was played under a different ruleset" in out.stderr
    assert "Traceback" not in out.stderr


def test_hot_seat_hides_the_previous_hand(tmp_path: Path) -> None:
    term = _start(tmp_path, "--seats", "human,human,random,random")
    try:
        term.expect("Pass the terminal to seat")
        term.expect("press Enter")
        term.send("")
        first, m = term.expect(PROMPT)
        seat_a = int(m.group(1))
        hand_a = _hand_block(first)
        term.send("?")
        listing, _ = term.expect(PROMPT)
        term.send(listed_moves(listing)[0])
        hidden, _ = term.expect("press Enter")
        assert "Pass the terminal to seat" in hidden
        assert "your hand" not in hidden.rpartition("Pass the terminal")[2]
        term.send("")
        second, m = term.expect(PROMPT)
        assert int(m.group(1)) != seat_a
        assert f"your hand (seat {m.group(1)}," in second
        assert hand_a not in second
        term.send("quit")
        term.expect("game saved to")
        assert term.finish() == 0
    finally:
        term.kill()


def test_help_prefix_and_ambiguity(tmp_path: Path) -> None:
    term = _start(tmp_path)
    try:
        term.expect(PROMPT)
        term.send("help")
        screen, _ = term.expect(PROMPT)
        assert "undo" in screen and "quit" in screen
        term.send("bid 1")  # a whole move (a number is never abbreviated): refused with the rule's reason
        screen, _ = term.expect(PROMPT)
        assert "refused: a bid must be at least" in screen
        term.send("pa")  # a unique start of a legal move
        screen, _ = term.expect(PROMPT)
        assert "(taken as: pass)" in screen
        term.send("quit")
        term.expect("game saved to")
        assert term.finish() == 0
    finally:
        term.kill()


# ---------------------------------------------------------------------- replay
def test_replay_non_interactive_prints_every_move_and_the_end(tmp_path: Path) -> None:
    rs = ruleset("luk-fu")
    from rulecraft.runs.simulate import play_game as run

    st, moves = run(rs, 7, ["random"] * 3, max_hands=1)
    write_log(tmp_path / "l.jsonl", st, ["random"] * 3)
    out = subprocess.run([sys.executable, "-m", "rulecraft.cli.main", "replay", str(tmp_path / "l.jsonl"),
                          "--seat", "1"], capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=TIMEOUT)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert sum(1 for line in lines if line.startswith("move ")) == moves
    assert lines[0].startswith(f"move 1/{moves}: ")
    assert "result: winner" in out.stdout
    assert f"scores: {'  '.join(f'seat {s}: {v}' for s, v in enumerate(st.result['scores']))}" in out.stdout
    # Seat 1's view: other seats' face-down discards are redacted.
    for line in lines:
        if line.startswith("move ") and " down " in line and "seat 1 (" not in line:
            assert line.rstrip().endswith(", unseen") and "?" not in line  # how many, never which


def test_replay_of_a_corrupt_log_names_the_line(tmp_path: Path) -> None:
    rs = ruleset("rook")
    write_log(tmp_path / "r.jsonl", Game(rs, 1).new_state(), ["random"] * 4)
    text = (tmp_path / "r.jsonl").read_text().splitlines()
    text.insert(2, "{not json")
    (tmp_path / "r.jsonl").write_text("\n".join(text) + "\n")
    out = subprocess.run([sys.executable, "-m", "rulecraft.cli.main", "replay", str(tmp_path / "r.jsonl")],
                         capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=TIMEOUT)
    assert out.returncode == 1
    assert re.search(r"r\.jsonl:3:\d+: error: not valid JSON", out.stderr), out.stderr
    assert "Traceback" not in out.stderr


# ---------------------------------------------------------------------- the table, as a pure function
@pytest.mark.parametrize("name", ["rook", "luk-fu", "yukushi", "doubt"])
def test_table_never_shows_another_seats_hand(name: str) -> None:
    rs = ruleset(name)
    st = Game(rs, 11).new_state()
    labels = Seats(tuple("s" for _ in range(rs.seats.count)))
    bots = [make_agent("random", 11, s) for s in range(rs.seats.count)]
    for _ in range(30):  # a few moves in, so tricks, piles and discards exist
        if st.is_over:
            break
        st.apply(bots[st.to_act].choose(st, st.to_act))  # type: ignore[index]
    for seat in range(rs.seats.count):
        text = "\n".join(render_table(rs, st.view(seat), labels))
        words = set(re.findall(r"[\w-]+", text))
        for other in range(rs.seats.count):
            if other == seat:
                continue
            for p in st.hand(other):
                tid = rs.pieces.type_id(p)
                if not any(st.rs.pieces.type_id(q) == tid for q in st.hand(seat)) and tid not in _public_ids(st):
                    assert tid not in words, f"seat {seat} sees {tid} of seat {other}"
        mine = {rs.pieces.type_id(p) for p in st.hand(seat)}
        assert mine <= words


def test_table_names_what_the_viewer_knows_of_another_hand() -> None:
    # Hearts' first hand passes three cards left: once delivered, the giver still knows where they are.
    rs = ruleset("hearts")
    st = Game(rs, 5).new_state()
    passed: list[str] = []
    while st.legal_moves()[0].verb == "give":
        move = st.legal_moves()[0]
        if st.to_act == 0:
            passed.append(rs.pieces.type_id(move.pieces[0]))
        st.apply(move)
    lines = render_table(rs, st.view(0), Seats(("you", "a", "b", "c")))
    line = next(line for line in lines if line.strip().startswith("hand (seat 1)"))
    assert line.startswith("  hand (seat 1): 13 pieces, known: ")
    assert sorted(line.partition("known: ")[2].split()) == sorted(passed)
    other = next(line for line in lines if line.strip().startswith("hand (seat 3)"))
    assert "known" not in other or "c2" in other  # only the 2 of clubs is shown to the table


def _public_ids(st: State) -> set[str]:
    from rulecraft.engine.views import visible

    return {st.rs.pieces.type_id(p) for p in range(st.rs.pieces.count)
            if visible(st, p, -1) or st.seen_public[p]}


def test_table_groups_and_sorts_by_the_display_section() -> None:
    rs = ruleset("rook")
    view: dict[str, Any] = Game(rs, 3).new_state().view(0)
    view["zones"]["hand[0]"]["pieces"] = ["black-7", "red-14", "rook-bird", "red-5", "yellow-10", "red-10"]
    view["zones"]["hand[0]"]["count"] = 6
    lines = render_table(rs, view, Seats(("you", "a", "b", "c")))
    start = next(i for i, line in enumerate(lines) if line.startswith("your hand"))
    assert [line.split() for line in lines[start + 1:start + 5]] == [
        ["red:", "red-5", "red-10", "red-14"], ["yellow:", "yellow-10"], ["black:", "black-7"], ["bird:", "rook-bird"]]


def test_table_shows_face_down_pieces_as_a_count() -> None:
    rs = ruleset("luk-fu")
    view: dict[str, Any] = Game(rs, 3).new_state().view(0)
    view["zones"]["trick"] = {"count": 3, "pieces": ["coins-9"]}
    text = "\n".join(render_table(rs, view, Seats(("you", "a", "b"))))
    assert "trick: coins-9 + 2 face down (?? ??)" in text


@pytest.mark.parametrize(("ref", "word"), [("rook", "tricks"), ("big-two", "rounds"), ("doubt", None),
                                           ("crazy-eights", None)])
def test_the_table_counts_rounds_won_only_where_a_phase_counts_them(ref: str, word: str | None) -> None:
    # A claims or shedding game has no rounds to win: a row of zeros would say nothing. Where it has,
    # they are called as the phase kind calls them: tricks in a trick game, rounds in a climbing one.
    path = ROOT / ref if ref.endswith(".yaml") else None
    rs = ruleset(str(path) if path is not None else ref)
    st = Game(rs, 1).new_state()
    lines = render_table(rs, st.view(0), Seats(tuple(f"s{s}" for s in range(rs.seats.count))))
    counted = [line.partition(":")[0] for line in lines if line.endswith("seat 1: 0  seat 2: 0  seat 3: 0")
               and line.partition(":")[0] in ("tricks", "rounds")]
    assert counted == ([word] if word else [])
