"""What a seat has learnt from the play so far about where hidden pieces are, for determinization.

Two kinds of fact, both read from the game's record as redacted for the seat (``views.redact_event``)
and from the rule file's own restrictions, never from hidden state:

* **could not follow**: in a trick round, a seat that played a single piece face up which a follow
  restriction with ``if_able`` applied to and did not allow showed that the restriction lapsed: it
  held no piece the restriction would have allowed (a void suit). Pieces cannot come back into a
  hand during a trick phase, so it holds none of them now either. (The restriction is judged in a
  sampled world, with the round's lead put back in place: the lead and the play are public, and the
  world depends only on what the seat may know.)
* **picked up**: pieces shown by a challenge, and the seat's own pieces in a pile, went into the
  hand of the seat that picked the pile up, and are still there until that seat plays again.

``learnt_fits(state, seat, rng)`` turns them into ``fits(zone_instance, piece)`` for
``engine.determinize`` (None when nothing has been learnt); a ``Learner`` does the same for an agent
that decides again and again in one game, reading only what was added to the record since.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rulecraft.engine.determinize import determinize
from rulecraft.engine.views import HIDDEN_PIECE, redact_event

if TYPE_CHECKING:
    from rulecraft.engine.state import State

Fits = Callable[[int, int], bool]


def learnt_fits(state: State, seat: int, rng: random.Random) -> Fits | None:
    return Learner().fits(state, seat, rng)


class Learner:
    """``learnt_fits`` for a searching agent that decides many times in one game.

    Reading the whole hand's record again at every decision made a decision's cost grow with the
    game (a claims hand runs to thousands of events), so the learner keeps what it has read of one
    game's record (which only grows) and reads only the events added since. Any other record (a new
    game, a clone) is read from its start. The facts, and so the fits, are those ``learnt_fits``
    works out from the whole record.
    """

    __slots__ = ("_events", "_history", "_known", "_mine", "_read", "_seat")

    def __init__(self) -> None:
        self._history: object = None
        self._seat = -1
        self._read = 0
        self._events: list[dict[str, Any]] = []  # this hand's events as the seat reads them
        self._known: dict[int, int] = {}  # picked up: piece -> the seat holding it
        self._mine: list[int] = []  # the seat's own pieces in the pile

    def fits(self, state: State, seat: int, rng: random.Random) -> Fits | None:
        history = state.history
        if history is not self._history or seat != self._seat or len(history) < self._read:
            self._history, self._seat, self._read = history, seat, 0
            self._events, self._known, self._mine = [], {}, []
        for event in history[self._read:]:
            if event.get("type") == "hand":
                self._events, self._known, self._mine = [], {}, []
                continue
            shown = redact_event(event, seat)
            if shown is not None:
                self._events.append(shown)
                _note_pickup(state, seat, shown, self._known, self._mine)
        self._read = len(history)
        return _fits(state, seat, rng, self._events, dict(self._known))


def _fits(state: State, seat: int, rng: random.Random, events: list[dict[str, Any]],
          known: dict[int, int]) -> Fits | None:
    if not events:
        return None
    forbidden = _voids(state, seat, events, rng)
    if not forbidden and not known:
        return None
    hand_of = {state.hand_instance(s): s for s in range(state.rs.seats.count)}
    home = {p: state.hand_instance(s) for p, s in known.items()}

    def fits(zone_instance: int, piece: int) -> bool:
        want = home.get(piece)
        if want is not None and want != zone_instance:
            return False
        owner = hand_of.get(zone_instance)
        return owner is None or piece not in forbidden.get(owner, ())

    return fits


def _pieces_of(state: State, words: list[str]) -> list[int] | None:
    """The pieces named by type ids (None if any is unknown, hidden, or has identical copies)."""
    pieces = state.rs.pieces
    out = []
    for w in words:
        t = pieces.by_type_id.get(w)
        if t is None or w == HIDDEN_PIECE:
            return None
        found = [p for p in range(pieces.count) if pieces.type_of[p] == t]
        if len(found) != 1:
            return None
        out.append(found[0])
    return out


# ---------------------------------------------------------------------- could not follow
def _voids(state: State, seat: int, events: list[dict[str, Any]], rng: random.Random) -> dict[int, set[int]]:
    if state.is_over or state.pidx >= len(state.rs.phases):
        return {}
    phase: Any = state.rs.phases[state.pidx]
    if phase.kind != "tricks" or not any(r.if_able for r in phase.follow_rules):
        return {}
    single = next((c for c in phase.combos if c.kind == "single" and c.singles), None)
    if single is None:
        return {}
    rounds: list[list[tuple[int, str, list[str]]]] = [[]]
    for e in events:
        if e.get("type") == "round":
            rounds.append([])
        elif e.get("type") == "move":
            words = str(e.get("move", "")).split()
            if words and words[0] in ("play", "down"):
                rounds[-1].append((int(e.get("for", e["seat"])), words[0], words[1:]))  # (for: a dummy's play)
    follows = [(r[0], f) for r in rounds if len(r) > 1 for f in r[1:]]
    if not follows:
        return {}
    from rulecraft.engine.phases.tricks import TrickData

    world = determinize(state, seat, random.Random(rng.getrandbits(64)))
    ctx = world.ctx
    all_singles = [single.singles[p] for p in range(world.rs.pieces.count)]
    out: dict[int, set[int]] = {}
    for (leader, lverb, lwords), (follower, verb, words) in follows:
        if follower == seat or lverb != "play" or verb != "play" or len(lwords) != 1 or len(words) != 1:
            continue
        led, played = _pieces_of(world, lwords), _pieces_of(world, words)
        if not led or not played:
            continue
        world.pdata = TrickData(leader, 1, world.order_from(leader), [leader], [single.singles[led[0]]])
        ctx.seat, ctx.combo = follower, None
        play = single.singles[played[0]]
        for r in phase.follow_rules:
            if not r.if_able or not _applies(r, ctx, [play]) or r.allow.select(ctx, [play]):
                continue
            out.setdefault(follower, set()).update(
                pl.pieces[0] for pl in r.allow.select(ctx, _applies(r, ctx, all_singles)))
    return out


def _applies(r: Any, ctx: Any, cands: list[Any]) -> list[Any]:
    if r.when is None:
        return cands
    if not r.when_per_play:
        return cands if r.when(ctx) else []
    return list(r.when.select(ctx, cands))


# ---------------------------------------------------------------------- picked up
def _note_pickup(state: State, seat: int, e: dict[str, Any], known: dict[int, int], mine_in_pile: list[int]) -> None:
    """Follow one event (as the seat reads it) in ``known`` (piece -> holder) and ``mine_in_pile``, in place."""
    kind = e.get("type")
    if kind == "move":
        words = str(e.get("move", "")).split()
        if not words or words[0] != "claim":
            return
        player = int(e["seat"])
        for p in [p for p, s in known.items() if s == player]:
            del known[p]  # it has played again: what it held may be in the pile now
        if player == seat:
            mine_in_pile.extend(_pieces_of(state, words[2:]) or [])
    elif kind == "reveal":
        picker = int(e["picker"])
        for p in (_pieces_of(state, [str(w) for w in e.get("pieces", [])]) or []) + mine_in_pile:
            if picker != seat:
                known[p] = picker
        mine_in_pile.clear()
    elif kind == "flush":
        mine_in_pile.clear()
