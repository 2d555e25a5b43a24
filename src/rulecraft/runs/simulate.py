"""Playing many seeded games and summarising them; the same arguments always give the same numbers.

A run is split into *chunks* of consecutive game indices. Game i's seed is ``game_seed(seed, i)``
whatever chunk it falls in, each game yields a plain per-game record, and records are merged in
index order, so one process, local worker processes (``runs.distribute``) and a cluster give the
same statistics to the last digit.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rulecraft.agents.base import make_agent
from rulecraft.engine.game import Game
from rulecraft.engine.ruleset import Ruleset
from rulecraft.engine.standings import leader, match_scores
from rulecraft.engine.state import State
from rulecraft.errors import UNKNOWN_POS, RuleFileError, SourcePos, UsageError

MAX_MOVES = 100_000


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run: independent of how the run is split into chunks."""
    return (seed * 1_000_003 + index * 7_919 + 17) % (2**31)


def resolve_agents(rs: Ruleset, agents: Sequence[str] | None) -> list[str]:
    """One agent spec per seat; each is checked (an unknown name or bad argument is a UsageError)."""
    n = rs.seats.count
    names = list(agents or ["default"])
    if len(names) == 1:
        names = names * n
    if len(names) != n:
        raise UsageError(f"{rs.name} has {n} seats: give one agent, or {n} separated by commas (got {len(names)})")
    for seat, spec in enumerate(names):
        make_agent(spec, 0, seat)
    return names


def play_game(rs: Ruleset, seed: int, agent_names: Sequence[str],
              on_state: Callable[[State], None] | None = None, max_hands: int | None = None,
              max_moves: int | None = None) -> tuple[State, int]:
    """Play one game to the end, or until ``max_moves`` moves are made; returns the state and the number of moves."""
    st = Game(rs, seed, max_hands).new_state()
    agents = [make_agent(a, seed, s) for s, a in enumerate(agent_names)]
    moves = 0
    hand, hand_began = st.hand_no, 0
    while not st.is_over and (max_moves is None or moves < max_moves):
        if on_state is not None:
            on_state(st)
        seat = st.to_act
        if seat is None:
            raise RuntimeError("no seat to act in an unfinished game")  # an engine bug, not a user error
        if not len(st.legal_moves()):
            raise no_legal_move(st, seed)
        st.apply(agents[seat].choose(st, seat))
        moves += 1
        if st.hand_no != hand:
            hand, hand_began = st.hand_no, moves
        if moves >= MAX_MOVES and not st.is_over:
            raise did_not_end(st, seed, moves, moves - hand_began)
    if on_state is not None:
        on_state(st)
    return st, moves


def no_legal_move(st: State, seed: int | None) -> RuleFileError:
    """A seat to act with nothing it may do: the rules of the phase in progress cannot be played on.

    ``seed`` None: a game whose seed is a secret of its table (runs.session), not named in a message.
    """
    phase = st.rs.phases[st.pidx] if st.pidx < len(st.rs.phases) else None
    where = f", in phase '{phase.id}' ({phase.kind})" if phase is not None else ""
    pos = phase.pos if phase is not None else SourcePos(st.rs.name, 1, 1)
    game = "a game" if seed is None else f"a game with seed {seed}"
    return RuleFileError.single(pos, f"{game} reached a state where seat {st.to_act} is to act but "
                                     f"has no legal move (hand {st.hand_no}{where})")


