"""Restrictions apply in the order listed, each to the plays the earlier ones left: an ``if_able``
restriction lapses when none of *those* plays it applies to would pass (docs/rule-files.md)."""

from __future__ import annotations

import copy
import random

from support import ruleset

from rulecraft.engine.build import build_from_data
from rulecraft.engine.game import Game
from rulecraft.engine.ruleset import Ruleset

HIGH = {"id": "play-high", "allow": "order(piece) >= 12", "if_able": True, "message": "play a queen or better"}


def _hearts_with_high(first: bool) -> Ruleset:
    """Hearts without its pass, with one more follow restriction before or after follow-suit."""
    data = copy.deepcopy(ruleset("hearts").composed.data)  # type: ignore[union-attr]
    data["hand"]["phases"] = [p for p in data["hand"]["phases"] if p["id"] != "pass"]
    data["display"]["names"]["phases"].pop("pass")  # (its name, too: built from data, no overlay deleted it)
    play = next(p for p in data["hand"]["phases"] if p["id"] == "play")
    rules = [r for r in play["follow"]["restrictions"] if r["id"] == "follow-suit"]
    play["follow"]["restrictions"] = [HIGH, *rules] if first else [*rules, HIGH]
    return build_from_data(data, name="hearts", chosen={}, content_hash="test")


def test_an_if_able_restriction_is_judged_among_the_plays_the_earlier_ones_left() -> None:
    after, before = _hearts_with_high(first=False), _hearts_with_high(first=True)
    for seed in range(40):
        a, b = Game(after, seed).new_state(), Game(before, seed).new_state()
        rng = random.Random(seed)
        while not a.is_over and a.hand_no == 1:
            seat = a.to_act
            assert seat is not None
            led = a.pdata.plays[0].pieces[0] if getattr(a.pdata, "plays", None) else None
            if led is not None:
                suit, order = a.rs.pieces.columns["suit"], a.rs.pieces.columns["order"]
                hand = a.hand(seat)
                mine = [p for p in hand if suit[p] == suit[led]]
                high_other = [p for p in hand if suit[p] != suit[led] and order[p] >= 12]
                if mine and all(order[p] < 12 for p in mine) and high_other:
                    # listed after follow-suit, play-high lapses: any card of the suit led
                    assert {m.pieces[0] for m in a.legal_moves()} == set(mine)
                    # listed first, it keeps the high cards; follow-suit then finds none of them following and lapses
                    assert {m.pieces[0] for m in b.legal_moves()} == set(high_other)
                    return
            moves = a.legal_moves()
            move = moves[rng.randrange(len(moves))]
            a.apply(move.text)
            if move.text in {m.text for m in b.legal_moves()}:
                b.apply(move.text)
            else:
                break  # the two games part here: try the next seed
    raise AssertionError("no position found where the order matters")
