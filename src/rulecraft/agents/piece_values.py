"""What taking a piece is worth, learnt from the rules by play: the trick heuristic's sense of which
tricks to win.

Whether a trick is worth winning is written in a rule file's scoring, in any form (points per counter,
a penalty per card of a suit, a bonus for the last trick), so it is read off the play itself: a
ruleset's hands are played at random, and each seat's outcome (the playout's own measure of a hand,
``rollout.outcome``: its score change against its opponents') is fitted by least squares on the
pieces its side ended the hand holding (in any zone one seat or team owns: its tricks, a pile it
took). A piece's value is its part in that fit where it stands clear of the noise (``CLEAR`` standard
errors), else 0: counters that score come out worth winning, penalty cards worth giving away, and in
a game where only the number of tricks counts no piece is worth anything by itself, which leaves the
heuristic as it was. Worked out once per ruleset, from a fixed seed: the same in every run.

Where the scoring counts the pieces taken at the hand's end against a contract (points made against a
bid), random bidding's contracts swing the outcome by far more than a counter, and the fit finds nothing
clear. The same hands say it exactly: at the last round of a hand's trick round (no seat holding more than
one piece) the state is kept, and for ``SWAPS`` pieces taken by then, one at a time, the piece is moved to
an opposing side's zone of the same kind and the hand finished with the same moves: the change in the
outcomes of the side that took it and the side that now has it is what taking it was worth in that hand
(*swapped* figures, one a hand). Their mean is a piece's worth where it stands clear (``CLEAR`` standard
errors; a figure the same in every hand always does), else the fit's: a piece scored as it is taken (in
the round's own effects) is not seen by a swap at the end, and the fit still sees it.

Rounds may differ too: in a game whose early rounds
score nothing and whose later ones score a point each, winning an early round is worth little beside a
later one. The same hands say so: what winning round k is worth is the mean outcome of the seats whose
side won it less that of those whose side did not, and a round clearly worth less than a fifth of the
round worth most is *idle* (``_idle_rounds``): the heuristic then leads and follows low there, keeping
its strong pieces for the rounds that count.

Learning costs a fraction of a second to a second of CPU, and every process of a run (each worker of
``simulate --workers``, each side of ``compare``) would pay it again: the values are kept in the
user's cache directory (``disk_cache``), one entry per ruleset, keyed by the ruleset's content hash and
chosen options and by a digest of rulecraft's source (the learning method and the engine whose random
hands it learns from), so a changed rule, option or version never reads another's values. An entry that
cannot be read, or holds anything but values for this ruleset's pieces, is learnt again and written
again; ``RULECRAFT_NO_CACHE=1`` learns every time.
"""

from __future__ import annotations

import math
import random
import statistics
from typing import TYPE_CHECKING, Any

from rulecraft.agents.learnt import once_per_ruleset, ruleset_key, shelf
from rulecraft.agents.policy import PieceValues, phase_kind
from rulecraft.agents.rollout import outcome
from rulecraft.engine.game import Game
from rulecraft.engine.standings import match_scores
from rulecraft.errors import IllegalMoveError

if TYPE_CHECKING:
    from rulecraft.engine.moves import Move
    from rulecraft.engine.ruleset import Ruleset
    from rulecraft.engine.state import State

MOVES = 100_000  # random moves played to learn a ruleset's values (hundreds of hands of a trick game)
MAX_HANDS = 1_500
SEED = 20261204
RIDGE = 1.0
SWAPS = 12  # pieces a learning hand moves to the other side to see what taking them was worth
CLEAR = 4.0  # standard errors a value must stand clear of 0 by (scores have heavy tails: 3 let noise through)
_LEARNT: dict[int, tuple[Ruleset, PieceValues]] = {}


def piece_values(st: State) -> PieceValues:
    """What taking each piece is worth in ``st``'s ruleset (learnt once per ruleset, kept between runs)."""
    return once_per_ruleset(_LEARNT, st.rs, lambda rs: _kept_or_learnt(st))


def _kept_or_learnt(st: State) -> PieceValues:
    n = len(st.rs.pieces.type_of)
    key = ruleset_key(st.rs)
    kept = _read(shelf("piece-values").get(key), n)
    if kept is not None:
        return kept
    values = _learn(st)
    shelf("piece-values").put(key, (values.worth, values.own, values.idle_rounds))
    return values


def _read(entry: Any, n: int) -> PieceValues | None:
    """The values in a kept entry, or None if it is not two rows of ``n`` numbers and a row of flags."""
    if not (isinstance(entry, tuple) and len(entry) == 3):
        return None
    worth, own, idle = entry
    for row in (worth, own):
        if not (isinstance(row, tuple) and len(row) == n and all(type(v) is float for v in row)):
            return None
    if not (isinstance(idle, tuple) and all(type(v) is bool for v in idle)):
        return None
    return PieceValues(worth, own, idle)


