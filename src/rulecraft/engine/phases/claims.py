"""Claim rounds: pieces go face down with a declared claim that may be false, and anyone may challenge.

A *turn* starts with the seat holding the initiative making a claim: it puts n pieces face down on
the pile and says "these are n pieces of value x" (a value of one piece attribute). In turn, the
other seats either claim on top (taking the initiative) or pass. After **every** claim a *response
window* opens: the other seats are asked, one at a time in priority order, whether they challenge
(``challenge``) or let the claim stand (``accept``); the first seat that challenges wins the right, so
"simultaneous calls go to the seat nearest the player" is just the order of asking. With
``challenge.until: next_play`` the last claim stays open to challenge until the next claim or the
flush: the window opens again, in the same order, after every pass that does not end the turn (the
engine has no clock, so "at any moment between two actions" is one more round of asking). A challenge turns
the last play face up: a lie means one seat picks up the whole pile, a truth another (both
expressions). When every other seat holding pieces has passed since the last play, the pile is
removed from the game face down and unseen (each seat still knows the pieces it put down itself).

Rule-file keys of a ``claims`` phase (all optional but ``claim.attribute``)::

    first: EXPR              seat with the initiative when the phase starts (default 0)
    claim:
      attribute: rank        the piece attribute a claim names
      values: [A, "2", ...]  the values that may be claimed, in order (default: every value of the
                             attribute, in piece order); rising/falling rules step through this list,
                             wrapping round at the ends
      rule: same_as_turn     which values the next claim may name, given the previous one:
                             same_as_turn (the turn's first claim is free, later ones repeat it),
                             rising / falling (the next / previous value after the last claim of the
                             hand, across turns), one_up_or_down (either neighbour), any
      start: A               the value the hand's first claim must name (default: any allowed value)
      allow: EXPR            an extra condition on a claimed ``value`` (with ``message`` when refused)
      counts: {min: 1, max: 4}  how many pieces a play has (expressions; max defaults to the hand)
      over_claims: true      whether a play may hold more pieces than exist of the claimed value
    passing: true            whether a seat may pass instead of claiming (the turn's first claim is
                             never optional)
    pile: pile               the shared zone the claims go to (face down)
    removed: removed         where a pile goes when all pass (face down, unseen)
    challenge:
      order: clockwise_from_player   or counter_clockwise_from_player: who is asked first
      when: EXPR             whether ``seat`` may challenge at all (default: true)
      until: response        how long the last claim may be challenged: ``response`` (only in the
                             window right after it) or ``next_play`` (until the next claim or the
                             flush: every pass reopens the window)
    pick_up: {on_lie: player, on_truth: challenger}   who takes the pile after a challenge
    next_turn: {on_lie: challenger, on_truth: player, after_flush: last_player}
                             who starts the next turn (seats that are out are skipped, see below)
    places: VAR              a per-seat variable set to 1, 2, ... as seats go out
    on_reveal: [effects]     run after a challenge has been resolved
    on_flush: [effects]      run after a pile was removed unseen

Names readable in these expressions: ``seat`` (the seat deciding or asked about), ``player`` /
``last_player`` (the seat of the last claim), ``challenger``, ``picker`` (who took the pile),
``lie`` (whether the revealed play was a lie), ``claim_value`` / ``claim_count`` (the last claim),
``turn_value`` (the turn's first claim), ``previous`` (the last claim value this hand), ``value``
(in ``allow``: the value being considered), ``finished`` (seats that are out, in order).

Engine rules (the same for every game): a seat *goes out* when its hand is empty and its last play
survived (someone claimed on top of it, every other seat passed, or a challenge found it true); a
seat that is out neither plays nor challenges, and turn order skips it and any seat with no pieces;
a ``next_turn`` seat that is out hands the turn on to the next seat in the direction of play. The
phase ends when at most one seat is not out; that seat takes the last place.

Plays are combinatorial (any subset of the hand, with any allowed value), so the legal moves of a
turn are a lazily enumerated sequence (``ClaimMoves``): it has a length, indexing, iteration,
membership and lookup by text, without ever building the whole list.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast, overload

from rulecraft.dsl import CompiledExpr, Scope, T
from rulecraft.engine.effects import Effect, compile_effects, compile_show, run_effects
from rulecraft.engine.moves import Move, make_move
from rulecraft.engine.ordered_values import OrderedValues, add_field_functions, build_ordered_values
from rulecraft.engine.phases.base import Phase, describe_legal, pieces_held, seat_of
from rulecraft.engine.showing import ShowAction, show
from rulecraft.errors import clip
from rulecraft.rules.located import pos_of

if TYPE_CHECKING:
    from rulecraft.engine.board import Board
    from rulecraft.engine.builder import Builder
    from rulecraft.engine.equipment import Equipment

RULES = ("same_as_turn", "rising", "falling", "one_up_or_down", "higher", "any")
ORDERS = ("clockwise_from_player", "counter_clockwise_from_player")
UNTILS = ("response", "next_play")
ASKED = ("after_claim", "on_turn")
GOES_OUT = ("empty_hand", "never")


@dataclass(frozen=True, slots=True)
class Call:
    """A named call a seat may make instead of a plain challenge (an exact count: "calza"): when it is
    made, the claim is revealed as for a challenge and ``holds`` says whether the call was right."""

    id: str
    holds: CompiledExpr
    when: CompiledExpr | None
    description: str = ""
    message: str = ""  # what a seat is told when ``when`` refuses the call


@dataclass(slots=True)
class ClaimData:
    """The state of a claims phase. Lists are copied by ``copy``; ``moves`` is never mutated, so shared."""

    leader: int
    to_play: int
    last_player: int | None = None
    last_value: str | None = None
    last_pieces: tuple[int, ...] = ()
    turn_value: str | None = None
    previous: str | None = None
    claims: list[tuple[int, str, int]] = field(default_factory=list)  # (seat, value, count) in the pile
    passed: list[int] = field(default_factory=list)  # seats that passed since the last claim
    window: list[int] | None = None  # seats still to be asked whether they challenge
    asked_after: str = "play"  # what opened the window: the claim itself, or a later pass
    ended: str = ""  # how the previous turn ended ("flush" or "challenge"), for refusals
    finished: list[int] = field(default_factory=list)
    challenger: int | None = None
    picker: int | None = None
    lie: bool = False
    called: str = "challenge"  # what the last challenge was: 'challenge', or a named call's id
    upheld: bool = False  # whether that call was right (a challenge: the claim was a lie)
    reveals: list[dict[str, Any]] = field(default_factory=list)  # public records of every challenge
    done: bool = False
    moves: ClaimMoves | None = None

    def copy(self) -> ClaimData:
        return ClaimData(self.leader, self.to_play, self.last_player, self.last_value, self.last_pieces,
                         self.turn_value, self.previous, list(self.claims), list(self.passed),
                         None if self.window is None else list(self.window), self.asked_after, self.ended,
                         list(self.finished), self.challenger, self.picker, self.lie, self.called, self.upheld,
                         list(self.reveals), self.done, self.moves)


def _cd(c: Any) -> ClaimData:
    return cast(ClaimData, c.st.pdata)


def claim_scope(parent: Scope) -> Scope:
    """Names readable in a claims phase's expressions (see the module docstring)."""
    s = Scope(parent=parent, name="claims")
    s.add_name("seat", T.SEAT, code="ctx.seat", doc="the seat deciding, or being asked about")
    s.add_name("player", T.SEAT, getter=lambda c: _cd(c).last_player, doc="the seat that made the last claim")
    s.add_name("last_player", T.SEAT, getter=lambda c: _cd(c).last_player,
               doc="the seat that made the last claim (after a flush: the seat that keeps the initiative)")
    s.add_name("challenger", T.SEAT, getter=lambda c: _cd(c).challenger, doc="the seat that challenged")
    s.add_name("picker", T.SEAT, getter=lambda c: _cd(c).picker, doc="the seat that picked up the pile")
    s.add_name("lie", T.BOOL, getter=lambda c: _cd(c).lie, doc="whether the challenged play was a lie")
    s.add_name("claim_value", T.STRING, getter=lambda c: _cd(c).last_value, doc="the value of the last claim")
    s.add_name("claim_count", T.NUMBER, getter=lambda c: len(_cd(c).last_pieces),
               doc="how many pieces the last claim has")
    s.add_name("turn_value", T.STRING, getter=lambda c: _cd(c).turn_value,
               doc="the value of this turn's first claim (none before it)")
    s.add_name("previous", T.STRING, getter=lambda c: _cd(c).previous,
               doc="the value of the last claim this hand, whatever the turn")
    s.add_name("value", T.STRING, getter=lambda c: c.extra.get("value"), doc="the value a claim would name")
    s.add_name("finished", T.LIST, getter=lambda c: list(_cd(c).finished), doc="seats that are out, in order")
    s.add_name("called", T.STRING, getter=lambda c: _cd(c).called,
               doc="what the last challenge called: 'challenge', or the id of one of challenge.calls")
    s.add_name("upheld", T.BOOL, getter=lambda c: _cd(c).upheld,
               doc="whether the last call was right (a challenge: the claim was a lie; a named call: it holds)")
    return s


