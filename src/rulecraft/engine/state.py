"""A game in progress: a ``Board`` under a ``Ruleset``, with the API agents and people use.

The API has OpenSpiel's shape: ``legal_moves``, ``apply``, ``view``, ``clone``, ``is_over``,
``result``. The flow of play is here too: a match is hands until an end condition; a hand is the
ruleset's phases in order. Phases are explicit state machines (see ``phases.base.Phase``):
``advance`` runs automatic work (shuffles, deals, scoring) until some seat must decide, so after
every ``apply`` the state is either waiting on ``to_act`` or over. (A phase whose ``apply`` has
already set the next decision, with nothing automatic pending, says so, and ``advance`` is skipped.)
"""

from __future__ import annotations

import difflib
import itertools
import random
from typing import Any

from rulecraft.engine.board import NOBODY, Board
from rulecraft.engine.control import as_turn, hand_over
from rulecraft.engine.effects import run_effects
from rulecraft.engine.moves import VERBS_WITH_READING, Move, UnknownVerb, split_move_text
from rulecraft.engine.phases.base import rule_failed
from rulecraft.engine.ruleset import Ruleset
from rulecraft.engine.views import LEGAL_LISTED, board_view
from rulecraft.errors import IllegalMoveError, clip

VERB_SCAN = 5000  # legal moves read to say which verbs a decision takes (a claim set can be huge)


class State(Board):
    """One game in progress. Use ``Game.new_state()`` to make one; agents get clones."""

    __slots__ = ()
    rs: Ruleset

    def __init__(self, rs: Ruleset, seed: int) -> None:
        super().__init__(rs, seed)
        assert rs.match is not None
        self.hand_limit = rs.match.max_hands  # a safety bound on the match; a game may ask for less

    # ----------------------------------------------------------------- public API (OpenSpiel-shaped)
    def legal_moves(self) -> list[Move]:
        legal = self._legal_cache
        if legal is None:
            if self.is_over or self.to_act is None:
                legal = []
            elif self.playing_for is None:
                legal = self.rs.phases[self.pidx].decide(self)
            else:  # another seat's player decides: the phase is asked for the seat whose turn it is
                legal = as_turn(self, self.rs.phases[self.pidx].decide)
            self._legal_cache = legal
        return legal

    def apply(self, move: Move | str) -> None:
        """Make a move (a Move or its text); raises IllegalMoveError, saying why, when it is not legal."""
        legal = self._legal_cache
        if legal is None or isinstance(move, str) or move not in legal:  # (callers usually just asked)
            move = legal_move(self, move)
        turn = self.playing_for
        if turn is None:
            self.history.append((self.to_act, move))  # (add_move, without a Python call)
        else:  # made by another seat's player: recorded as its, for the seat it played
            self.history.append({"type": "move", "seat": self.to_act, "move": move.text, "for": turn})
            self.to_act, self.playing_for = turn, None
        self._legal_cache = None
        if not self.rs.phases[self.pidx].play(self, move):
            advance(self)
        elif self.rs.seats.decided_by is not None:
            hand_over(self)

    def parse_move(self, text: str) -> Move:
        return parse_move(self, text)

    def view(self, seat: int | None) -> dict[str, Any]:
        """A JSON-ready picture of the game from ``seat`` (None: everything, for replays and debugging)."""
        out = board_view(self, seat)
        phases = self.rs.phases
        if not self.is_over and self.pidx < len(phases):
            phase = phases[self.pidx]
            out["phase"] = phase.id
            public = phase.public_view(self)
            if public is not None:
                out["public"] = public
        if self.rs.seats.decided_by is not None:
            out["playing_for"] = self.playing_for  # the seat to_act decides for (None: its own)
        if self.is_over:
            out["result"] = self.result
        elif seat is not None and self.to_act == seat:
            # A combinatorial move set (any subset of a hand) is listed only in part, with its size.
            legal = self.legal_moves()
            out["legal"] = [m.text for m in itertools.islice(legal, LEGAL_LISTED)]
            if len(legal) > LEGAL_LISTED:
                out["legal_count"] = len(legal)
        return out



