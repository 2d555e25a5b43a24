"""Is a listed equivalent mutant really equivalent? Play seeded random games in step with and without it.

A mutant listed as equivalent in ``mutants.yaml`` survives every scenario, and its reason says why no
game can tell it from the rules as written. That reason is an author's claim; this is a test of it.

Seeded games of random players (a few hands each) are played with the rules as written, and each is
replayed, move for move, with the mutant. At every decision the two must agree on who acts and on
*every move the rules offer*, not only on the one the random player took: a change that makes one
real lead illegal among thirty shows the first time that lead is on offer, where comparing the moves
made needs a random player to pick it (in a long trick game with rare combinations, hundreds of games).
At the end of each game the hands' payments and tricks and the match's scores, winners and number
of hands must agree too. Variables are not compared by themselves: one no rule reads (a statistic
kept for ``compare``) changes no game, and one that matters shows in the moves offered, payments or
scores; nor is a result's ``truncated`` flag (a one-hand match cut by its hand bound rather than
ended by its rule has the same scores and winners). What each seat is shown is not compared (a
zone's visibility): that is for scenarios' ``view`` expectations.

A game that differs in its first hand is played again with the mutant dealt what the rules as written
dealt (``dealt_alike``, as a scenario's ``deal`` names every zone's pieces): a deal cut into packets of
another size gives a seed's shuffle to other seats, yet no game can tell it from another shuffle, so
when that hand then goes alike the seed's difference is not one. (Later hands are not compared so.)

The check's size is a budget of moves, not of games: a game of short hands is checked in many games,
one whose hands run to hundreds of decisions in fewer, at the same cost per move. The games and the
budget depend only on the rules as written, so every run, with any number of workers, checks the same.

Random play reaches corners scenarios do not (a bid nobody would make), so a mutant equivalent only for
sensible play is caught too: its reason should say so, and the listing should go.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rulecraft.errors import RulecraftError

if TYPE_CHECKING:
    from rulecraft.engine.moves import Move
    from rulecraft.engine.ruleset import Ruleset
    from rulecraft.engine.state import State

HANDS = 2  # hands played per game: enough to reach what carries from one hand to the next
MOVES = 3000  # a bound on the moves of one game (random play of some rules is long)
SEED = 20_250_101  # the games' seeds: the same in every run
LEGAL_READ = 2000  # moves of a decision compared one by one; beyond them (every subset of a hand), the count


@dataclass(frozen=True, slots=True)
class Written:
    """One seeded game with the rules as written: at each decision who acted, a digest of what the rules
    offered and the move made; then what the game came to."""

    seats: tuple[int | None, ...]
    offered: tuple[int, ...]  # digest of each decision's legal moves (``_offer``)
    moves: tuple[Move, ...]
    first_hand: int  # how many of the moves the first hand took
    ended: bool
    result: tuple[Any, ...]


def _offer(legal: Sequence[Move]) -> frozenset[str] | tuple[Any, ...]:
    """What a decision offers, to compare: its moves as a set (the order is the engine's, not a rule),
    or, for a combinatorial set too large to read, its size and its first moves in order."""
    n = len(legal)
    if n <= LEGAL_READ:
        return frozenset(str(m) for m in legal)
    return (n, tuple(str(m) for m in itertools.islice(legal, LEGAL_READ)))


def _result(st: State) -> tuple[Any, ...]:
    """Each hand's payments (in any order: effects that pay, swapped, pay the same) and tricks, and the
    match result."""
    hands = [(sorted(map(repr, h["payments"])), h["tricks"]) for h in st.hand_results]
    result = {k: v for k, v in (st.result or {}).items() if k != "truncated"}
    return (hands, result)


def _start(rs: Ruleset, seed: int) -> State:
    from rulecraft.engine.game import Game

    return Game(rs, seed, HANDS).new_state()


def play_written(rs: Ruleset, seed: int) -> Written:
    """One game of random players with the rules as written (at most ``HANDS`` hands, ``MOVES`` moves)."""
    from rulecraft.agents.base import make_agent

    st = _start(rs, seed)
    agents = [make_agent("random", seed, s) for s in range(rs.seats.count)]
    seats: list[int | None] = []
    offered: list[int] = []
    moves: list[Move] = []
    first_hand = -1
    while not st.is_over and len(moves) < MOVES:
        if first_hand < 0 and st.hand_no > 1:
            first_hand = len(moves)
        seat = st.to_act
        assert seat is not None, "no seat to act in an unfinished game"  # an engine bug (simulate.play_game)
        seats.append(seat)
        offered.append(hash(_offer(st.legal_moves())))
        move = agents[seat].choose(st, seat)
        moves.append(move)
        st.apply(move)
    if first_hand < 0:
        first_hand = len(moves) if st.hand_results else -1  # (-1: the first hand did not end)
    return Written(tuple(seats), tuple(offered), tuple(moves), first_hand, st.is_over, _result(st))


def replay_difference(written_rs: Ruleset, mutated: Ruleset, seed: int, game: Written) -> tuple[int, str]:
    """How the mutant's game of ``seed``, its moves those of ``game``, differs from it ('' when it does not),
    and at which move (the number of moves made before it)."""
    st = _start(mutated, seed)
    for n, (seat, offer, move) in enumerate(zip(game.seats, game.offered, game.moves, strict=True)):
        if st.is_over:
            return n, f"ends after {n} moves, where as written it goes on ('{move}' next)"
        if st.to_act != seat:
            return n, f"gives move {n + 1} to seat {st.to_act}, as written to seat {seat}"
        if hash(_offer(st.legal_moves())) != offer:
            return n, f"offers other moves at move {n + 1}: {_offered_diff(written_rs, seed, game, n, st)}"
        st.apply(move)
    n = len(game.moves)
    if st.is_over != game.ended:
        return n, f"goes on after move {n}, where as written the game ends"
    if _result(st) != game.result:
        hands_b, result_b = game.result
        hands_a, result_a = _result(st)
        if hands_b != hands_a:
            in_first = hands_b[:1] != hands_a[:1]  # (the first hand's result: see first_difference)
            return (game.first_hand - 1 if in_first else n), "ends a hand with other payments or tricks"
        return n, f"ends with another result ({result_b} as written, {result_a} with the mutant)"
    return n, ""


def dealt_alike(written_rs: Ruleset, mutated: Ruleset, seed: int, game: Written) -> bool:
    """Whether the mutant, dealt what the rules as written dealt (as a scenario's ``deal`` names every
    zone's pieces), plays the game's first hand as written: then the seed's games differed only in which
    pieces the shuffle put where (a deal cut into other packets, a widow dealt in another round), which no
    game tells apart from another shuffle. Later hands, dealt from new shuffles, are not compared."""
    from rulecraft.runs.scenario import start_arranged

    if game.first_hand < 0:
        return False
    first = _start(written_rs, seed)
    deal = {name: z["pieces"] for name, z in first.view(None)["zones"].items() if z.get("pieces")}
    try:
        st = start_arranged(mutated, {"seed": seed, "deal": deal})
    except RulecraftError:  # the mutant cannot deal that: it deals otherwise
        return False
    st.hand_limit = min(st.hand_limit, 1)
    try:
        for seat, offer, move in zip(game.seats[:game.first_hand], game.offered, game.moves, strict=False):
            if st.is_over or st.to_act != seat or hash(_offer(st.legal_moves())) != offer:
                return False
            st.apply(move)
    except Exception:  # (the mutant's own error is reported by the replay from the seed)
        return False
    hands, _result_written = game.result
    return st.is_over and bool(hands) and _result(st)[0][:1] == hands[:1]


def _offered_diff(rs: Ruleset, seed: int, game: Written, n: int, mutated: State) -> str:
    """In words, which moves one side offers at decision ``n`` and the other not (the written game replayed
    to it: only when a difference is found)."""
    st = _start(rs, seed)
    for move in game.moves[:n]:
        st.apply(move)
    before, after = _offer(st.legal_moves()), _offer(mutated.legal_moves())
    seat = f"seat {game.seats[n]}"
    if isinstance(before, frozenset) and isinstance(after, frozenset):
        lost, gained = sorted(before - after), sorted(after - before)
        said = [f"{seat} may {_some(lost)} as written, not with the mutant" if lost else "",
                f"{seat} may {_some(gained)} with the mutant only" if gained else ""]
        return "; ".join(s for s in said if s)
    return f"{seat} has {_count(before)} moves as written, {_count(after)} with the mutant"


def _some(moves: list[str]) -> str:
    shown = ", ".join(f"'{m}'" for m in moves[:3])
    return shown + (f" (and {len(moves) - 3} more)" if len(moves) > 3 else "")


def _count(offer: frozenset[str] | tuple[Any, ...]) -> int:
    return len(offer) if isinstance(offer, frozenset) else int(offer[0])


def first_difference(written: Sequence[Ruleset], mutated: Sequence[Ruleset], budget: int,
                     kept: dict[tuple[int, int], Written]) -> str:
    """The first seeded game the mutant changes, said in words ('' when none), within ``budget`` moves.

    Game i is played with the i-th ruleset pair in turn (each group of scenarios the mutant reaches),
    until the games as written have made ``budget`` moves; ``kept``: the games as written, by (group,
    game), played once and shared by every mutant checked in the same process.
    """
    spent = 0
    for i in itertools.count():
        if spent >= budget:
            return ""
        k = i % len(written)
        seed = SEED + i
        key = (id(written[k]), i)
        if key not in kept:
            kept[key] = play_written(written[k], seed)
        game = kept[key]
        spent += max(1, len(game.moves))
        try:
            at, found = replay_difference(written[k], mutated[k], seed, game)
            # (a difference in the first hand may come only from which pieces the seed dealt where)
            if found and at < game.first_hand and dealt_alike(written[k], mutated[k], seed, game):
                found = ""
        except RulecraftError as exc:
            return f"game {i + 1} (seed {seed}) stops with an error: {str(exc).splitlines()[0]}"
        except Exception as exc:  # a changed rule may break what the engine assumes of valid rules
            return f"game {i + 1} (seed {seed}) stops with {type(exc).__name__}: {exc}"
        if found:
            return f"game {i + 1} (seed {seed}) of {written[k].name} {found}"
    return ""  # (unreached: the loop ends by the budget)
