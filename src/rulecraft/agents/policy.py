"""Rule-agnostic heuristics for a decision, by the *kind* of the phase that asks it (never by game).

What they read is what the seat to act may know: its own hand and legal moves, the face-up plays of
the round in progress (their class and strength, which the rule file's own expressions give), the
declared display structure of the pieces (``display.group_by``, the attribute a hand is grouped by)
and the phase's public view. They are cheap (no search), so they serve both as the moves of the
``default`` agent and as the playout policy of the searching agents.

* **trick rounds**: when following, a seat whose partner holds the best play so far gives its weakest
  play; otherwise it wins as cheaply as it can when it plays last and as surely as it can before
  that, and gives its weakest play when it cannot win. Leading, it leads its strongest single piece
  (a multi-piece combination when it has one: more pieces are worth more rounds; a composite lead only
  when no piece it cannot rule out of the other hands could beat a part of it). *Strength* is the
  rule file's strength of the play in the round as it stands; a piece's *power* (to order plays that
  cannot win) is the strength it would have as a lead. Given what taking each piece is worth
  (``agents.piece_values``, learnt from the rules by play), it wins only a round worth taking (gives
  away what costs most where it cannot or will not win, and its strongest play where taking costs),
  gives its partner what is worth taking, and leads low where taking costs on the whole; in a game
  where no piece is clearly worth anything by itself this is the heuristic above, unchanged.
* **climbing rounds** (each play beats the last, or the seat passes): go out when a play empties the
  hand; lead the largest play that spends none of the seat's strongest pieces, lowest first; follow
  with the cheapest play that beats (by the pieces' power and the larger plays it would break), or pass
  rather than spend a strongest piece; against an opponent near out, lead what it cannot answer and
  follow with the strongest play. (Cheap: one enumeration of the hand, against a search's playouts.)
* **shedding rounds** (each seat in turn plays onto a pile what the restrictions allow, or draws): go out
  when a play empties the hand; never draw while a play is allowed; shed first the pieces least often
  playable (learnt from the rules by play, ``agents.playability``: a wild piece that goes on anything is
  kept, a piece far from what the table builds on goes when it can), and among plays alike the one that leaves
  the seat the most pieces it could play next. (Cheap: a copy of the state per play, against playouts.)
* **passing pieces on before a climbing round** (``give``): the piece least worth holding there, the lowest
  by the round's own strengths, and of pieces close in power one that breaks no larger play.
* **choosing a value** (naming trump): the value of a piece attribute the seat holds most of, by
  count and then power; a value no attribute has is left to the caller.
* **an exchange**: the seat gives its weakest piece of its shortest group.
* **auctions** in a playout: pass when passing is legal (the seat being evaluated is the only one
  that bids, which is the question a one-ply evaluation of a bid asks).
* **shedding rounds** in a playout: at random (the shedding heuristic copies the state once per play).
* **claims** in a playout: a plain claim (only pieces of the claimed value, or passing) at random, and
  letting a claim stand nine times in ten, unless it cannot be true by what the seat holds (then challenging).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rulecraft.agents.candidates import candidate_moves, plain_claims
from rulecraft.engine.determinize import hidden_pieces
from rulecraft.engine.views import visible

if TYPE_CHECKING:
    from rulecraft.engine.combos import Play
    from rulecraft.engine.moves import Move
    from rulecraft.engine.state import State

CHALLENGE_IN_PLAYOUT = 0.1
# A trick decision's moves the heuristic weighs, at most: past that (any pieces a follower void in the
# led suit may play, engine/phases/trick_free.py), the moves listed before the unlisted sets and a sample.
WEIGHED = 2_000
SAMPLED = 64


def phase_kind(st: State) -> str:
    return "" if st.is_over or st.pidx >= len(st.rs.phases) else str(st.rs.phases[st.pidx].kind)


# ---------------------------------------------------------------------- trick rounds
@dataclass(frozen=True)
class PieceValues:
    """What taking each piece is worth to a side (``worth``; learnt by ``agents.piece_values``), and its
    part beyond what the median piece is worth (``own``: what sets it apart, to give a partner or to give
    away); 0 where play shows nothing clear."""

    worth: tuple[float, ...]
    own: tuple[float, ...]
    # By round number (1 first): whether winning that round is worth little beside the rounds that count most
    # (a game whose early rounds score nothing); () where rounds are alike.
    idle_rounds: tuple[bool, ...] = ()
    # Worked out once, not at every decision: whether anything is clear, and what taking all would be worth.
    anything: bool = field(init=False)
    total: float = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "anything", any(self.worth) or any(self.own) or any(self.idle_rounds))
        object.__setattr__(self, "total", sum(self.worth))

    def __bool__(self) -> bool:
        return self.anything

    def idle(self, round_no: int) -> bool:
        """Whether winning round ``round_no`` is worth little (see ``idle_rounds``)."""
        return 0 < round_no <= len(self.idle_rounds) and self.idle_rounds[round_no - 1]

    def taking(self, pieces: Sequence[int]) -> float:
        return sum(self.worth[p] for p in pieces)

    def own_part(self, pieces: Sequence[int]) -> float:
        return sum(self.own[p] for p in pieces)


def _rate(st: State, phase: Any, play: Play) -> tuple[Any, Any]:
    """The class and strength the rule file gives ``play`` by the seat to act, in the round as it stands."""
    ctx = st.ctx
    saved = ctx.seat, ctx.combo
    try:
        return phase._rate(st, play)  # type: ignore[no-any-return]
    finally:
        ctx.seat, ctx.combo = saved


def piece_power(st: State, phase: Any, pieces: Sequence[int], blank: Any = None) -> dict[int, float]:
    """Each piece's strength as a single piece led now (0 when it cannot be led alone). ``blank``: the
    phase's data as it would be with no play made yet (by default a trick round's, with nothing else)."""
    from rulecraft.engine.phases.tricks import TrickData

    singles = [spec for spec in phase.combos if spec.kind == "single" and spec.singles]
    d = st.pdata
    ctx = st.ctx
    saved = st.pdata, ctx.seat, ctx.combo
    # no play yet: every candidate is a lead
    st.pdata = blank if blank is not None else TrickData(d.leader, d.round_no, d.order)
    ctx.seat = st.to_act
    out: dict[int, float] = {}
    try:
        for p in pieces:
            power = 0.0
            for spec in singles:
                ctx.combo = spec.singles[p]
                strength = spec.strength(ctx) if spec.strength is not None else spec.singles[p].entry_strength
                if isinstance(strength, (int, float)):
                    power = max(power, float(strength))
            out[p] = power
    finally:
        st.pdata, ctx.seat, ctx.combo = saved
    return out


def trick_move(st: State, seat: int, moves: Sequence[Move], rng: random.Random,
               values: PieceValues | None = None) -> Move:
    """A trick round's move by the heuristic of the module docstring; ``values``: what taking each piece
    is worth (``agents.piece_values``), when the caller knows."""
    phase = st.rs.phases[st.pidx]
    d = st.pdata
    st.legal_moves()  # makes the round's options (the play behind each move)
    opts = getattr(d, "options", None)
    if opts is None:
        return moves[rng.randrange(len(moves))]
    # The play behind each move weighed (of a lazily enumerated move set, only those: not every set).
    by_move = dict(opts.each_play()) if type(opts.moves) is list else {m: opts.play_of(m) for m in moves}
    plays: list[tuple[Move, Play]] = [(m, by_move[m]) for m in moves
                                      if by_move.get(m) is not None]  # 'stop' is the caller's question
    if not plays:
        return moves[0]
    hand = st.hand(seat)
    power = piece_power(st, phase, hand)
    take = values if values else None
    avoiding = take is not None and take.total < 0  # taking costs more than it brings

    def weakness(mp: tuple[Move, Play]) -> tuple[float, float, float]:
        ps = mp[1].pieces
        return (len(ps) and sum(power.get(p, 0.0) for p in ps) / len(ps), -len(ps), rng.random())

    def worth(pieces: Sequence[int]) -> float:
        return take.taking(pieces) if take is not None else 0.0

    def own(pieces: Sequence[int]) -> float:
        return take.own_part(pieces) if take is not None else 0.0

    idle = take is not None and take.idle(d.round_no)  # a round worth little: keep strength for those that count
    if not d.plays:  # leading
        plays = _without_unsure_composites(st, seat, phase, plays)
        if idle:
            return min(plays, key=weakness)[0]
        big = max(len(p.pieces) for _, p in plays)
        up = [mp for mp in plays if mp[1].face_up and len(mp[1].pieces) == big] or plays
        if avoiding:
            return min(up, key=lambda mp: (weakness(mp)[0], rng.random()))[0]
        return max(up, key=lambda mp: (weakness(mp)[0], rng.random()))[0]
    team = st.rs.seats.team_of
    best_seat = d.seats[d.best] if d.best >= 0 else None
    if best_seat is not None and best_seat != seat and team[best_seat] == team[seat]:
        # The partner takes this round: give it what is worth taking, else the weakest play.
        return min(plays, key=lambda mp: (-own(mp[1].pieces), weakness(mp)))[0]
    winning: list[tuple[Any, tuple[Move, Play]]] = []
    for mp in plays:
        if mp[1].combo is None:  # face down, or face up forming no combination: it wins nothing
            continue
        cls, strength = _rate(st, phase, mp[1])
        if d.best < 0 or (cls == d.classes[d.best] and strength > d.strengths[d.best]):
            winning.append((strength, mp))
    if take is not None:
        so_far = sum(worth(p.pieces) for p in d.plays if p.face_up)  # a face-down play is not the seat's to see
        wins = {id(mp) for _, mp in winning}
        losing = [mp for mp in plays if id(mp) not in wins]
        worth_winning = [(s, mp) for s, mp in winning
                         if so_far + worth(mp[1].pieces) > 0 or (not idle and so_far + worth(mp[1].pieces) == 0)]
        if not worth_winning and losing:
            # Give away what costs most, then the weakest play, or where taking costs the strongest that loses.
            def giving(mp: tuple[Move, Play]) -> tuple[float, tuple[float, float, float]]:
                w = weakness(mp)
                return own(mp[1].pieces), ((-w[0], w[1], w[2]) if avoiding else w)

            return min(losing, key=giving)[0]
        if not worth_winning:  # every play wins: the least costly, and the lowest, which a later seat may beat
            return min(winning, key=lambda sm: (-(so_far + worth(sm[1][1].pieces)), sm[0], rng.random()))[1][0]
        winning = worth_winning
    if not winning:
        return min(plays, key=weakness)[0]
    last = len(d.plays) == len(d.order) - 1
    if last:
        return min(winning, key=lambda sm: (sm[0], weakness(sm[1])))[1][0]
    return max(winning, key=lambda sm: (sm[0], rng.random()))[1][0]


def _without_unsure_composites(st: State, seat: int, phase: Any,
                               plays: list[tuple[Move, Play]]) -> list[tuple[Move, Play]]:
    """``plays`` without the composite leads (``lead.composite``) some other seat might beat. A composite that
    fails pays its penalty and leads only its beaten part, so it is led only when sure to hold: checked by
    the rules' own check against every piece the seat cannot rule out of the other hands, pooled as if one
    seat held them all (a beating pair split between two hands counts too: a throw is never guessed)."""
    comp = getattr(phase, "composite", None)
    if comp is None or not any(p.combo == comp.id for _, p in plays):
        return plays
    others = [s for s in st.order_from(seat) if s != seat]
    if not others:
        return plays
    # Hidden pieces, and pieces shown to the table that still lie in another hand (a failed throw's beater).
    pool = hidden_pieces(st, seat) + [p for s in others for p in st.hand(s) if visible(st, p, seat)]
    ctx = st.ctx
    saved = ctx.seat, ctx.combo
    try:
        return [mp for mp in plays if mp[1].combo != comp.id
                or comp.beaten(st, seat, mp[1], lambda c: phase._rate(st, c), [(others[0], pool)]) is None]
    finally:
        ctx.seat, ctx.combo = saved


# ---------------------------------------------------------------------- climbing rounds
KEEP = 0.75  # pieces above this share of the hand (by power) are kept to win a round back, not spent
BREAKING = 0.3  # what a follow pays, in shares of the hand, for each piece it takes out of a larger play
NEAR_OUT = 2  # an opponent holding this few pieces may go out on its next play


def _offered_plays(st: State, moves: Sequence[Move]) -> tuple[list[tuple[Move, Play]], Move | None] | None:
    """The plays among ``moves``, each with the play behind it, and the move that plays nothing (a pass), if
    offered; None when the phase keeps no play behind its moves (the caller chooses otherwise)."""
    d = st.pdata
    st.legal_moves()  # makes the decision's options (the play behind each move)
    made: list[Move] | None = getattr(d, "moves", None)
    plays_of: list[Play | None] | None = getattr(d, "plays_of", None)
    if made is None or plays_of is None:
        return None
    offered = set(moves)
    plays = [(m, p) for m, p in zip(made, plays_of, strict=True) if p is not None and m in offered]
    passing = next((m for m, p in zip(made, plays_of, strict=True) if p is None and m in offered
                    and m.verb == "pass"), None)  # (a call is no pass)
    return plays, passing


def climb_move(st: State, seat: int, moves: Sequence[Move], rng: random.Random) -> Move:
    """A climbing round's move (each play must beat the last one, or the seat passes): go out when a play
    empties the hand; lead the largest play that spends no kept piece, lowest first; follow with the
    cheapest play that beats, cheapest by the pieces' power and by the larger plays it breaks; pass
    rather than spend a kept piece or a larger play than the lead's, or to let a partner's play stand.
    When an opponent is near out: lead what it cannot answer (more pieces than it holds, else the
    strongest), and follow with the strongest play."""
    from rulecraft.engine.combos import enumerate_all

    phase: Any = st.rs.phases[st.pidx]
    d = st.pdata
    offered = _offered_plays(st, moves)
    if offered is None:
        return moves[rng.randrange(len(moves))]
    plays, passing = offered
    if not plays:
        return passing if passing is not None else moves[0]
    hand = st.hand(seat)
    n = len(hand)
    for m, p in plays:
        if len(p.pieces) == n:
            return m
    blank = d.copy()
    blank.seats, blank.plays, blank.classes, blank.strengths, blank.best = [], [], [], [], -1
    power = piece_power(st, phase, hand, blank)
    share = {p: i / max(n - 1, 1) for i, p in enumerate(sorted(hand, key=lambda p: (power[p], p)))}
    team = st.rs.seats.team_of
    held = [len(st.hand(s)) for s in range(st.rs.seats.count) if team[s] != team[seat] and st.hand(s)]
    fewest = min(held) if held else n
    near_out = fewest <= NEAR_OUT

    def top(p: Play) -> float:
        return max(share[x] for x in p.pieces)

    def mean(p: Play) -> float:
        return sum(share[x] for x in p.pieces) / len(p.pieces)

    def lead_key(mp: tuple[Move, Play]) -> tuple[bool, int, float, float]:
        p = mp[1]
        return top(p) > KEEP, -len(p.pieces), mean(p), rng.random()

    if not d.plays:  # leading
        if near_out:
            unanswerable = [mp for mp in plays if len(mp[1].pieces) > fewest]
            if unanswerable:
                return min(unanswerable, key=lead_key)[0]
            return max(plays, key=lambda mp: (top(mp[1]), rng.random()))[0]
        return min(plays, key=lead_key)[0]
    last = d.seats[-1]
    if passing is not None and last != seat and team[last] == team[seat]:
        return passing
    if near_out:
        return max(plays, key=lambda mp: (_rate(st, phase, mp[1])[1], rng.random()))[0]
    part: dict[int, int] = {}  # each piece's largest play (of the hand, as a lead)
    for p in enumerate_all(phase.combos, hand, st.rs.pieces, ctx=st.ctx):
        k = len(p.pieces)
        for x in p.pieces:
            if part.get(x, 0) < k:
                part[x] = k
    led = len(d.plays[0].pieces)

    def cost(p: Play) -> float:
        k = len(p.pieces)
        broken = sum(1 for x in p.pieces if part.get(x, 1) > k)
        return mean(p) + BREAKING * broken / k + (1.0 if k > led else 0.0)

    best = min(plays, key=lambda mp: (cost(mp[1]), rng.random()))
    if passing is not None and (top(best[1]) > KEEP or len(best[1].pieces) > led) and n > 2 * NEAR_OUT:
        return passing
    return best[0]


# ---------------------------------------------------------------------- shedding rounds
PLAYABILITY_STEP = 0.1  # playabilities closer than this are alike: what the play leaves open decides
SHED_VERBS = ("play", "draw", "pass")  # a shedding turn's moves (others: a value a play asks its player to name)


def shed_move(st: State, seat: int, moves: Sequence[Move], rng: random.Random,
              playable: Sequence[float] | None = None) -> Move:
    """A shedding round's move (a play onto the pile, or a draw or pass when the rules offer one): go out when
    a play empties the hand; never draw while a play is allowed; play the pieces least often playable
    (``playable``: by piece, ``agents.playability``), keeping those that can be played almost anywhere;
    among plays alike, the one that leaves the seat the most pieces it could play next, were the pile left
    as it leaves it (a value it names after the play, the one it holds most of)."""
    offered = _offered_plays(st, moves)
    if offered is None:
        return moves[rng.randrange(len(moves))]
    plays = offered[0]
    if not plays:  # a draw before a pass: a drawn piece may be played
        return next((m for m in moves if m.verb == "draw"), moves[0])
    n = len(st.hand(seat))
    for m, p in plays:
        if len(p.pieces) == n:
            return m
    if len(plays) == 1:
        return plays[0][0]

    def hard(p: Play) -> float:  # how rarely the play's pieces can be played, in steps
        if playable is None:
            return 0.0
        return round(sum(1.0 - playable[x] for x in p.pieces) / len(p.pieces) / PLAYABILITY_STEP)

    return max(plays, key=lambda mp: (hard(mp[1]), len(mp[1].pieces), _open_after(st, seat, mp[0]),
                                      rng.random()))[0]


def _open_after(st: State, seat: int, move: Move) -> int:
    """How many of ``seat``'s pieces it could play after ``move``, were it to act again at once."""
    world = st.clone()
    world.apply(move)
    while not world.is_over and world.to_act == seat and phase_kind(world) == "shed":
        naming = world.legal_moves()  # the play asks its player to name a value
        if any(m.verb in SHED_VERBS for m in naming):
            break
        world.apply(choose_by_holding(world, seat, naming) or naming[0])
    if world.is_over or phase_kind(world) != "shed":
        return 0
    phase: Any = world.rs.phases[world.pidx]
    d = world.pdata
    world.to_act = seat
    d.moves = d.plays_of = None
    phase.legal(world)
    can = {x for p in d.plays_of or () if p is not None for x in p.pieces}
    return len(can)


