"""The preset ``openspiel`` of ``variants/liars-dice`` is OpenSpiel's ``liars_dice``, checked against OpenSpiel.

A differential test: OpenSpiel's own random games (its parameters ``players=2`` and ``numdice``) are
replayed through rulecraft, the dice OpenSpiel rolled given as rulecraft's chance outcomes; at every
decision both offer the same moves (OpenSpiel's bid ``q-f`` is rulecraft's ``claim qxf``, its ``Liar``
rulecraft's ``challenge``), the same seat is to act, and the games end with the same returns.

Then the game values: the expected returns of the whole game under a policy (uniform random, and one
that depends on the player's die and the bids so far), computed exactly from rulecraft's rules —
its legal moves after every sequence of bids, and its result for every final bid, caller and roll —
equal OpenSpiel's (``pyspiel.expected_returns``) for numdice=1.
"""

from __future__ import annotations

import itertools
import random
from functools import cache
from typing import Any

import pyspiel
import pytest

from rulecraft.engine.game import Game
from rulecraft.engine.ruleset import Ruleset
from rulecraft.engine.state import State
from rulecraft.load import load_ruleset
from rulecraft.rl.episode import match_rewards

SIDES = 6
GAMES = 60  # OpenSpiel random games replayed per numdice


@cache
def _ruleset(numdice: int) -> Ruleset:
    return load_ruleset("liars-dice", {"starting_dice": str(numdice)}, preset="openspiel")


def _as_rulecraft(text: str) -> str:
    """OpenSpiel's action string as rulecraft's move: '2-5' is 'claim 2x5', 'Liar' is 'challenge'."""
    if text == "Liar":
        return "challenge"
    quantity, face = text.split("-")
    return f"claim {quantity}x{face}"


def _start(rs: Ruleset, rolls: list[list[int]], seed: int = 0) -> State:
    return Game(rs, seed).new_state(chance=[{"kind": "dice", "dice": list(r)} for r in rolls])


@pytest.mark.parametrize("numdice", [1, 2, 3])
def test_openspiel_s_random_games_play_the_same_in_rulecraft(numdice: int) -> None:
    game = pyspiel.load_game("liars_dice", {"players": 2, "numdice": numdice})
    rs = _ruleset(numdice)
    rng = random.Random(numdice)
    decisions = 0
    for _ in range(GAMES):
        state = game.new_initial_state()
        rolls: list[list[int]] = [[], []]
        while state.is_chance_node():  # OpenSpiel rolls player 0's dice, then player 1's, a die a node
            action = rng.choice([a for a, _ in state.chance_outcomes()])
            rolls[0 if len(rolls[0]) < numdice else 1].append(action + 1)
            state.apply_action(action)
        st = _start(rs, rolls)
        while not state.is_terminal():
            player = state.current_player()
            assert st.to_act == player
            theirs = sorted(_as_rulecraft(state.action_to_string(player, a)) for a in state.legal_actions())
            assert sorted(m.text for m in st.legal_moves()) == theirs, f"after {state.history_str()}"
            action = rng.choice(state.legal_actions())
            st.apply(_as_rulecraft(state.action_to_string(player, action)))
            state.apply_action(action)
            decisions += 1
        assert st.is_over
        assert st.result is not None
        assert st.result["scores"] == state.returns()
        assert match_rewards(st.result, 2, "win") == state.returns()  # the research adapters' reward too
    assert decisions > 2 * GAMES


# ---------------------------------------------------------------------- game values
BIDS = [f"{q}-{f}" for q in (1, 2) for f in range(1, SIDES + 1)]  # numdice=1: OpenSpiel's action order


def _histories() -> list[tuple[str, ...]]:
    """Every sequence of bids a game of one die each can hold (each bid above the last)."""
    return [tuple(BIDS[i] for i in chosen) for k in range(len(BIDS) + 1)
            for chosen in itertools.combinations(range(len(BIDS)), k)]


