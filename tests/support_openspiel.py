"""Differential tests against OpenSpiel: its random games replayed through a rulecraft ruleset.

Where OpenSpiel implements a game that rulecraft also has, a preset of the rule file reproduces
OpenSpiel's rules and parameters, and a test replays OpenSpiel's random games through it: at every
decision both must offer the same moves to the same seat, and the finished games must give the same
returns. A ``Correspondence`` says how the two line up for one game; ``replay`` plays the games and
raises ``Mismatch`` at the first difference, naming the game's seed, the decision and the moves that
differ. Importable as ``support_openspiel`` (pytest puts tests/ on the path); pyspiel comes with the
``test`` extra.

How a game is replayed:

* OpenSpiel draws its chance outcomes (the deal) at random, until its first decision. There the
  correspondence's ``start`` reads OpenSpiel's state and says how rulecraft's game begins, as a
  scenario does (``deal``, ``deck``, ``dice``, ``given``: ``runs.scenario.start_arranged``).
* At each decision the seat to act must agree (``seat`` maps OpenSpiel's players to seats), and the
  set of OpenSpiel's legal actions, each turned into rulecraft's move text by ``move``, must equal the
  set of rulecraft's legal moves (compared as a verb and the multiset of the words after it, so the
  order of the pieces in a move does not matter), but for the moves ``excluded`` names: moves the rules
  allow that OpenSpiel leaves out by a simplification of its own, named in the preset's notes. Where
  one rulecraft move is several OpenSpiel actions in a row by the same player (three cards passed one
  at a time), ``actions_per_move`` says how many, and every sequence of that many actions is one move.
* A random legal action (a random sequence, for a grouped move) is applied to both.
* A chance node after rulecraft has begun (a card drawn from the stock) takes the outcome ``chance``
  reads from rulecraft's state, so both games draw the same piece; without ``chance``, it is random.
* Once rulecraft's game is over, OpenSpiel's may still ask for moves that are forced (one legal
  action each) where ``forced_tail`` says so: OpenSpiel wanting one pass more than rulecraft to see
  that play is blocked.
* When OpenSpiel's game ends, rulecraft's must have ended too (after ``max_hands`` hands), and
  ``returns`` of rulecraft's final state must equal OpenSpiel's returns.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import pyspiel

from rulecraft.engine.state import State
from rulecraft.load import load_ruleset
from rulecraft.runs.scenario import start_arranged

MoveKey = tuple[str, tuple[str, ...]]

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def card_id(suit: str, rank: int) -> str:
    """The id of a card in rulecraft's usual 52-card files (``{suit}{rank}``: ``c2``, ``h10``, ``sA``), from
    a suit letter and OpenSpiel's rank index (0 for the two, 12 for the ace)."""
    return f"{suit}{RANKS[rank]}"


def move_key(text: str) -> MoveKey:
    """A move's text as its verb and the multiset of the words after it (pieces in any order)."""
    words = text.replace(",", " ").split()
    return (words[0], tuple(sorted(words[1:]))) if words else ("", ())


def _identity(player: int) -> int:
    return player


def _one(state: Any) -> int:
    return 1


@dataclass(frozen=True)
class Correspondence:
    """How one OpenSpiel game lines up with one rulecraft ruleset (see the module docstring)."""

    game: str  # OpenSpiel's short name
    params: dict[str, Any]  # its parameters (OpenSpiel's defaults where none is given)
    ruleset: str  # a bundled ruleset's name or a rule file's path
    start: Callable[[Any], dict[str, Any]]  # OpenSpiel's state at its first decision -> a scenario's start
    move: Callable[[Any, Sequence[int]], str]  # OpenSpiel's state and the actions of one move -> its text
    returns: Callable[[State], list[float]]  # rulecraft's finished game -> OpenSpiel's returns
    preset: str | None = None
    options: dict[str, str] = field(default_factory=dict)
    seat: Callable[[int], int] = _identity  # OpenSpiel's player -> rulecraft's seat
    actions_per_move: Callable[[Any], int] = _one  # at a decision: OpenSpiel actions that make one move
    chance: Callable[[Any, State], int] | None = None  # a chance node once rulecraft began: its outcome
    # OpenSpiel's state and rulecraft's -> the texts of rulecraft's legal moves OpenSpiel leaves out (the
    # preset's notes say why)
    excluded: Callable[[Any, State], Sequence[str]] | None = None
    max_hands: int = 1
    # Whether OpenSpiel may ask for forced moves (one legal action each) after rulecraft's game is over: a
    # pass more than rulecraft needs to see that nobody can play (the preset's notes say so)
    forced_tail: bool = False


class Mismatch(AssertionError):
    """OpenSpiel and rulecraft disagree: the message says on which game, at which decision, and how."""