def start(st: State, match_vars: dict[str, Any] | None = None) -> None:
    _prepare(st, match_vars)
    advance(st)


def _prepare(st: State, match_vars: dict[str, Any] | None) -> None:
    """The match's variables and start effects, and its first hand begun: everything before chance."""
    rs = st.rs
    st.vars = [_initial(v.initial, v.per, rs) for v in rs.variables]
    assert rs.match is not None
    run_effects(st, rs.match.start)
    for name, value in (match_vars or {}).items():
        i = rs.var_index[name]
        if rs.variables[i].scope == "match":
            st.vars[i] = list(value) if isinstance(value, list) else value
    st.signal = None
    _begin_hand(st)


def hand_generator(seed: int, hand_no: int) -> random.Random:
    """The generator of hand ``hand_no`` of a game whose hands are keyed (``Board.hands_keyed``).

    One Mersenne Twister drawing every hand of a match can be worked out from enough of what it drew
    (about 20,000 bits: some ninety shuffles seen whole, as the end of a trick game shows them), and then
    tells every deal to come. Each keyed hand's generator is seeded by a text, which Python hashes with
    SHA-512: working one out tells nothing of the seed, nor of any other hand. The same seed still gives
    the same game."""
    return random.Random(f"rulecraft hand {seed} {hand_no}")


def started(rs: Ruleset, seed: int, max_hands: int | None = None, hands_keyed: bool = False) -> State:
    """A new game of ``rs`` under ``seed``, its first hand run to the first decision: ``start`` of a
    ``State(rs, seed)`` (its hand limit lowered to ``max_hands``), with no match variables given.

    Everything ``start`` does before the first chance event (the variables, the match's start effects,
    the first hand's empty board) is the same for every seed, and draws nothing: it is done once per
    ruleset, into a template state, and each new game is a clone of that with its own generator.
    """
    fresh = _fresh(rs)
    template = fresh.template
    if template is None or template.rs is not rs:  # (a copy of a ruleset carries its original's facts)
        template = fresh.template = State(rs, 0)
        template.rng = None  # type: ignore[assignment]  # (no generator: each game makes its own)
        _prepare(template, None)
    st = template.clone()
    st.seed = seed
    st.hands_keyed = hands_keyed
    st.rng = hand_generator(seed, st.hand_no) if hands_keyed else random.Random(seed)
    if max_hands is not None:
        st.hand_limit = min(st.hand_limit, max_hands)
    advance(st)
    return st


def _initial(value: Any, per: str, rs: Ruleset) -> Any:
    if per == "seat":
        return [value] * rs.seats.count
    if per == "team":
        return [value] * len(rs.seats.teams)
    return value


class _Fresh:
    """What every hand of a ruleset begins and ends with, worked out once (kept on ``Ruleset.fresh``)."""

    __slots__ = ("hand_names", "hand_vars", "start_zi", "template")

    def __init__(self, rs: Ruleset) -> None:
        # The hand's variables: (index, initial value, how many entries: None for a single value).
        per = {"seat": rs.seats.count, "team": len(rs.seats.teams)}
        self.hand_vars = tuple((i, v.initial, per.get(v.per)) for i, v in enumerate(rs.variables)
                               if v.scope == "hand")
        self.hand_names = tuple((i, v.name) for i, v in enumerate(rs.variables) if v.scope == "hand")
        self.start_zi = rs.zone_by_name[rs.start_zone].base
        self.template: State | None = None  # a game before its first chance event (see ``started``)


def _fresh(rs: Ruleset) -> _Fresh:
    fresh: _Fresh | None = rs.fresh
    if fresh is None:
        fresh = rs.fresh = _Fresh(rs)
    return fresh


