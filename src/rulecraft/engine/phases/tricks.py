"""Trick rounds: lead a combination, the others follow with as many pieces, the best face-up play wins.

How following works is two settings:

- ``face_up``: ``any`` (any play of the lead's size, as in suit-following games) or ``beating``
  (a face-up play must beat the best play so far).
- ``face_down``: ``never``, ``when_cannot_beat`` (compulsory beating: discard face down only when no
  beating play exists) or ``always`` (free following).

Restrictions narrow the lead and the follow (see ``Restriction``). A restriction that removes a play
that would have beaten the best play so far is recorded on the round (``barred('id')``), so payment
rules can ask whether a round was won only thanks to it. A round is worth ``value`` tricks (by
default the number of pieces led); its pieces go to the winner's capture zone (the winner's own
pieces optionally to a separate one).

With ``free`` (``trick_free.py``) a follower may also play as many pieces face up that form no
combination, holding as many pieces of the kind ``prefer`` names as it can; such a play wins nothing.

A phase may also say what follows when a play that broke a follow restriction is found (``revoke``:
a revoke, a renege). The engine never offers such a play, but a game recorded at a table may hold
one: the move ``revoke PIECES`` is accepted then (``breach``), played face up like any other, shown
to the other seats as a plain ``play`` until the round ends, and found when it does: the
``revoke`` effects run then, once per such play, with ``seat`` the seat that made it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast, overload

from rulecraft.dsl import CompiledExpr, Scope, T
from rulecraft.engine.combos import (
    NOT_KNOWN,
    ComboSpec,
    FaceDownPlays,
    Play,
    enumerate_all,
    may_have,
    single_plays,
)
from rulecraft.engine.context import piece_scope
from rulecraft.engine.effects import Effect, compile_effects, run_effects
from rulecraft.engine.moves import Move, MoveBook
from rulecraft.engine.phases.base import Phase, describe_legal, pieces_held, seat_of
from rulecraft.engine.phases.trick_composite import CompositeLead
from rulecraft.engine.phases.trick_free import FreeFollowing, FreePlays, FreeSets
from rulecraft.engine.readings import offered, overlapping, reading_name
from rulecraft.errors import IllegalMoveError
from rulecraft.rules.located import pos_of

if TYPE_CHECKING:
    from rulecraft.engine.board import Board
    from rulecraft.engine.builder import Builder
    from rulecraft.engine.equipment import Equipment

FACE_UP = ("any", "beating")
FEW_SETS = 12  # face-down sets a decision lists outright; more are offered through WithFaceDown
FACE_DOWN = ("never", "when_cannot_beat", "always")


@dataclass(frozen=True, slots=True)
class Restriction:
    """``when`` says whether it applies to a candidate play, ``allow`` whether the play passes.

    With ``if_able`` the restriction lapses when no candidate it applies to would pass (e.g. "may
    not lead an old card, unless holding only old cards").
    """

    id: str
    when: CompiledExpr | None
    allow: CompiledExpr
    if_able: bool
    message: str
    when_per_play: bool = True  # False when `when` does not read the candidate: evaluated once
    compel: bool = False  # climbing rounds: a seat one of whose plays it lets through may not pass


@dataclass(slots=True)
class TrickData:
    leader: int
    round_no: int = 1
    order: Sequence[int] = ()  # who plays this round, in turn (never changed in place: clones share it)
    seats: list[int] = field(default_factory=list)  # who made each play
    plays: list[Play] = field(default_factory=list)
    classes: list[Any] = field(default_factory=list)
    strengths: list[Any] = field(default_factory=list)
    best: int = -1
    barred: set[str] = field(default_factory=set)
    last: bool = False
    winner: int | None = None
    value: Any = 0
    ended: bool = False
    # What the seat to act may do, computed once per decision (legal moves, then the chosen move's
    # play); never mutated, so clones share it.
    options: Options | None = None
    # Plays this round that broke a follow restriction (a game recorded at a table): (seat, play,
    # restriction id), found when the round ends. A tuple, replaced when one is added: clones share it.
    revokes: tuple[tuple[int, Play, str], ...] = ()

    def copy(self) -> TrickData:
        return TrickData(self.leader, self.round_no, self.order, list(self.seats), list(self.plays),
                         list(self.classes), list(self.strengths), self.best, set(self.barred), self.last,
                         self.winner, self.value, self.ended, self.options, self.revokes)


class Options:
    """The decision of one seat in a round: its legal moves and the play behind each.

    Never changed once made (clones share it); a plain class because one is made per decision.
    """

    __slots__ = ("barred", "moves", "plays")
    # Whether the plays form no combination (face up where nothing may go face down: ``FreeOptions``):
    # the generated plays (trick_code, combo_code) leave such a play to the generic path.
    free = False

    def __init__(self, moves: list[Move], plays: Sequence[Play | None], barred: frozenset[str]) -> None:
        self.moves = moves  # a list, or a WithFaceDown sequence (then ``plays`` covers only its head)
        self.plays = plays  # the play behind each move (None for 'stop')
        self.barred = barred  # restrictions that refused a play that would have beaten the best

    def play_of(self, move: Move) -> Play | None:
        """The play behind a legal move."""
        moves = self.moves
        if type(moves) is list:  # (the usual case; an isinstance test of the ABC below costs more)
            return self.plays[moves.index(move)]
        if isinstance(moves, WithFaceDown):
            return moves.play_at(moves.index(move))
        return self.plays[moves.index(move)]

    def each_play(self) -> Iterator[tuple[Move, Play | None]]:
        """Every legal move with the play behind it (face-down sets are made as they are read)."""
        moves = self.moves
        if isinstance(moves, WithFaceDown):
            for i in range(len(moves)):
                yield moves[i], moves.play_at(i)
        else:
            yield from zip(moves, self.plays, strict=True)


class FreeOptions(Options):
    """A follow's decision among plays that form no combination (``Tricks._free_follows``)."""

    __slots__ = ()
    free = True


class WithFaceDown(Sequence[Move]):
    """A decision's legal moves when it offers face-down sets: the listed moves first, then one move per
    set of pieces, the set's play and move made only when that move is read.

    A follow that may go face down offers every set of as many pieces as were led (dozens), and a
    random playout reads one of them; the order, and so every seeded game, is the list's. Free follows
    (``trick_free.FreeSets``, hundreds of thousands) are offered the same way, face up (``down`` makes
    them face up: their moves are ``play``).
    """

    __slots__ = ("book", "down", "head", "head_plays", "sets", "verb")

    def __init__(self, head: list[Move], head_plays: list[Play | None], sets: Sequence[tuple[int, ...]],
                 down: FaceDownPlays, book: MoveBook) -> None:
        self.head, self.head_plays, self.sets, self.down, self.book = head, head_plays, sets, down, book
        self.verb = "play" if down.face_up else "down"

    def __len__(self) -> int:
        return len(self.head) + len(self.sets)

    @overload
    def __getitem__(self, i: int) -> Move: ...
    @overload
    def __getitem__(self, i: slice) -> list[Move]: ...

    def __getitem__(self, i: int | slice) -> Move | list[Move]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        play = self.play_at(i)
        if play is None:
            return self.head[i]  # 'stop'
        move = play.move
        if move is None:
            move = play.move = self.book.get(self.verb, play.pieces)
        return move

    def play_at(self, i: int) -> Play | None:
        n = len(self.head)
        if i < 0:
            i += len(self)
        if 0 <= i < n:
            return self.head_plays[i]
        if not n <= i < len(self):
            raise IndexError(i)
        return self.down.play(self.sets[i - n])

    def __iter__(self) -> Iterator[Move]:
        for i in range(len(self)):
            yield self[i]

    def index(self, move: Any, start: int = 0, stop: int | None = None) -> int:
        if isinstance(move, Move):
            if move.verb == self.verb:
                try:
                    i = len(self.head) + self.sets.index(move.pieces)
                except ValueError:
                    i = -1
                if i >= 0 and self[i] == move:
                    return i
            if move in self.head:  # (a face-up set's verb is also the other plays')
                return self.head.index(move)
        raise ValueError(f"{move!r} is not legal here")

    def __contains__(self, move: object) -> bool:
        try:
            self.index(move)
        except ValueError:
            return False
        return True

    def find(self, verb: str, value: str, type_ids: list[str]) -> Move | None:
        """The legal move written this way (pieces by type id, in any order), or None: what reading every
        move would find, a set looked up by its piece types (``parse_move``)."""
        pieces = self.down.pieces
        want = sorted(type_ids)
        for m in self.head:
            if m.verb == verb and m.value == value and sorted(pieces.type_id(p) for p in m.pieces) == want:
                return m
        if verb != self.verb or value or any(t not in pieces.by_type_id for t in type_ids):
            return None
        types = sorted(pieces.by_type_id[t] for t in type_ids)
        type_of = pieces.type_of
        if isinstance(self.sets, FreeSets):
            found = self.sets.find_types(types)
        else:  # (face-down sets: dozens, listed)
            found = next((s for s in self.sets if sorted(type_of[p] for p in s) == types), None)
        return None if found is None else self[len(self.head) + self.sets.index(found)]

    def lowest(self, key: Callable[[int], Any]) -> Move | None:
        """Of free follows (``FreeSets``), the move whose freely chosen pieces are the lowest by ``key``
        (an agent's weakest or strongest without reading every set); None for face-down sets."""
        if not isinstance(self.sets, FreeSets):
            return None
        found = self.sets.lowest(key)
        return None if found is None else self[len(self.head) + self.sets.index(found)]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence) and not isinstance(other, str):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]


