"""What the moves of a searched decision are worth, learnt from the rules by play: the default agent's bids,
calls, passes and other one-off choices at the cost of a few additions, not of playouts.

A decision the default agent would search (``agents.default.plan`` names them: an auction's pass, lowest
bid and calls, a bid made by each seat in turn, a value to name, whether to stop play ...) asks what each of
its moves leads to, played out to the end of the hand. Rather than playing out every such decision of
every game, the agent learns the answer once per ruleset: hands of the ruleset are played by the default
agent's own heuristics, and at each searched decision every candidate move is played out once from the
true state (the playout of ``agents.rollout``: heuristic play, the other seats passing in an auction) and
scored as ``rollout.outcome`` scores it. A move is known by its *label*: the phase, the move's text, and,
in an auction, who holds the bid so far (nobody, the seat's side, an opponent), which decides what
passing leads to.

Two things are fitted from these samples, with nothing game-specific:

* a piece's *strength*: how much better than its label's mean a sample came out when the seat held the
  piece (the mean of those residuals, shrunk towards 0 by ``SHRINK`` samples' weight). A hand's strength
  is the sum over its pieces: what it is worth in this ruleset's searched decisions;
* per label, a plane: the move's *advantage* (its outcome less the mean outcome of the decision's
  candidates, played out from the same state: what the hand and the deal are worth is the same for every
  candidate and cancels) as ``a + b * strength + c * level + d * doubling + e * own``, by least squares with
  each slope drawn towards 0 by ``PRIOR`` samples' weight. *Level* is the standing bid's place in an
  auction's set of bids (0 with no bid yet, and outside auctions) and *doubling* the doubling calls on it:
  passing, or doubling, a low contract of the opponents' is not the same move as passing or doubling a high
  one, and a bid's label is its level already. *Own* is the hand's strength for this label alone (each
  piece's residual advantage in the label's samples, ``_own``): naming a trump suit pays with that suit in
  hand, which a strength alike for every move cannot say. A plane is known up to the highest level its
  samples met, not stretched past it (holding a bid far above any learning met, against a seat that bids
  at random, is not learnt to pay: it is searched). In an auction the plane has one more term per *pre-play
  count* of the hand and per its square (``agents.preplay``: the rules' own hand variables, a meld, as play
  would begin after the seat's lowest bid): a bid on a combination no piece's strength alone can see.

Learning is in ``STAGES`` stages: in the first, the learning hands' searched decisions are played at random;
in each later one, as the samples so far say (save ``EXPLORE`` of them, still at random). A bid then says
something of the hand that made it, as it will in play: doubling a contract only strong hands bid is learnt
from such contracts, not from contracts bid on any hand. The playouts play as the agent does (``sensible``:
its heuristics, a trick round knowing what taking each piece is worth, and past the first stage its searched
decisions as learnt so far): a bid is worth what it is worth to a declarer who then exchanges, names trump
and announces as the agent would, not at random (a random announcement of a slam lost every contract it
followed, and bidding was learnt a loss). The values kept are those of the later stages' samples (a label
they alone do not know is read from every stage's).

The agent then plays the move whose label's plane is highest for its hand and the auction as it stands, so
it bids a level only where hands like its own, played out, did better with the contract at that level than
without; a label with fewer than ``MIN_SAMPLES`` samples is unknown. A move that names pieces also has a
*coarse* label, its phase and verb (and value) without the pieces (``coarse``), fitted from the same samples:
where an exact label is unknown (a piece shown that learning never showed, a later hand whose level names
other pieces: a decision window re-asked as every packet of a deal arrives) the decision is weighed by the
coarse labels of its moves. Only when those are unknown too is it searched by playouts within a budget.

A stage ends after a third of ``PLAYOUTS`` playouts or of ``OFFERED`` moves offered (summed over every move
played, in learning hands and playouts, the legal moves it was chosen from: a bound by design on what learning
costs, as choosing among many plays, a climbing hand's combinations, is what makes a move dear; counted, not
timed, so what is learnt is the same on any machine), or sooner once every label met in it has a third of
``ENOUGH`` samples: a ruleset with few labels (an auction of three bids) learns them at a fraction of the cost
(its playouts may be dear: a whole climbing hand each). Learning plays at most ``PLAYOUTS`` playouts and
``OFFERED`` moves offered (a few seconds of CPU at most, once per ruleset, from a fixed seed: the same in every run; its
progress is shown on a terminal past a second) and is kept in the user's cache directory like ``agents.piece_values``.
"""

