"""The default agent (plausible and cheap), mc's budget, and ISMCTS: blind to what the seat may not see."""

from __future__ import annotations

import math
import random

import pytest
from support import ruleset
from test_mc import _midgame, _snapshot, _swap, binomial_tail

from rulecraft.agents.base import make_agent
from rulecraft.agents.ismcts import ISMCTSAgent
from rulecraft.agents.mc import MCAgent, parse_budget
from rulecraft.agents.simple import RandomAgent
from rulecraft.engine.determinize import hidden_pieces
from rulecraft.engine.state import State
from rulecraft.errors import UsageError
from rulecraft.runs.simulate import play_game


def _team_wins(game: str, n: int, agent: str, other: str, max_hands: int | None, seed: int = 700) -> float:
    """Games won by ``agent``'s team, ``agent`` rotating over the seats (its partners play ``agent`` too)."""
    rs = ruleset(game)
    seats, team = rs.seats.count, rs.seats.team_of
    wins = 0.0
    for i in range(n):
        mine = team[i % seats]
        agents = [agent if team[s] == mine else other for s in range(seats)]
        st, _ = play_game(rs, seed + i, agents, max_hands=max_hands)
        assert st.result is not None
        teams = {team[w] for w in st.result["winners"]}
        if mine in teams:
            wins += 1 / len(teams)
    return wins


@pytest.mark.parametrize(("game", "n", "max_hands"), [("rook", 12, 3), ("luk-fu", 18, 3), ("yukushi", 12, None)])
def test_default_beats_random(game: str, n: int, max_hands: int | None) -> None:
    # A one-sided binomial test against random's share (1 / number of teams): random itself would
    # pass it with probability under 1%.
    rs = ruleset(game)
    wins = _team_wins(game, n, "default", "random", max_hands)
    p_value = binomial_tail(n, math.floor(wins), 1 / len(rs.seats.teams))
    assert p_value < 0.01, f"default won {wins:g} of {n} games of {game} (p = {p_value:.4f} against random)"


def test_default_rook_matches_end_with_recognisable_scores() -> None:
    # The README's main job: no match stops at the hand bound, and the winners reach the target
    # (300) with bids in the auction's range; random bidders instead ran 150+ hands into the thousands below 0.
    rs = ruleset("rook")
    for seed in range(3):
        st, _ = play_game(rs, seed, ["default"] * 4)
        assert st.result is not None and not st.result["truncated"]
        assert 300 <= max(st.result["scores"]) < 500
        assert st.result["hands"] < 30
        bids = [h["vars"]["bid"] for h in st.hand_results if not h["voided"]]
        assert bids and all(70 <= b <= 120 for b in bids)


def test_random_stays_uniform() -> None:
    # random draws its move as moves[rng.randrange(len(moves))] from its own seeded RNG: nothing else.
    st = _midgame("rook", 2, 20)
    seat = st.to_act
    assert seat is not None
    agent = RandomAgent(9, seat)
    twin = random.Random()
    twin.setstate(agent.rng.getstate())
    legal = st.legal_moves()
    for _ in range(50):
        assert agent.choose(st, seat) == legal[twin.randrange(len(legal))]


def _playouts_over_decisions(spec: str, states: list[State]) -> tuple[int, int]:
    """(playouts made, decisions searched) by a fresh agent of ``spec`` over the given decisions."""
    total, searched = 0, 0
    for st in states:
        seat = st.to_act
        assert seat is not None
        agent = make_agent(spec, 3, seat)
        assert isinstance(agent, MCAgent)
        agent.choose(st, seat)
        total += agent.playouts
        searched += 1 if agent.playouts else 0
    return total, searched


def test_mc_budget_is_a_total_that_grows_with_n() -> None:
    states = [_midgame(g, s, 14) for g in ("rook", "luk-fu", "tien-gow") for s in range(4)]
    states = [st for st in states if len(st.legal_moves()) > 2]
    assert len(states) >= 6
    small, searched_small = _playouts_over_decisions("mc:5", states)
    large, searched_large = _playouts_over_decisions("mc:20", states)
    assert searched_small == searched_large == len(states)
    assert small <= 5 * len(states)  # counted, not timed: never more than the budget
    assert large <= 20 * len(states)
    assert large >= 3 * small  # and the cost grows with it


def test_ismcts_counts_iterations_and_parses() -> None:
    st = _midgame("rook", 4, 16)
    seat = st.to_act
    assert seat is not None
    agent = make_agent("ismcts:30:d40", 1, seat)
    assert isinstance(agent, ISMCTSAgent)
    move = agent.choose(st, seat)
    assert move in st.legal_moves()
    assert agent.playouts == 30
    assert isinstance(make_agent("ismcts", 1, 0), ISMCTSAgent)
    with pytest.raises(UsageError, match="bad ismcts argument"):
        make_agent("ismcts:x", 1, 0)
    with pytest.raises(UsageError, match="default agent"):
        make_agent("default:0", 1, 0)


@pytest.mark.parametrize("game", ["rook", "luk-fu", "tien-gow", "yukushi"])
@pytest.mark.parametrize("spec", ["ismcts:24:d30", "default:3"])
def test_choice_does_not_depend_on_hidden_content(game: str, spec: str) -> None:
    # Two states the seat to act sees identically, differing only in which hidden pieces lie where:
    # the same agent (same seed) must choose the same move in both. An agent that read the true
    # hidden state would tell them apart.
    for moves in (9, 17, 25):
        st = _midgame(game, 5, moves)
        seat = st.to_act
        assert seat is not None
        hidden = [p for p in hidden_pieces(st, seat) if not st.seen_public[p]]
        by_zone: dict[int, list[int]] = {}
        for p in hidden:
            by_zone.setdefault(st.loc[p], []).append(p)
        zones = [ps for ps in by_zone.values() if ps]
        a = zones[0][0]
        b = zones[1][0] if len(zones) > 1 else zones[0][-1]
        twin = _swap(st, a, b)
        assert _snapshot(twin) != _snapshot(st)
        assert st.view(seat) == twin.view(seat)
        one = make_agent(spec, 11, seat).choose(st, seat)
        two = make_agent(spec, 11, seat).choose(twin, seat)
        assert one.text == two.text


def test_same_seed_same_game_with_new_agents() -> None:
    rs = ruleset("luk-fu")

    def moves(seed: int) -> list[str]:
        st, _ = play_game(rs, seed, ["default", "ismcts:20:d30", "mc:6"], max_hands=2)
        return [e["move"] for e in st.history if e["type"] == "move"]

    assert moves(4) == moves(4)


def test_parse_budget_still_used_by_mc() -> None:
    assert parse_budget("5").playouts == 5
