"""Composite leads (lead.composite, Sheng Ji's throw): the outcome of the check against the other hands is
a public log event, a seat's copy of the log names the pieces shown and no other piece of the hands it
cannot see, a saved game replays, the moves offered stay few, and a misnamed composite is refused where it
is written. (The scenarios throw-* of Sheng Ji say who wins and who pays.)"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from support import ruleset

from rulecraft.agents.policy import phase_kind
from rulecraft.engine.game import Game
from rulecraft.engine.state import State
from rulecraft.errors import RulecraftError
from rulecraft.load import load_ruleset
from rulecraft.runs.log import log_lines, parse_log, replay, write_log
from rulecraft.runs.scenario import load_scenario, start_arranged
from rulecraft.wording import Seats, event_text

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios" / "sheng-ji"


def _failed_throw() -> State:
    """The scenario throw-fails up to its throw: seat 0's sK + sJ sJ, beaten by seat 3's sA (and the jacks
    by seat 2's queens)."""
    data = load_scenario(SCENARIOS / "throw-fails.yaml")
    st = start_arranged(ruleset("sheng-ji", trump="hearts"), data)
    for move in data["steps"][0]:
        st.apply(st.parse_move(move))
    st.apply(st.parse_move("play sK sJ sJ"))
    return st


def test_a_failed_throw_is_told_to_every_seat_with_the_play_that_beat_it() -> None:
    st = _failed_throw()
    events = [json.loads(line) for line in log_lines(st, viewer=1)[1:]]
    told = [e for e in events if e["type"] == "composite"]
    assert told == [{"type": "composite", "id": "throw", "seat": 0, "pieces": ["sJ", "sJ", "sK"], "held": False,
                     "led": ["sK"], "beaten_by": 3, "beating": ["sA"]}]
    # Seat 2's queens could beat the jacks too, but only the part led is settled: they stay hidden.
    assert "sQ" not in json.dumps(events)


def test_a_game_with_throws_replays_from_its_log(tmp_path: Path) -> None:
    rs = ruleset("sheng-ji", trump="hearts")
    st = Game(rs, 3, max_hands=1).new_state()
    rng = random.Random(3)
    while not st.is_over:
        legal = st.legal_moves()
        throws = [m for m in legal if phase_kind(st) == "tricks" and not st.pdata.plays and len(m.pieces) > 2]
        st.apply(throws[0] if throws and rng.random() < 0.5 else legal[rng.randrange(len(legal))])
    assert any(e.get("type") == "composite" for e in st.history)
    path = tmp_path / "game.log"
    write_log(path, st)
    parse_log(path.read_text(encoding="utf-8").splitlines())
    again, _ = replay(path, rs)
    assert again.history == st.history


def test_a_lead_offers_few_throws_each_of_one_suit() -> None:
    rs = ruleset("sheng-ji", trump="hearts")
    for seed in range(4):
        st = Game(rs, seed, max_hands=1).new_state()
        rng = random.Random(seed)
        while phase_kind(st) != "tricks":
            legal = st.legal_moves()
            st.apply(legal[rng.randrange(len(legal))])
        plays = st.rs.phases[st.pidx]._options(st).plays  # type: ignore[attr-defined]
        throws = [p for p in plays if p is not None and p.combo == "throw"]
        hand = st.hand(st.to_act)
        assert throws and len(throws) < len(hand)  # (at most one per part of a suit beyond the first)
        suit_of = {p: st.rs.phases[st.pidx].composite.group_of(st, p) for p in hand}  # type: ignore[attr-defined]
        assert all(len({suit_of[p] for p in t.pieces}) == 1 for t in throws)


def test_a_composite_named_as_a_combination_is_refused_where_it_is_written(tmp_path: Path) -> None:
    text = (Path(__file__).resolve().parents[2] / "variants" / "sheng-ji" / "base.yaml").read_text(encoding="utf-8")
    bad = tmp_path / "base.yaml"
    bad.write_text(text.replace("          id: throw\n", "          id: pair\n"), encoding="utf-8")
    with pytest.raises(RulecraftError, match=r"base.yaml:\d+:\d+: .*composite lead 'pair'.*an id of its own"):
        load_ruleset(str(bad))


def test_the_outcome_reads_as_a_line_naming_the_play_that_beat_it() -> None:
    st = _failed_throw()
    event = next(e for e in st.history if e.get("type") == "composite")
    line = event_text(event, Seats(("you", "bot", "bot", "bot")), st.rs)
    assert line == ("seat 0 (you) leads sJ sJ sK as a throw: seat 3 (bot) holds sA, which beats sK; "
                    "that is led instead")