def _learn(st: State) -> PieceValues:
    rs = st.rs
    n = len(rs.pieces.type_of)
    team = rs.seats.team_of
    rng = random.Random(SEED)
    swapping = random.Random(SEED + 1)  # (its own: the random hands are the same whatever the swaps draw)
    swaps: list[list[float]] = [[] for _ in range(n)]  # by piece: what taking it was worth, one figure a hand
    samples: list[tuple[list[int], float]] = []  # (the pieces the seat's side took, the seat's outcome)
    won: list[tuple[set[int], float]] = []  # (the rounds the seat's side won, by number, the seat's outcome)
    moves = 0
    for hand in range(MAX_HANDS):
        if moves >= MOVES:
            break
        world = Game(rs, seed=SEED + hand, max_hands=1).new_state()
        world.hand_limit = world.hand_no
        base = match_scores(world)
        before = len(world.history)
        last = _play_to_last_round(world, rng)
        moves += len(world.history) - before
        if not world.is_over:
            continue
        if last is not None:
            _swapped(last, world, base, swapping, swaps)  # (bounded by SWAPS a hand: not counted against MOVES)
        sides = _taking_sides(world)
        winners = _round_winners(world, before)
        for seat in range(rs.seats.count):
            mine = (("seat", seat), ("team", team[seat]))
            y = outcome(world, seat, base)
            samples.append(([p for p in range(n) if sides[p] in mine], y))
            won.append(({k for k, w in enumerate(winners, 1) if w is not None and team[w] == team[seat]}, y))
    return _clear_values(swaps, _fitted(samples, n, rs.seats.count), _idle_rounds(won))


def _play_to_last_round(world: State, rng: random.Random) -> tuple[State, list[Move]] | None:
    """Play ``world`` to its end at random; returns a copy of it as it stood at the last trick round's last
    round (no seat holding more than one piece), with the moves played from there, or None if it never did."""
    seats = world.rs.seats.count
    last: tuple[State, list[Move]] | None = None
    was_last = False  # whether the move before was made in a last round
    for _ in range(MOVES):
        if world.is_over:
            break
        legal = world.legal_moves()
        if not legal:
            break
        now_last = _last_round(world, seats)
        if now_last and not was_last:  # (a hand of two trick rounds: the later one's)
            last = (world.clone(), [])
        was_last = now_last
        move = legal[rng.randrange(len(legal))]
        if last is not None:
            last[1].append(move)
        world.apply(move)
    return last


def _last_round(world: State, seats: int) -> bool:
    """Whether ``world`` is in a trick round's last round: no seat holds more than one piece."""
    return phase_kind(world) == "tricks" and all(len(world.hand(s)) <= 1 for s in range(seats))


def _swapped(last: tuple[State, list[Move]], final: State, base: list[float], rng: random.Random,
             swaps: list[list[float]]) -> int:
    """What taking each piece taken before the last round was worth in this hand: the piece is moved to an
    opposing side's zone of the same kind (a team's tricks to the other team's), the hand is finished with the
    same moves, and each seat's outcome is set against the outcome it had (its side's, less the receiver's)."""
    start, moves = last
    rs = start.rs
    team = rs.seats.team_of
    seats = rs.seats.count
    actual = [outcome(final, s, base) for s in range(seats)]
    played = 0
    for p in rng.sample(range(rs.pieces.count), min(SWAPS, rs.pieces.count)):
        zi = start.loc[p]
        zone = rs.zone_of_instance[zi]
        if zone.per not in ("seat", "team") or zone.name == "hand":
            continue
        owner = zi - zone.base
        if zone.per == "seat":
            others = [s for s in range(seats) if team[s] != team[owner]]
            sides = [[owner], others]
        else:
            others = [t for t in range(len(rs.seats.teams)) if t != owner]
            sides = [[s for s in range(seats) if team[s] == owner], []]
        if not others:
            continue
        to = others[rng.randrange(len(others))]
        if zone.per == "team":
            sides[1] = [s for s in range(seats) if team[s] == to]
        else:
            sides[1] = [to]
        world = start.clone()
        world.put(p, zone.base + to, bool(world.face_down[p]))
        played += len(moves)
        try:
            for move in moves:
                world.apply(move)
        except IllegalMoveError:  # the moved piece changed what could be played: no figure from this hand
            continue
        if not world.is_over:
            continue
        changed = [outcome(world, s, base) for s in range(seats)]
        figures = [actual[s] - changed[s] for s in sides[0]] + [changed[s] - actual[s] for s in sides[1]]
        swaps[p].append(sum(figures) / len(figures))
    return played


def _fitted(samples: list[tuple[list[int], float]], n: int, per_hand: int) -> list[tuple[float, float]]:
    """Each piece's part in the outcome and its standard error, all pieces fitted together by least squares
    (with an intercept, and a little ridge so that pieces always taken together share their part). The
    ``per_hand`` samples of one hand are one hand's evidence, not independent ones (partners' are the
    same, opponents' mirror them): the error is taken as if there were one."""
    k = n + 1  # the intercept last
    if len(samples) <= k:
        return [(0.0, math.inf)] * n
    xtx = [[0.0] * k for _ in range(k)]
    xty = [0.0] * k
    yty = 0.0
    for taken, y in samples:
        cols = [*taken, n]
        for i in cols:
            row = xtx[i]
            for j in cols:
                row[j] += 1.0
            xty[i] += y
        yty += y * y
    for i in range(n):
        xtx[i][i] += RIDGE
    inverse = _inverse(xtx)
    if inverse is None:
        return [(0.0, math.inf)] * n
    coef = [sum(inverse[i][j] * xty[j] for j in range(k)) for i in range(k)]
    fitted = sum(c * t for c, t in zip(coef, xty, strict=True))
    variance = per_hand * max(yty - fitted, 0.0) / (len(samples) - k)
    error = [math.sqrt(max(variance * inverse[i][i], 0.0)) for i in range(n)]
    return list(zip(coef[:n], error, strict=True))