def _begin_hand(st: State) -> None:
    rs = st.rs
    fresh = _fresh(rs)
    st.hand_no += 1
    if st.hands_keyed:
        st.rng = hand_generator(st.seed, st.hand_no)
    vars_ = st.vars
    for i, value, entries in fresh.hand_vars:  # (as _initial makes them)
        vars_[i] = value if entries is None else [value] * entries
    start_zi = fresh.start_zi
    for z in st.zones:
        z.clear()
    st.zones[start_zi].extend(range(rs.pieces.count))
    n = rs.pieces.count
    st.loc = [start_zi] * n
    st.face_down = bytearray(n)
    st.downed_by = [NOBODY] * n
    st.seen_public = bytearray(n)
    st.dealt_owner = [NOBODY] * n
    st.marks = {}
    st.known = {}
    st.shown_vars = frozenset()
    st.shows = []
    st.cells = {}
    st.tricks = [0] * rs.seats.count
    st.hand_fired = {}
    st.payments = []
    if rs.seats.sits_out is not None:
        out = []
        for s in range(rs.seats.count):
            st.ctx.bind["seat"] = s
            if rs.seats.sits_out(st.ctx):
                out.append(s)
        st.ctx.bind.pop("seat", None)
        st.active = tuple(s for s in range(rs.seats.count) if s not in out)
    else:
        st.active = tuple(range(rs.seats.count))
    st.pidx = 0
    st.pdata = None
    st.signal = None
    st.history.append({"type": "hand", "number": st.hand_no})


def advance(st: State) -> None:
    rs = st.rs
    st.to_act = st.playing_for = None
    st._legal_cache = None
    looped = 0  # phases gone back to with no decision in between (a repeat whose 'until' never holds)
    while not st.is_over:
        if st.signal == "void":
            _end_hand(st, voided=True)
            continue
        if st.pidx >= len(rs.phases):
            _end_hand(st, voided=False)
            continue
        phase = rs.phases[st.pidx]
        if st.pdata is None:
            if phase.when is not None and not phase.when(st.ctx):
                looped += _next_phase(st, looped)  # not this hand
                continue
            phase.begin(st)
            if st.signal == "void":
                continue
        if st.signal != "end_phase" and phase.step(st):
            if st.signal == "void":
                continue
            if rs.seats.decided_by is not None:
                hand_over(st)
            return
        if st.signal == "end_phase":
            st.signal = None
        if st.signal == "void":
            continue
        looped += _next_phase(st, looped)
        st.to_act = None


REPEATS_WITHOUT_DECISION = 10_000  # a repeat that comes round this often with nobody deciding never ends


def _next_phase(st: State, looped: int) -> int:
    """Leave the phase in progress (or skipped): on to the next, or, where the phase ends a repeat whose
    ``until`` does not hold yet, back to the repeat's first phase. Returns 1 when it went back."""
    st.pdata = None
    repeat = st.rs.repeats.get(st.pidx) if st.rs.repeats else None
    if repeat is None or repeat.until(st.ctx):
        st.pidx += 1
        return 0
    if looped >= REPEATS_WITHOUT_DECISION:
        raise rule_failed(repeat.until.pos, f"phase '{st.rs.phases[st.pidx].id}' repeated "
                                            f"{REPEATS_WITHOUT_DECISION:,} times with no decision in between, and "
                                            f"'until' ({clip(repeat.until.text, 100)}) never held")
    st.pidx = repeat.start
    return 1


