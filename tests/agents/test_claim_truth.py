"""A search expects an open claim to be true when the claimant could have made it true, as often as that
claimant's challenged claims were; a Learner reads a game's record once and learns what learnt_fits learns."""

from __future__ import annotations

import dataclasses
import random

from support import claims_positions, ruleset

from rulecraft.agents.bluffer import Bluffer
from rulecraft.agents.claim_truth import OpenClaim, open_claim
from rulecraft.agents.inference import Learner, learnt_fits
from rulecraft.agents.rollout import sample_world
from rulecraft.engine.determinize import exchange, hidden_pieces
from rulecraft.engine.game import Game
from rulecraft.engine.state import State


def _true_in(world: State, claim: OpenClaim) -> bool:
    return all(str(claim.column[p]) == claim.value for p in world.pdata.last_pieces)


def _could(world: State, claim: OpenClaim) -> bool:
    """Whether the claimant, in this world, held enough pieces of the value (under the claim and in hand)."""
    count = len(world.pdata.last_pieces)
    pieces = [*world.pdata.last_pieces, *world.hand(claim.claimant)]
    return sum(1 for p in pieces if str(claim.column[p]) == claim.value) >= count


def test_a_claim_the_claimant_could_make_true_is_true_in_every_world_when_it_always_tells_the_truth() -> None:
    checked = 0
    for st, seat in claims_positions("doubt", 4, 12, answering=True):
        claim = open_claim(st, seat)
        assert claim is not None and claim.claimant != seat
        honest = dataclasses.replace(claim, truth=1.0)
        rng = random.Random(7)
        mine = sorted(st.hand(seat))
        could = plain_true = 0
        for _ in range(40):
            world = sample_world(st, seat, rng, None, honest)
            assert sorted(world.hand(seat)) == mine  # nothing the seat sees moves
            assert sorted(p for z in world.zones for p in z) == list(range(st.rs.pieces.count))
            if _could(world, honest):
                could += 1
                assert _true_in(world, honest)
            plain_true += _true_in(sample_world(st, seat, rng, None, None), claim)
        checked += could > 0
        assert plain_true < 40 or could == 40
    assert checked >= 5


def test_the_expected_truth_follows_the_claimants_record() -> None:
    seen = []
    for st, seat in claims_positions("doubt", 4, 60, answering=True):
        claim = open_claim(st, seat)
        assert claim is not None
        reveals = [r for r in st.rs.phases[st.pidx].public_view(st)["reveals"] if r["claimant"] == claim.claimant]
        true = sum(1 for r in reveals if not r["lie"])
        assert claim.truth == (true + 1) / (len(reveals) + 2)
        seen.append(len(reveals))
    assert max(seen) >= 2


def test_a_claim_believed_never_honest_stays_as_drawn() -> None:
    st, seat = claims_positions("doubt", 4, 1, answering=True)[0]
    claim = open_claim(st, seat)
    assert claim is not None
    liar = dataclasses.replace(claim, truth=0.0)
    a, b = random.Random(5), random.Random(5)
    for _ in range(10):
        w1, w2 = sample_world(st, seat, a, None, liar), sample_world(st, seat, b, None, None)
        b.random()  # the draw make_plausible made
        assert w1.zones == w2.zones


def test_exchange_swaps_two_places() -> None:
    st, seat = claims_positions("doubt", 4, 1, answering=True)[0]
    hidden = hidden_pieces(st, seat)
    a = next(p for p in hidden if st.face_down[p])
    b = next(p for p in hidden if not st.face_down[p])
    world = st.clone()
    exchange(world, a, b)
    assert world.loc[a] == st.loc[b] and world.loc[b] == st.loc[a]
    assert world.face_down[b] and not world.face_down[a]
    assert world.downed_by[b] == st.downed_by[a]
    assert st.zones[st.loc[a]].index(a) == world.zones[world.loc[b]].index(b)
    assert (b in world.pdata.last_pieces) == (a in st.pdata.last_pieces)


def test_a_learner_learns_what_learnt_fits_learns_at_every_decision() -> None:
    rs = ruleset("yukushi")
    for seed in (1, 2):
        st = Game(rs, seed).new_state()
        agents = [Bluffer(seed, s) for s in range(rs.seats.count)]
        learners = [Learner() for _ in range(rs.seats.count)]
        rng = random.Random(seed)
        compared = 0
        while not st.is_over:
            seat = st.to_act
            assert seat is not None
            incremental = learners[seat].fits(st, seat, random.Random(1))
            whole = learnt_fits(st, seat, random.Random(1))
            assert (incremental is None) == (whole is None)
            if incremental is not None and whole is not None:
                for _ in range(20):
                    z, p = rng.randrange(len(st.zones)), rng.randrange(rs.pieces.count)
                    assert incremental(z, p) == whole(z, p)
                compared += 1
            st.apply(agents[seat].choose(st, seat))
        assert compared > 20
    # another game's record is read from its start
    learner = Learner()
    first = Game(rs, 1).new_state()
    other = Game(rs, 2).new_state()
    for st in (first, other):
        bl = [Bluffer(3, s) for s in range(rs.seats.count)]
        for _ in range(120):
            st.apply(bl[st.to_act].choose(st, st.to_act))  # type: ignore[index]
    a = learner.fits(first, 0, random.Random(1))
    b = learner.fits(other, 0, random.Random(1))
    whole = learnt_fits(other, 0, random.Random(1))
    assert (b is None) == (whole is None)
    if b is not None and whole is not None:
        assert all(b(z, p) == whole(z, p) for z in range(len(other.zones)) for p in range(rs.pieces.count))
    assert a is not None or b is not None