def did_not_end(st: State, seed: int, moves: int, in_hand: int, within: str = "") -> RuleFileError:
    """A game that played ``moves`` moves without ending, as a problem of the rule that should end it.

    Where most of the moves went tells which rule that is: one hand that never finished points at
    the phase it is stuck in; hands that kept ending point at the match's ``end_when``. ``within``
    says what bound was reached (default: the moves).
    """
    within = within or f"{moves:,} moves"
    rs = st.rs
    assert rs.match is not None
    if in_hand * 2 >= moves and st.pidx < len(rs.phases):
        phase = rs.phases[st.pidx]
        end = getattr(phase, "end_when", None)
        pos = getattr(end, "pos", UNKNOWN_POS)
        pos = pos if pos is not UNKNOWN_POS else phase.pos
        return RuleFileError.single(pos, f"a game with seed {seed} did not end within {within}: hand "
                                         f"{st.hand_no} never finished, {in_hand:,} moves into phase '{phase.id}' "
                                         f"({phase.kind}); check what ends it (its end_when, or what empties the "
                                         "hands)")
    pos = rs.match.end_when.pos
    if pos is UNKNOWN_POS:
        pos = SourcePos(rs.composed.files[-1] if rs.composed is not None else rs.name, 1, 1)
    return RuleFileError.single(pos, f"a game with seed {seed} did not end within {within} ({st.hand_no - 1:,} "
                                     f"hands played): the match's end_when never held, and max_hands is "
                                     f"{st.hand_limit:,}")


class _Tracker:
    """Follows a game from outside: who acted first, and which team led after each hand."""

    def __init__(self) -> None:
        self.first: int | None = None
        self.hand = 0
        self.leaders: list[int | None] = []

    def __call__(self, st: State) -> None:
        if self.first is None and st.to_act is not None:
            self.first = st.to_act
        if st.hand_no != self.hand or st.is_over:
            if self.hand:  # a hand has just ended: the standings now are those after it
                self.leaders.append(leader(match_scores(st), st.rs.seats.team_of))
            self.hand = st.hand_no


def held_scores(st: State) -> list[int]:
    """Minus the pieces each seat holds: the one measure a game cut by a bound on moves has, and so the score
    of every game of a run cut so (``compare --moves``), ended or not, for the scores to share one scale."""
    return [-len(st.hand(s)) for s in range(st.rs.seats.count)]


def cut_result(st: State) -> dict[str, Any]:
    """The result of a game stopped by a bound on moves before it ended, scored as a search scores a playout
    cut short (``agents.rollout``): each seat's score is minus the pieces it holds, and the fewest win."""
    scores = held_scores(st)
    best = max(scores)
    return {"scores": scores, "winners": [s for s, v in enumerate(scores) if v == best], "hands": st.hand_no,
            "truncated": True}


def game_record(st: State, moves: int, index: int = 0, first: int | None = None,
                leaders: Sequence[int | None] = (), held: bool = False) -> dict[str, Any]:
    """The plain, JSON-ready facts of one game that every statistic is computed from (``cut_result`` for a
    game stopped before it ended).

    ``held`` (a run cut at a number of moves): ``scores`` are then minus the pieces held when the game
    stopped, for a game that ended as for one cut, and ``rules_scores`` the rules' own scores of a game that
    ended (None for one cut), so the rules' scale and the cut one are never mixed. The winners stay who was
    ahead when the game stopped: by the rules in a game that ended, by the fewest pieces in one cut.
    """
    result = st.result if st.result is not None else cut_result(st)
    scores = list(result["scores"])
    winners = list(result["winners"])
    extra: dict[str, Any] = {}
    if held:
        extra["rules_scores"] = scores if st.result is not None else None
        scores = held_scores(st)
    team_of = st.rs.seats.team_of
    rivals = [v for s, v in enumerate(scores) if winners and team_of[s] != team_of[winners[0]]]
    margin = (max(scores) - max(rivals)) if rivals else 0
    top = leader(list(result["scores"]), team_of)  # who led for good, by the standings the hands were played for
    led_from = None
    if top is not None and leaders:
        k = len(leaders)
        while k > 0 and leaders[k - 1] == top:
            k -= 1
        led_from = k + 1  # the first hand after which the eventual winner stayed ahead
    return {"index": index, "seed": st.seed, "scores": scores, "winners": winners, "moves": moves,
            "hands": result["hands"], "truncated": bool(result["truncated"]),
            "fired": dict(sorted(st.fired.items())), "first": first, "margin": margin,
            "led_from": led_from, **extra}