def _end_hand(st: State, voided: bool) -> None:
    rs = st.rs
    assert rs.match is not None
    st.signal = None
    st.to_act = None
    if voided:
        run_effects(st, rs.on_void)
    else:
        run_effects(st, rs.match.after_hand)
    st.signal = None
    result = {
        "hand": st.hand_no,
        "voided": voided,
        "tricks": list(st.tricks),
        "payments": list(st.payments),
        "fired": dict(st.hand_fired),
        # What the hand's own variables came to (they are reset when the next hand begins).
        "vars": {name: list(v) if isinstance(v := st.vars[i], list) else v for i, name in _fresh(rs).hand_names},
    }
    if st.shows:  # what the hand showed everyone (public): views keep it once the next hand has begun
        result["shown"] = list(st.shows)
    st.hand_results.append(result)
    st.history.append({"type": "hand_end", "number": st.hand_no, "voided": voided})
    if rs.match.end_when(st.ctx):
        _finish(st, truncated=False)
    elif st.hand_no >= st.hand_limit:
        _finish(st, truncated=True)
    else:
        _begin_hand(st)


def _finish(st: State, truncated: bool) -> None:
    rs = st.rs
    assert rs.match is not None
    scores = []
    for s in range(rs.seats.count):
        st.ctx.bind["seat"] = s
        scores.append(rs.match.score(st.ctx))
    st.ctx.bind.pop("seat", None)
    best = max(scores)
    st.result = {
        "scores": scores,
        "winners": [s for s, v in enumerate(scores) if v == best],
        "hands": st.hand_no,
        "truncated": truncated,
    }
    st.is_over = True
    st.to_act = None
    st.pdata = None
    st.history.append({"type": "result", **st.result})


def move_key(verb: str, value: str, type_ids: list[str]) -> tuple[str, str, tuple[str, ...]]:
    return (verb, value, tuple(sorted(type_ids)))


def parse_move(st: State, text: str) -> Move:
    """Read a move typed by a person or found in a log; raises IllegalMoveError saying why it is refused."""
    if st.is_over:
        raise IllegalMoveError("the game is over: no more moves")
    try:
        verb, value, words = split_move_text(text, st.rs.verbs)
    except UnknownVerb as exc:
        # The verbs this decision takes, not every verb of every game: 'claim' means nothing in an auction.
        verbs = sorted({m.verb for m in itertools.islice(st.legal_moves(), VERB_SCAN)})
        raise IllegalMoveError(f"{exc}: here a move starts with {' or '.join(verbs)}") from None
    pieces = st.rs.pieces
    unknown = [w for w in words if w not in pieces.by_type_id]
    if unknown:
        close = difflib.get_close_matches(unknown[0], list(pieces.by_type_id), n=1)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        raise IllegalMoveError(f"there is no piece called '{unknown[0]}'{hint}")
    phase = st.rs.phases[st.pidx]
    reading = getattr(phase, "reading", None)
    if verb in VERBS_WITH_READING and reading is not None:
        # Which combination the pieces are played as, when they form several: the one named after 'as',
        # else the first (what the move always meant); '' when they form one (engine/readings.py).
        value = as_turn(st, lambda s: reading(s, words, value))
    legal = st.legal_moves()
    find = getattr(legal, "find", None)  # a lazily enumerated move set looks a move up directly
    if find is not None:
        found: Move | None = find(verb, value, words)
        if found is not None:
            return found
        legal = []
    key = move_key(verb, value, words)
    for m in legal:
        if move_key(m.verb, m.value, [pieces.type_id(p) for p in m.pieces]) == key:
            return m
    # (asked, as the phase's every question, for the seat whose turn it is: see engine/control.py)
    breach = as_turn(st, lambda s: phase.breach(s, verb, value, words))  # a table's play against the rules
    if breach is not None:
        return breach
    raise IllegalMoveError(as_turn(st, lambda s: phase.explain(s, verb, value, words)))


def legal_move(st: State, move: Move | str) -> Move:
    """The legal move meant by ``move``; raises IllegalMoveError saying why when there is none."""
    if isinstance(move, str):
        return parse_move(st, move)
    if move in st.legal_moves():
        return move
    return parse_move(st, str(move))  # a move from another state (an agent's clone): matched by its text
