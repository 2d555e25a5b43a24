"""Moves: the text form parses back; refused moves say why in the rule's terms; clones are independent."""

from __future__ import annotations

import pytest
from support import ruleset

from rulecraft.agents.simple import RandomAgent
from rulecraft.engine.game import Game
from rulecraft.engine.history import History
from rulecraft.engine.moves import split_move_text
from rulecraft.errors import IllegalMoveError


def test_every_legal_move_round_trips_through_its_text() -> None:
    rs = ruleset("rook")
    st = Game(rs, 11, max_hands=2).new_state()
    agents = [RandomAgent(11, s) for s in range(4)]
    while not st.is_over:
        for m in st.legal_moves():
            assert st.parse_move(str(m)) == m
        st.apply(agents[st.to_act].choose(st, st.to_act))  # type: ignore[index]


def test_parse_errors_say_what_is_wrong() -> None:
    st = Game(ruleset("rook"), 1).new_state()
    with pytest.raises(IllegalMoveError, match="no piece called 'red-41' \\(did you mean 'red-14'\\?\\)"):
        st.parse_move("play red-41")
    with pytest.raises(IllegalMoveError, match="unknown move 'jump'") as refused:
        st.parse_move("jump")
    # The hint names the verbs of this decision (an auction), not every verb of every game.
    verbs = sorted({m.verb for m in st.legal_moves()})
    assert str(refused.value).endswith(f"here a move starts with {' or '.join(verbs)}")
    assert "bid" in verbs and "claim" not in str(refused.value) and "challenge" not in str(refused.value)
    with pytest.raises(IllegalMoveError, match="'bid' takes exactly one value"):
        split_move_text("bid")
    with pytest.raises(IllegalMoveError, match="empty move"):
        split_move_text("  ")
    # a card play during the auction
    with pytest.raises(IllegalMoveError, match="not allowed in the auction"):
        st.apply("play red-14")


def test_clone_is_independent() -> None:
    st = Game(ruleset("rook"), 5).new_state()
    before = st.view(None)
    c = st.clone()
    c.apply(c.legal_moves()[-1])
    assert st.view(None) == before
    assert c.view(None) != before
    d = c.clone()
    d.apply(d.legal_moves()[0])
    assert c.view(None) != d.view(None)
    assert c.history != d.history


def _play_out(st: object, seed: int) -> History:
    agent_rng = RandomAgent(seed, 0)
    while not st.is_over:  # type: ignore[attr-defined]
        st.apply(agent_rng.choose(st, st.to_act))  # type: ignore[attr-defined]
    return st.history  # type: ignore[attr-defined,no-any-return]


def test_a_clone_deals_later_hands_as_the_original_would() -> None:
    """Chance after a clone continues the original's generator, for the original and every clone,
    however many clones were made and whichever of them draws first."""
    st = Game(ruleset("rook"), 5, max_hands=3).new_state()
    agent = RandomAgent(1, 0)
    while st.rs.phases[st.pidx].kind != "tricks":  # into the first hand's play: its deal is done
        st.apply(agent.choose(st, st.to_act))  # type: ignore[arg-type]
    cut = len(st.history)
    first, second = st.clone(), st.clone()
    grandchild = second.clone()
    histories = [_play_out(x, 3)[cut:] for x in (second, grandchild, st, first)]
    later_shuffles = [e for e in histories[0] if e.get("kind") == "shuffle"]
    assert later_shuffles  # a later hand was dealt after the clones were made
    assert all(h == histories[0] for h in histories)
