"""The bluffer: a heuristic agent for any game with a claims phase (``bluffer`` or ``bluffer:0.3``).

On its turn it tells the truth when it can (claiming the allowed value it holds most of, with every
piece of it it may play), and otherwise lies at the given rate (default 0.3) with as few pieces as
a play may have, taken from the values it holds least of; when it does not lie it passes (if passing
is allowed; if not, it must lie). Asked whether to challenge, it challenges a claim that cannot be
true given what it can see (its hand, the pieces it put down itself, revealed pieces whose holder has
not played since) and otherwise rarely — more often when the claim would take the player out. Where a
claim stays open to challenge after later passes (``challenge.until: next_play``) it is asked again
after each pass; a pass says nothing about the pieces under the claim, so it takes its chance on
suspicion once, when the claim is made, and later challenges only a claim that cannot be true.

It reads only what its seat may know: the phase's public view, its own view of the pieces
(``views.visible``) and the log as redacted for its seat. A claim judged by an expression over hidden
state (how many dice show a face) it weighs by sampled worlds instead (``agents.claim_odds``), lying
at its rate by claiming a step or two beyond what it believes. Outside a claims phase it plays at random.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from rulecraft.agents import claim_odds
from rulecraft.agents.base import agent_rng, register
from rulecraft.engine.views import redact_event, visible
from rulecraft.errors import IllegalMoveError, UsageError

if TYPE_CHECKING:
    from rulecraft.engine.moves import Move
    from rulecraft.engine.state import State

SUSPECT = 0.05  # how often it challenges a claim that may well be true
SUSPECT_GOING_OUT = 0.3  # ... when the claim would empty the player's hand


class Bluffer:
    name = "bluffer"

    def __init__(self, seed: int, seat: int, rate: float = 0.3) -> None:
        self.rng = agent_rng(seed, seat, "bluffer")
        self.rate = rate
        self._read = 0  # how much of the log it has read
        self._known: dict[int, list[str]] = {}  # seat -> revealed pieces it picked up and has not played since

    def choose(self, state: State, seat: int) -> Move:
        if claim_odds.judged_by_expression(state) is not None:  # a claim about hidden state: weigh it by worlds
            if state.pdata.window:
                return claim_odds.respond(state, seat, self.rng)
            return claim_odds.choose(state, seat, self.rng, self.rate)
        phase = state.rs.phases[state.pidx] if not state.is_over else None
        public = phase.public_view(state) if phase is not None else None
        if not public or "claims" not in public or "attribute" not in public:
            return self._random(state)
        self._read_log(state, seat)
        try:
            if public.get("responding") == seat:
                return self._respond(state, seat, public)
            if public.get("to_play") == seat:
                return self._play(state, seat, public)
        except IllegalMoveError:
            pass
        return self._random(state)

    # ------------------------------------------------------------------ knowledge
    def _read_log(self, state: State, seat: int) -> None:
        """Follow revealed pieces into the hand that picked them up, until that seat plays again."""
        history = state.history
        if self._read > len(history):
            self._read, self._known = 0, {}
        for event in history[self._read:]:
            shown = redact_event(event, seat)
            if shown is None:
                continue
            if shown.get("type") == "hand":
                self._known = {}
            elif shown.get("type") == "reveal":
                self._known.setdefault(int(shown["picker"]), []).extend(shown["pieces"])
            elif shown.get("type") == "move" and str(shown.get("move", "")).startswith("claim"):
                self._known.pop(int(shown["seat"]), None)
        self._read = len(history)

    def _value_of(self, state: State, attribute: str) -> dict[str, str]:
        pieces = state.rs.pieces
        column = pieces.columns[attribute]
        return {pieces.type_id(p): str(column[p]) for p in range(pieces.count)}

    def _could_be_true(self, state: State, seat: int, public: dict[str, Any]) -> bool:
        claim = public["claims"][-1]
        value, count, player = str(claim["value"]), int(claim["count"]), int(claim["seat"])
        value_of = self._value_of(state, public["attribute"])
        column = state.rs.pieces.columns[public["attribute"]]
        of_value = [p for p in range(state.rs.pieces.count) if str(column[p]) == value]
        total = len(of_value)  # every copy counts: two decks hold eight aces, not four
        seen = sum(1 for p in of_value if visible(state, p, seat))
        elsewhere = sum(1 for s, held in self._known.items() if s not in (seat, player)
                        for pid in held if value_of[pid] == value)
        return count <= total - seen - elsewhere

    # ------------------------------------------------------------------ decisions
    def _respond(self, state: State, seat: int, public: dict[str, Any]) -> Move:
        if not self._could_be_true(state, seat, public):
            return state.parse_move("challenge")
        if public.get("asked_after") == "pass":
            return state.parse_move("accept")
        player = int(public["claims"][-1]["seat"])
        suspicion = SUSPECT_GOING_OUT if not state.hand(player) else SUSPECT
        return state.parse_move("challenge" if self.rng.random() < suspicion else "accept")

    def _play(self, state: State, seat: int, public: dict[str, Any]) -> Move:
        pieces = state.rs.pieces
        column = pieces.columns[public["attribute"]]
        hand = sorted(state.hand(seat), key=pieces.sort_key)
        by_value: dict[str, list[int]] = {}
        for p in hand:
            by_value.setdefault(str(column[p]), []).append(p)
        lo, hi = public["counts"]
        totals: dict[str, int] = public["totals"]
        allowed = list(public["may_claim"])

        def cap(v: str) -> int:
            return int(hi) if public["over_claims"] else min(int(hi), totals.get(v, 0))

        truthful = [v for v in allowed if len(by_value.get(v, ())) >= lo and cap(v) >= lo]
        if truthful:
            most = max(len(by_value[v]) for v in truthful)
            value = self.rng.choice([v for v in truthful if len(by_value[v]) == most])
            return self._claim(state, value, by_value[value][:cap(value)])
        if public["may_pass"] and self.rng.random() >= self.rate:
            return state.parse_move("pass")
        lies = [v for v in allowed if cap(v) >= lo]
        if not lies:
            return self._random(state)
        value = self.rng.choice(lies)
        counts = Counter(str(column[p]) for p in hand)
        filler = sorted(hand, key=lambda p: (counts[str(column[p])], self.rng.random()))
        return self._claim(state, value, filler[:lo])

    def _claim(self, state: State, value: str, chosen: list[int]) -> Move:
        ids = " ".join(state.rs.pieces.type_id(p) for p in chosen)
        return state.parse_move(f"claim {value}: {ids}")

    def _random(self, state: State) -> Move:
        moves = state.legal_moves()
        return moves[self.rng.randrange(len(moves))]


@register("bluffer")
def _bluffer(seed: int, seat: int, arg: str) -> Bluffer:
    if not arg:
        return Bluffer(seed, seat)
    try:
        rate = float(arg)
    except ValueError:
        raise UsageError(f"the bluffer's argument is how often it lies (0 to 1), not '{arg}'") from None
    if not 0 <= rate <= 1:
        raise UsageError(f"the bluffer's lying rate is between 0 and 1, not {rate}")
    return Bluffer(seed, seat, rate)
