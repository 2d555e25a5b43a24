"""Observations show a seat nothing it may not see, and the action ids of a ruleset are stable.

Two leak checks, on every bundled ruleset, at decisions along seeded random games:

* the pieces hidden from the seat to act are dealt again at random (the engine's determinization:
  another world the seat cannot tell from this one): its observation tensors and strings must not
  change, while some other seat's must, at least once (else the check would prove nothing);
* the pieces of other seats' secret moves (face-down plays, gifts, claims) are replaced in the
  record: the seat's observations must not change, while the mover's must, at least once.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from rulecraft.engine.determinize import determinize
from rulecraft.engine.game import Game
from rulecraft.engine.state import State
from rulecraft.engine.views import SECRET_VERBS
from rulecraft.load import load_ruleset
from rulecraft.rl.encoding import Encoding
from rulecraft.rl.openspiel import record_lines, seat_string
from rulecraft.rl.seatview import observe
from rulecraft.rules.registry import list_bundled

BUNDLED = list_bundled()
MOVES = 160  # decisions walked per game
EVERY = 4  # a check at every 4th decision


def _seen(enc: Encoding, st: State, seat: int) -> tuple[bytes, bytes, str, str]:
    return (observe(enc, st, seat).tobytes(), observe(enc, st, seat, recall=True).tobytes(),
            seat_string(enc, st, seat), seat_string(enc, st, seat, record=record_lines(st, seat)))


def _walk(ref: str, seed: int):
    rs = load_ruleset(ref)
    st = Game(rs, seed, max_hands=2).new_state()
    rng = random.Random(seed)
    for step in range(MOVES):
        if st.is_over:
            return
        if step % EVERY == 0:
            yield st, rng
        legal = st.legal_moves()
        st.apply(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("ref", BUNDLED)
def test_hidden_pieces_dealt_otherwise_change_no_observation_of_the_seat(ref: str) -> None:
    others_differ = 0
    enc = Encoding(load_ruleset(ref))
    for seed in range(2):
        for st, rng in _walk(ref, seed):
            seat = st.to_act
            world = determinize(st, seat, random.Random(rng.random()), light=False)
            assert _seen(enc, st, seat) == _seen(enc, world, seat), f"seat {seat} sees pieces hidden from it"
            others_differ += any(not np.array_equal(observe(enc, st, o), observe(enc, world, o))
                                 for o in range(st.rs.seats.count) if o != seat)
    assert others_differ > 0, "the other worlds never differed for anyone: the check is empty"


def _rewritten(st: State, viewer: int) -> State | None:
    """A clone whose record shows other pieces in every secret move of another seat (None: there is none)."""
    c = st.clone()
    n = st.rs.pieces.count
    entries = c.history._entries  # the record's own list: moves are (seat, Move)
    changed = False
    for i, entry in enumerate(entries):
        if isinstance(entry, tuple):
            seat, move = entry
            if seat != viewer and move.verb in SECRET_VERBS and move.pieces:
                pieces = tuple(sorted((p + 1) % n for p in move.pieces))  # as many, not the same
                entries[i] = (seat, c.rs.moves.get(move.verb, pieces, move.value))
                changed = True
    return c if changed else None


# Games with secret moves a short walk meets. Big Two, Dou Dizhu, Spades and Bridge have none (every play, bid
# and call is public), nor have the other games whose every move is a public play, bid, call or draw (a card drawn is
# hidden, its move is not), nor Liar's Dice (its bids put nothing down; its hidden dice are checked with the dice
# property of tests/engine/test_hidden_information.py); in Rook the only one is the bidder's discard to the nest: it
# is checked with the others in the walk below, but a short walk rarely meets it, so Rook is not asked to show a
# difference.
NO_SECRET_MOVES = ("rook", "big-two", "spades", "auction-pitch", "crazy-eights", "dummy-whist", "fan-tan",
                   "german-whist", "knock-out-whist", "oh-hell", "texas-42", "whist", "zheng-shangyou", "bridge",
                   "dou-dizhu", "polignac", "slobberhannes", "knaves", "nap", "liars-dice", "briscola", "schafkopf")
WITH_SECRET_MOVES = [r for r in BUNDLED if r.split("/")[0] not in NO_SECRET_MOVES]


@pytest.mark.parametrize("ref", WITH_SECRET_MOVES)
def test_other_seats_secret_moves_change_no_observation_of_the_seat(ref: str) -> None:
    rewrites = mover_differs = 0
    enc = Encoding(load_ruleset(ref))
    for seed in range(2):
        for st, _rng in _walk(ref, seed):
            seat = st.to_act
            other = _rewritten(st, seat)
            if other is None:
                continue
            rewrites += 1
            assert _seen(enc, st, seat) == _seen(enc, other, seat), f"seat {seat} reads another seat's secret move"
            movers = {s for s, m in (e for e in st.history._entries if isinstance(e, tuple))
                      if s != seat and m.verb in SECRET_VERBS}
            mover_differs += any(_seen(enc, st, m) != _seen(enc, other, m) for m in movers)
    assert rewrites > 0 and mover_differs > 0, "no secret move was met, or its mover never read it: the check is empty"


def test_action_ids_are_stable_and_read_from_the_rule_file() -> None:
    enc = Encoding(load_ruleset("rook"))
    again = Encoding(load_ruleset("rook"))
    assert enc.tokens == again.tokens
    # Read by hand from variants/rook/base.yaml: the bare tokens, then the bids 70..120 by 5, the redeal
    # call, the four trump colours, then play/down/give/claim for each of the 41 cards.
    assert [enc.action_string(a) for a in range(5)] == ["pass", "stop", "challenge", "accept", "done"]
    assert [enc.action_string(a) for a in range(5, 16)] == [f"bid {b}" for b in range(70, 125, 5)]
    assert [enc.action_string(a) for a in range(16, 21)] == ["call redeal", "name red", "name yellow", "name green",
                                                             "name black"]
    assert enc.num_actions == 21 + 4 * 41
    ones = Encoding(load_ruleset("rook", {"ones": "kept"}))
    assert "bid 180" in [ones.action_string(a) for a in range(ones.num_actions)]


def test_every_move_of_a_game_has_action_ids() -> None:
    """Every legal move at every decision of whole hands (not only the move played): a value offered
    only in some games (a suit named when all passed) must have its id too."""
    for ref in BUNDLED:
        rs = load_ruleset(ref)
        enc = Encoding(rs)
        for seed in range(3):
            st = Game(rs, seed, max_hands=1).new_state()
            rng = random.Random(seed)
            for _ in range(400):
                if st.is_over:
                    break
                legal = st.legal_moves()
                listed = legal if type(legal) is list else [legal[0], legal[len(legal) - 1]]  # (lazy sets: ends)
                for move in listed:
                    assert all(0 <= a < enc.num_actions for a in enc.move_tokens(move)), (ref, seed, move.text)
                st.apply(legal[rng.randrange(len(legal))])


def test_a_choice_among_values_the_game_filters_has_an_id_for_each() -> None:
    """Euchre's second round names a suit from ``[x for x in ['pass', 'c', 'd', 'h', 's'] if x !=
    upsuit()]``: a list read from the game (before the deal it reads some suit), drawn from constants. Each
    of those values has an id, so whichever suit was turned up, every suit left can be named."""
    rs = load_ruleset("euchre")
    enc = Encoding(rs)
    assert {enc.action_string(a) for a in range(enc.num_actions)} >= {"name c", "name d", "name h", "name s"}
    suits = {"name c", "name d", "name h", "name s"}
    named: set[str] = set()
    for seed in range(40):  # everyone passes the turned-up card: the second round, whatever suit it was
        st = Game(rs, seed, max_hands=1).new_state()
        while not suits & {m.text for m in st.legal_moves()}:
            legal = st.legal_moves()
            st.apply(next((m for m in legal if m.text == "name pass"), legal[0]))
        for move in st.legal_moves():
            enc.move_tokens(move)  # (EncodingError if a value had no id)
            named.add(move.text)
    assert suits <= named