from __future__ import annotations

import dataclasses
import functools
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rulecraft.agents.learnt import Progress, once_per_ruleset, ruleset_key, shelf
from rulecraft.agents.policy import exchange_move, phase_kind, playout_move
from rulecraft.agents.preplay import counted, preplay, terms
from rulecraft.agents.rollout import Policy, outcome, play_out
from rulecraft.engine.game import Game
from rulecraft.engine.standings import match_scores

if TYPE_CHECKING:
    from rulecraft.engine.moves import Move
    from rulecraft.engine.ruleset import Ruleset
    from rulecraft.engine.state import State

PLAYOUTS = 2_400  # playouts made to learn a ruleset's decisions, at most
OFFERED = 1_000_000  # moves offered to learn them, at most (see the module docstring)
UNPLANNED = frozenset({"auction", "claims", "shed"})  # phase kinds learning's playouts play as playouts do
MAX_HANDS = 600
MAX_MOVES = 3_000  # moves of one learning hand before it is left (shedding hands can run long)
DEPTH = 400  # moves per playout, as the default agent's searches play
MIN_SAMPLES = 6
SHRINK = 8.0
PRIOR = 12.0
SEED = 20270137
ENOUGH = 150  # samples of every label met: enough to learn from (a stage ends at a third of this)
STAGES = 3  # learning's stages: the first explores at random, each later one plays as learnt before it
OF_THE_HAND = 0.25  # a pre-play count's share of spread within a label and level, to be read as of the hand
EXPLORE = 0.3  # past the first stage, the share of searched decisions still played at random
TINY = 1e-9  # keeps a slope's equation solvable where its feature never varies (no auction)
_LEARNT: dict[int, tuple[Ruleset, DecisionValues]] = {}


@dataclass(frozen=True)
class Search:
    """A decision to be searched: its candidate moves and each one's label (see the module docstring)."""

    cands: list[Move]
    labels: list[str]


Planner = Callable[["State", int, Sequence["Move"], random.Random], "Move | Search"]


Line = tuple[float, ...]  # (a, b, c, d, e, the slope of each pre-play count ..., top): see the module docstring
FEATURES = 4  # strength, level, doubling, the label's own strength (and then the pre-play counts)


@dataclass(frozen=True)
class DecisionValues:
    strength: tuple[float, ...]  # by piece
    # label -> the advantage as a + b * strength + c * level + d * doubling + e * own + the slopes . the pre-play
    # counts, known up to level top
    lines: dict[str, Line]
    own: dict[str, tuple[float, ...]]  # label -> by piece, what holding it adds to the label's advantage

    @functools.cached_property
    def weighs_counts(self) -> bool:
        """Whether any plane weighs a hand's pre-play counts (else a decision need not count them)."""
        return any(slope != 0.0 for line in self.lines.values() for slope in line[1 + FEATURES:-1])

    def hand_strength(self, hand: Sequence[int]) -> float:
        strength = self.strength
        return sum(strength[p] for p in hand)

    def own_strength(self, name: str, hand: Sequence[int]) -> float:
        own = self.own.get(name)
        return sum(own[p] for p in hand) if own is not None else 0.0

    def best(self, search: Search, hand: Sequence[int], standing: tuple[int, int] = (0, 0),
             pre: Sequence[float] = ()) -> Move | None:
        """The candidate whose label's plane is highest for ``hand``, the ``standing`` (level, doubling) of
        the auction and the hand's pre-play counts ``pre`` (``agents.preplay``; none: 0 each) (earlier on ties),
        or None when a label is unknown."""
        s = self.hand_strength(hand)
        level, doubling = standing
        labels = search.labels
        if any(self._unknown(name, level) for name in labels):
            labels = [coarse(name, m) for m, name in zip(search.cands, labels, strict=True)]
        best, best_value = None, 0.0
        for move, label in zip(search.cands, labels, strict=True):
            if self._unknown(label, level):
                return None
            line = self.lines[label]
            value = (line[0] + line[1] * s + line[2] * level + line[3] * doubling
                     + line[4] * self.own_strength(label, hand)
                     + sum(slope * term for slope, term in zip(line[1 + FEATURES:-1], terms(pre), strict=False)))
            if best is None or value > best_value:
                best, best_value = move, value
        return best

    def _unknown(self, name: str, level: int) -> bool:
        """Whether label ``name`` was never learnt, or never at an auction as high as ``level`` (its plane is
        not stretched past what learning met: holding a bid far above any learnt is not learnt to pay)."""
        line = self.lines.get(name)
        return line is None or level > line[-1]


