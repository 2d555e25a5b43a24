"""A long game's log steps through in bounded memory (found by tests/hardening/fuzz_commands.py).

Replaying kept a whole state before every move, and each state its whole history: N²/2 events. The
log of a 200-hand Rook match of random bidders (11,871 lines, 0.7 MB) took 576 MB to ``replay`` and
as much to ``play --resume``; a longer one ran out of memory (exit 3).
"""

from __future__ import annotations

import resource
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from cli_support import Cli

if TYPE_CHECKING:
    from rulecraft.engine.state import State

CAP = 400 * 1024 * 1024


def capped() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (CAP, CAP))


@pytest.fixture(scope="module")
def rook_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("logs")
    r = Cli(d)("simulate", "rook", "-n", "1", "--seed", "3", "--agents", "random", "--no-timings", "--log-dir", "logs")
    assert r.code == 0 and "truncated 1" in r.out  # it stopped at the 200-hand bound
    log = d / "logs" / "game-000000.jsonl"
    assert len(log.read_text(encoding="utf-8").splitlines()) > 11_000
    return log


def test_replay_of_a_long_log_runs_in_bounded_memory(cli: Cli, rook_log: Path) -> None:
    cli.write("game.jsonl", rook_log.read_text(encoding="utf-8"))
    r = cli.process("replay", "game.jsonl", preexec_fn=capped, timeout=300)
    assert (r.returncode, r.stderr) == (0, "")
    assert r.stdout.rstrip().endswith("hands played: 200 (stopped early: hand limit)")


def test_resuming_a_long_log_runs_in_bounded_memory(cli: Cli, rook_log: Path) -> None:
    cli.write("game.jsonl", rook_log.read_text(encoding="utf-8"))
    r = cli.process("play", "--resume", "game.jsonl", input="quit\n", preexec_fn=capped, timeout=300)
    assert r.returncode == 0, r.stderr[-500:]
    assert "hands played: 200" in r.stdout


def _fingerprint(st: State) -> str:
    """What a state holds, as text (the lists themselves change as the game goes on)."""
    return repr((st.zones, st.vars, list(st.history), st.to_act, st.hand_no, st.is_over, st.tricks, st.payments,
                 st.loc, bytes(st.face_down), st.marks, st.known))


@pytest.mark.parametrize("ruleset", ["hearts", "tien-gow", "yukushi"])
def test_the_states_made_again_are_the_states_the_game_passed_through(cli: Cli, ruleset: str) -> None:
    from rulecraft.load import load_ruleset
    from rulecraft.runs.log import log_lines, parse_log, replay_events
    from rulecraft.runs.simulate import play_game
    from rulecraft.runs.states_before import MIN_SPACING

    rs = load_ruleset(ruleset)
    played, _ = play_game(rs, 4, ["random"] * rs.seats.count, max_hands=3)
    header, events = parse_log(log_lines(played, ["random"] * rs.seats.count), "game.jsonl")
    final, before = replay_events(header, events, rs, "game.jsonl", keep_states=True)
    moves = [str(e["move"]) for _, e in events if e["type"] == "move"]
    assert len(before) == len(moves) > 2 * MIN_SPACING  # some states are made again from a kept one
    expected, walked = [], before[0].clone()
    for move in moves:
        expected.append(_fingerprint(walked))
        walked.apply(move)
    assert _fingerprint(walked) == _fingerprint(final)
    assert [_fingerprint(s) for s in before] == expected  # in order
    for i in (len(moves) - 1, 0, MIN_SPACING + 3, -1, MIN_SPACING):  # and in any order
        assert _fingerprint(before[i]) == expected[i]
    assert before[5] is not before[5]  # each a copy of its own: stepping through changes none of them
    with pytest.raises(IndexError):
        before[len(moves)]
