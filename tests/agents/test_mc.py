"""The Monte Carlo agent: reproducible, blind to what its seat may not see, and clearly better than random."""

from __future__ import annotations

import math
import random

import pytest
from support import ruleset

from rulecraft.agents.base import make_agent
from rulecraft.agents.mc import MCAgent, parse_budget
from rulecraft.engine.determinize import determinize, hidden_pieces, remap_pieces
from rulecraft.engine.game import Game
from rulecraft.engine.simulate import play_game
from rulecraft.engine.state import State
from rulecraft.errors import UsageError

GAMES = ["rook", "luk-fu", "tien-gow", "yukushi", "doubt"]


def _midgame(game: str, seed: int, moves: int) -> State:
    """A state some random moves into the first hand, waiting on a seat."""
    st = Game(ruleset(game), seed).new_state()
    rng = random.Random(seed)
    for _ in range(moves):
        legal = st.legal_moves()
        st.apply(legal[rng.randrange(len(legal))])
    assert not st.is_over and st.to_act is not None
    return st


def _snapshot(st: State) -> tuple[object, ...]:
    return ([list(z) for z in st.zones], list(st.loc), bytes(st.face_down), list(st.downed_by),
            list(st.dealt_owner), {k: list(v) for k, v in st.cells.items()})


def _consistent(st: State) -> None:
    """Every piece in exactly one zone, and ``loc`` agreeing; a wall's cells hold pieces still in the wall."""
    seen = sorted(p for z in st.zones for p in z)
    assert seen == list(range(st.rs.pieces.count))
    for zi, zone in enumerate(st.zones):
        assert all(st.loc[p] == zi for p in zone)
    for zi, cells in st.cells.items():
        assert all(st.loc[p] == zi for p in cells if p >= 0)


def _swap(st: State, a: int, b: int) -> State:
    """A twin of ``st`` where hidden pieces a and b trade places (everything about each place stays)."""
    t = st.clone()
    za, zb = t.zones[t.loc[a]], t.zones[t.loc[b]]
    ia, ib = za.index(a), zb.index(b)
    za[ia], zb[ib] = b, a
    for table in (t.loc, t.face_down, t.downed_by, t.dealt_owner):
        table[a], table[b] = table[b], table[a]
    for cells in t.cells.values():
        for i, p in enumerate(cells):
            cells[i] = b if p == a else a if p == b else p
    t.pdata = remap_pieces(t.pdata, {a: b, b: a})
    t._legal_cache = None
    return t


@pytest.mark.parametrize("game", GAMES)
def test_determinization_keeps_what_the_seat_sees_and_every_place(game: str) -> None:
    st = _midgame(game, 3, 12)
    seat = st.to_act
    assert seat is not None
    before = _snapshot(st)
    world = determinize(st, seat, random.Random(1))
    assert _snapshot(st) == before  # the real game is untouched
    _consistent(world)
    hidden = set(hidden_pieces(st, seat))
    assert hidden  # every bundled game hides something early in a hand
    for p in range(st.rs.pieces.count):
        if p not in hidden:
            assert world.loc[p] == st.loc[p]
    for zi, zone in enumerate(st.zones):
        assert len(world.zones[zi]) == len(zone)  # sizes are public and kept
        assert sorted(p for p in world.zones[zi] if p not in hidden) == sorted(p for p in zone if p not in hidden)
    # The world plays on to the end of the hand without error.
    world.hand_limit = world.hand_no
    rng = random.Random(2)
    while not world.is_over:
        legal = world.legal_moves()
        world.apply(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("game", ["luk-fu", "yukushi", "tien-gow"])
def test_hidden_content_does_not_change_the_sample_or_the_choice(game: str) -> None:
    # Two states that differ only in which hidden pieces lie where, as the seat to act sees them
    # identically: the same RNG must give the same determinization and the same move.
    st = _midgame(game, 5, 9)
    seat = st.to_act
    assert seat is not None
    hidden = [p for p in hidden_pieces(st, seat) if not st.seen_public[p]]
    by_zone: dict[int, list[int]] = {}
    for p in hidden:
        by_zone.setdefault(st.loc[p], []).append(p)
    zones = [ps for ps in by_zone.values() if ps]
    a = zones[0][0]
    b = zones[1][0] if len(zones) > 1 else zones[0][-1]
    assert a != b
    twin = _swap(st, a, b)
    assert _snapshot(twin) != _snapshot(st)
    assert _snapshot(determinize(st, seat, random.Random(7))) == _snapshot(determinize(twin, seat, random.Random(7)))
    one = MCAgent(11, seat, parse_budget("12:d30")).choose(st, seat)
    two = MCAgent(11, seat, parse_budget("12:d30")).choose(twin, seat)
    assert one.text == two.text


def test_same_seed_same_moves() -> None:
    rs = ruleset("luk-fu")

    def moves(seed: int) -> list[str]:
        st, _ = play_game(rs, seed, ["mc:8:d30", "random", "mc:6"], max_hands=2)
        return [e["move"] for e in st.history if e["type"] == "move"]

    assert moves(4) == moves(4)


def test_budget_parsing() -> None:
    b = parse_budget("200:0.5s:d80:k24")
    assert (b.playouts, b.seconds, b.depth, b.candidates) == (200, 0.5, 80, 24)
    assert parse_budget("").playouts >= 1
    for bad in ("x", "0", "-3", "d0", "0s", "kx"):
        with pytest.raises(UsageError, match="bad mc argument"):
            parse_budget(bad)
    with pytest.raises(UsageError, match=r"known agents: .*mc"):
        make_agent("mcc", 1, 0)


# mc at one seat, random at the others; the mc seat rotates so seat advantages cancel. Each check is a
# one-sided binomial test against random's share (1 / number of teams): random itself would pass it
# with probability under 1%, and mc passes with room to spare.
BEATS = [
    # game, games, agent, max_hands
    ("luk-fu", 18, "mc:12:d30", 3),
    ("tien-gow", 24, "mc:12:d30", 2),  # 16 games left mc at 8.5 wins (p = 0.027) once the pickup is named each hand
    ("rook", 30, "mc:12", 6),
    ("yukushi", 8, "mc:6:d20", None),
    ("doubt", 8, "mc:4:d20", None),
]


def binomial_tail(n: int, k: int, p: float) -> float:
    """P(X >= k) for X ~ Binomial(n, p)."""
    return sum(math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k, n + 1))


@pytest.mark.parametrize(("game", "n", "agent", "max_hands"), BEATS, ids=[b[0] for b in BEATS])
def test_mc_beats_random(game: str, n: int, agent: str, max_hands: int | None) -> None:
    rs = ruleset(game)
    seats = rs.seats.count
    wins = 0.0
    for i in range(n):
        seat = i % seats
        agents = ["random"] * seats
        agents[seat] = agent
        st, _ = play_game(rs, 500 + i, agents, max_hands=max_hands)
        assert st.result is not None
        teams = {rs.seats.team_of[w] for w in st.result["winners"]}
        if rs.seats.team_of[seat] in teams:
            wins += 1 / len(teams)  # a win shared between teams counts in part
    p_value = binomial_tail(n, math.floor(wins), 1 / len(rs.seats.teams))
    assert p_value < 0.01, f"mc won {wins:g} of {n} games of {game} (p = {p_value:.4f} against random)"