def play_record(rs: Ruleset, seed: int, index: int, agent_names: Sequence[str], max_hands: int | None = None,
                on_game: Callable[[int, State], None] | None = None, max_moves: int | None = None) -> dict[str, Any]:
    """Play game ``index`` of a run with this seed, and return its record."""
    tracker = _Tracker()
    st, moves = play_game(rs, game_seed(seed, index), agent_names, on_state=tracker, max_hands=max_hands,
                          max_moves=max_moves)
    if on_game is not None:
        on_game(index, st)
    return game_record(st, moves, index, tracker.first, tracker.leaders, held=max_moves is not None)


@dataclass
class Summary:
    ruleset: dict[str, Any]
    games: int
    seed: int
    agents: list[str]
    wins: list[float] = field(default_factory=list)
    score_sum: list[float] = field(default_factory=list)
    moves: int = 0
    hands: int = 0
    truncated: int = 0
    fired: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    per_game: list[dict[str, Any]] = field(default_factory=list)
    records: list[dict[str, Any]] = field(default_factory=list)

    def add(self, st: State, moves: int) -> None:
        self.add_record(game_record(st, moves, len(self.records)))

    def add_record(self, rec: dict[str, Any]) -> None:
        """Count one game; records must come in index order for sums to be reproducible to the last bit."""
        n = len(rec["scores"])
        if not self.wins:
            self.wins = [0.0] * n
            self.score_sum = [0.0] * n
        winners = rec["winners"]
        for w in winners:
            self.wins[w] += 1 / len(winners)
        for s, v in enumerate(rec["scores"]):
            self.score_sum[s] += v
        self.moves += rec["moves"]
        self.hands += rec["hands"]
        self.truncated += bool(rec["truncated"])
        for k, v in rec["fired"].items():
            self.fired[k] = self.fired.get(k, 0) + v
        self.per_game.append({"scores": list(rec["scores"]), "winners": list(winners), "moves": rec["moves"],
                              "hands": rec["hands"]})
        self.records.append(rec)

    def as_json(self, timings: bool = True) -> dict[str, Any]:
        g = max(self.games, 1)
        out: dict[str, Any] = {
            "ruleset": self.ruleset,
            "games": self.games,
            "seed": self.seed,
            "agents": self.agents,
            "wins": [round(w, 6) for w in self.wins],
            "win_rate": [round(w / g, 6) for w in self.wins],
            "mean_score": [round(s / g, 6) for s in self.score_sum],
            "mean_moves": round(self.moves / g, 3),
            "mean_hands": round(self.hands / g, 3),
            "truncated": self.truncated,
            "rules_fired": dict(sorted(self.fired.items())),
        }
        if timings:
            out["seconds"] = round(self.seconds, 3)
            out["moves_per_second"] = round(self.moves / self.seconds, 1) if self.seconds > 0 else None
        return out


def summarize(rs_identity: dict[str, Any], n: int, seed: int, agents: Sequence[str],
              records: Sequence[dict[str, Any]], seconds: float = 0.0) -> Summary:
    """Merge per-game records (from any number of chunks) into one Summary, in game index order."""
    summary = Summary(rs_identity, n, seed, list(agents))
    for rec in sorted(records, key=lambda r: r["index"]):
        summary.add_record(rec)
    summary.seconds = seconds
    return summary


def simulate(rs: Ruleset, n: int, seed: int, agents: Sequence[str] | None = None,
             progress: Callable[[int], None] | None = None,
             on_game: Callable[[int, State], None] | None = None) -> Summary:
    """Play ``n`` games in this process (see ``runs.distribute.run_games`` for workers and clusters)."""
    names = resolve_agents(rs, agents)
    start = time.perf_counter()
    records = []
    for i in range(n):
        records.append(play_record(rs, seed, i, names, on_game=on_game))
        if progress is not None:
            progress(1)
    return summarize(rs.identity, n, seed, names, records, time.perf_counter() - start)