# ---------------------------------------------------------------------- choices and exchanges
def choose_by_holding(st: State, seat: int, moves: Sequence[Move]) -> Move | None:
    """Name the value of a piece attribute the seat holds most of (None when no attribute has the values)."""
    values = [m.value for m in moves]
    columns = st.rs.pieces.columns
    hand = st.hand(seat)
    for name, column in columns.items():
        if name == "id":
            continue
        if not all(any(str(column[p]) == v for p in range(st.rs.pieces.count)) for v in values):
            continue
        held = {v: [p for p in hand if str(column[p]) == v] for v in values}
        rank = _rank_column(st)
        best = max(moves, key=lambda m: (len(held[m.value]),
                                         sum(float(rank[p]) for p in held[m.value]) if rank else 0.0))
        return best
    return None


def _rank_column(st: State) -> list[Any] | None:
    """The last attribute the display sorts by (a numeric one: a rank), if any."""
    display = st.rs.display
    if display is None:
        return None
    for attr in reversed(display.sort_by):
        column = st.rs.pieces.columns.get(attr)
        if column is not None and all(isinstance(v, (int, float)) for v in column if v is not None):
            return [v if v is not None else 0 for v in column]
    return None


def exchange_move(st: State, seat: int, moves: Sequence[Move], rng: random.Random,
                  strength: Sequence[float] | None = None) -> Move:
    """Give the weakest piece of the seat's shortest group (by ``display.group_by``); ``strength``: what each
    piece is worth to a hand (learnt: ``agents.decision_values``), when the caller knows: then only a piece of
    the weaker half of the hand by it is given (a void is not made by giving away the hand's best piece), the
    weakest by it within its group."""
    display = st.rs.display
    columns = st.rs.pieces.columns
    group = columns.get(display.group_by) if display is not None and display.group_by else None
    rank = _rank_column(st)
    hand = st.hand(seat)
    sizes: dict[Any, int] = {}
    if group is not None:
        for p in hand:
            sizes[group[p]] = sizes.get(group[p], 0) + 1
    middle = sorted(strength[p] for p in hand)[(len(hand) - 1) // 2] if strength is not None and hand else 0.0

    def key(m: Move) -> tuple[bool, float, float, float]:
        p = m.pieces[0] if m.pieces else -1
        size = sizes.get(group[p], 0) if group is not None and p >= 0 else 0
        if strength is not None and p >= 0:
            return (strength[p] > middle, size, strength[p], rng.random())
        r = float(rank[p]) if rank is not None and p >= 0 else 0.0
        return (False, size, r, rng.random())

    return min(moves, key=key)


def give_move(st: State, seat: int, moves: Sequence[Move], rng: random.Random) -> Move | None:
    """Pass on (``give``) the piece least worth holding for the climbing round the hand plays next: the
    lowest by its power there (the rule file's strength of it led alone), and of pieces close in power one
    that breaks no larger play of the hand. None when no climbing round follows (the caller decides)."""
    from rulecraft.engine.combos import enumerate_all

    phase: Any = next((p for p in st.rs.phases[st.pidx + 1:] if p.kind == "climb"), None)
    if phase is None or not all(m.verb == "give" and len(m.pieces) == 1 for m in moves):
        return None
    blank = phase.blank_data(st)  # the round's data before its first play: every piece is a lead
    hand = st.hand(seat)
    power = piece_power(st, phase, hand, blank)
    n = len(hand)
    share = {p: i / max(n - 1, 1) for i, p in enumerate(sorted(hand, key=lambda p: (power[p], p)))}
    part: dict[int, int] = {}
    saved = st.pdata
    st.pdata = blank  # (a combination may read the round: as led, before any play)
    try:
        for play in enumerate_all(phase.combos, hand, st.rs.pieces, ctx=st.ctx):
            for x in play.pieces:
                part[x] = max(part.get(x, 1), len(play.pieces))
    finally:
        st.pdata = saved

    def cost(m: Move) -> tuple[float, float]:
        p = m.pieces[0]
        return share.get(p, 0.0) + (BREAKING if part.get(p, 1) > 1 else 0.0), rng.random()

    return min(moves, key=cost)


# ---------------------------------------------------------------------- playouts
KIND_MOVES = frozenset({"choose", "exchange", "climb"})


def kind_move(st: State, seat: int, moves: Sequence[Move], rng: random.Random, kind: str) -> Move | None:
    """The heuristics' move in a decision of one of the ``KIND_MOVES`` phase kinds, played alike by the
    default agent and by playouts; None where they have none (a choice the seat's holding says nothing of)."""
    if kind == "choose":
        return choose_by_holding(st, seat, moves)
    if kind == "exchange":
        return exchange_move(st, seat, moves, rng)
    if kind == "climb":
        return climb_move(st, seat, moves, rng)
    return None


def weighed_moves(st: State, seat: int, moves: Sequence[Move], rng: random.Random) -> Sequence[Move]:
    """The trick moves the heuristic weighs: all of them, or past ``WEIGHED`` the moves listed before a
    lazily enumerated move set's sets (``head``: combinations, 'stop') and a uniform sample of the rest."""
    if len(moves) <= WEIGHED:
        return moves
    head: list[Move] = list(getattr(moves, "head", ()))
    lowest = getattr(moves, "lowest", None)  # (free follows: the weakest and the strongest pieces chosen)
    if lowest is not None:
        power = piece_power(st, st.rs.phases[st.pidx], st.hand(seat))
        for sign in (1.0, -1.0):
            found = lowest(lambda p, sign=sign: sign * power.get(p, 0.0))
            if found is not None and found not in head:
                head.append(found)
    return head + [m for m in candidate_moves(st, seat, moves, rng, SAMPLED) if m not in head]


def playout_move(st: State, rng: random.Random) -> Move:
    """The move a playout makes for whichever seat is to act (see the module docstring)."""
    moves = st.legal_moves()
    if len(moves) == 1:
        return moves[0]
    seat = st.to_act if st.playing_for is None else st.playing_for  # (a dummy's hand: its pieces)
    assert seat is not None
    kind = phase_kind(st)
    if kind == "tricks":
        weighed = weighed_moves(st, seat, moves, rng)
        plays = [m for m in weighed if m.verb != "stop"]
        return trick_move(st, seat, plays, rng) if len(plays) == len(weighed) else rng.choice(moves)
    if kind == "auction":
        for m in moves:
            if m.verb == "pass":
                return m
    elif kind in KIND_MOVES:
        chosen = kind_move(st, seat, moves, rng, kind)
        if chosen is not None:
            return chosen
    elif kind == "claims":
        if any(m.verb == "accept" for m in itertools.islice(moves, 3)):
            want = "challenge" if _impossible(st, seat) or rng.random() < CHALLENGE_IN_PLAYOUT else "accept"
            return next((m for m in moves if m.verb == want), moves[0])
        plain = plain_claims(st, seat, moves)
        if plain:
            return plain[rng.randrange(len(plain))]
    return moves[rng.randrange(len(moves))]


def _impossible(st: State, seat: int) -> bool:
    """Whether the claim ``seat`` is asked about cannot be true by what it holds: more pieces of the claimed
    value than there are, counting its own (as the bluffer challenges; every copy of a value counts)."""
    d = st.pdata
    value = getattr(d, "last_value", None)
    attribute = getattr(st.rs.phases[st.pidx], "attribute", "")
    if value is None or not attribute:
        return False
    column = st.rs.pieces.columns[attribute]
    held = sum(1 for p in st.hand(seat) if str(column[p]) == value)
    return held + len(d.last_pieces) > sum(1 for v in column if str(v) == value)