# A decision's face-down plays: (plays, sets), the plays made when they are few, else the sets of pieces
# (offered through ``WithFaceDown``); one of the two is empty. A plain tuple: one is made per follow.
Downs = tuple[list["Play"], list[tuple[int, ...]]]
NO_DOWNS: Downs = ([], [])


def trick_scope(parent: Scope) -> Scope:
    """Names readable in trick rounds: the lead, the candidate play, the round's outcome.

    (``ctx.st.pdata`` is the round's TrickData. Names given as ``code`` are read inline by generated
    code, without a getter call: they are read at every decision.)
    """
    s = Scope(parent=parent, name="trick round")
    s.add_name("seat", T.SEAT, code="ctx.seat", doc="the seat playing (or being asked about)")
    s.add_name("leader", T.SEAT, code="ctx.st.pdata.leader", doc="the seat that leads this round")
    s.add_name("is_lead", T.BOOL, code="not ctx.st.pdata.plays", doc="whether the play is the lead")
    s.add_name("lead", T.LIST, getter=lambda c: list(c.st.pdata.plays[0].pieces) if c.st.pdata.plays else [],
               doc="the pieces led this round (empty before the lead)")
    s.add_name("led", T.PIECE, code="ctx.st.pdata.plays[0].pieces[0] if ctx.st.pdata.plays else None",
               doc="the first piece led this round")
    s.add_name("lead_combo", T.STRING, code="ctx.st.pdata.plays[0].combo if ctx.st.pdata.plays else None",
               doc="the combination led this round ('none' for a face-down lead)")
    s.add_name("round_number", T.NUMBER, code="ctx.st.pdata.round_no", doc="1 for the hand's first round")
    s.add_name("last_round", T.BOOL, code=_LAST_ROUND, item_code=_LAST_ROUND_ITEM,
               doc="whether this round empties every hand")
    s.add_name("best", T.SEAT, code="ctx.st.pdata.seats[ctx.st.pdata.best] if ctx.st.pdata.best >= 0 else None",
               doc="the seat with the best face-up play so far")
    s.add_name("best_combo", T.STRING,
               code="ctx.st.pdata.plays[ctx.st.pdata.best].combo if ctx.st.pdata.best >= 0 else None",
               doc="the combination of the best play so far")
    s.add_name("best_play", T.LIST, elem=T.PIECE,
               getter=lambda c: list(c.st.pdata.plays[c.st.pdata.best].pieces) if c.st.pdata.best >= 0 else [],
               doc="the pieces of the best play so far (in a climbing round: the play to beat)")
    s.add_name("best_class", T.ANY,
               code="ctx.st.pdata.classes[ctx.st.pdata.best] if ctx.st.pdata.best >= 0 else None",
               doc="the class of the best play so far (in a climbing round: the play to beat)")
    s.add_name("best_strength", T.NUMBER,
               code="ctx.st.pdata.strengths[ctx.st.pdata.best] if ctx.st.pdata.best >= 0 else None",
               doc="the strength of the best play so far (in a climbing round: the play to beat)")
    s.add_name("trick_winner", T.SEAT, code="ctx.st.pdata.winner", doc="the seat that won the round")
    s.add_name("trick_value", T.NUMBER, code="ctx.st.pdata.value", doc="how many tricks the round is worth")
    s.add_name("round_pieces", T.LIST, getter=lambda c: [p for pl in c.st.pdata.plays for p in pl.pieces],
               doc="every piece played this round")
    s.add_function("played_by", params=[T.SEAT], returns=T.LIST,
                   impl=lambda c, x: [p for st_, pl in zip(c.st.pdata.seats, c.st.pdata.plays, strict=True)
                                      if st_ == x for p in pl.pieces],
                   doc="the pieces a seat played this round")
    s.add_function("face_up_by", params=[T.SEAT], returns=T.BOOL,
                   impl=lambda c, x: any(st_ == x and pl.face_up for st_, pl in
                                         zip(c.st.pdata.seats, c.st.pdata.plays, strict=True)),
                   doc="whether a seat played face up this round")
    s.add_function("barred", params=[T.STRING], returns=T.BOOL, impl=lambda c, rid: rid in c.st.pdata.barred,
                   doc="whether the restriction with this id barred a play that would have beaten the best")
    # The candidate play (or, in round-end effects, the lead): per item when a restriction judges
    # many candidates at once (CompiledExpr.select, dsl/itemloop.py).
    s.item_slot = "combo"
    s.add_name("combo", T.STRING, code="ctx.combo.combo if ctx.combo else None",
               doc="the combination of the play being considered", item_code="_it.combo")
    s.add_name("size", T.NUMBER, getter=lambda c: len(c.combo.pieces) if c.combo else 0,
               doc="how many pieces the play has", item_code="_it.size")
    s.add_name("piece", T.PIECE, code="ctx.combo.pieces[0] if ctx.combo else None",
               doc="the play's (first) piece", item_code="_it.pieces[0]")
    s.add_name("play", T.LIST, getter=lambda c: list(c.combo.pieces) if c.combo else [],
               doc="the pieces of the play being considered", per_item=True)
    s.add_name("top", T.ANY, code="ctx.combo.key if ctx.combo else None",
               doc="a run's highest value, or the shared value of n-of-a-kind", item_code="_it.key")
    s.add_name("bottom", T.ANY, getter=lambda c: c.combo.low if c.combo and c.combo.low is not None
               else (c.combo.key if c.combo else None), doc="a run's lowest value", per_item=True)
    s.add_name("group", T.ANY, code="ctx.combo.group if ctx.combo else None",
               doc="the group value a run shares (its suit)", item_code="_it.group")
    s.add_name("kickers", T.LIST, getter=lambda c: list(c.combo.kickers) if c.combo else [], elem=T.PIECE,
               doc="the pieces the play carries as kickers (empty for a combination without)", per_item=True)
    s.add_name("entry", T.STRING, code="ctx.combo.entry if ctx.combo else None",
               doc="the table entry a play matched", item_code="_it.entry")
    s.add_name("entry_class", T.ANY, code="ctx.combo.entry_cls if ctx.combo else None",
               doc="the class the play's table entry gives it (for a class expression that adjusts it)",
               item_code="_it.entry_cls")
    s.add_name("entry_strength", T.NUMBER, code="ctx.combo.entry_strength if ctx.combo else None",
               doc="the strength the play's table entry gives it", item_code="_it.entry_strength")
    s.add_name("lead_entry", T.STRING, code="ctx.st.pdata.plays[0].entry if ctx.st.pdata.plays else None",
               doc="the table entry the lead matched (none before the lead, or for other kinds)")
    s.add_name("best_entry", T.STRING,
               code="ctx.st.pdata.plays[ctx.st.pdata.best].entry if ctx.st.pdata.best >= 0 else None",
               doc="the table entry of the best play so far (after the round: the winning play)")
    return s


