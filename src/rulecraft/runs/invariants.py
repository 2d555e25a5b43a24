"""What must hold in every reachable state, and a behaviour check that plays games looking for breaks.

``state_problems`` restates the rules of the engine independently of the code that implements
them (zones, legal moves, visibility), so tests and ``rulecraft validate --simulate`` can catch a
rule file that compiles but cannot be played: a seat to act with no legal move, a game that never
ends, a piece lost or duplicated, a seat shown what it may not see (a piece, a variable's value; and,
at the end of each game of a ruleset with hidden dice, a view or log that depends on another seat's
dice: ``runs.hidden_chance``).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rulecraft.errors import RulecraftError, RuleFileError, SourcePos

if TYPE_CHECKING:
    from rulecraft.engine.ruleset import Ruleset
    from rulecraft.engine.state import State

MOVE_BOUND = 200_000  # a game still going after this many moves is taken not to end
FULL_CHECKS = 1_000  # moves of a game after each of which every invariant is checked


def state_problems(st: State, check_views: bool = True) -> list[str]:
    """Every invariant broken in this state (empty when all is well)."""
    rs = st.rs
    out: list[str] = []
    placed = Counter(p for z in st.zones for p in z)
    for p in range(rs.pieces.count):
        if placed[p] != 1:
            out.append(f"piece {rs.pieces.type_id(p)} is in {placed[p]} places")
    for zi, zone in enumerate(st.zones):
        for p in zone:
            if st.loc[p] != zi:
                out.append(f"piece {rs.pieces.type_id(p)} is listed in a zone its location does not name")
    if not st.is_over:
        if st.to_act is None:
            out.append("the game is not over but no seat is to act")
        elif not len(st.legal_moves()):
            out.append(f"seat {st.to_act} is to act but has no legal move")
    if check_views:
        for seat in range(rs.seats.count):
            out.extend(_view_problems(st, seat))
    return out


def _may_see(st: State, piece: int, seat: int) -> bool:
    """The visibility rule, stated from the zone declarations (not from views.visible)."""
    zi = st.loc[piece]
    zone = next(z for z in st.rs.zones if z.base <= zi < z.base + z.instances)
    if piece in st.marks.get("@shown", ()):  # a show effect made it public for the rest of the hand
        return True
    if st.face_down[piece]:
        return st.downed_by[piece] == seat
    if st.known.get(piece) == (seat, zi):  # the seat passed it to the hand where it still lies
        return True
    if zone.visibility == "all":
        return True
    if zone.visibility == "owner":
        owner = zi - zone.base
        return owner == (seat if zone.per == "seat" else st.rs.seats.team_of[seat])
    return False


def _may_see_variable(st: State, vi: int, entry: int | None, seat: int) -> bool:
    """The visibility rule of variables, stated from their declarations (not from views.sees_variable)."""
    v = st.rs.variables[vi]
    if v.visibility == "all" or (vi, None) in st.shown_vars or (vi, entry) in st.shown_vars:
        return True
    if v.visibility == "nobody":
        return False
    if v.per == "seat":
        return entry == seat
    if v.per == "team":
        return entry == st.rs.seats.team_of[seat]
    return v.owner is not None and v.owner(st.ctx) == seat


def _variable_problems(st: State, seat: int, shown: dict[str, object]) -> list[str]:
    out = []
    for vi, v in enumerate(st.rs.variables):
        if v.name not in shown:
            continue
        value = shown[v.name]
        if v.per == "none":
            if not _may_see_variable(st, vi, None, seat):
                out.append(f"seat {seat} is shown variable {v.name}, which it may not see")
        elif isinstance(value, list):
            out.extend(f"seat {seat} is shown {v.name}[{k}], which it may not see"
                       for k, x in enumerate(value) if x is not None and not _may_see_variable(st, vi, k, seat))
    return out


def _view_problems(st: State, seat: int) -> list[str]:
    rs = st.rs
    view = st.view(seat)
    out = _variable_problems(st, seat, view["variables"])
    for zone in rs.zones:
        for k in range(zone.instances):
            label = zone.name if zone.per == "none" else f"{zone.name}[{k}]"
            shown = Counter(view["zones"].get(label, {}).get("pieces", ()))
            allowed = Counter(rs.pieces.type_id(p) for p in st.zones[zone.base + k] if _may_see(st, p, seat))
            extra = shown - allowed
            if extra:
                out.append(f"seat {seat} is shown {', '.join(sorted(extra))} in {label}, which it may not see")
    return out


@dataclass(frozen=True, slots=True)
class BehaviourProblem:
    seed: int
    moves: int
    message: str
    pos: SourcePos | None = None  # where the rule at fault is written, when the problem says
    ends: bool = True  # False: the game did not end within the bounds it was given

    def __str__(self) -> str:
        if self.pos is not None:
            return self.message
        return f"game with seed {self.seed}, after {self.moves} moves: {self.message}"


def check_behaviour(rs: Ruleset, games: int, seed: int = 1, max_moves: int = MOVE_BOUND,
                    time_limit: float | None = None,
                    progress: Callable[[int], None] | None = None) -> list[BehaviourProblem]:
    """Play ``games`` seeded random games, checking every state; the first problem of each game is reported.

    A game stops at ``max_moves`` moves, or after ``time_limit`` seconds, as one that does not end,
    and no further game is played; ``progress(i)`` is called as game ``i`` (from 0) starts.
    """
    from rulecraft.agents.simple import RandomAgent
    from rulecraft.engine.game import Game
    from rulecraft.runs.simulate import did_not_end, game_seed

    problems = []
    for i in range(games):
        if progress is not None:
            progress(i)
        s = game_seed(seed, i)
        moves = 0
        deadline = None if time_limit is None else time.monotonic() + time_limit
        try:
            st = Game(rs, s).new_state()
            agents = [RandomAgent(s, seat) for seat in range(rs.seats.count)]
            hand, hand_began = st.hand_no, 0
            while True:
                found = _problems_now(st, moves)
                if found:
                    problems.append(BehaviourProblem(s, moves, found[0]))
                    break
                if st.is_over:
                    leak = _dice_leak(rs, s, st)
                    if leak is not None:
                        problems.append(BehaviourProblem(s, moves, *leak))
                    break
                if st.hand_no != hand:
                    hand, hand_began = st.hand_no, moves
                late = deadline is not None and moves % 64 == 0 and time.monotonic() > deadline
                if moves >= max_moves or late:
                    within = f"{time_limit:g} s ({moves:,} moves)" if late else ""
                    problems.append(_located(did_not_end(st, s, moves, moves - hand_began, within), s, moves))
                    return problems  # each further game would cost the whole bound again
                seat = st.to_act
                assert seat is not None
                st.apply(agents[seat].choose(st, seat))
                moves += 1
        except RulecraftError as exc:  # e.g. an expression failing at run time: it names its rule
            problems.append(BehaviourProblem(s, moves, str(exc)))
    return problems


def _dice_leak(rs: Ruleset, seed: int, st: State) -> tuple[str, SourcePos | None] | None:
    """Whether one seat's observations of this game depend on dice it may not see (``runs.hidden_chance``):
    asked of a seat chosen by the seed, in a ruleset that rolls dice into a hidden variable."""
    from rulecraft.runs.hidden_chance import chance_leak, hidden_dice

    if not hidden_dice(rs):
        return None
    return chance_leak(rs, seed, list(st.history), seed % rs.seats.count)


def _problems_now(st: State, moves: int) -> list[str]:
    """The invariants checked after ``moves`` moves: all of them early in a game, then a sample.

    That a seat to act has a legal move is checked after every move; the zones after every move of
    the first FULL_CHECKS, then every 16th; the views (which cost most) every 16th, then every 256th.
    A long game (or one that never ends) is then checked at a fraction of the cost of playing it.
    """
    early = moves < FULL_CHECKS
    if early or moves % 16 == 0:
        return state_problems(st, check_views=moves % (16 if early else 256) == 0)
    if not st.is_over and (st.to_act is None or not len(st.legal_moves())):
        return state_problems(st, check_views=False)
    return []


def _located(exc: RuleFileError, seed: int, moves: int) -> BehaviourProblem:
    d = exc.diagnostics[0]
    return BehaviourProblem(seed, moves, d.message, d.pos, ends=False)
