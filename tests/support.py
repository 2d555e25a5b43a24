"""Helpers shared by the tests (importable as ``support``: pytest puts tests/ on the path)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

from rulecraft.engine.ruleset import Ruleset
from rulecraft.engine.state import State
from rulecraft.load import load_ruleset
from rulecraft.rules.located import pos_of


@cache
def ruleset(ref: str, **options: str) -> Ruleset:
    """A bundled ruleset, loaded once per test session (loading compiles every expression)."""
    return load_ruleset(ref, dict(options))


# The table of a game played with dice alone, for rule files a test writes: no pieces, and the zones
# every ruleset declares (a deck to deal from, a hand per seat), both always empty.
DICE_TABLE = """pieces: []
zones:
  - {id: deck, visibility: nobody}
  - {id: hand, per: seat, visibility: owner}
"""


def play_randomly(st: State, rng: random.Random) -> State:
    """Play ``st`` to its end with uniformly random legal moves drawn from ``rng``; the state, ended."""
    while not st.is_over:
        legal = st.legal_moves()
        st.apply(legal[rng.randrange(len(legal))])
    return st


def random_move_texts(st: State, rng: random.Random, most: int) -> list[str]:
    """The texts of up to ``most`` uniformly random legal moves drawn from ``rng`` and made on ``st``."""
    texts = []
    while not st.is_over and len(texts) < most:
        legal = st.legal_moves()
        move = legal[rng.randrange(len(legal))]
        texts.append(move.text)
        st.apply(move)
    return texts


def rules_from_text(folder: Path, text: str, name: str = "rules.yaml") -> Ruleset:
    """The ruleset of a rule file a test writes: ``text`` saved as ``folder/name`` and loaded."""
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return load_ruleset(str(path))


def located(value: Any) -> Any:
    """Read rule data with every position in it (a comparison must see where each value was read)."""
    if isinstance(value, dict):
        return (pos_of(value), [(k, located(v)) for k, v in value.items()])
    if isinstance(value, list):
        return (pos_of(value), [located(v) for v in value])
    return (pos_of(value), type(value).__name__, str(value))


def strings_in(value: Any) -> Iterator[str]:
    """Every text in rule data (mapping values and list items, depth first), as plain strings."""
    if isinstance(value, dict):
        for v in value.values():
            yield from strings_in(v)
    elif isinstance(value, list):
        for v in value:
            yield from strings_in(v)
    elif isinstance(value, str):
        yield str(value)


def claims_positions(game: str, seed: int, wanted: int, answering: bool) -> list[tuple[Any, int]]:
    """Up to ``wanted`` (state, seat) pairs from a game between bluffers where the seat to act makes a claim
    (``answering`` False) or is asked whether it challenges another's open claim (True): each state a clone."""
    from rulecraft.agents.bluffer import Bluffer
    from rulecraft.agents.claim_truth import open_claim
    from rulecraft.engine.game import Game

    rs = ruleset(game)
    st = Game(rs, seed).new_state()
    agents = [Bluffer(seed, s) for s in range(rs.seats.count)]
    out: list[tuple[Any, int]] = []
    while not st.is_over and len(out) < wanted:
        seat = st.to_act
        assert seat is not None
        asked = any(m.verb == "challenge" for m in st.legal_moves()[:3])
        if asked == answering and (not answering or open_claim(st, seat) is not None):
            out.append((st.clone(), seat))
        st.apply(agents[seat].choose(st, seat))
    return out


# A Sheng Ji position (trumps hearts, the level 2) where seat 3, holding no diamond, follows a throw of
# eight diamonds: any eight of its 25 pieces, 225,081 ways (tests/engine/test_free_sets.py, and
# benchmarks/bench_free_follows.py). ``start_arranged`` with {"deal": VOID_FOLLOWER_DEAL}, then the bury.
DIAMONDS = [f"d{f}" for f in ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]]
VOID_FOLLOWER_DEAL = {
    # seat 0 holds every diamond; seat 3, who follows it, none
    "hand[0]": [c for c in DIAMONDS for _ in range(2)] + ["c3", "c3", "c4", "c4", "c5", "c5", "c6", "c6", "c7"],
    "hand[3]": ["c8", "c8", "c9", "c10", "cJ", "cQ", "cK", "cA", "s3", "s4", "s5", "s6", "s7", "s8", "s9",
                "s10", "sJ", "sQ", "sK", "sA", "s3", "s5", "s7", "s9", "sJ"],
}
VOID_FOLLOWER_BURY = ["give c3", "give c3", "give c4", "give c4", "give c5", "give c5", "give c6", "give c6"]
