"""The structured observation: the flat vector's numbers cut into piece planes, counts, scalars, the
record and the selection, with shapes and a layout ``describe`` tells; PettingZoo's checks pass with it."""

from __future__ import annotations

import random
import warnings

import numpy as np
from pettingzoo.test import api_test

from rulecraft.rl.encoding import Encoding
from rulecraft.rl.pettingzoo import env
from rulecraft.rl.structured import Structure


def test_the_planes_hold_the_pieces_each_seat_sees_where_they_lie() -> None:
    e = env("hearts", observation="structured", max_hands=1)
    e.reset(seed=1)
    st = e.episode.st
    seat = e.episode.to_act
    obs = e.observe(f"seat_{seat}")["observation"]
    layout = Structure(e.enc).describe()
    rows = [(r["zone"], r["seat"]) for r in layout["pieces"]["rows"]]
    types = layout["pieces"]["columns"]
    mine = obs["pieces"][rows.index(("hand", seat))]
    assert sorted(types[t] for t in np.flatnonzero(mine)) == sorted(e.rs.pieces.type_id(p) for p in st.hand(seat))
    other = (seat + 1) % 4
    assert not obs["pieces"][rows.index(("hand", other))].any()  # another's hand: not a single card
    assert obs["counts"][rows.index(("hand", other))] == len(st.hand(other)) == 13  # but how many it holds
    parts = {p["name"]: p for p in layout["scalars"]["parts"]}
    assert obs["scalars"][parts["seat"]["start"] + seat] == 1  # the observing seat, one-hot
    assert obs["scalars"].shape == (sum(p["size"] for p in parts.values()),)


def test_the_arrays_are_the_flat_vector_cut_up() -> None:
    flat, cut = env("luk-fu", max_hands=1), env("luk-fu", max_hands=1, observation="structured")
    for e in (flat, cut):
        e.reset(seed=3)
    rng = random.Random(3)
    enc: Encoding = flat.enc
    at = enc.at
    steps = 0
    while steps < 40 and not flat.episode.over:
        steps += 1
        agent = flat.agent_selection
        vec, parts = flat.observe(agent)["observation"], cut.observe(agent)["observation"]
        zones = vec[at["zones"]:at["zones"] + enc.rs.zone_instance_count * (enc.types + 1)]
        assert np.array_equal(np.column_stack([parts["pieces"], parts["counts"]]).ravel(), zones)
        scalars = np.concatenate([vec[at[n]:at[n] + s.size] for n in ("seat", "to_act", "phase", "active", "tricks",
                                                                      "variables", "hand")
                                  for s in enc.sections if s.name == n])
        assert np.array_equal(parts["scalars"], scalars)
        assert np.array_equal(parts["recent"].ravel(), vec[at["recent"]:at["selection"]])
        assert np.array_equal(parts["selection"], vec[at["selection"]:at["hand"]])
        assert cut.observation_space(agent)["observation"].contains(parts)
        action = rng.choice(list(np.flatnonzero(flat.observe(agent)["action_mask"])))
        flat.step(action)
        cut.step(action)
    assert steps > 10


def test_the_information_state_adds_the_pieces_seen() -> None:
    enc = Encoding(env("doubt").rs)
    layout = Structure(enc, recall=True).describe()
    assert layout["seen"]["shape"] == [enc.types]
    assert "seen" not in Structure(enc).describe()


def test_pettingzoo_api_test_with_structured_observations() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env("tien-gow", observation="structured", max_hands=1, max_moves=3000), num_cycles=300)