def standing(st: State) -> tuple[int, int]:
    """The auction as it stands, for the planes of the module docstring: (the standing bid's place in the set
    of bids, counted from 1; 0 with none yet, and outside an auction) and the doubling calls on it."""
    if st.is_over or st.rs.phases[st.pidx].kind != "auction":
        return (0, 0)
    return (getattr(st.pdata, "high", -1) + 1, getattr(st.pdata, "doubling", 0))


def label(st: State, seat: int, move: Move, as_text: str | None = None) -> str:
    """A move's label in a decision (see the module docstring); ``as_text`` stands for the move's text
    where the move is one the heuristics chose (a play to set against stopping)."""
    phase = st.rs.phases[st.pidx]
    ctx = ""
    high_seat = getattr(st.pdata, "high_seat", None) if phase.kind == "auction" else None
    if phase.kind == "auction":
        team = st.rs.seats.team_of
        ctx = "none" if high_seat is None else ("own" if team[high_seat] == team[seat] else "opp")
    return f"{phase.id}\0{ctx}\0{as_text if as_text is not None else move.text}"


def coarse(name: str, move: Move) -> str:
    """A label without the pieces its move names (the label itself for a move that names none)."""
    if not move.pieces:
        return name
    head = name.rsplit("\0", 1)[0]
    return f"{head}\0{move.verb}{' ' + move.value if move.value else ''} *"


def decision_values(st: State, plan: Planner) -> DecisionValues:
    """The learnt values of ``st``'s ruleset's searched decisions (learnt once per ruleset, kept between runs);
    ``plan``: the agent's own choice of move or search, played in the learning hands."""
    return once_per_ruleset(_LEARNT, st.rs, lambda rs: _kept_or_learnt(rs, plan))


def _kept_or_learnt(rs: Ruleset, plan: Planner) -> DecisionValues:
    key = ruleset_key(rs)
    kept = _read(shelf("decision-values").get(key), rs.pieces.count, len(counted(rs)))
    if kept is not None:
        return kept
    values = learn(rs, plan)
    shelf("decision-values").put(key, (values.strength, values.lines, values.own))
    return values


def _read(entry: Any, n: int, counts: int) -> DecisionValues | None:
    if not (isinstance(entry, tuple) and len(entry) == 3):
        return None
    strength, lines, own = entry
    if not _numbers(strength, n):
        return None
    if not (isinstance(lines, dict) and all(isinstance(k, str) and _numbers(v, FEATURES + 2 * counts + 2)
                                            for k, v in lines.items())):
        return None
    if not (isinstance(own, dict) and all(isinstance(k, str) and _numbers(v, n) for k, v in own.items())):
        return None
    return DecisionValues(strength, lines, own)


def _numbers(row: Any, n: int) -> bool:
    """Whether ``row`` is a tuple of ``n`` floats."""
    return isinstance(row, tuple) and len(row) == n and all(type(v) is float for v in row)