# The names of the trick scope that describe the candidate play and nothing else.
PLAY_NAMES = frozenset({"combo", "size", "piece", "play", "top", "bottom", "group", "entry", "entry_class",
                        "entry_strength", "kickers"})
_GAME_READS = re.compile(r"ctx\.st\b|\b_memo\(|\b_f\d+\(")


def play_alone(expr: CompiledExpr) -> bool:
    """Whether a compiled expression's value depends on the play being considered alone (and constants).

    It reads no name but the play's (``PLAY_NAMES``; not the seat, the lead, a variable) and nothing of
    the game through a function: no call of a game function (``_f``), inlined or remembered, in its code.
    """
    reads = getattr(expr, "reads", None)
    source = getattr(expr, "python", None)
    return (reads is not None and source is not None and reads <= PLAY_NAMES
            and _GAME_READS.search(source) is None)


# ``last_round``: after the lead, whether the lead emptied the leader's hand; before it, whether the play
# considered (by the seat asked about, else the leader) would empty its player's hand. As code (no
# builtins: ``__len__``) read inline, and per candidate of the item ``_it``.
_HAND_LEN = ("ctx.st.zones[ctx.st.rs.hand_base + ctx.seat if ctx.seat is not None"
             " else ctx.st.rs.hand_base + ctx.st.pdata.leader].__len__()")
_LAST_ROUND = f"ctx.st.pdata.last if ctx.st.pdata.plays else ctx.combo is not None and {_HAND_LEN} == ctx.combo.size"
_LAST_ROUND_ITEM = f"ctx.st.pdata.last if ctx.st.pdata.plays else {_HAND_LEN} == _it.size"


