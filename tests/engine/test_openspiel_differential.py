"""OpenSpiel's bridge and skat, replayed through the bundled rule files under their 'openspiel' presets.

OpenSpiel's random games are played out; each one's deal is given to rulecraft (``deal:`` as a scenario
gives it), and at every decision both must agree on who decides and on the whole set of legal moves,
then both make the same move; at the end both must give the same returns. What OpenSpiel simplifies is
named in each preset's notes (bridge: the cards played, use_double_dummy_result=false; skat: bidding
first come, first served, returns from card points).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from rulecraft.engine.moves import Move
from rulecraft.load import load_ruleset
from rulecraft.runs.scenario import start_arranged

pyspiel = pytest.importorskip("pyspiel")

# Bridge: cards are rank * 4 + suit (clubs, diamonds, hearts, spades; ranks 2 .. A); calls follow the 52 cards:
# pass, double, redouble, then 1C, 1D, 1H, 1S, 1NT, 2C ... 7NT.
BRIDGE_SUITS = "CDHS"
BRIDGE_RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
STRAINS = ["C", "D", "H", "S", "NT"]
# Skat: cards are suit * 8 + rank (diamonds, hearts, spades, clubs; 7 8 9 Q K 10 A J); game types follow the
# 32 cards: pass, diamonds, hearts, spades, clubs, grand, null.
SKAT_SUITS = "DHSC"
SKAT_RANKS = ["7", "8", "9", "Q", "K", "10", "A", "J"]
SKAT_GAMES = ["diamonds", "hearts", "spades", "clubs", "grand", "null"]


def bridge_card(a: int) -> str:
    return BRIDGE_SUITS[a % 4] + BRIDGE_RANKS[a // 4]


def bridge_action(m: Move) -> int:
    if m.verb == "play":
        card = m.text.split()[1]
        return BRIDGE_RANKS.index(card[1:]) * 4 + BRIDGE_SUITS.index(card[0])
    if m.verb == "bid":
        level, strain = int(m.value[0]), m.value[1:]
        return 52 + 3 + (level - 1) * 5 + STRAINS.index(strain)
    return 52 + ["pass", "double", "redouble"].index(m.verb)


def bridge_deal(cards: list[int]) -> dict[str, list[str]]:
    """OpenSpiel deals the i-th card to player i % 4 (North first), whoever deals."""
    return {f"hand[{p}]": [bridge_card(c) for i, c in enumerate(cards) if i % 4 == p] for p in range(4)}


def skat_card(a: int) -> str:
    return SKAT_SUITS[a // 8] + SKAT_RANKS[a % 8]


def skat_action(m: Move) -> int:
    if m.verb in ("play", "give"):
        card = m.text.split()[1]
        return SKAT_SUITS.index(card[0]) * 8 + SKAT_RANKS.index(card[1:])
    if m.verb == "call":
        return 32 + 1 + SKAT_GAMES.index(m.value)
    return 32  # pass


def skat_deal(cards: list[int]) -> dict[str, list[str]]:
    """OpenSpiel's order: three each, two to the skat, four each, three each (player 0 first)."""
    where = [0] * 3 + [1] * 3 + [2] * 3 + [-1] * 2 + [0] * 4 + [1] * 4 + [2] * 4 + [0] * 3 + [1] * 3 + [2] * 3
    deal: dict[str, list[str]] = {f"hand[{p}]": [] for p in range(3)}
    deal["skat"] = []
    for i, c in enumerate(cards):
        deal["skat" if where[i] < 0 else f"hand[{where[i]}]"].append(skat_card(c))
    return deal


def replay(game: Any, rules: Any, deal_of: Callable[[list[int]], dict[str, list[str]]],
           action_of: Callable[[Move], int], seed: int) -> tuple[int, list[float], list[float]]:
    """One random OpenSpiel game, played alongside rulecraft: the number of decisions and both returns."""
    rng = random.Random(seed)
    os_state = game.new_initial_state()
    dealt: list[int] = []
    while os_state.is_chance_node():
        action = rng.choice([a for a, _ in os_state.chance_outcomes()])
        dealt.append(action)
        os_state.apply_action(action)
    st = start_arranged(rules, {"seed": 0, "deal": deal_of(dealt)})
    decisions = 0
    while not os_state.is_terminal():
        assert not st.is_over, f"seed {seed}: rulecraft ended first, at decision {decisions}"
        assert st.to_act == os_state.current_player(), f"seed {seed}, decision {decisions}: who decides"
        ours = {action_of(m): m for m in st.legal_moves()}
        theirs = os_state.legal_actions()
        assert sorted(ours) == sorted(theirs), (
            f"seed {seed}, decision {decisions}: legal moves differ: only rulecraft "
            f"{sorted(ours.keys() - set(theirs))}, only OpenSpiel {sorted(set(theirs) - ours.keys())}")
        action = rng.choice(theirs)
        os_state.apply_action(action)
        st.apply(ours[action])
        decisions += 1
    assert st.is_over, f"seed {seed}: OpenSpiel ended, rulecraft did not"
    assert st.result is not None
    return decisions, list(os_state.returns()), [float(x) for x in st.result["scores"]]


@pytest.mark.parametrize("seed", range(12))
def test_bridge_random_games_agree_with_openspiel(seed: int) -> None:
    game = pyspiel.load_game("bridge", {"use_double_dummy_result": False})
    rules = load_ruleset("bridge", preset="openspiel")
    decisions, theirs, ours = replay(game, rules, bridge_deal, bridge_action, seed)
    assert decisions > 4
    assert ours == pytest.approx(theirs)


@pytest.mark.parametrize("seed", range(40))
def test_skat_random_games_agree_with_openspiel(seed: int) -> None:
    game = pyspiel.load_game("skat")
    rules = load_ruleset("skat", preset="openspiel")
    decisions, theirs, ours = replay(game, rules, skat_deal, skat_action, seed)
    assert decisions >= 1
    assert ours == pytest.approx(theirs)


def test_the_replay_compares_something() -> None:
    """The harness would notice a different rule: Skat without its follow restriction offers other moves."""
    import copy

    from rulecraft.engine.build import build_from_data

    base = load_ruleset("skat", preset="openspiel")
    assert base.composed is not None
    data = copy.deepcopy(base.composed.data)
    play = next(p for p in data["hand"]["phases"] if p["id"] == "play")
    play["follow"]["restrictions"] = []
    loose = build_from_data(data, name="skat", chosen=base.chosen, content_hash="loose")
    game = pyspiel.load_game("skat")
    with pytest.raises(AssertionError, match="legal moves differ"):
        for seed in range(40):
            replay(game, loose, skat_deal, skat_action, seed)