@cache
def _rulecraft_tree() -> tuple[dict[tuple[str, ...], list[str]], dict[tuple[str, int, int, int], float]]:
    """From rulecraft alone: the moves it offers after every sequence of bids (the same whatever the dice,
    checked on two rolls), and player 0's return for every final bid, seat that made it and roll."""
    rs = _ruleset(1)
    legal: dict[tuple[str, ...], list[str]] = {}
    for roll in ([[2], [5]], [[6], [1]]):
        stack: list[tuple[tuple[str, ...], State]] = [((), _start(rs, roll))]
        while stack:  # every sequence of bids, each state made from its parent's by one move
            history, st = stack.pop()
            moves = sorted(m.text for m in st.legal_moves())
            assert legal.setdefault(history, moves) == moves, f"the moves after {history} depend on the dice"
            for move in moves:
                if move != "challenge":
                    child = st.clone()
                    child.apply(move)
                    stack.append(((*history, move.removeprefix("claim ").replace("x", "-")), child))
    assert set(legal) == set(_histories())
    returns: dict[tuple[str, int, int, int], float] = {}
    for i, bid in enumerate(BIDS):
        for bidder in (0, 1):
            if bidder == 1 and i == 0:
                continue  # the lowest bid is only ever the first
            opening = [] if bidder == 0 else [BIDS[0]]
            for d0, d1 in itertools.product(range(1, SIDES + 1), repeat=2):
                st = _start(rs, [[d0], [d1]])
                for b in (*opening, bid):
                    st.apply(_as_rulecraft(b))
                st.apply("challenge")
                assert st.result is not None
                returns[(bid, bidder, d0, d1)] = float(st.result["scores"][0])
    return legal, returns


Policy = Any  # (player, die, bids so far, legal moves) -> {move: probability}


def _uniform(player: int, die: int, history: tuple[str, ...], moves: list[str]) -> dict[str, float]:
    return {m: 1.0 / len(moves) for m in moves}


def _leaning(player: int, die: int, history: tuple[str, ...], moves: list[str]) -> dict[str, float]:
    """A policy that depends on the die and the bids: weights 1, 2 or 3 by (die + move index + bids) mod 3."""
    weights = {m: 1.0 + (die + i + len(history) + player) % 3 for i, m in enumerate(moves)}
    total = sum(weights.values())
    return {m: w / total for m, w in weights.items()}


def _rulecraft_value(policy: Policy) -> float:
    """Player 0's expected return, computed from rulecraft's moves and results (``_rulecraft_tree``)."""
    legal, returns = _rulecraft_tree()

    def value(history: tuple[str, ...], dice: tuple[int, int]) -> float:
        player = len(history) % 2
        total = 0.0
        for move, p in policy(player, dice[player], history, legal[history]).items():
            if move == "challenge":
                total += p * returns[(history[-1], 1 - player, *dice)]
            else:
                bid = move.removeprefix("claim ").replace("x", "-")
                total += p * value((*history, bid), dice)
        return total

    dice = list(itertools.product(range(1, SIDES + 1), repeat=2))
    return sum(value((), d) for d in dice) / len(dice)


def _openspiel_value(policy: Policy) -> float:
    """Player 0's expected return in OpenSpiel's own game under the same policy (by its information states)."""
    game = pyspiel.load_game("liars_dice", {"players": 2, "numdice": 1})
    table: dict[str, list[tuple[int, float]]] = {}
    for history in _histories():
        for die in range(1, SIDES + 1):
            player = len(history) % 2
            state = game.new_initial_state()
            other = 1 if die != 1 else 2
            for face in ((die, other) if player == 0 else (other, die)):
                state.apply_action(face - 1)
            for bid in history:
                state.apply_action(BIDS.index(bid))
            moves = {_as_rulecraft(state.action_to_string(player, a)): a for a in state.legal_actions()}
            probs = policy(player, die, history, sorted(moves))
            table[state.information_state_string(player)] = [(moves[m], p) for m, p in probs.items()]
    tabular = pyspiel.TabularPolicy(table)
    return float(pyspiel.expected_returns(game.new_initial_state(), [tabular, tabular], -1, True)[0])


@pytest.mark.parametrize("policy", [_uniform, _leaning], ids=["uniform", "leaning"])
def test_the_game_values_agree_with_openspiel(policy: Policy) -> None:
    ours, theirs = _rulecraft_value(policy), _openspiel_value(policy)
    assert ours == pytest.approx(theirs, abs=1e-12)
    if policy is _uniform:
        assert ours == pytest.approx(-0.0324074074, abs=1e-9)  # player 0's value under uniform random play