class Tricks(Phase):
    kind = "tricks"
    counts_rounds = True

    def __init__(self, pid: str, pos: Any) -> None:
        super().__init__(pid, pos)
        self.combos: tuple[ComboSpec, ...] = ()
        self.combo_by_id: dict[str, ComboSpec] = {}
        self.first: CompiledExpr | None = None
        self.lead_rules: tuple[Restriction, ...] = ()
        self.follow_rules: tuple[Restriction, ...] = ()
        self.face_up = "any"
        self.face_down = "never"
        self.value: CompiledExpr | None = None
        self.capture_to = "won"
        self.own_to: str | None = None
        self.trick_zone = "trick"
        self.end_when: CompiledExpr | None = None
        self.stop_when: CompiledExpr | None = None
        self.on_round: tuple[Effect, ...] = ()
        self.on_lead: tuple[Effect, ...] = ()
        self.revoke: tuple[Effect, ...] | None = None  # effects when a revoke is found; None: none may be recorded
        self.track_barred = True  # the builder turns it off when no rule asks barred()
        self.must_beat_message = "you must beat the best play when you can"
        # Free follows (trick_free.py): whether they are offered, and which pieces they hold first.
        self.free = False
        self.free_prefer: CompiledExpr | None = None
        self._free: FreePlays | None = None  # made at first use
        # Composite leads (trick_composite.py): several combinations of one group led at once, checked after.
        self.composite: CompositeLead | None = None
        self._trick_zi = -1  # the trick zone's instance, looked up at first use
        self._round_end: tuple[dict[str | None, CompiledExpr | None], frozenset[str | None], list[int], int] \
            | None = None  # see _round_end_lookups: made at first use
        self._down: FaceDownPlays | None = None  # made at first use
        self._of_size: dict[int, tuple[ComboSpec, ...]] = {}  # the combinations that have plays of a size
        # The combinations whose class, and whose strength, depend on the play alone (``play_alone``):
        # a play's value is then worked out once and kept on the play (``Play.known_cls``).
        self._play_alone: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset())
        # Told the ids of the restrictions that refused a candidate, at each decision they did
        # (rule-coverage tools set it before play; the generated decision is not used then).
        self.observer: Callable[[set[str]], None] | None = None
        # The combinations that may make a play of the same pieces as another (``engine/readings.py``):
        # their plays' moves name the reading where a decision offers two. Worked out at first use.
        self._readings: frozenset[str] | None = None

    @classmethod
    def build(cls, b: Builder, rs: Equipment, raw: dict[str, Any], scope: Scope) -> Phase:
        t = cls(str(raw.get("id", "tricks")), pos_of(raw))
        tscope = rs.trick_scope
        assert tscope is not None
        what = f"trick phase '{t.id}'"
        names = raw.get("combinations", list(rs.combinations))
        combos = []
        for n in names:
            if b.ref(n, rs.combinations, "combination"):
                combos.append(rs.combinations[str(n)])
        if not combos:
            b.error(raw, "a trick phase needs at least one combination (e.g. a 'single')")
        for c in combos:
            if c.beats is not None:
                b.error(c.beats.pos, f"combination '{c.id}' says what it 'beats', which only a climbing round "
                                     f"reads; in {what} plays compare within their class")
        t.combos = tuple(combos)
        t.combo_by_id = {c.id: c for c in combos}
        t._play_alone = (frozenset(c.id for c in combos if c.cls is not None and play_alone(c.cls)),
                         frozenset(c.id for c in combos if c.strength is not None and play_alone(c.strength)))
        t.first = b.expr(raw.get("first", "0"), scope, T.NUMBER, f"{what} first leader")
        t.lead_rules = build_restrictions(b, raw.get("lead", {}).get("restrictions", ()), tscope, what)
        if "composite" in raw.get("lead", {}):
            t.composite = _build_composite(b, rs, raw["lead"]["composite"], t, tscope, what)
        follow = raw.get("follow", {})
        t.follow_rules = build_restrictions(b, follow.get("restrictions", ()), tscope, what)
        t.face_up = str(follow.get("face_up", "any"))
        t.face_down = str(follow.get("face_down", "never"))
        if t.face_up not in FACE_UP:
            b.error(follow.get("face_up"), f"face_up is one of {', '.join(FACE_UP)}, not '{t.face_up}'")
        if t.face_down not in FACE_DOWN:
            b.error(follow.get("face_down"), f"face_down is one of {', '.join(FACE_DOWN)}, not '{t.face_down}'")
        t.must_beat_message = str(follow.get("must_beat_message", t.must_beat_message))
        if "free" in follow:
            free = follow["free"] or {}
            t.free = True
            if t.face_up == "beating":
                b.error(follow["free"], "free follows win nothing, so a phase whose face-up follows must beat "
                                        "the best play (face_up: beating) cannot offer them")
            if "prefer" in free:
                t.free_prefer = b.expr(free["prefer"], piece_scope(tscope), T.BOOL, f"{what} free prefer")
        if "value" in raw:
            t.value = b.expr(raw["value"], tscope, T.NUMBER, f"{what} value")
        capture = raw.get("capture", {})
        t.capture_to = capture.get("to", "won")
        t.own_to = capture.get("own_to")
        t.trick_zone = raw.get("zone", "trick")
        for z in (t.capture_to, t.own_to):
            if z is not None:
                b.ref(z, rs.zone_by_name, "zone")
        b.shared_zone(t.trick_zone, rs.zone_by_name, "the zone a round is played to")
        if "end_when" in raw:
            t.end_when = b.expr(raw["end_when"], tscope, T.BOOL, f"{what} end_when")
        if "stop" in raw:
            t.stop_when = b.expr(raw["stop"].get("when", "true"), tscope, T.BOOL, f"{what} stop")
        t.on_round = compile_effects(b, rs, raw.get("on_round", ()), tscope, what)
        t.on_lead = compile_effects(b, rs, raw.get("on_lead", ()), tscope, what)
        if "revoke" in raw:
            t.revoke = compile_effects(b, rs, raw["revoke"].get("effects", ()), tscope, f"{what} revoke")
        return t

    # ------------------------------------------------------------------ flow
    def begin(self, st: Board) -> None:
        assert self.first is not None
        leader = seat_of(self.first, st.ctx, st.rs.seats.count, f"phase '{self.id}' first")
        st.pdata = TrickData(leader, 1, st.order_from(leader))

    def step(self, st: Board) -> bool:
        d: TrickData = st.pdata
        if d.ended:
            return False
        plays = d.plays
        if len(plays) == len(d.order):
            self._finish_round(st, d)
            if d.ended or st.signal:
                return False
            plays = d.plays
        if not plays and not st.zones[st.rs.hand_base + d.leader]:
            return False
        seat = st.to_act = d.order[len(plays)]
        st.ctx.seat = seat
        return True

    def _finish_round(self, st: Board, d: TrickData) -> None:
        # Run after every round of every hand: lookups that are the same every time are made once
        # (``_round_end``). A generated play (trick_code.py) ends its rounds itself, as this does.
        ctx = st.ctx
        plays = d.plays
        winner = d.seats[d.best] if d.best >= 0 else d.leader
        d.winner = winner
        lead = plays[0]
        ctx.combo = lead
        ctx.seat = winner
        ends = self._round_end
        if ends is None:
            ends = self._round_end = self._round_end_lookups(st)
        values, ends_play, captures, hand_base = ends
        value_expr = values.get(lead.combo, self.value)
        value = d.value = value_expr(ctx) if value_expr is not None else len(lead.pieces)
        st.tricks[winner] += value
        to_zi = captures[winner]
        if self.own_to is None:
            st.gather([p for play in plays for p in play.pieces], to_zi)
        else:
            own_zi = st.owned_instance(self.own_to, winner)
            for seat, play in zip(d.seats, plays, strict=True):
                st.gather(play.pieces, own_zi if seat == winner else to_zi)
        st.history.append({"type": "round", "winner": winner, "value": value})
        if self.on_round:
            run_effects(st, self.on_round)
            if st.signal:
                return
        if d.revokes:
            self._found(st, d)
            if st.signal:
                return
        if (lead.combo in ends_play or not st.zones[hand_base + winner]
                or (self.end_when is not None and self.end_when(ctx))):
            d.ended = True
            return
        d.leader = winner
        d.round_no += 1
        d.order = st.order_from(winner)
        d.seats, d.plays, d.classes, d.strengths = [], [], [], []
        d.best, d.last = -1, False
        if d.barred:
            d.barred = set()
        d.winner, d.value, d.options = None, 0, None
        if d.revokes:
            d.revokes = ()

    def _found(self, st: Board, d: TrickData) -> None:
        """The round's revokes are found (it has ended): each is told to the table, and its effects run."""
        ctx = st.ctx
        ids = st.rs.pieces.type_id
        ends = False
        for seat, play, rule in d.revokes:
            st.history.append({"type": "revoke", "seat": seat, "rule": rule,
                               "pieces": [ids(p) for p in play.pieces]})
            if self.revoke:
                ctx.seat, ctx.combo = seat, play
                run_effects(st, self.revoke)
                # Ending play is the round's outcome: every revoke of the round is still found first.
                if st.signal == "end_phase":
                    ends, st.signal = True, None
                elif st.signal:
                    return
        if ends:
            st.signal = "end_phase"

    def _round_end_lookups(self, st: Board) -> tuple[dict[str | None, CompiledExpr | None], frozenset[str | None],
                                                    list[int], int]:
        """What every round end looks up: each lead combination's value expression (absent: the
        phase's), the combinations whose lead ends play, each seat's capture zone, the hands' base."""
        values: dict[str | None, CompiledExpr | None] = {
            c.id: c.value for c in self.combos if c.value is not None}
        ends_play = frozenset(c.id for c in self.combos if c.ends_play)
        captures = [st.owned_instance(self.capture_to, s) for s in range(st.rs.seats.count)]
        return values, ends_play, captures, st.rs.hand_base

    # ------------------------------------------------------------------ options
    def _rate(self, st: Board, play: Play) -> tuple[Any, Any]:
        """The class and strength of a play made now by ``st.ctx.seat``."""
        cls = play.known_cls
        if cls is NOT_KNOWN:
            cls = self._cls_of(st.ctx, play)
        strength = play.known_strength
        if strength is NOT_KNOWN:
            strength = self._strength_of(st.ctx, play)
        return cls, strength

    def _cls_of(self, ctx: Any, play: Play) -> Any:
        """A play's class, worked out (and kept on the play when it depends on the play alone)."""
        spec = self.combo_by_id.get(play.combo or "")
        if spec is None:  # a free follow (trick_free): no class, it never beats; or a composite lead
            return self._composite_shape(st_of(ctx), play)[0] if self._is_composite(play) else None
        if spec.cls is not None:
            ctx.combo = play
            cls = spec.cls(ctx)
            if spec.id in self._play_alone[0]:
                play.known_cls = cls
            return cls
        cls = play.known_cls = play.entry_cls if play.entry is not None else (play.combo, len(play.pieces))
        return cls

    def _strength_of(self, ctx: Any, play: Play) -> Any:
        """A play's strength, worked out (and kept on the play when it depends on the play alone)."""
        spec = self.combo_by_id.get(play.combo or "")
        if spec is None:  # a free follow, or a composite lead
            return self._composite_shape(st_of(ctx), play)[1] if self._is_composite(play) else None
        if spec.strength is not None:
            ctx.combo = play
            strength = spec.strength(ctx)
            if spec.id in self._play_alone[1]:
                play.known_strength = strength
            return strength
        strength = play.known_strength = play.entry_strength
        return strength

    def _is_composite(self, play: Play) -> bool:
        return self.composite is not None and play.combo == self.composite.id

    def _beating(self, st: Board, d: TrickData, cands: list[Play]) -> list[Play]:
        """The plays of ``cands`` that would beat the best play so far (``_rate`` and ``_beats`` of each)."""
        if d.best < 0:
            return cands
        best_cls, best_strength = d.classes[d.best], d.strengths[d.best]
        ctx = st.ctx
        out = []
        for play in cands:
            cls = play.known_cls
            if cls is NOT_KNOWN:
                cls = self._cls_of(ctx, play)
            if cls != best_cls:
                continue  # (a strength is asked only of a play in the best play's class)
            strength = play.known_strength
            if strength is NOT_KNOWN:
                strength = self._strength_of(ctx, play)
            if strength > best_strength:
                out.append(play)
        return out

    def _beats(self, d: TrickData, cls: Any, strength: Any) -> bool:
        if d.best < 0:
            return True
        return bool(cls == d.classes[d.best] and strength > d.strengths[d.best])

    def readings(self, st: Board) -> frozenset[str]:
        """The combinations whose plays may be read another way (made once per phase)."""
        found = self._readings
        if found is None:
            found = self._readings = overlapping(self.combos, st.rs.pieces, st.ctx)
        return found

    def reading(self, st: Board, piece_ids: list[str], asked: str) -> str:
        """The reading a move of these pieces names (``engine/readings.py``): '' when the pieces form one
        combination, else the one ``asked`` for, or the first; IllegalMoveError for a reading they lack."""
        if not asked and not self.readings(st):
            return ""
        seat = st.to_act
        chosen, missing = pieces_held(st, seat, piece_ids) if seat is not None else ([], "them")
        if missing is not None:
            return asked  # (the move is refused for the pieces, by explain)
        if seat is not None:
            st.ctx.seat = seat  # (a combination may read the seat's hand)
        try:
            return reading_name(self.combos, chosen, st.rs.pieces, asked, st.ctx)
        except ValueError as exc:
            raise IllegalMoveError(f"{' '.join(piece_ids)}: {exc}") from None

    def _offered(self, st: Board, every: list[Play], allowed: list[Play]) -> tuple[list[Move], list[Play]]:
        """The moves of the allowed plays, a play of pieces read two ways named by its reading."""
        return offered(every, allowed, self.readings(st), st.rs.pieces, st.rs.moves, lambda p: self._move_of(st, p))

    def _lead_options(self, st: Board, seat: int) -> tuple[list[Play], dict[Play, Restriction], list[Play]]:
        """(the plays allowed, the restriction that removed each play refused, every play of the hand)."""
        hand = st.hand(seat)
        st.ctx.seat = seat
        cands = enumerate_all(self.combos, hand, st.rs.pieces, ctx=st.ctx)
        if self.composite is not None:
            cands += self.composite.offers(st, hand, lambda p: self._rate(st, p))
        allowed, removed = apply_restrictions(st, self.lead_rules, cands)
        if removed and self.observer is not None:
            self.observer({r.id for r in removed.values()})
        return allowed, removed, cands

    def _follow_options(
        self, st: Board, seat: int, lazily: bool = True
    ) -> tuple[list[Play] | FreeFollowing, Downs, dict[Play, Restriction], frozenset[str], list[Play]]:
        """(face-up plays, face-down plays, removed-by-restriction, ids of restrictions that barred a win,
        every play of the lead's size). The face-up plays are a ``FreeFollowing`` when the free plays are
        a ``FreeSets`` (trick_free): only the first of them is among those the restrictions judged."""
        d: TrickData = st.pdata
        hand = st.zones[st.rs.hand_base + seat]
        k = d.plays[0].size
        st.ctx.seat = seat
        combos = self._of_size.get(k)
        if combos is None:  # (a follow has the lead's size: most combinations have no play of it)
            combos = self._of_size[k] = tuple(c for c in self.combos if may_have(c, k))
        if len(combos) == 1 and combos[0].kind == "single":  # (the most common follow: one piece)
            cands = single_plays(combos[0], hand, st.rs.pieces)
        else:
            cands = enumerate_all(combos, hand, st.rs.pieces, k, st.ctx)
        lazy: FreeSets | None = None
        first: Play | None = None
        if self.free:
            free = self._free_plays(st, hand, k, cands, lazily)
            if isinstance(free, FreeSets):
                # Plays that differ only in pieces chosen freely: the first stands for all of them.
                if free:
                    lazy, first = free, self._free_made(st).play(free[0])
                    cands = [*cands, first]
            else:
                cands = cands + free
        pool = self._beating(st, d, cands) if self.face_up == "beating" else cands
        if self.follow_rules:
            allowed, removed = apply_restrictions(st, self.follow_rules, pool)
        else:
            allowed, removed = pool, {}
        if removed and self.observer is not None:
            self.observer({r.id for r in removed.values()})
        if first is not None and first in removed:  # refused: each judged on its own after all
            return self._follow_options(st, seat, lazily=False)
        # A restriction "barred" the round when it refused a play that would have beaten the best.
        barred = frozenset(r.id for r, p in ((removed[p], p) for p in pool if p in removed)
                           if self.face_up == "beating" or self._beats(d, *self._rate(st, p))
                           ) if self.track_barred and removed else frozenset()
        up: list[Play] | FreeFollowing = allowed
        if lazy is not None and allowed and allowed[-1] is first:  # (free plays are never able to beat)
            allowed = allowed[:-1]
            up = FreeFollowing(allowed, lazy, self._free_made(st))
        if self.face_down == "always":
            down = self._downs(st, hand, k)
        elif self.face_down == "when_cannot_beat":
            can_beat = allowed if self.face_up == "beating" else [
                p for p in allowed if self._beats(d, *self._rate(st, p))]
            down = NO_DOWNS if can_beat else self._downs(st, hand, k)
        else:
            down = NO_DOWNS
        if not up and not (down[0] or down[1]):
            if self.face_down == "never":  # nothing may go face down: face up, forming no combination
                up, refused = self._free_follows(st, hand, k)
                removed = {**removed, **refused}
            else:
                down = self._downs(st, hand, k)  # nothing else is possible: discard
        return up, down, removed, barred, cands

    def _free_follows(self, st: Board, hand: list[int], k: int
                      ) -> tuple[list[Play], dict[Play, Restriction]]:
        """The follows of ``k`` pieces from ``hand`` played face up forming no combination, which win nothing:
        what a seat that can form none plays where nothing may go face down (``face_down: never``); and
        the ones the follow restrictions refused. The restrictions narrow them as they narrow combinations
        (``if_able``: following suit when it can); should they refuse every one (a restriction that is not
        ``if_able``), every one is offered."""
        plays = cast(list[Play], self._free_plays(st, hand, k, []))
        if not self.follow_rules:
            return plays, {}
        allowed, removed = apply_restrictions(st, self.follow_rules, plays)
        if removed and self.observer is not None:
            self.observer({r.id for r in removed.values()})
        return (allowed, removed) if allowed else (plays, {})

    def _free_plays(self, st: Board, hand: list[int], k: int, cands: list[Play],
                    lazily: bool = False) -> list[Play] | FreeSets:
        """The free follows of ``k`` pieces (``trick_free``): none with the pieces of a combination's play.
        ``lazily``: as a ``FreeSets`` where the seat holds fewer preferred pieces than ``k``."""
        free = self._free
        if free is None:
            free = self._free = FreePlays(st.rs.pieces)
        type_of = st.rs.pieces.type_of
        taken = {tuple(sorted(type_of[p] for p in c.pieces)) for c in cands}
        prefer = self.free_prefer
        if prefer is None:
            return free.plays(hand, k, None, taken)
        ctx = st.ctx
        saved = ctx.piece

        def preferred(p: int) -> bool:
            ctx.piece = p
            return bool(prefer(ctx))
        try:
            sets = free.chosen_freely(hand, k, preferred, taken) if lazily else None
            return sets if sets is not None else free.plays(hand, k, preferred, taken)
        finally:
            ctx.piece = saved

    def _free_made(self, st: Board) -> FaceDownPlays:
        """The store the free plays are made in (one per phase and ruleset)."""
        free = self._free
        if free is None:
            free = self._free = FreePlays(st.rs.pieces)
        return free.made

    def _downs(self, st: Board, hand: list[int], k: int) -> Downs:
        """The face-down plays of ``k`` pieces from ``hand``: made when they are few, else as sets."""
        fd = self._down
        if fd is None:
            fd = self._face_down(st)
        if k == 1 and len(hand) <= FEW_SETS:
            return fd.ones(hand), []
        sets = fd.sets(hand, k)
        return (fd.plays(sets), []) if len(sets) <= FEW_SETS else ([], sets)

    def _options(self, st: Board) -> Options:
        d: TrickData = st.pdata
        opts = d.options
        if opts is not None:
            return opts
        # While the options are built nothing changes the state: a rule function asked again with the
        # same arguments (old(p) in several restrictions) gives what it gave. The memo is dropped
        # before anything can move (the options are kept in d.options, not the memo).
        ctx = st.ctx
        ctx.memo = {}
        try:
            opts = self._build_options(st, d)
        finally:
            ctx.memo = None
        d.options = opts
        return opts

    def _build_options(self, st: Board, d: TrickData) -> Options:
        seat = st.to_act
        assert seat is not None
        stop: Move | None = None
        if not d.plays:
            if self.stop_when is not None:
                st.ctx.seat, st.ctx.combo = seat, None
                if self.stop_when(st.ctx):
                    stop = st.rs.moves.get("stop")
            up, _removed, every = self._lead_options(st, seat)
            down = NO_DOWNS if up else self._downs(st, st.zones[st.rs.hand_base + seat], 1)
            barred: frozenset[str] = frozenset()
        else:
            allowed, down, _removed, barred, every = self._follow_options(st, seat)
            if isinstance(allowed, FreeFollowing):  # the free plays offered unlisted, after the others
                moves, up = self._offered(st, every, allowed.head)
                lazy = WithFaceDown(moves, list(up), allowed.sets, allowed.made, st.rs.moves)
                return (FreeOptions if not up else Options)(cast(list[Move], lazy), up, barred)
            up = allowed
        moves, up = self._offered(st, every, up)
        found: list[Play | None] = list(up)
        if stop is not None:
            moves.insert(0, stop)
            found.insert(0, None)
        downs, sets = down
        if sets:
            lazy = WithFaceDown(moves, found, sets, self._face_down(st), st.rs.moves)
            return Options(cast(list[Move], lazy), found, barred)
        if downs:
            found.extend(downs)
            moves.extend([p.move or self._move_of(st, p) for p in downs])
        return (FreeOptions if up and up[0].combo is None else Options)(moves, found, barred)

    def _composite_checked(self, st: Board, seat: int, play: Play) -> tuple[Play, Play | None]:
        """A composite lead checked against the other seats' hands (``trick_composite``): the play that
        is led (the composite, or the component it must lead instead) and the pieces taken back (None
        when it held). The outcome is told to the table."""
        comp = self.composite
        assert comp is not None
        outcome = comp.beaten(st, seat, play, lambda p: self._rate(st, p))
        comp.record(st, seat, play, outcome)
        if outcome is None:
            return play, None
        led = outcome[0]
        back = Play(comp.id, tuple(p for p in play.pieces if p not in led.pieces))
        return led, back

    def _composite_shape(self, st: Board, play: Play) -> tuple[Any, Any]:
        """(class, strength) of a composite lead or of a follow of one; (None, None) when it has no shape."""
        comp = self.composite
        assert comp is not None
        shape = comp.shape(st, play.pieces, lambda p: self._rate(st, p))
        return shape if shape is not None else (None, None)

    def _face_down(self, st: Board) -> FaceDownPlays:
        if self._down is None:
            self._down = FaceDownPlays(st.rs.pieces)
        return self._down

    @staticmethod
    def _move_of(st: Board, play: Play) -> Move:
        play.move = st.rs.moves.get("play" if play.face_up else "down", play.pieces)
        return play.move

    def legal(self, st: Board) -> list[Move]:
        return self._options(st).moves

    def _legal_moves(self, st: Board) -> list[Move]:
        """``legal``, as a subclass that overrides it may still decide (``decide``)."""
        return self._options(st).moves

    def breach(self, st: Board, verb: str, value: str, piece_ids: list[str]) -> Move | None:
        if verb != "revoke" or self.revoke is None:
            return None
        found = self._revoked(st, piece_ids)
        return st.rs.moves.get("revoke", found[0].pieces) if found is not None else None

    def _revoked(self, st: Board, piece_ids: list[str]) -> tuple[Play, str] | None:
        """The face-up follow of these pieces by the seat to act that a follow restriction refuses,
        with that restriction's id; None when the pieces are no such play (a lead, a legal play, a
        play of another size or no combination, pieces not held)."""
        d: TrickData = st.pdata
        seat = st.to_act
        if seat is None or not d.plays or not self.follow_rules:
            return None
        pieces = st.rs.pieces
        key = sorted(piece_ids)
        k = len(d.plays[0].pieces)
        if len(key) != k:
            return None
        st.ctx.seat = seat
        st.ctx.memo = {}  # (as while a decision's options are built: nothing moves meanwhile)
        try:
            # (every candidate, not only these pieces: an if_able restriction lapses or not by all of them)
            cands = enumerate_all(self.combos, st.hand(seat), pieces, k, st.ctx)
            pool = self._beating(st, d, cands) if self.face_up == "beating" else cands
            _allowed, removed = apply_restrictions(st, self.follow_rules, pool)
        finally:
            st.ctx.memo = None
        return next(((p, removed[p].id) for p in pool
                     if p in removed and sorted(pieces.type_id(x) for x in p.pieces) == key), None)

    def apply(self, st: Board, move: Move) -> bool:
        d: TrickData = st.pdata
        if move.verb == "stop":
            st.note_fired("stop")
            d.ended = True
            return False
        seat = st.to_act
        assert seat is not None
        if move.verb == "revoke":  # (parse_move accepted it as one: see breach)
            found = self._revoked(st, [st.rs.pieces.type_id(p) for p in move.pieces])
            assert found is not None
            play = found[0]
            d.revokes = (*d.revokes, (seat, play, found[1]))
            barred: frozenset[str] = frozenset()
        else:
            opts = d.options or self._options(st)  # legal_moves() made them (apply checks the move is legal)
            found_play = opts.play_of(move)
            assert found_play is not None
            play, barred = found_play, opts.barred
        face_up = play.face_up
        plays = d.plays
        failed = None
        if not plays:
            if self.composite is not None and play.combo == self.composite.id:
                play, failed = self._composite_checked(st, seat, play)
            d.last = len(st.zones[st.rs.hand_base + seat]) == play.size
        elif barred:
            d.barred |= barred
        d.options = None
        trick_zi = self._trick_zi
        if trick_zi < 0:
            trick_zi = self._trick_zi = st.zone_instance(self.trick_zone)
        ctx = st.ctx
        if face_up:
            # What st.put(p, trick_zi) does for a face-up piece, without a call per piece.
            zones, loc, face_down = st.zones, st.loc, st.face_down
            pile = zones[trick_zi]
            public = st.rs.public_instance[trick_zi]
            for p in play.pieces:
                old = loc[p]
                if old != trick_zi:
                    zones[old].remove(p)
                    pile.append(p)
                    loc[p] = trick_zi
                face_down[p] = 0
                if public:
                    st.seen_public[p] = 1
            ctx.seat = seat
            cls = play.known_cls
            if cls is NOT_KNOWN:
                cls = self._cls_of(ctx, play)
            strength = play.known_strength
            if strength is NOT_KNOWN:
                strength = self._strength_of(ctx, play)
            if self.composite is not None and plays and plays[0].combo == self.composite.id and play.combo is None:
                cls, strength = self._composite_shape(st, play)  # (a follow of a composite: its shape)
            best = d.best
            if (play.combo is not None or cls is not None) and (
                    best < 0 or (cls == d.classes[best] and strength > d.strengths[best])):
                d.best = len(plays)  # (a play forming no combination never does)
        else:
            for p in play.pieces:
                st.put(p, trick_zi, True, seat)
            cls, strength = None, None
        d.seats.append(seat)
        plays.append(play)
        d.classes.append(cls)
        d.strengths.append(strength)
        n = len(plays)
        if n == 1:
            lead_spec = self.combo_by_id.get(play.combo or "")
            if lead_spec is not None and lead_spec.ends_play:
                d.order = [seat]  # shown to end play: nobody follows
            if failed is not None and self.composite is not None and self.composite.penalty:
                ctx.seat, ctx.combo = seat, failed
                run_effects(st, self.composite.penalty)
                if st.signal or not self.on_lead:
                    return False  # (the flow steps the phase: the next seat, or what was signalled)
            if self.on_lead:
                ctx.seat, ctx.combo = seat, play
                run_effects(st, self.on_lead)
                return False  # the flow deals with what the effects signalled
        if n < len(d.order) and not d.ended:  # what step does in mid-round: the next seat plays
            seat = st.to_act = d.order[n]
            ctx.seat = seat
            return True
        return self.step(st)  # (when it returns False, stepping again returns False: it is done)

    # ------------------------------------------------------------------ explanations
    def explain(self, st: Board, verb: str, value: str, piece_ids: list[str]) -> str:
        d: TrickData = st.pdata
        seat = st.to_act
        assert seat is not None
        pieces = st.rs.pieces
        chosen, missing = pieces_held(st, seat, piece_ids)
        if missing is not None:
            return f"you do not hold {missing}"
        key = tuple(sorted(pieces.type_of[p] for p in chosen))

        def same(p: Play) -> bool:
            return tuple(sorted(pieces.type_of[x] for x in p.pieces)) == key

        if verb == "stop":
            return "you may not stop play now"
        if verb == "revoke":
            return self._not_revoke(d, piece_ids)
        if verb not in ("play", "down"):
            return f"in a trick round you play pieces: {describe_legal(self.legal(st))}"
        if not d.plays:
            if verb == "down":
                return "you must lead face up"
            _allowed, removed, _every = self._lead_options(st, seat)
            for refused, r in removed.items():
                if same(refused) and value in ("", refused.combo):
                    return r.message
            return (f"{' '.join(piece_ids)} is not a combination that may be led here "
                    f"({', '.join(c.id for c in self.combos)})")
        k = len(d.plays[0].pieces)
        if len(chosen) != k:
            return f"you must play {k} piece{'s' if k != 1 else ''}, as many as were led"
        up, down, removed, _, _every = self._follow_options(st, seat)
        listed = up.head if isinstance(up, FreeFollowing) else up  # (free plays never beat)
        if verb == "down" and not (down[0] or down[1]):
            beat = [p for p in listed if self._beats(d, *self._rate(st, p))]
            if self.face_down == "when_cannot_beat" and beat:
                names = " ".join(pieces.type_id(x) for x in beat[0].pieces)
                return f"{self.must_beat_message}: you hold {names}"
            return "pieces may not be played face down here"
        for refused, r in removed.items():
            if same(refused) and value in ("", refused.combo):
                return r.message
        if not any(same(p) for p in listed) and not (
                isinstance(up, FreeFollowing) and up.sets.find_types(key) is not None):
            best = d.plays[d.best] if d.best >= 0 else None
            best_txt = " ".join(pieces.type_id(x) for x in best.pieces) if best else "nothing"
            if self.face_up == "beating":
                return f"{' '.join(piece_ids)} does not beat the best play so far ({best_txt}); play face down"
            return f"{' '.join(piece_ids)} is not a combination that may be played here"
        return f"not allowed; you may: {describe_legal(self.legal(st))}"

    def _not_revoke(self, d: TrickData, piece_ids: list[str]) -> str:
        """Why ``revoke PIECES`` (a play against the follow rules, recorded at a table) is not accepted."""
        if self.revoke is None:
            return ("a revoke (a play against the follow rules) can be recorded only where the trick phase "
                    "says what follows from it ('revoke'); this one does not")
        if not d.plays:
            return "a revoke is a follow that broke a follow restriction; a lead is not one"
        k = len(d.plays[0].pieces)
        if len(piece_ids) != k:
            return f"you must play {k} piece{'s' if k != 1 else ''}, as many as were led"
        return f"{' '.join(piece_ids)} breaks no follow restriction here, so it is no revoke"