def learn(rs: Ruleset, plan: Planner) -> DecisionValues:
    """Play hands by ``plan`` and play out every candidate of its searched decisions (see the module docstring)."""
    rng = random.Random(SEED)
    counting_rng = random.Random(SEED + 1)  # the pre-play counts' own stream: the rest is not moved by them
    zero: tuple[float, ...] | None = None  # the counts of every later sample, when the first stage's say nothing
    samples: list[list[Sample]] = [[] for _ in range(STAGES)]  # by stage
    broad: list[list[Sample]] = [[] for _ in range(STAGES)]  # the same samples under their coarse labels
    per_stage = PLAYOUTS // STAGES
    stage = made = 0  # the stage, and the playouts made in it
    offered = [0]  # the moves offered in this stage (see ``OFFERED``)
    counts: dict[str, int] = {}  # samples of each label in this stage
    so_far: DecisionValues | None = None  # the values fitted at the last stage's end (None in the first)
    policy = counting(sensible(plan, None), offered)
    with Progress(f"learning the decisions of {rs.name}", per_stage * STAGES) as progress:
        for hand in range(MAX_HANDS):
            if ended(made, offered[0], counts):
                progress.update(per_stage - made)  # (a stage ended early counts as whole)
                stage, made, offered[0], counts = stage + 1, 0, 0, {}
                if stage == STAGES:
                    break
                if stage == 1 and not varying(samples[0]):  # no count of this ruleset's is of the hand:
                    zero = (0.0,) * len(counted(rs))  # none is counted, and the first stage's are read as 0 too
                    samples[0] = [dataclasses.replace(sm, pre=zero) for sm in samples[0]]
                    broad[0] = [dataclasses.replace(sm, pre=zero) for sm in broad[0]]
                so_far = fit(samples[stage - 1], rs.pieces.count, broad[stage - 1],
                             [*_earlier(samples, stage), *_earlier(broad, stage)])
                policy = counting(sensible(plan, so_far), offered)
            st = Game(rs, seed=SEED + hand, max_hands=1).new_state()
            st.hand_limit = st.hand_no
            for _ in range(MAX_MOVES):
                if st.is_over or made >= per_stage or offered[0] >= OFFERED // STAGES:
                    break
                legal = st.legal_moves()
                if not legal:
                    break
                seat = st.to_act
                assert seat is not None
                move = legal[0] if len(legal) == 1 else planned(plan, so_far, st, seat, legal, rng)
                offered[0] += len(legal)
                if isinstance(move, Search):
                    base = match_scores(st)
                    held = tuple(st.hand(seat))
                    level, doubling = standing(st)
                    # (a run of a few moves, bounded by ``preplay.MOVES``: not counted as offered, so that a
                    # ruleset whose counts say nothing learns as it did without them)
                    pre = zero if zero is not None else preplay(st, seat, move.cands, counting_rng,
                                                                 sensible(plan, so_far))
                    ys = []
                    for cand in move.cands:
                        world = st.clone()
                        world.apply(cand)
                        play_out(world, rng, DEPTH, policy)
                        ys.append(outcome(world, seat, base))
                    mean = sum(ys) / len(ys)
                    for cand, name, y in zip(move.cands, move.labels, ys, strict=True):
                        samples[stage].append(Sample(held, name, level, doubling, y, y - mean, pre))
                        if coarse(name, cand) != name:
                            broad[stage].append(Sample(held, coarse(name, cand), level, doubling, y, y - mean, pre))
                    made += len(move.cands)
                    progress.update(len(move.cands))
                    # Enough is counted by coarse label: the labels of moves naming pieces are many and each
                    # rare (a card shown in a deal's window), and the coarse one is what weighs them when rare.
                    for cand, name in zip(move.cands, move.labels, strict=True):
                        counts[coarse(name, cand)] = counts.get(coarse(name, cand), 0) + 1
                    chosen = None
                    if so_far is not None and rng.random() >= EXPLORE:
                        chosen = so_far.best(move, held, (level, doubling), pre)
                    # Explore, so that every line is met (and, past the first stage, play as learnt so far)
                    move = chosen if chosen is not None else move.cands[rng.randrange(len(move.cands))]
                st.apply(move)
    # The values are those of the later stages, whose playouts made their later decisions as learnt (a bid
    # is worth what it is worth to a declarer who then plays sensibly); a label the later stages alone do not
    # know (never met, or too rarely) is read from every stage's samples.
    later = [sm for stage_samples in samples[1:] for sm in stage_samples]
    later_broad = [sm for stage_samples in broad[1:] for sm in stage_samples]
    if not later:
        return fit(samples[0], rs.pieces.count, broad[0])
    return fit(later, rs.pieces.count, later_broad, [*_earlier(samples, STAGES), *_earlier(broad, STAGES)])


def _earlier(samples: Sequence[Sequence[Sample]], stage: int) -> list[Sample]:
    """The samples of the stages before ``stage``."""
    return [sm for stage_samples in samples[:stage] for sm in stage_samples]


def planned(plan: Planner, values: DecisionValues | None, st: State, seat: int, legal: Sequence[Move],
            rng: random.Random) -> Move | Search:
    """``plan``'s move, save in an exchange where ``values`` are known: the heuristic's give, knowing what each
    piece is worth to a hand (``policy.exchange_move``: the best pieces are kept, whatever void giving them
    would make)."""
    if values is not None and phase_kind(st) == "exchange":
        return exchange_move(st, seat, legal, rng, values.strength)
    return plan(st, seat, legal, rng)


