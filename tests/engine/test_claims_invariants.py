"""The claims phase (Yukushi, Doubt/Cheat): invariants after every move, secrecy of face-down and
removed pieces in views and redacted logs, the lazily enumerated move set, and the bluffer agent.

Checked after every move of seeded games with 3, 4 and 6 seats, random and bluffer agents:
- every piece is in exactly one zone, and the location table agrees;
- someone is to act with at least one legal move until the game is over; every game ends;
- no seat's view shows another seat's hand, a face-down piece it did not put down, or a removed
  piece it did not put down; the finishing order is a permutation of the seats at the end;
- replaying the log reaches the same final state.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from functools import cache
from typing import Any

import pytest

from rulecraft.agents.base import make_agent
from rulecraft.engine.game import Game
from rulecraft.engine.phases.claims import ClaimMoves, multiset_table
from rulecraft.engine.ruleset import Ruleset
from rulecraft.engine.state import State
from rulecraft.load import load_ruleset
from rulecraft.runs.log import log_lines, replay_lines
from rulecraft.runs.scenario import start_arranged
from rulecraft.runs.simulate import play_game


@cache
def _rules(ref: str, **options: str) -> Ruleset:
    return load_ruleset(ref, dict(options))


GAMES = [("yukushi", {"players": n}, agent, seed)
         for n in ("3", "4", "6") for agent in ("random", "bluffer") for seed in (1, 2)]
GAMES += [
    ("yukushi", {"players": "2", "max_count": "four", "over_claims": "refused"}, "random", 3),
    ("yukushi", {"players": "5", "next_turn": "verish"}, "bluffer:0.6", 4),
    ("doubt", {}, "bluffer", 5),
    ("doubt", {"per_play": "up-to-four", "passing": "allowed", "sequence": "one-up-or-down"}, "random", 6),
]


def check_state(st: State) -> None:
    rs = st.rs
    count = rs.pieces.count
    assert sorted(p for z in st.zones for p in z) == list(range(count)), "a piece is lost or in two places"
    for zi, zone in enumerate(st.zones):
        for p in zone:
            assert st.loc[p] == zi
    if not st.is_over:
        assert st.to_act is not None
        assert len(st.legal_moves()) > 0, "a seat is to act with no legal move"
    removed = rs.zone_by_name["removed"]
    for seat in range(rs.seats.count):
        view = st.view(seat)
        for label, z in view["zones"].items():
            shown = set(z.get("pieces", ()))
            if label.startswith("hand["):
                if label != f"hand[{seat}]":
                    assert not shown, f"seat {seat} sees {shown} in {label}"
                continue
            zone = rs.zone_by_name[label.split("[")[0]]
            for p in st.zones[zone.base]:
                if rs.pieces.type_id(p) in shown:
                    assert not st.face_down[p] or st.downed_by[p] == seat, f"seat {seat} sees face-down {p}"
                    if zone is removed:
                        assert st.downed_by[p] == seat, f"seat {seat} sees a removed piece it did not put down"


@pytest.mark.parametrize(("ref", "options", "agent", "seed"), GAMES)
def test_claim_games_end_with_invariants_and_replay(ref: str, options: dict[str, str], agent: str,
                                                    seed: int) -> None:
    rs = _rules(ref, **options)
    agents = [agent] * rs.seats.count
    final, moves = play_game(rs, seed, agents, on_state=check_state)
    assert final.is_over and moves > 0
    assert final.result is not None and not final.result["truncated"]
    places = final.var("place")
    assert sorted(places) == list(range(1, rs.seats.count + 1)), "the finishing order ranks every seat"
    assert final.result["winners"] == [places.index(1)]
    replayed = replay_lines(log_lines(final, agents), rs)
    assert replayed.history == final.history


def test_random_agents_challenge_and_games_see_flushes() -> None:
    rs = _rules("yukushi", players="4")
    kinds: Counter[str] = Counter()
    for seed in range(3):
        st, _ = play_game(rs, seed, ["random"] * 4)
        kinds.update(e["type"] for e in st.history)
    assert kinds["reveal"] > 0
    st, _ = play_game(rs, 9, ["bluffer"] * 4)
    assert any(e["type"] == "flush" for e in st.history)


# ---------------------------------------------------------------------------- secrecy
def _tokens(lines: list[str]) -> set[str]:
    """Every word of every string in a log, so piece ids are matched exactly (not inside a hash)."""
    out: set[str] = set()

    def walk(v: Any) -> None:
        if isinstance(v, str):
            out.update(v.replace(":", " ").split())
        elif isinstance(v, dict):
            for x in v.values():
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)

    for line in lines:
        walk(json.loads(line))
    return out


def _shown(st: State, seat: int) -> set[str]:
    return {pid for z in st.view(seat)["zones"].values() for pid in z.get("pieces", ())}


def _arranged(**options: str) -> State:
    data = {"deal": {"hand[0]": ["s7", "h2", "sK"], "hand[1]": ["h7", "h8"], "hand[2]": ["d7", "s3"],
                     "hand[3]": ["c7"]}}
    return start_arranged(_rules("yukushi", **options), data)


def test_flushed_pile_is_never_shown_to_another_seat() -> None:
    st = _arranged()
    # each pass but the last reopens the window (Yukushi: challenge until the next play or the flush)
    for move in ["claim 7: s7 h2", "accept", "accept", "accept", "pass", "accept", "accept", "accept",
                 "pass", "accept", "accept", "accept", "pass"]:
        st.apply(move)
    assert len(st.zone_view("removed")) == 2 and not st.zone_view("pile")
    for seat in (1, 2, 3):
        assert not {"s7", "h2"} & _shown(st, seat)
        assert not {"s7", "h2"} & _tokens(log_lines(st, viewer=seat))
        public = st.view(seat)["public"]
        assert public["removed"] == 2 and public["reveals"] == []
    assert {"s7", "h2"} <= _shown(st, 0)  # the player still knows its own cards
    assert {"s7", "h2"} <= _tokens(log_lines(st, viewer=0))
    assert "claim 7: ? ?" in "\n".join(log_lines(st, viewer=1))


def test_unchallenged_plays_stay_hidden_and_claims_are_public() -> None:
    st = _arranged()
    for move in ["claim 7: s7 h2", "accept", "accept", "accept", "claim 7: h8"]:
        st.apply(move)
    for seat in (2, 3):
        shown = _shown(st, seat)
        assert not {"s7", "h2", "h8"} & shown
        assert not {"s7", "h2", "h8"} & _tokens(log_lines(st, viewer=seat))
        public = st.view(seat)["public"]
        assert public["claims"] == [{"seat": 0, "value": "7", "count": 2}, {"seat": 1, "value": "7", "count": 1}]
        assert public["pile"] == 3
    assert "h8" in _shown(st, 1) and "h8" not in _shown(st, 0)
    assert {"s7", "h2"} <= _shown(st, 0)


def test_a_challenge_reveals_only_the_last_play() -> None:
    st = _arranged()
    for move in ["claim 7: s7 h2", "accept", "accept", "accept", "claim 7: h8", "accept", "challenge"]:
        st.apply(move)
    # seat 3 challenged seat 1's h8 (a lie): seat 1 takes the pile; only h8 is shown to all
    reveal = st.view(3)["public"]["reveals"][-1]
    assert reveal == {"claimant": 1, "challenger": 3, "claim": "7", "pieces": ["h8"], "lie": True, "picker": 1,
                      "taken": 3}
    assert "s7" in _shown(st, 1) and "s7" not in _shown(st, 2) and "s7" not in _shown(st, 3)
    assert "h8" in _tokens(log_lines(st, viewer=2)) and "s7" not in _tokens(log_lines(st, viewer=2))


# ---------------------------------------------------------------------------- the move set
def testmultiset_table_counts_sub_multisets() -> None:
    copies = [2, 1, 3]
    ways = multiset_table(copies, 6)
    items = [t for t, c in enumerate(copies) for _ in range(c)]
    for k in range(7):
        assert ways[0][k] == len(set(itertools.combinations(items, k)))


def test_lazy_moves_index_iterate_and_contain_alike() -> None:
    st = _arranged(players="8", max_count="four")
    moves = st.legal_moves()
    assert isinstance(moves, ClaimMoves)
    listed = list(moves)
    assert len(listed) == len(moves) == 13 * (7 + 21 + 35 + 35)  # 7 cards, 1-4 of them, 13 ranks
    assert [m.text for m in listed] == [moves[i].text for i in range(len(moves))]
    assert len({m.text for m in listed}) == len(listed)
    assert all(m in moves for m in listed[::97])
    assert st.parse_move("claim K: sK s7").text == "claim K: s7 sK"


# ---------------------------------------------------------------------------- the bluffer
def test_bluffer_challenges_an_impossible_claim() -> None:
    rs = _rules("yukushi")
    data = {"deal": {"hand[0]": ["sA", "s2", "s3"], "hand[1]": ["h7", "d7"]}}
    st = start_arranged(rs, data)
    st.apply("claim 7: sA s2 s3")  # three 7s, while seat 1 holds two of the four
    assert st.to_act == 1
    for seed in range(5):
        assert make_agent("bluffer", seed, 1).choose(st, 1).text == "challenge"


def test_bluffer_tells_the_truth_when_it_can() -> None:
    rs = _rules("yukushi")
    st = start_arranged(rs, {"deal": {"hand[0]": ["s7", "h7", "sK"]}})
    move = make_agent("bluffer", 1, 0).choose(st, 0)
    assert move.verb == "claim"
    assert all(rs.pieces.columns["rank"][p] == move.value for p in move.pieces)


def test_bluffer_decides_the_same_whatever_lies_hidden() -> None:
    """Two states that look the same to seat 2 (only seat 0's hidden cards differ) get the same answer."""
    rs = _rules("yukushi")
    answers = set()
    for hidden in (["s9", "h9"], ["sQ", "hQ"]):
        st = start_arranged(rs, {"deal": {"hand[0]": hidden, "hand[2]": ["d7", "s3"]}})
        st.apply(f"claim 7: {' '.join(hidden)}")
        st.apply("accept")
        answers.add(make_agent("bluffer", 4, 2).choose(st, 2).text)
    assert len(answers) == 1


def test_a_pass_reopens_the_window_and_the_view_says_so() -> None:
    st = _arranged()
    for move in ["claim 7: s7 h2", "accept", "accept", "accept"]:
        st.apply(move)
    public = st.view(2)["public"]
    assert "responding" not in public and public["to_play"] == 1
    assert public["challengeable"] == {"seat": 0, "value": "7", "count": 2}
    st.apply("pass")
    public = st.view(2)["public"]
    assert (public["responding"], public["asked_after"], public["challenge_until"]) == (1, "pass", "next_play")
    assert [m.text for m in st.legal_moves()] == ["accept", "challenge"]
    strict = _arranged(challenge_until="response")
    for move in ["claim 7: s7 h2", "accept", "accept", "accept", "pass"]:
        strict.apply(move)
    public = strict.view(2)["public"]
    assert strict.to_act == 2 and "challengeable" not in public and "responding" not in public


def test_bluffer_asked_again_after_a_pass_challenges_only_the_impossible() -> None:
    """A pass tells nothing about the pieces under a claim: the bluffer does not roll its suspicion again."""
    rs = _rules("yukushi")
    possible = {"deal": {"hand[0]": ["s9", "h9"], "hand[1]": ["c2"], "hand[2]": ["d7", "s3"], "hand[3]": ["h7", "c7"]}}
    impossible = {"deal": {"hand[0]": ["sA", "s2", "s3"], "hand[1]": ["c2"], "hand[2]": ["h7", "d7"]}}
    for data, claim, want in ((possible, "claim 7: s9 h9", "accept"), (impossible, "claim 7: sA s2 s3", "challenge")):
        st = start_arranged(rs, data)
        for move in [claim, "accept", "accept", "accept", "pass", "accept"]:
            st.apply(move)
        assert st.to_act == 2 and st.view(2)["public"]["asked_after"] == "pass"
        assert {make_agent("bluffer", seed, 2).choose(st, 2).text for seed in range(100)} == {want}


def test_bluffer_argument_is_checked() -> None:
    from rulecraft.errors import UsageError

    with pytest.raises(UsageError):
        make_agent("bluffer:2", 1, 0)
    assert make_agent("bluffer:0.5", 1, 0).name == "bluffer"


def test_seeded_games_are_reproducible() -> None:
    rs = _rules("yukushi", players="3")
    a, _ = play_game(rs, 11, ["bluffer"] * 3)
    b, _ = play_game(rs, 11, ["bluffer"] * 3)
    assert log_lines(a) == log_lines(b)
    assert Game(rs, 11).new_state().view(0) == Game(rs, 11).new_state().view(0)


def test_bluffer_counts_every_copy_of_a_value() -> None:
    """With two decks there are eight aces: holding four, a claim of two aces may well be true."""
    from pathlib import Path

    path = Path(__file__).parents[2] / "variants" / "cheat" / "base.yaml"
    rs = load_ruleset(str(path), {})
    aces = ["cA", "dA", "hA", "sA"]
    st = start_arranged(rs, {"deal": {"hand[1]": ["c2", "d2"], "hand[2]": aces}})
    st.apply("claim A: c2 d2")  # seat 1 leads (left of dealer 0) and lies; seat 2 cannot tell
    assert st.to_act == 2
    answers = {make_agent("bluffer", seed, 2).choose(st, 2).text for seed in range(8)}
    assert "accept" in answers  # counting one deck, it took the claim for impossible and always challenged