def _inverse(m: list[list[float]]) -> list[list[float]] | None:
    """The inverse of a square matrix by Gauss-Jordan elimination with partial pivoting (None if singular)."""
    k = len(m)
    a = [[*row, *(1.0 if i == j else 0.0 for j in range(k))] for i, row in enumerate(m)]
    for col in range(k):
        pivot = max(range(col, k), key=lambda r: abs(a[r][col]))
        if abs(a[pivot][col]) < 1e-12:
            return None
        a[col], a[pivot] = a[pivot], a[col]
        lead = a[col]
        scale = 1.0 / lead[col]
        for j in range(2 * k):
            lead[j] *= scale
        for r in range(k):
            if r != col and a[r][col]:
                f = a[r][col]
                row = a[r]
                for j in range(col, 2 * k):
                    row[j] -= f * lead[j]
    return [row[k:] for row in a]


def _clear_values(swaps: list[list[float]], fitted: list[tuple[float, float]],
                  idle: tuple[bool, ...] = ()) -> PieceValues:
    """Each piece's worth: the mean of its swapped figures (one a hand) where that is clear, else its part in the
    fit of the outcome on the pieces taken; and its part beyond the median piece's. A figure counts only when
    more than ``CLEAR`` standard errors from 0 (a swapped figure that is the same in every hand always does)."""
    chosen: list[tuple[float, float]] = []
    for figures, fit in zip(swaps, fitted, strict=True):
        mean = statistics.fmean(figures) if figures else 0.0
        error = math.sqrt(statistics.variance(figures) / len(figures)) if len(figures) > 1 else math.inf
        chosen.append((mean, error) if abs(mean) > CLEAR * error else fit)
    worth = [m if abs(m) > CLEAR * e else 0.0 for m, e in chosen]
    median = statistics.median(worth) if worth else 0.0
    own = [w - median if abs(w - median) > CLEAR * e else 0.0 for w, (_, e) in zip(worth, chosen, strict=True)]
    # Parts closer than a tenth of the largest are the same (every heart alike, not the luckiest first).
    step = max(map(abs, own), default=0.0) / 10 or 1.0
    return PieceValues(tuple(worth), tuple(round(o / step) * step for o in own), idle)


def _round_winners(st: State, since: int) -> list[int | None]:
    """The winner of each round of the hand played since the record's entry ``since``, in order."""
    return [e.get("winner") for e in st.history.entries[since:]
            if isinstance(e, dict) and e.get("type") == "round"]


IDLE = 0.2  # a round is idle when winning it is clearly worth less than this share of the round worth most
SURE = 3.0  # standard errors: "clearly" (the bound of an idle round's worth that must lie below)


def _idle_rounds(won: list[tuple[set[int], float]]) -> tuple[bool, ...]:
    """By round number, whether winning it is worth little beside the round worth most: what winning round
    k is worth is the mean outcome of the samples whose side won it less that of those whose side did not;
    the round worth most must stand ``CLEAR`` standard errors clear of 0, and an idle round's worth lie
    ``SURE`` standard errors below ``IDLE`` times that. () where no round is idle."""
    rounds = max((max(ks) for ks, _ in won if ks), default=0)
    worth: list[tuple[float, float]] = []
    for k in range(1, rounds + 1):
        yes = [y for ks, y in won if k in ks]
        no = [y for ks, y in won if k not in ks]
        if len(yes) < 2 or len(no) < 2:
            worth.append((0.0, math.inf))
            continue
        d = statistics.fmean(yes) - statistics.fmean(no)
        worth.append((d, math.sqrt(statistics.variance(yes) / len(yes) + statistics.variance(no) / len(no))))
    top = max((d for d, se in worth if d > CLEAR * se), default=0.0)
    idle = tuple(d + SURE * se < IDLE * top for d, se in worth)
    return idle if top > 0 and any(idle) else ()


def _taking_sides(st: State) -> list[tuple[str, int] | None]:
    """For each piece, the seat or team owning the zone it lies in at the end of the hand (None: no owner)."""
    rs = st.rs
    out: list[tuple[str, int] | None] = []
    for p in range(len(rs.pieces.type_of)):
        zone = rs.zone_of_instance[st.loc[p]]
        if zone.per == "none" or zone.name == "hand":  # a hand's leftovers were not taken
            out.append(None)
        else:
            out.append((zone.per, st.loc[p] - zone.base))
    return out