@dataclass
class Report:
    """What a replay covered: games, decisions compared, and how many of them offered a real choice."""

    games: int = 0
    decisions: int = 0
    choices: int = 0  # decisions with more than one legal move
    returns: list[list[float]] = field(default_factory=list)


def replay(corr: Correspondence, games: int, seed: int = 0) -> Report:
    """Replay ``games`` random OpenSpiel games through rulecraft; ``Mismatch`` at the first difference."""
    game = pyspiel.load_game(corr.game, dict(corr.params))
    rs = load_ruleset(corr.ruleset, dict(corr.options), corr.preset)
    report = Report()
    for g in range(games):
        _replay_one(corr, game, rs, seed + g, report)
        report.games += 1
    return report


def _replay_one(corr: Correspondence, game: Any, rs: Any, seed: int, report: Report) -> None:
    rng = random.Random(seed)
    os_state = game.new_initial_state()
    rc: State | None = None
    step = 0

    def fail(message: str) -> Mismatch:
        return Mismatch(f"{corr.game} game with seed {seed}, decision {step}: {message}\n"
                        f"OpenSpiel's actions so far: {os_state.history()}\n{os_state}")

    while not os_state.is_terminal():
        if os_state.is_chance_node():
            if rc is not None and corr.chance is not None:
                action = corr.chance(os_state, rc)
                if action not in os_state.legal_actions():
                    raise fail(f"the chance outcome read from rulecraft ({action}) is not one OpenSpiel offers")
            else:
                outcomes, probs = zip(*os_state.chance_outcomes(), strict=True)
                action = rng.choices(outcomes, probs)[0]
            os_state.apply_action(action)
            continue
        if rc is None:
            rc = start_arranged(rs, corr.start(os_state))
            rc.hand_limit = min(rc.hand_limit, corr.max_hands)
        player = os_state.current_player()
        if rc.is_over and corr.forced_tail and len(os_state.legal_actions()) == 1:
            os_state.apply_action(os_state.legal_actions()[0])
            continue
        if rc.is_over:
            raise fail(f"rulecraft's game is over, OpenSpiel's player {player} is to act")
        if rc.to_act != corr.seat(player):
            raise fail(f"OpenSpiel's player {player} (seat {corr.seat(player)}) is to act, rulecraft's seat "
                       f"{rc.to_act}")
        sequences = _sequences(os_state, corr.actions_per_move(os_state))
        theirs = {move_key(corr.move(os_state, seq)): seq for seq in sequences}
        left_out = {move_key(text) for text in corr.excluded(os_state, rc)} if corr.excluded is not None else set()
        ours = {move_key(m.text): m for m in rc.legal_moves() if move_key(m.text) not in left_out}
        if set(theirs) != set(ours):
            only_os = sorted(" ".join([v, *w]) for v, w in set(theirs) - set(ours))
            only_rc = sorted(" ".join([v, *w]) for v, w in set(ours) - set(theirs))
            raise fail(f"seat {rc.to_act}'s legal moves differ: only OpenSpiel offers {only_os}, only rulecraft "
                       f"offers {only_rc}")
        report.decisions += 1
        report.choices += len(ours) > 1
        chosen = _random_sequence(os_state, len(sequences[0]), rng)
        rc.apply(ours[move_key(corr.move(os_state, chosen))])
        for action in chosen:
            os_state.apply_action(action)
        step += 1
    if rc is None:
        raise fail("OpenSpiel's game ended before its first decision")
    if not rc.is_over:
        raise fail(f"OpenSpiel's game is over, rulecraft's seat {rc.to_act} is still to act")
    ours_returns = [float(x) for x in corr.returns(rc)]
    if ours_returns != list(os_state.returns()):
        raise fail(f"the returns differ: OpenSpiel {os_state.returns()}, rulecraft {ours_returns}")
    report.returns.append(ours_returns)


def _sequences(state: Any, length: int) -> list[list[int]]:
    """Every sequence of ``length`` actions the player to act may take in a row from ``state``."""
    if length == 1:
        return [[a] for a in state.legal_actions()]
    player = state.current_player()
    out: list[list[int]] = []
    for action in state.legal_actions():
        child = state.child(action)
        if child.current_player() != player:
            raise Mismatch(f"{length} actions in a row were expected of player {player}")
        out.extend([action, *rest] for rest in _sequences(child, length - 1))
    return out


def _random_sequence(state: Any, length: int, rng: random.Random) -> list[int]:
    """``length`` actions chosen as OpenSpiel's random games choose them: each uniformly among the legal."""
    chosen = []
    for _ in range(length):
        action = rng.choice(state.legal_actions())
        chosen.append(action)
        state = state.child(action)
    return chosen
