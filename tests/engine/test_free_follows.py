"""Free follows (follow.free): a follower may play as many pieces face up that form no combination,
holding as many preferred pieces (the led suit) as it can; such a play wins nothing (Sheng Ji's
scenarios free-follow and tractors say who wins)."""

from __future__ import annotations

from pathlib import Path

import pytest
from support import ruleset

from rulecraft.engine.state import State
from rulecraft.errors import RulecraftError
from rulecraft.load import load_ruleset
from rulecraft.runs.scenario import start_arranged

BURY = ["give c3", "give c3", "give c4", "give c4", "give c6", "give c6", "give c7", "give c7"]
DEAL = {
    # seat 0 leads a pair of kings of diamonds; seat 3 holds three diamonds, none paired
    "hand[0]": ["dK", "dK", "d3", "d3", "d4", "d4", "d6", "d6", "d7", "d7", "d8", "d8", "d9", "d10", "d10",
                "dJ", "dJ", "dA", "dA", "c3", "c3", "c4", "c4", "c6", "c6", "c7", "c7"],
    "hand[3]": ["d5", "d5", "d9", "hA", "hA", "c8"],
    "hand[2]": ["dQ", "dQ"],
}


def _after_lead(lead: str) -> State:
    st = start_arranged(ruleset("sheng-ji", trump="hearts"), {"deal": DEAL})
    for move in [*BURY, lead]:
        st.apply(move)
    assert st.to_act == 3
    return st


def _diamonds(st: State, move_text: str) -> int:
    return sum(1 for w in move_text.split()[1:] if w.startswith("d") and w != "d2")


def test_a_follow_holds_as_many_of_the_led_suit_as_it_can() -> None:
    st = _after_lead("play dK dK")
    legal = [m.text for m in st.legal_moves()]
    assert "play d5 d5" in legal  # the pair of the led suit
    assert "play d5 d9" not in legal  # two unpaired diamonds while holding a pair
    st = _after_lead("play d10 d10 dJ dJ")  # a tractor: four cards, seat 3 has three diamonds
    legal = [m.text for m in st.legal_moves()]
    assert legal and all(_diamonds(st, t) == 3 for t in legal)
    assert "play c8 d5 d5 d9" in legal and "play d5 d5 d9 hA" in legal


def test_a_free_follow_is_offered_once_and_wins_nothing() -> None:
    legal = [m.text for m in _after_lead("play dK dK").legal_moves()]
    assert legal.count("play d5 d5") == 1  # the pair, not also the same pieces as a free follow
    st = _after_lead("play d10 d10 dJ dJ")
    st.apply("play d5 d5 d9 hA")  # no combination: a free follow (a trump among them)
    assert st.to_act == 2
    best = st.pdata.best
    assert st.pdata.seats[best] == 0  # the tractor led is still the best play


def test_free_follows_are_refused_where_a_follow_must_beat(tmp_path: Path) -> None:
    text = Path("tests/engine/rules/pairs-in-a-row.yaml").read_text(encoding="utf-8").replace(
        "follow: {face_up: any, face_down: when_cannot_beat}",
        "follow: {face_up: beating, face_down: when_cannot_beat, free: {prefer: \"suit(piece) == suit(led)\"}}")
    path = tmp_path / "beating.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RulecraftError, match="free follows win nothing"):
        load_ruleset(str(path))
