"""A variable's declared visibility decides what each seat's view shows of it (as for zones)."""

from __future__ import annotations

import copy

import pytest
from support import ruleset

from rulecraft.engine.build import build_from_data
from rulecraft.engine.game import Game
from rulecraft.engine.ruleset import Ruleset
from rulecraft.errors import RuleFileError
from rulecraft.load import load_ruleset


def _with_variable(**spec: object) -> Ruleset:
    """Luk Fu with its per-seat `passed` variable declared as ``spec`` says."""
    base = load_ruleset("luk-fu")
    assert base.composed is not None
    data = copy.deepcopy(base.composed.data)
    data["variables"]["passed"] = {"scope": "hand", "per": spec.pop("per", "seat"), "initial": False, **spec}
    return build_from_data(data, name="luk-fu", chosen={}, content_hash="test")


def test_a_single_value_with_an_owner_shows_only_to_that_seat() -> None:
    rs = ruleset("luk-fu")
    st = Game(rs, 1).new_state()
    st.vars[rs.var_index["elder_big"]] = True
    elder = st.var("elder")
    assert st.view(elder)["variables"]["elder_big"] is True
    for seat in range(rs.seats.count):
        if seat != elder:
            assert "elder_big" not in st.view(seat)["variables"]
    assert st.view(None)["variables"]["elder_big"] is True  # replays and debugging see everything


def test_nobody_hides_a_value_from_every_seat_but_rules_still_read_it() -> None:
    rs = ruleset("luk-fu")
    st = Game(rs, 1).new_state()
    st.vars[rs.var_index["old_leads"]] = 2
    assert all("old_leads" not in st.view(s)["variables"] for s in range(rs.seats.count))
    assert st.var("old_leads") == 2


def test_a_per_seat_owner_variable_shows_each_seat_only_its_own_entry() -> None:
    rs = _with_variable(visibility="owner")
    st = Game(rs, 1).new_state()
    st.vars[rs.var_index["passed"]] = [True, False, True]
    assert st.view(0)["variables"]["passed"] == [True, None, None]
    assert st.view(1)["variables"]["passed"] == [None, False, None]
    assert st.view(None)["variables"]["passed"] == [True, False, True]


@pytest.mark.parametrize(("spec", "message"), [
    ({"visibility": "secret"}, "visibility is one of owner, all, nobody, not 'secret'"),
    ({"visibility": "owner", "per": "none"}, "say which seat may see it"),
    ({"visibility": "all", "owner": "dealer"}, "'owner' names the seat that may see a single value"),
])
def test_a_wrong_visibility_is_refused_saying_why(spec: dict[str, object], message: str) -> None:
    with pytest.raises(RuleFileError, match=message):
        _with_variable(**spec)
