"""How searches treat claims rounds: the claims they weigh, the worlds in which an open claim is true, and
how far their playouts look; and ``compare --moves``, which scores a game still going as a cut playout."""

from __future__ import annotations

import dataclasses
import random

from support import claims_positions, ruleset

from rulecraft.agents.candidates import candidate_moves, claim_candidates
from rulecraft.agents.claim_truth import open_claim, spread_draws
from rulecraft.agents.rollout import DEPTH, playout_depth, sample_world
from rulecraft.engine.game import Game
from rulecraft.engine.state import State
from rulecraft.runs.simulate import play_record


def _by_value(st: State, seat: int) -> dict[str, list[str]]:
    column = st.rs.pieces.columns["rank"]
    out: dict[str, list[str]] = {}
    for p in st.hand(seat):
        out.setdefault(str(column[p]), []).append(st.rs.pieces.type_id(p))
    return out


def test_a_claims_turn_weighs_true_claims_a_small_lie_and_passing_not_random_large_lies() -> None:
    checked = 0
    for st, seat in claims_positions("yukushi", 3, 40, answering=False):
        legal = st.legal_moves()
        held = _by_value(st, seat)
        public = st.rs.phases[st.pidx].public_view(st)
        lo = public["counts"][0]
        cands = candidate_moves(st, seat, legal, random.Random(1), 5)
        assert len(cands) == min(5, len(legal)) and all(m in legal for m in cands)
        texts = [m.text for m in cands]
        column = st.rs.pieces.columns["rank"]
        if public["may_pass"]:
            assert "pass" in texts
        held_allowed = [v for v in public["may_claim"] if v in held]
        if held_allowed:  # a true claim of every piece of the value held most
            top = max(len(held[v]) for v in held_allowed)
            assert any(m.verb == "claim" and len(m.pieces) == top and all(str(column[p]) == m.value for p in m.pieces)
                       for m in cands), texts
        # a lie of the fewest pieces a play may have, none of them of the claimed value
        assert any(m.verb == "claim" and len(m.pieces) == lo and all(str(column[p]) != m.value for p in m.pieces)
                   for m in cands), texts
        # no claim much larger than the hand can make true (a uniform sample is mostly a dozen pieces)
        most = max((len(v) for v in held.values()), default=0)
        assert all(len(m.pieces) <= max(most + 1, lo + 2) for m in cands), texts
        checked += 1
    assert checked >= 20


def test_other_decisions_get_no_claim_candidates() -> None:
    st = Game(ruleset("rook"), 1).new_state()
    assert claim_candidates(st, st.to_act, st.legal_moves(), random.Random(1)) == []  # type: ignore[arg-type]
    for st, seat in claims_positions("doubt", 2, 3, answering=True):
        assert claim_candidates(st, seat, st.legal_moves(), random.Random(1)) == []


def test_a_claim_believed_honest_is_true_in_every_world_however_many_pieces_it_has() -> None:
    sizes = []
    for st, seat in claims_positions("yukushi", 5, 30, answering=True):
        claim = open_claim(st, seat)
        assert claim is not None
        column = st.rs.pieces.columns["rank"]
        under = st.pdata.last_pieces
        if len(claim.of_value) + sum(1 for p in under if p in claim.hidden and str(column[p]) == claim.value) \
                < len(under):
            continue  # more pieces than the value has hidden: it cannot be true
        honest = dataclasses.replace(claim, truth=1.0)
        rng = random.Random(3)
        mine = sorted(st.hand(seat))
        for _ in range(20):
            world = sample_world(st, seat, rng, None, honest)
            assert sorted(world.hand(seat)) == mine  # nothing the seat sees moves
            assert sorted(p for z in world.zones for p in z) == list(range(st.rs.pieces.count))
            assert all(str(column[p]) == claim.value for p in world.pdata.last_pieces)
        sizes.append(len(under))
    assert max(sizes) >= 2  # claims of several pieces were among those checked


def test_truth_draws_are_spread_evenly_over_a_decisions_few_worlds() -> None:
    # Over five worlds a claim believed true six times in ten is true in 2-4 of them, whatever the start;
    # independent draws put it at 0, 1 or 5 one time in six.
    for seed in range(300):
        draws = spread_draws(random.Random(seed))
        first = [next(draws) for _ in range(5)]
        assert 2 <= sum(d < 0.6 for d in first) <= 4
        assert all(0.0 <= d < 1.0 for d in first)


def test_playouts_from_a_claims_decision_are_one_move_per_seat_unless_told() -> None:
    st, _ = claims_positions("yukushi", 2, 1, answering=True)[0]
    assert playout_depth(st, None) == st.rs.seats.count
    assert playout_depth(st, 30) == 30
    five = ruleset("doubt", players="5")
    assert playout_depth(Game(five, 1).new_state(), None) == 5
    rook = Game(ruleset("rook"), 1).new_state()
    assert playout_depth(rook, None) == DEPTH


def test_a_game_cut_by_moves_is_won_by_the_fewest_pieces_held() -> None:
    rs = ruleset("doubt")
    rec = play_record(rs, 7, 0, ["random"] * 4, max_moves=150)
    assert rec["moves"] == 150 and rec["truncated"]
    st = Game(rs, rec["seed"]).new_state()  # the same game, replayed to the cut
    from rulecraft.agents.base import make_agent

    agents = [make_agent("random", rec["seed"], s) for s in range(4)]
    for _ in range(150):
        st.apply(agents[st.to_act].choose(st, st.to_act))  # type: ignore[index]
    held = [len(st.hand(s)) for s in range(4)]
    assert rec["scores"] == [-h for h in held]
    assert rec["winners"] == [s for s in range(4) if held[s] == min(held)]
    whole = play_record(rs, 7, 0, ["random"] * 4)
    assert not whole["truncated"] and whole["moves"] > 150
