"""Is a listed equivalent mutant really equivalent? Play seeded random games with and without it.

A mutant listed as equivalent in ``mutants.yaml`` survives every scenario, and its reason says why no
game can tell it from the rules as written. That reason is an author's claim; this is a cheap test of
it. The same seeded games (random players, a few hands) are played with the rules as written and with
the mutant, and each game's *outcome* is compared: every move made (a move list that changes shows
that the rules offer other choices), every hand's payments and tricks, and the match's scores, winners
and number of hands. A difference, or a game the mutant stops with an error, is reported with the seed
that shows it, and the listing is then wrong (or its reason too narrow). Variables are not compared by
themselves: one no rule reads (a statistic kept for ``compare``) changes no game, and one that matters
shows in the moves, payments or scores; nor is a result's ``truncated`` flag (a one-hand match cut by
its hand bound rather than ended by its rule has the same scores and winners).

Random play reaches corners scenarios do not (a bid nobody would make), so a mutant equivalent only for
sensible play is caught too: its reason should say so, and the listing should go.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rulecraft.errors import RulecraftError

if TYPE_CHECKING:
    from rulecraft.engine.ruleset import Ruleset
    from rulecraft.engine.state import State

HANDS = 2  # hands played per game: enough to reach what carries from one hand to the next
MOVES = 3000  # a bound on the moves of a game (random play of some rules is long)
SEED = 20_250_101  # the games' seeds: the same in every run


def outcome(st: State) -> tuple[Any, ...]:
    """What a game came to: its moves, each hand's payments (in any order) and tricks, and the match result."""
    moves = [e["move"] for e in st.history if e.get("type") == "move"]
    # (payments in any order: effects that pay, swapped, pay the same)
    hands = [(sorted(map(repr, h["payments"])), h["tricks"]) for h in st.hand_results]
    result = {k: v for k, v in (st.result or {}).items() if k != "truncated"}
    return (moves, hands, result)


def play(rs: Ruleset, seed: int) -> tuple[Any, ...]:
    """The outcome of one game of random players (at most ``HANDS`` hands, ``MOVES`` moves)."""
    from rulecraft.runs.simulate import play_game

    st, _moves_made = play_game(rs, seed, ["random"] * rs.seats.count, max_hands=HANDS, max_moves=MOVES)
    return outcome(st)


def first_difference(written: Sequence[Ruleset], mutated: Sequence[Ruleset], games: int,
                     kept: dict[tuple[int, int], tuple[Any, ...]]) -> str:
    """The first of ``games`` seeded games whose outcome the mutant changes, said in words ('' when none).

    Game i is played with the i-th ruleset pair in turn (each group of scenarios the mutant reaches);
    ``kept``: the outcomes with the rules as written, by (group, game), made once and shared by every
    mutant checked in the same process.
    """
    for i in range(games):
        k = i % len(written)
        seed = SEED + i
        key = (id(written[k]), i)
        if key not in kept:
            kept[key] = play(written[k], seed)
        before = kept[key]
        try:
            after = play(mutated[k], seed)
        except RulecraftError as exc:
            return f"game {i + 1} (seed {seed}) stops with an error: {str(exc).splitlines()[0]}"
        except Exception as exc:  # a changed rule may break what the engine assumes of valid rules
            return f"game {i + 1} (seed {seed}) stops with {type(exc).__name__}: {exc}"
        if after != before:
            return f"game {i + 1} (seed {seed}) of {written[k].name} {_what(before, after)}"
    return ""


def _what(before: tuple[Any, ...], after: tuple[Any, ...]) -> str:
    moves_b, hands_b, result_b = before
    moves_a, hands_a, result_a = after
    if moves_b != moves_a:
        n = next((j for j, (x, y) in enumerate(zip(moves_b, moves_a, strict=False)) if x != y),
                 min(len(moves_b), len(moves_a)))
        b = moves_b[n] if n < len(moves_b) else "the end"
        a = moves_a[n] if n < len(moves_a) else "the end"
        return f"goes another way at move {n + 1} ('{b}' as written, '{a}' with the mutant)"
    if hands_b != hands_a:
        return "ends a hand with other payments or tricks"
    return f"ends with another result ({result_b} as written, {result_a} with the mutant)"
