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
* per label, a line: the outcome as ``a + b * strength`` by least squares, its slope drawn towards 1 by
  ``PRIOR`` samples' weight (a label seen a few times keeps near the mean, a bid whose success rests on
  the hand gets a steeper line than a pass).

The agent then plays the move whose label's line is highest for its hand, so it bids a level only where
hands like its own, played out, did better with the contract at that level than without; a label with
fewer than ``MIN_SAMPLES`` samples is unknown. A move that names pieces also has a *coarse* label, its
phase and verb (and value) without the pieces (``coarse``), fitted from the same samples: where an exact
label is unknown (a piece shown that learning never showed, a later hand whose level names other pieces:
a decision window re-asked as every packet of a deal arrives) the decision is weighed by the coarse
labels of its moves. Only when those are unknown too is it searched by playouts within a budget.

Learning plays at most ``PLAYOUTS`` playouts (a few seconds of CPU at most, once per ruleset, from a fixed
seed: the same in every run) and is kept in the user's cache directory like ``agents.piece_values``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rulecraft.agents.learnt import Progress, once_per_ruleset, ruleset_key, shelf
from rulecraft.agents.policy import playout_move
from rulecraft.agents.rollout import outcome, play_out
from rulecraft.engine.game import Game
from rulecraft.engine.standings import match_scores

if TYPE_CHECKING:
    from rulecraft.engine.moves import Move
    from rulecraft.engine.ruleset import Ruleset
    from rulecraft.engine.state import State

PLAYOUTS = 2_400  # playouts made to learn a ruleset's decisions
MAX_HANDS = 600
MAX_MOVES = 3_000  # moves of one learning hand before it is left (shedding hands can run long)
DEPTH = 400  # moves per playout, as the default agent's searches play
MIN_SAMPLES = 6
SHRINK = 8.0
PRIOR = 12.0
SEED = 20270137
_LEARNT: dict[int, tuple[Ruleset, DecisionValues]] = {}


@dataclass(frozen=True)
class Search:
    """A decision to be searched: its candidate moves and each one's label (see the module docstring)."""

    cands: list[Move]
    labels: list[str]


Planner = Callable[["State", int, Sequence["Move"], random.Random], "Move | Search"]


@dataclass(frozen=True)
class DecisionValues:
    strength: tuple[float, ...]  # by piece
    lines: dict[str, tuple[float, float]]  # label -> (a, b): the outcome as a + b * the hand's strength

    def hand_strength(self, hand: Sequence[int]) -> float:
        strength = self.strength
        return sum(strength[p] for p in hand)

    def best(self, search: Search, hand: Sequence[int]) -> Move | None:
        """The candidate whose label's line is highest for ``hand`` (earlier on ties), or None when a label
        is unknown."""
        s = self.hand_strength(hand)
        labels = search.labels
        if any(name not in self.lines for name in labels):
            labels = [coarse(name, m) for m, name in zip(search.cands, labels, strict=True)]
        best, best_value = None, 0.0
        for move, label in zip(search.cands, labels, strict=True):
            line = self.lines.get(label)
            if line is None:
                return None
            value = line[0] + line[1] * s
            if best is None or value > best_value:
                best, best_value = move, value
        return best


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
    kept = _read(shelf("decision-values").get(key), rs.pieces.count)
    if kept is not None:
        return kept
    values = learn(rs, plan)
    shelf("decision-values").put(key, (values.strength, values.lines))
    return values


def _read(entry: Any, n: int) -> DecisionValues | None:
    if not (isinstance(entry, tuple) and len(entry) == 2):
        return None
    strength, lines = entry
    if not (isinstance(strength, tuple) and len(strength) == n and all(type(v) is float for v in strength)):
        return None
    if not (isinstance(lines, dict) and all(isinstance(k, str) and isinstance(v, tuple) and len(v) == 2
                                            and all(type(x) is float for x in v) for k, v in lines.items())):
        return None
    return DecisionValues(strength, lines)


def learn(rs: Ruleset, plan: Planner) -> DecisionValues:
    """Play hands by ``plan`` and play out every candidate of its searched decisions (see the module docstring)."""
    rng = random.Random(SEED)
    samples: list[tuple[tuple[int, ...], str, float]] = []
    broad: list[tuple[tuple[int, ...], str, float]] = []  # the samples of coarse labels that differ
    playouts = 0
    with Progress(f"learning the decisions of {rs.name}", PLAYOUTS) as progress:
        for hand in range(MAX_HANDS):
            if playouts >= PLAYOUTS:
                break
            st = Game(rs, seed=SEED + hand, max_hands=1).new_state()
            st.hand_limit = st.hand_no
            for _ in range(MAX_MOVES):
                if st.is_over or playouts >= PLAYOUTS:
                    break
                legal = st.legal_moves()
                if not legal:
                    break
                seat = st.to_act
                assert seat is not None
                move = legal[0] if len(legal) == 1 else plan(st, seat, legal, rng)
                if isinstance(move, Search):
                    base = match_scores(st)
                    held = tuple(st.hand(seat))
                    for cand, name in zip(move.cands, move.labels, strict=True):
                        world = st.clone()
                        world.apply(cand)
                        play_out(world, rng, DEPTH, playout_move)
                        samples.append((held, name, outcome(world, seat, base)))
                        if coarse(name, cand) != name:
                            broad.append((held, coarse(name, cand), samples[-1][2]))
                    playouts += len(move.cands)
                    progress.update(len(move.cands))
                    move = move.cands[rng.randrange(len(move.cands))]  # explore: every line is met
                st.apply(move)
    values = fit(samples, rs.pieces.count)
    for name, line in lines_of(broad, values.strength).items():
        values.lines.setdefault(name, line)
    return values


def fit(samples: Sequence[tuple[Sequence[int], str, float]], n: int) -> DecisionValues:
    """Pieces' strengths and each label's line from (hand, label, outcome) samples (see the module docstring)."""
    by_label: dict[str, list[float]] = {}
    for _, name, y in samples:
        by_label.setdefault(name, []).append(y)
    mean = {name: sum(ys) / len(ys) for name, ys in by_label.items()}
    total = [0.0] * n
    count = [0] * n
    for hand, name, y in samples:
        r = y - mean[name]
        for p in hand:
            total[p] += r
            count[p] += 1
    strength = tuple(total[p] / (count[p] + SHRINK) for p in range(n))
    return DecisionValues(strength, lines_of(samples, strength))


def lines_of(samples: Sequence[tuple[Sequence[int], str, float]], strength: Sequence[float]
             ) -> dict[str, tuple[float, float]]:
    """Each label's line (outcome by hand strength) from (hand, label, outcome) samples."""
    points: dict[str, list[tuple[float, float]]] = {}
    for hand, name, y in samples:
        points.setdefault(name, []).append((sum(strength[p] for p in hand), y))
    spread = [s for pts in points.values() for s, _ in pts]
    mid = sum(spread) / len(spread) if spread else 0.0
    var = sum((s - mid) ** 2 for s in spread) / len(spread) if spread else 0.0
    lines: dict[str, tuple[float, float]] = {}
    for name, pts in points.items():
        if len(pts) < MIN_SAMPLES:
            continue
        sx = sum(s for s, _ in pts) / len(pts)
        sy = sum(y for _, y in pts) / len(pts)
        sxy = sum((s - sx) * (y - sy) for s, y in pts)
        sxx = sum((s - sx) ** 2 for s, _ in pts)
        prior = PRIOR * var
        b = (sxy + prior) / (sxx + prior) if sxx + prior > 0 else 1.0
        lines[name] = (float(sy - b * sx), float(b))
    return lines