class ClaimMoves(Sequence[Move]):
    """Every legal move of a seat on its turn, enumerated lazily: ``pass`` (when allowed), the challenges it
    may make on its turn (``extra``), and then, for each allowed value and each play size, every distinct
    set of pieces from the hand (a claim of no pieces, where plays may have none, is one move per value).

    Identical copies are counted once (sets of pieces are multisets of piece types), using a table of
    how many k-piece multisets the types from i onwards can make, so ``moves[i]`` is computed directly.
    """

    def __init__(self, st: Board, seat: int, may_pass: bool, vmax: dict[str, int], kmin: int,
                 extra: tuple[Move, ...] = ()) -> None:
        pieces = st.rs.pieces
        self._names: list[str] = pieces.columns["id"]
        self._sort_key = pieces.sort_key
        self._pass = st.rs.moves.get("pass") if may_pass else None
        self._head = ([self._pass] if self._pass is not None else []) + list(extra)
        self._extra = frozenset(extra)
        type_of = pieces.type_of
        # In piece-type order, copies of a type by piece number: the order of ``sort_key``, sorted by
        # two C-level keys (a turn's moves are made once per claim of every playout).
        hand = sorted(sorted(st.hand(seat)), key=type_of.__getitem__)
        self.hand = frozenset(hand)
        n_hand = len(hand)
        self._ways: list[list[int]] | None = None
        if len({type_of[p] for p in hand}) == n_hand:  # no identical copies in hand (the usual case)
            self._groups = [[p] for p in hand]
        else:
            groups: dict[int, list[int]] = {}
            for p in hand:
                groups.setdefault(type_of[p], []).append(p)
            self._groups = list(groups.values())
        self.kmin = max(0, kmin)
        self.vmax = {v: k if k < n_hand else n_hand for v, k in vmax.items()}
        top = max(self.vmax.values(), default=0)
        # The moves are blocks, value by value and within a value size by size, of per_size[k] sets each.
        # before[k]: how many sets have kmin..k-1 pieces (the same for every value), so a value's block
        # of sets up to kmax holds before[kmax + 1] moves and an index finds its size by bisection.
        if n_hand == len(self._groups):
            # With no identical copies the counts are binomial coefficients, the same for every hand of that size.
            self._before = before = _binomial_blocks(n_hand, self.kmin, top)
        else:
            copies = [len(g) for g in self._groups]
            self._ways = multiset_table(copies, top)
            per_size = [self._ways[0][k] if k >= self.kmin else 0 for k in range(top + 1)]
            self._before = before = list(itertools.accumulate(per_size, initial=0))
        self._values = [(v, before[kmax + 1]) for v, kmax in self.vmax.items()]  # (value, how many moves)
        self._total = len(self._head) + sum(n for _, n in self._values)

    def __len__(self) -> int:
        return self._total

    @property
    def heads(self) -> list[Move]:
        """The moves listed before the claims: ``pass`` when allowed, and the challenges the seat may make."""
        return list(self._head)

    @overload
    def __getitem__(self, i: int) -> Move: ...
    @overload
    def __getitem__(self, i: slice) -> list[Move]: ...

    def __getitem__(self, i: int | slice) -> Move | list[Move]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self._total))]
        if i < 0:
            i += self._total
        if not 0 <= i < self._total:
            raise IndexError(i)
        if i < len(self._head):
            return self._head[i]
        i -= len(self._head)
        for value, n in self._values:
            if i < n:
                k = bisect.bisect_right(self._before, i) - 1  # the size whose sets hold index i
                return self._claim(value, self._unrank(k, i - self._before[k]))
            i -= n
        raise IndexError(i)  # pragma: no cover - the blocks add up to the total

    def __iter__(self) -> Iterator[Move]:
        yield from self._head
        before = self._before
        for value, n in self._values:
            for k in range(len(before) - 1):
                if before[k] >= n:
                    break
                for r in range(before[k + 1] - before[k]):
                    yield self._claim(value, self._unrank(k, r))

    def __contains__(self, move: object) -> bool:
        if not isinstance(move, Move):
            return False
        if move.verb == "pass":
            return self._pass is not None
        if move in self._extra:
            return True
        if move.verb != "claim" or move.value not in self.vmax:
            return False
        ps = move.pieces
        return (self.kmin <= len(ps) <= self.vmax[move.value] and len(set(ps)) == len(ps)
                and all(p in self.hand for p in ps))

    def find(self, verb: str, value: str, type_ids: list[str]) -> Move | None:
        """The legal move written this way (pieces by type id, in any order), or None."""
        if verb == "pass":
            return self._pass
        if verb != "claim":
            return next((m for m in self._head if m.verb == verb and m.value == value and not type_ids), None)
        if value not in self.vmax:
            return None
        pool = sorted(self.hand)
        chosen: list[int] = []
        for tid in type_ids:
            p = next((q for q in pool if self._names[q] == tid), None)
            if p is None:
                return None
            pool.remove(p)
            chosen.append(p)
        move = self._claim(value, tuple(sorted(chosen, key=self._sort_key)))  # the canonical text
        return move if move in self else None

    def _count(self, i: int, k: int) -> int:
        """How many k-piece multisets the piece types from the i-th on can make."""
        if self._ways is None:
            return math.comb(len(self._groups) - i, k)
        return self._ways[i][k]

    def _claim(self, value: str, pieces: tuple[int, ...]) -> Move:
        return make_move("claim", pieces, value, self._names)

    def _unrank(self, k: int, r: int) -> tuple[int, ...]:
        """The r-th k-piece multiset (types in hand order, fewer copies of earlier types first)."""
        out: list[int] = []
        groups = self._groups
        if self._ways is None:  # one piece of each type: what the loop below does, with binomials inline
            m, comb = len(groups), math.comb
            i = 0
            while k:
                n = comb(m - i - 1, k)  # the combinations that leave out this type
                if r >= n:
                    r -= n
                    out.append(groups[i][0])
                    k -= 1
                i += 1
            return tuple(out)
        count = self._count
        for i, group in enumerate(groups):
            for j in range(min(len(group), k) + 1):
                n = count(i + 1, k - j)
                if r < n:
                    out.extend(group[:j])
                    k -= j
                    break
                r -= n
            if k == 0:
                break
        return tuple(out)