def counting(policy: Policy, offered: list[int]) -> Policy:
    """``policy``, adding to ``offered[0]`` the number of moves each decision it makes is offered."""

    def move(st: State, rng: random.Random) -> Move:
        offered[0] += len(st.legal_moves())
        return policy(st, rng)

    return move


def ended(made: int, offered: int, counts: dict[str, int]) -> bool:
    """Whether a stage of learning has ended, after ``made`` playouts and ``offered`` moves offered, with
    ``counts`` samples of each label met: at its share of ``PLAYOUTS`` or of ``OFFERED``, or once every label
    has enough."""
    return (made >= PLAYOUTS // STAGES or offered >= OFFERED // STAGES
            or bool(counts and min(counts.values()) >= ENOUGH // STAGES))


def sensible(plan: Planner, values: DecisionValues | None) -> Policy:
    """How learning's playouts play: the default agent's own heuristics (``plan``: a trick round with what
    taking each piece is worth), and a decision it would search by ``values`` (learnt so far), so that a bid is
    played out by a declarer who then exchanges, names and announces as the agent would; an auction's other
    seats pass (the question a bid's playout asks), and what neither says is played as ``playout_move`` plays."""

    def move(st: State, rng: random.Random) -> Move:
        legal = st.legal_moves()
        if len(legal) == 1 or phase_kind(st) in UNPLANNED:
            return playout_move(st, rng)
        seat = st.to_act
        assert seat is not None
        chosen = planned(plan, values, st, seat, legal, rng)
        if isinstance(chosen, Search):
            known = values.best(chosen, st.hand(seat), standing(st)) if values is not None else None
            return known if known is not None else playout_move(st, rng)
        return chosen

    return move


@dataclass(frozen=True)
class Sample:
    """One candidate of a searched decision, played out once: the seat's hand, the move's label, the auction
    as it stood (``standing``), the outcome, the advantage and the hand's pre-play counts (``agents.preplay``;
    see the module docstring)."""

    hand: Sequence[int]
    label: str
    level: int
    doubling: int
    outcome: float
    advantage: float
    pre: tuple[float, ...] = ()


def fit(samples: Sequence[Sample], n: int, broad: Sequence[Sample] = (),
        fill: Sequence[Sample] = ()) -> DecisionValues:
    """Pieces' strengths and each label's plane from samples (see the module docstring); ``broad``: the same
    samples under their coarse labels, whose planes are read with the strengths the exact ones give; ``fill``:
    further samples, read only for labels the others do not know."""
    by_label: dict[str, list[float]] = {}
    for sm in samples:
        by_label.setdefault(sm.label, []).append(sm.outcome)
    mean = {name: sum(ys) / len(ys) for name, ys in by_label.items()}
    strength = _shrunk_means([(sm.hand, sm.outcome - mean[sm.label]) for sm in samples], n)
    kept = varying(samples) | varying(fill)
    lines, own = planes(samples, strength, kept)
    for extra in (broad, fill):
        more, more_own = planes(extra, strength, kept)
        for name, line in more.items():
            if name not in lines:
                lines[name], own[name] = line, more_own[name]
    return DecisionValues(strength, lines, own)


def planes(samples: Sequence[Sample], strength: Sequence[float],
           kept: frozenset[int] = frozenset()) -> tuple[dict[str, Line], dict[str, tuple[float, ...]]]:
    """Each label's plane (advantage by hand strength, level, doubling, the label's own strength of the
    hand and the pre-play counts numbered in ``kept``: the others are read as 0) and own strengths, from
    samples."""
    by_label: dict[str, list[Sample]] = {}
    for sm in samples:
        by_label.setdefault(sm.label, []).append(sm)
    own = {name: _own(sms, len(strength)) for name, sms in by_label.items() if len(sms) >= MIN_SAMPLES}
    points: dict[str, list[tuple[tuple[float, ...], float]]] = {}
    for name, sms in by_label.items():
        if name in own:
            mine = own[name]
            points[name] = [((sum(strength[p] for p in sm.hand), float(sm.level), float(sm.doubling),
                              sum(mine[p] for p in sm.hand), *terms(_only(sm.pre, kept))), sm.advantage)
                            for sm in sms]
    every = [x for pts in points.values() for x, _ in pts]
    k = len(every[0]) if every else FEATURES
    prior = [PRIOR * _variance([x[i] for x in every]) + TINY for i in range(k)]
    lines = {name: (*_ridge(pts, prior), max(x[1] for x, _ in pts)) for name, pts in points.items()}
    return lines, own


def varying(samples: Sequence[Sample]) -> frozenset[int]:
    """The pre-play counts that say something of the hand: those whose spread between samples of one label at
    one level is at least ``OF_THE_HAND`` of their whole spread. A count the auction decides (the amount bid,
    save in the odd run that ends otherwise) says nothing the label and the level do not, and is left out: a
    plane weighs no count, and the agent counts none, where none is of the hand."""
    groups: dict[tuple[str, int], list[tuple[float, ...]]] = {}
    for sm in samples:
        if sm.pre:
            groups.setdefault((sm.label, sm.level), []).append(sm.pre)
    if not groups:
        return frozenset()
    width = len(next(iter(groups.values()))[0])
    out = set()
    for k in range(width):
        whole = _variance([pre[k] for pres in groups.values() for pre in pres])
        within = sum(_variance([pre[k] for pre in pres]) * len(pres) for pres in groups.values()) / sum(
            len(pres) for pres in groups.values())
        if whole > 0.0 and within >= OF_THE_HAND * whole:
            out.add(k)
    return frozenset(out)


def _only(pre: Sequence[float], kept: frozenset[int]) -> tuple[float, ...]:
    return tuple(c if k in kept else 0.0 for k, c in enumerate(pre))


def _own(samples: Sequence[Sample], n: int) -> tuple[float, ...]:
    """A label's own strength of each piece: how much more than the label's mean advantage its samples came out
    when the seat held the piece (shrunk towards 0 by ``SHRINK`` samples' weight): naming trump in a suit is
    worth more with the suit's pieces in hand, which the strength of a piece in every decision alike cannot
    say."""
    mean = sum(sm.advantage for sm in samples) / len(samples)
    return _shrunk_means([(sm.hand, sm.advantage - mean) for sm in samples], n)


def _shrunk_means(residuals: Sequence[tuple[Sequence[int], float]], n: int) -> tuple[float, ...]:
    """By piece, the mean residual of the samples whose hand held it, shrunk towards 0 by ``SHRINK`` samples'
    weight."""
    total = [0.0] * n
    count = [0] * n
    for hand, r in residuals:
        for p in hand:
            total[p] += r
            count[p] += 1
    return tuple(total[p] / (count[p] + SHRINK) for p in range(n))


def _variance(xs: Sequence[float]) -> float:
    if not xs:
        return 0.0
    mid = sum(xs) / len(xs)
    return sum((x - mid) ** 2 for x in xs) / len(xs)


def _ridge(pts: Sequence[tuple[tuple[float, ...], float]], prior: Sequence[float]) -> tuple[float, ...]:
    """y as a + the slopes . x by least squares, each slope k drawn towards 0 by ``prior[k]`` (the intercept
    free): the normal equations of the centred data, solved by elimination (a few unknowns, no library
    needed). Returns (a, the slopes ...)."""
    k = len(prior)
    m = len(pts)
    xm = [sum(x[i] for x, _ in pts) / m for i in range(k)]
    ym = sum(y for _, y in pts) / m
    a = [[prior[i] if i == j else 0.0 for j in range(k)] + [0.0] for i in range(k)]
    for x, y in pts:
        dx = [x[i] - xm[i] for i in range(k)]
        for i in range(k):
            for j in range(k):
                a[i][j] += dx[i] * dx[j]
            a[i][k] += dx[i] * (y - ym)
    for col in range(k):  # the matrix is symmetric positive definite: no pivoting needed
        for row in range(col + 1, k):
            f = a[row][col] / a[col][col]
            for j in range(col, k + 1):
                a[row][j] -= f * a[col][j]
    slope = [0.0] * k
    for i in reversed(range(k)):
        slope[i] = (a[i][k] - sum(a[i][j] * slope[j] for j in range(i + 1, k))) / a[i][i]
    a0 = float(ym - sum(slope[i] * xm[i] for i in range(k)))
    return (a0, *(float(v) for v in slope))