def build_restrictions(b: Builder, items: Any, scope: Scope, what: str) -> tuple[Restriction, ...]:
    """A phase's ``restrictions`` list compiled (the trick, climb and shed kinds share it)."""
    per_item = frozenset(n.name for n in scope.names() if n.per_item)
    out = []
    for i, r in enumerate(items or ()):
        rid = str(r.get("id", f"restriction-{i + 1}"))
        w = f"{what} restriction '{rid}'"
        when = b.expr(r["when"], scope, T.BOOL, w, select=True) if "when" in r else None
        out.append(Restriction(
            rid,
            when,
            b.expr(r["allow"], scope, T.BOOL, w, select=True),
            bool(r.get("if_able", False)),
            str(r.get("message", f"refused by the rule '{rid}'")),
            when is None or bool(getattr(when, "reads", per_item) & per_item),
            bool(r.get("compel", False)),
        ))
    return tuple(out)


def apply_restrictions(
    st: Board, rules: tuple[Restriction, ...], cands: list[Play]
) -> tuple[list[Play], dict[Play, Restriction]]:
    """Apply restrictions in order; returns the plays left and, for each removed play, the rule that removed it
    (by the play itself: two readings of the same pieces may be refused by different rules, or one not)."""
    ctx = st.ctx
    removed: dict[Play, Restriction] = {}
    for r in rules:
        if r.when is None:
            applies = cands
        elif not r.when_per_play:  # the condition is about the position, not the play: ask once
            applies = cands if r.when(ctx) else []
        else:
            applies = r.when.select(ctx, cands)
        if not applies:
            continue
        passing = r.allow.select(ctx, applies)
        if len(passing) == len(applies) or (r.if_able and not passing):
            continue
        kept = set(passing)
        failing = {p for p in applies if p not in kept}
        for p in failing:
            removed[p] = r
        cands = [p for p in cands if p not in failing]
    return cands, removed


def st_of(ctx: Any) -> Board:
    """The board an evaluation context reads."""
    return cast("Board", ctx.st)


def _build_composite(b: Builder, rs: Equipment, raw: dict[str, Any], t: Tricks, tscope: Scope,
                     what: str) -> CompositeLead | None:
    """A trick phase's ``lead.composite`` compiled (``trick_composite``)."""
    cid = str(raw.get("id", "composite"))
    w = f"{what} composite lead '{cid}'"
    of = []
    for n in raw.get("of", [c.id for c in t.combos]):
        if b.ref(n, t.combo_by_id, "combination of the phase"):
            of.append(t.combo_by_id[str(n)])
    if cid in rs.combinations:
        b.error(raw, f"{w}: its id names a combination; a composite lead needs an id of its own")
    together = b.expr(raw.get("together", "true"), piece_scope(tscope), T.ANY, f"{w} together")
    penalty = compile_effects(b, rs, raw.get("penalty", ()), tscope, f"{w} penalty")
    if not of:
        return None
    return CompositeLead(cid, tuple(of), together, penalty)