@functools.lru_cache(maxsize=4096)
def _binomial_blocks(m: int, kmin: int, top: int) -> list[int]:
    """before[k]: how many sets of kmin..k-1 of m distinct pieces there are (shared: never changed)."""
    per_size = [math.comb(m, k) if k >= kmin else 0 for k in range(top + 1)]
    return list(itertools.accumulate(per_size, initial=0))


def multiset_table(copies: list[int], top: int) -> list[list[int]]:
    """ways[i][k]: how many k-piece multisets the types i.. can make (with the given copies of each)."""
    m = len(copies)
    ways = [[0] * (top + 1) for _ in range(m + 1)]
    ways[m][0] = 1
    for i in range(m - 1, -1, -1):
        for k in range(top + 1):
            ways[i][k] = sum(ways[i + 1][k - j] for j in range(min(copies[i], k) + 1))
    return ways


class Claims(Phase):
    kind = "claims"

    def __init__(self, pid: str, pos: Any) -> None:
        super().__init__(pid, pos)
        self.first: CompiledExpr | None = None
        self.attribute = ""
        self.values: list[str] = []
        self.totals: dict[str, int] = {}
        self.rule = "same_as_turn"
        self.start: str | None = None
        self.allow: CompiledExpr | None = None
        self.allow_message = "that claim is not allowed here"
        self.count_min: CompiledExpr | None = None
        self.count_max: CompiledExpr | None = None
        self.over_claims = True
        self.passing = True
        self.pile = "pile"
        self.removed = "removed"
        self.order = ORDERS[0]
        self.until = UNTILS[0]
        self.may_challenge: CompiledExpr | None = None
        self.pick_lie: CompiledExpr | None = None
        self.pick_truth: CompiledExpr | None = None
        self.next_lie: CompiledExpr | None = None
        self.next_truth: CompiledExpr | None = None
        self.next_flush: CompiledExpr | None = None
        self.places = -1
        self.on_reveal: tuple[Effect, ...] = ()
        self.on_flush: tuple[Effect, ...] = ()
        self.ordered: OrderedValues | None = None  # values given as an ordered set (fields, names, order)
        self._where: dict[str, int] = {}  # each value's place in ``values``
        self.truth: CompiledExpr | None = None  # whether the last claim is true (default: its pieces' values)
        self.asked = ASKED[0]
        self.calls: tuple[Call, ...] = ()
        self.reveal: ShowAction | None = None  # what a challenge shows everyone besides the claim's pieces
        self.goes_out = GOES_OUT[0]

    # ------------------------------------------------------------------ building
    @classmethod
    def build(cls, b: Builder, rs: Equipment, raw: dict[str, Any], scope: Scope) -> Phase:
        c = cls(str(raw.get("id", "claims")), pos_of(raw))
        what = f"claims phase '{c.id}'"
        cscope = claim_scope(scope)
        c.first = b.expr(raw.get("first", "0"), scope, T.NUMBER, f"{what} first seat")
        claim = raw.get("claim") or {}
        c._build_claim(b, rs, claim, cscope, what)
        c.passing = bool(raw.get("passing", True))
        c.pile = raw.get("pile", "pile")
        c.removed = raw.get("removed", "removed")
        for key, zname in (("pile", c.pile), ("removed", c.removed)):
            b.shared_zone(zname, rs.zone_by_name, f"the {key} of a claims phase")
        challenge = raw.get("challenge") or {}
        c.order = str(challenge.get("order", ORDERS[0]))
        if c.order not in ORDERS:
            b.error(challenge.get("order"), f"challenge order is one of {', '.join(ORDERS)}, not '{c.order}'")
        c.until = str(challenge.get("until", UNTILS[0]))
        if c.until not in UNTILS:
            b.error(challenge.get("until"), f"challenge until is one of {', '.join(UNTILS)}, not '{c.until}'")
        if "when" in challenge:
            c.may_challenge = b.expr(challenge["when"], cscope, T.BOOL, f"{what} challenge when")
        c.asked = str(challenge.get("asked", ASKED[0]))
        if c.asked not in ASKED:
            b.error(challenge.get("asked"), f"challenge asked is one of {', '.join(ASKED)}, not '{c.asked}'")
        c.calls = tuple(Call(str(k.get("id", "call")), b.expr(k.get("holds"), cscope, T.BOOL, f"{what} call holds"),
                             b.expr(k["when"], cscope, T.BOOL, f"{what} call when") if "when" in k else None,
                             str(k.get("description", "")), str(k.get("message", "")))
                        for k in challenge.get("calls") or ())
        for k in challenge.get("calls") or ():
            if str(k.get("id")) in ("challenge", "accept", "pass"):
                b.error(k.get("id"), f"a call's id names its move ('call {k.get('id')}'); '{k.get('id')}' is a "
                                     "move of its own: choose another")
        if "reveal" in raw:
            c.reveal = compile_show(b, rs, raw["reveal"], cscope, f"{what} reveal")
        c.goes_out = str(raw.get("goes_out", GOES_OUT[0]))
        if c.goes_out not in GOES_OUT:
            b.error(raw.get("goes_out"), f"goes_out is one of {', '.join(GOES_OUT)}, not '{c.goes_out}'")
        pick = raw.get("pick_up") or {}
        nxt = raw.get("next_turn") or {}
        c.pick_lie = b.expr(pick.get("on_lie", "player"), cscope, T.SEAT, f"{what} pick_up on_lie")
        c.pick_truth = b.expr(pick.get("on_truth", "challenger"), cscope, T.SEAT, f"{what} pick_up on_truth")
        c.next_lie = b.expr(nxt.get("on_lie", "challenger"), cscope, T.SEAT, f"{what} next_turn on_lie")
        c.next_truth = b.expr(nxt.get("on_truth", "player"), cscope, T.SEAT, f"{what} next_turn on_truth")
        c.next_flush = b.expr(nxt.get("after_flush", "last_player"), cscope, T.SEAT, f"{what} next_turn after_flush")
        if "places" in raw and b.ref(raw["places"], rs.var_index, "variable"):
            c.places = rs.var_index[str(raw["places"])]
            if rs.variables[c.places].per != "seat":
                b.error(raw["places"], f"places needs a per-seat variable; '{raw['places']}' is not one")
        c.on_reveal = compile_effects(b, rs, raw.get("on_reveal", ()), cscope, what)
        c.on_flush = compile_effects(b, rs, raw.get("on_flush", ()), cscope, what)
        return c

    def _build_claim(self, b: Builder, rs: Equipment, claim: dict[str, Any], cscope: Scope, what: str) -> None:
        pieces = rs.pieces
        values = claim.get("values")
        if isinstance(values, dict):  # an ordered set of values (engine/ordered_values.py)
            built = build_ordered_values(b, cscope.root(), values, rs.constants, f"{what} claim values")
            self.ordered = built if built is not None else OrderedValues()  # (refused: reported, none to offer)
            add_field_functions(b, cscope, self.ordered, values)
            self.values = list(self.ordered.names)
        if "truth" in claim:
            self.truth = b.expr(claim["truth"], cscope, T.BOOL, f"{what} claim truth")
        elif "attribute" not in claim:
            b.error(claim or values, f"{what}: a claim names the 'attribute' its pieces are claimed to have, or "
                                     "says by 'truth' (an expression) when it is true")
        self.attribute = claim.get("attribute", "")
        if self.attribute and b.ref(self.attribute, pieces.columns, "piece attribute"):
            column = pieces.columns[self.attribute]
            present = [str(v) for v in column if v is not None]
            if self.ordered is None:
                self.values = ([str(v) for v in values] if values is not None else list(dict.fromkeys(present)))
            self.totals = {v: present.count(v) for v in self.values}
        elif self.ordered is None and not self.attribute:
            self.values = [str(v) for v in values or ()]
            if not self.values:
                b.error(claim, f"{what}: without an 'attribute', a claim lists the 'values' it may name")
        if len(set(self.values)) != len(self.values):
            b.error(claim.get("values"), "claim values must not repeat")
        self._where = {v: i for i, v in enumerate(self.values)}
        self.rule = str(claim.get("rule", "same_as_turn"))
        if self.rule not in RULES:
            b.error(claim.get("rule"), f"a claim rule is one of {', '.join(RULES)}, not '{self.rule}'")
        if "start" in claim:
            self.start = str(claim["start"])
            if self.start not in self.values:
                b.error(claim["start"], f"the first claim '{self.start}' is not one of the claim values")
        if "allow" in claim:
            self.allow = b.expr(claim["allow"], cscope, T.BOOL, f"{what} claim allow")
            self.allow_message = str(claim.get("message", self.allow_message))
        counts = claim.get("counts") or {}
        self.count_min = b.expr(counts.get("min", 1), cscope, T.NUMBER, f"{what} counts min")
        if "max" in counts:
            self.count_max = b.expr(counts["max"], cscope, T.NUMBER, f"{what} counts max")
        self.over_claims = bool(claim.get("over_claims", True))

    # ------------------------------------------------------------------ flow
    def begin(self, st: Board) -> None:
        assert self.first is not None
        seat = seat_of(self.first, st.ctx, st.rs.seats.count, f"phase '{self.id}' first")
        st.pdata = ClaimData(seat, seat)
        d: ClaimData = st.pdata
        if not self._check_end(st, d):
            self._start_turn(st, d, seat)

    def step(self, st: Board) -> bool:
        d: ClaimData = st.pdata
        if d.done:
            return False
        st.to_act = d.window[0] if d.window else d.to_play
        st.ctx.seat = st.to_act
        return True

    def legal(self, st: Board) -> list[Move]:
        d: ClaimData = st.pdata
        book = st.rs.moves
        if d.window:
            seat = d.window[0]
            return [book.get("accept"), *([book.get("challenge")] if self._may(st, seat) else []),
                    *self._call_moves(st, seat)]
        if d.moves is None:
            d.moves = self._turn_moves(st, d, d.to_play)
        return cast(list[Move], d.moves)

    def apply(self, st: Board, move: Move) -> bool:
        d: ClaimData = st.pdata
        seat = st.to_act
        assert seat is not None
        d.moves = None
        if move.verb == "accept":
            assert d.window is not None
            d.window.pop(0)
            if not d.window:
                d.window = None
                assert d.last_player is not None
                self._advance(st, d, d.last_player)
        elif move.verb == "challenge":
            self._challenge(st, d, seat, "challenge")
        elif move.verb == "call":
            self._challenge(st, d, seat, move.value)
        elif move.verb == "pass":
            d.passed.append(seat)
            self._advance(st, d, seat)
            if self.until == "next_play" and self.asked == "after_claim" and d.last_player is not None \
                    and not d.done:
                # The turn goes on (no flush): the last claim may still be challenged, by anyone.
                self._open_window(st, d, d.last_player, "pass")
        else:
            self._claim(st, d, seat, move)
        return False

    # ------------------------------------------------------------------ what happens
    def _claim(self, st: Board, d: ClaimData, seat: int, move: Move) -> None:
        pile = st.zone_instance(self.pile)
        for p in move.pieces:
            st.put(p, pile, face_down=True, by=seat)
        before = d.last_player
        d.last_player, d.last_value, d.last_pieces = seat, move.value, move.pieces
        d.claims.append((seat, move.value, len(move.pieces)))
        if d.turn_value is None:
            d.turn_value = move.value
        d.previous = move.value
        d.passed = []
        if before is not None and before != seat:
            self._survived(st, d, before)  # someone claimed on top of it
            if self._check_end(st, d):
                return
        if self.asked == "after_claim":
            self._open_window(st, d, seat, "play")
        if d.window is None:
            self._advance(st, d, seat)

    def _challenge(self, st: Board, d: ClaimData, seat: int, called: str) -> None:
        ctx = st.ctx
        player = d.last_player
        assert player is not None and d.last_value is not None
        pieces = list(d.last_pieces)
        st.reveal(pieces)
        d.challenger, d.window = seat, None
        ctx.seat = seat
        if self.reveal is not None:  # what settles the claim, turned up for everyone (every seat's dice)
            show(st, self.reveal, ctx)
            ctx.seat = seat
        if self.truth is not None:
            d.lie = not self.truth(ctx)
        else:
            column = st.rs.pieces.columns[self.attribute]
            d.lie = any(str(column[p]) != d.last_value for p in pieces)
        call = next((c for c in self.calls if c.id == called), None)
        d.called, d.upheld = called, d.lie if call is None else bool(call.holds(ctx))
        ctx.seat = seat
        assert self.pick_lie is not None and self.pick_truth is not None
        d.picker = seat_of(self.pick_lie if d.lie else self.pick_truth, ctx, st.rs.seats.count,
                           f"phase '{self.id}' pick_up")
        pile = st.zones[st.zone_instance(self.pile)]
        taken = len(pile)
        hand = st.hand_instance(d.picker)
        for p in list(pile):
            st.put(p, hand, face_down=False)
        record = {"claimant": player, "challenger": seat, "claim": d.last_value,
                  "pieces": [st.rs.pieces.type_id(p) for p in pieces], "lie": d.lie, "picker": d.picker,
                  "taken": taken}
        if call is not None:
            record.update({"call": called, "upheld": d.upheld})
        d.reveals.append(record)
        d.ended = "challenge"
        st.history.append({"type": "reveal", **record})
        if not d.lie:
            self._survived(st, d, player)  # a challenge found it true
        run_effects(st, self.on_reveal)
        if self._check_end(st, d):
            return
        assert self.next_lie is not None and self.next_truth is not None
        ctx.seat = seat
        self._start_turn(st, d, seat_of(self.next_lie if d.lie else self.next_truth, ctx, st.rs.seats.count,
                                        f"phase '{self.id}' next_turn"))

    def _flush(self, st: Board, d: ClaimData) -> None:
        """Everyone else passed: the pile leaves the game face down, unseen (``downed_by`` is kept)."""
        pile = st.zones[st.zone_instance(self.pile)]
        removed = st.zone_instance(self.removed)
        count = len(pile)
        for p in list(pile):
            st.put(p, removed, face_down=True)
        st.history.append({"type": "flush", "last_player": d.last_player, "count": count})
        d.ended = "flush"
        assert d.last_player is not None
        self._survived(st, d, d.last_player)
        run_effects(st, self.on_flush)
        if self._check_end(st, d):
            return
        assert self.next_flush is not None
        self._start_turn(st, d, seat_of(self.next_flush, st.ctx, st.rs.seats.count,
                                        f"phase '{self.id}' next_turn after_flush"))

    def _advance(self, st: Board, d: ClaimData, after: int) -> None:
        """The next seat to claim or pass after ``after``; a flush when every other holder has passed."""
        waiting = [s for s in st.order_from(st.seat_after(after, 1))
                   if s != d.last_player and s not in d.finished and self._holds(st, s) and s not in d.passed]
        if not waiting:
            self._flush(st, d)
            return
        d.to_play = waiting[0]

    def _start_turn(self, st: Board, d: ClaimData, seat: int) -> None:
        """A new turn from ``seat``, or from the next seat in the direction of play that still holds pieces."""
        start = next((s for s in st.order_from(seat % st.rs.seats.count)
                      if s not in d.finished and self._holds(st, s)), seat)
        d.leader = d.to_play = start
        d.last_player = d.last_value = d.turn_value = None
        d.last_pieces = ()
        d.claims, d.passed, d.window = [], [], None

    def _open_window(self, st: Board, d: ClaimData, player: int, after: str) -> None:
        """Ask the seats that may challenge ``player``'s claim, in priority order (none: no window)."""
        d.window = self._responders(st, d, player) or None
        d.asked_after = after

    def _responders(self, st: Board, d: ClaimData, player: int) -> list[int]:
        step = 1 if self.order == ORDERS[0] else -1
        n = st.rs.seats.count
        out = []
        for k in range(1, n):
            s = (player + step * k) % n
            if s in st.active and s not in d.finished and (self._may(st, s) or self._call_moves(st, s)):
                out.append(s)
        return out

    def _may(self, st: Board, seat: int) -> bool:
        """Whether ``seat`` may challenge the last claim (``challenge.when``)."""
        if self.may_challenge is None:
            return True
        st.ctx.seat = seat
        return bool(self.may_challenge(st.ctx))

    def _call_moves(self, st: Board, seat: int) -> list[Move]:
        """The named calls ``seat`` may make now (each ``call ID``)."""
        out = []
        for call in self.calls:
            st.ctx.seat = seat
            if call.when is None or call.when(st.ctx):
                out.append(st.rs.moves.get("call", (), call.id))
        return out

    def _holds(self, st: Board, seat: int) -> bool:
        """Whether ``seat`` still takes turns: it holds pieces (or, where nobody goes out, always)."""
        return self.goes_out == "never" or bool(st.hand(seat))

    def _survived(self, st: Board, d: ClaimData, seat: int) -> None:
        """The seat's last play survived: with an empty hand it is now out."""
        if self.goes_out == "never" or st.hand(seat) or seat in d.finished:
            return
        d.finished.append(seat)
        place = len(d.finished)
        if self.places >= 0:
            st.vars[self.places][seat] = place
        st.history.append({"type": "out", "seat": seat, "place": place})

    def _check_end(self, st: Board, d: ClaimData) -> bool:
        left = [s for s in st.active if s not in d.finished]
        if len(left) > 1:
            return False
        for s in left:
            d.finished.append(s)
            if self.places >= 0:
                st.vars[self.places][s] = len(d.finished)
            st.history.append({"type": "out", "seat": s, "place": len(d.finished)})
        d.done = True
        return True

    # ------------------------------------------------------------------ judging claims (for agents)
    def would_hold(self, st: Board, value: str, claimant: int, call: str = "challenge") -> bool:
        """Whether, in ``st`` (a world an agent samples), a claim of ``value`` by ``claimant`` with no pieces
        would be true (``call`` 'challenge'), or a named call against it would be right. Only for a claim
        whose truth is an expression (``claim.truth``); the state is left as it was."""
        assert self.truth is not None
        d: ClaimData = st.pdata
        saved = (d.last_player, d.last_value, d.last_pieces)
        d.last_player, d.last_value, d.last_pieces = claimant, value, ()
        try:
            st.ctx.seat = st.to_act
            found = next((c for c in self.calls if c.id == call), None)
            return bool(self.truth(st.ctx) if found is None else found.holds(st.ctx))
        finally:
            d.last_player, d.last_value, d.last_pieces = saved

    # ------------------------------------------------------------------ what may be claimed
    def allowed_values(self, st: Board, d: ClaimData, seat: int) -> list[str]:
        vals = self.values
        if d.previous is None and self.start is not None:
            cand = [self.start]
        elif self.rule == "same_as_turn" and d.turn_value is not None:
            cand = [d.turn_value]
        elif self.rule == "higher" and d.previous is not None:
            cand = self._later(d.previous)
        elif self.rule in ("rising", "falling", "one_up_or_down") and d.previous in self._where:
            i, n = self._where[d.previous], len(vals)
            up, down = vals[(i + 1) % n], vals[(i - 1) % n]
            cand = {"rising": [up], "falling": [down]}.get(self.rule, list(dict.fromkeys([up, down])))
        else:
            cand = list(vals)
        if self.allow is not None:
            ctx = st.ctx
            ctx.seat = seat
            kept = []
            for v in cand:
                ctx.extra["value"] = v
                if self.allow(ctx):
                    kept.append(v)
            ctx.extra.pop("value", None)
            cand = kept
        return cand

    def _later(self, value: str) -> list[str]:
        """The values after ``value`` in the order (``higher``): an ordered set's places, else the list's."""
        if self.ordered is not None:
            return self.ordered.later(value)
        return self.values[self._where.get(value, -1) + 1:]

    def count_range(self, st: Board, seat: int) -> tuple[int, int]:
        st.ctx.seat = seat
        hand = len(st.hand(seat))
        lo = int(self.count_min(st.ctx)) if self.count_min is not None else 1
        hi = int(self.count_max(st.ctx)) if self.count_max is not None else hand
        return max(lo, 0), min(hi, hand)

    def _may_pass(self, d: ClaimData) -> bool:
        return self.passing and d.last_player is not None

    def _turn_moves(self, st: Board, d: ClaimData, seat: int) -> ClaimMoves:
        lo, hi = self.count_range(st, seat)
        vmax = {v: hi if self.over_claims else min(hi, self.totals.get(v, 0))
                for v in self.allowed_values(st, d, seat)}
        extra: tuple[Move, ...] = ()
        if self.asked == "on_turn" and d.last_player is not None:  # challenge the last claim instead of claiming
            extra = (*([st.rs.moves.get("challenge")] if self._may(st, seat) else []), *self._call_moves(st, seat))
        return ClaimMoves(st, seat, self._may_pass(d), vmax, lo, extra)

    # ------------------------------------------------------------------ explanations and views
    def explain(self, st: Board, verb: str, value: str, piece_ids: list[str]) -> str:
        d: ClaimData = st.pdata
        seat = st.to_act
        assert seat is not None
        answers = " or ".join(f"'{m.text}'" for m in self.legal(st)) if d.window else ""
        if d.window and verb != "call":
            if d.asked_after == "pass":
                return (f"{self._claim_text(d)} may still be challenged (until the next claim or the flush): "
                        f"answer {answers}")
            return f"seat {d.last_player} has just claimed {self._claimed(d)}: answer {answers}"
        on_turn = self.asked == "on_turn" and d.last_player is not None
        your_turn = "it is your turn to claim" + (" or pass" if self._may_pass(d) else "") + \
            (" or challenge" if on_turn else "")
        if verb == "call":
            return self._why_no_call(st, d, seat, value, your_turn)
        if verb == "challenge":
            if on_turn:  # (the seat may not challenge: challenge.when refused it)
                return f"you may not challenge {self._claim_text(d)}; {your_turn}"
            return f"{self._why_no_challenge(d)}; {your_turn}"
        if verb == "accept":
            return f"there is no claim to answer now: {your_turn}"
        if verb == "pass":
            if d.last_player is None:
                return "you hold the initiative: you must make the turn's first claim"
            return "passing is not allowed: you must claim" + (" or challenge" if on_turn else "")
        if verb != "claim":
            return f"in a claims round you claim{' or pass' if self._may_pass(d) else ''}: " \
                   f"{describe_legal(list(itertools.islice(self.legal(st), 8)))}"
        return self._explain_claim(st, d, seat, value, piece_ids)

    def _claim_text(self, d: ClaimData) -> str:
        return f"seat {d.last_player}'s claim of {self._claimed(d)}"

    def _claimed(self, d: ClaimData) -> str:
        """The last claim as words: ``2 x 7`` (two pieces claimed to be sevens), or its value alone."""
        return f"{len(d.last_pieces)} x {d.last_value}" if d.last_pieces or self.truth is None else str(d.last_value)

    def _why_no_call(self, st: Board, d: ClaimData, seat: int, value: str, your_turn: str) -> str:
        call = next((c for c in self.calls if c.id == value), None)
        if call is None:
            known = ", ".join(f"'call {c.id}'" for c in self.calls)
            return f"there is no call '{value}' here" + (f" (the calls are {known})" if known else "")
        if d.last_player is None:
            return f"there is no claim to call {value} yet; {your_turn}"
        if self.asked == "after_claim" and not d.window:
            return f"a call answers a claim when it is made; {your_turn}"
        why = call.message or f"'call {value}' is not allowed now"
        return why + (f"; {your_turn}" if not d.window else "")

    def _why_no_challenge(self, d: ClaimData) -> str:
        """Why the seat on turn may not challenge: what ended the chance, in terms of ``challenge.until``."""
        limit = ("only in the response window right after it is made" if self.until == "response"
                 else "only until the next claim or the flush")
        if d.last_player is None:
            why = {"flush": f"the last pile was removed unseen when everyone passed, and a claim can be "
                            f"challenged {limit}",
                   "challenge": "the last challenge ended the turn"}.get(d.ended, "no claim has been made yet")
            return f"there is no claim to challenge: {why}"
        if self.until == "response":
            return f"{self._claim_text(d)} was let stand: a claim can be challenged {limit}"
        return (f"you let {self._claim_text(d)} stand when asked just now; every seat is asked again "
                f"after each pass, until the next claim or the flush")

    def _explain_claim(self, st: Board, d: ClaimData, seat: int, value: str, piece_ids: list[str]) -> str:
        _held, missing = pieces_held(st, seat, piece_ids)
        if missing is not None:
            return f"you do not hold {missing}"
        if value not in self._where:
            what = f"a {self.attribute}" if self.attribute else "a value a claim may name"
            return f"'{value}' is not {what}; a claim names one of {clip(', '.join(self.values), 300)}"
        allowed = self.allowed_values(st, d, seat)
        if value not in allowed:
            return self._why_value(d, allowed, value)
        lo, hi = self.count_range(st, seat)
        n = len(piece_ids)
        if n < lo:
            return f"a play has at least {lo} piece{'s' if lo != 1 else ''}"
        if n > hi:
            return f"a play has at most {hi} piece{'s' if hi != 1 else ''}"
        if not self.over_claims and n > self.totals[value]:
            return (f"only {self.totals[value]} pieces of {self.attribute} {value} exist: "
                    f"over-claims are not allowed")
        return f"not allowed; you may: {describe_legal(list(itertools.islice(self.legal(st), 8)))}"

    def _why_value(self, d: ClaimData, allowed: list[str], value: str) -> str:
        which = " or ".join(allowed) if allowed else "nothing"
        if d.previous is None and self.start is not None:
            return f"the first claim must be {self.start}"
        if self.rule == "same_as_turn" and d.turn_value is not None:
            return f"this turn's claim is {d.turn_value}: every play of the turn must claim {d.turn_value}"
        if self.rule == "rising":
            return f"claims rise: after {d.previous} the claim must be {which}"
        if self.rule == "falling":
            return f"claims fall: after {d.previous} the claim must be {which}"
        if self.rule == "one_up_or_down":
            return f"a claim is one up or one down from the last: after {d.previous} it must be {which}"
        if self.rule == "higher" and d.previous is not None and value not in self._later(d.previous):
            nearest = ", ".join(allowed[:3]) + (" ..." if len(allowed) > 3 else "")
            return f"claims rise: after {d.previous} a claim must come later in the order (the next: {nearest})"
        return self.allow_message

    def public_view(self, st: Board) -> dict[str, Any]:
        """What every seat sees of the round: the claims on the pile, never the pieces under them.

        A claim about hidden state (no ``attribute``: judged by ``claim.truth``, putting nothing down) is
        shown without what only pieces put down mean (counts, the pile, the totals of a value)."""
        d: ClaimData = st.pdata
        pieces = bool(self.attribute)
        out: dict[str, Any] = {
            "turn_value": d.turn_value,
            "previous": d.previous,
            "claims": [{"seat": s, "value": v, "count": n} if pieces else {"seat": s, "value": v}
                       for s, v, n in d.claims],
            "last_player": d.last_player,
            "passed": list(d.passed),
            "finished": list(d.finished),
            "reveals": [dict(r) for r in d.reveals],
        }
        if pieces:
            out.update({"attribute": self.attribute, "pile": len(st.zones[st.zone_instance(self.pile)]),
                        "removed": len(st.zones[st.zone_instance(self.removed)])})
        if self.asked == "after_claim":
            out["challenge_until"] = self.until
        else:
            out["challenge_asked"] = self.asked
        if d.done:
            return out
        if d.window or (self.until == "next_play" and self.asked == "after_claim" and d.last_player is not None):
            out["challengeable"] = {"seat": d.last_player, "value": d.last_value, "count": len(d.last_pieces)}
        if d.window:
            out["responding"] = d.window[0]
            out["asked_after"] = d.asked_after
        else:
            out.update({"to_play": d.to_play, "may_claim": self.allowed_values(st, d, d.to_play),
                        "may_pass": self._may_pass(d)})
            if pieces:
                lo, hi = self.count_range(st, d.to_play)
                out.update({"counts": [lo, hi], "over_claims": self.over_claims, "totals": dict(self.totals)})
        return out
