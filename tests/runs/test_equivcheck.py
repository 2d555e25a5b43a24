"""The random-game check of listed equivalents (``runs/equivcheck.py``) on a game of long hands: Sheng Ji.

Sheng Ji's tractors are ordered by ``100 * index_of(suits, suit_of(piece)) + power(piece)``. Written
with 101, the order still runs within a suit, yet the mutant cuts a suit's cards into parts otherwise
when it offers throws: some throws the rules as written offer are not offered. A random leader seldom
picks that throw among the dozens of leads on offer, so the moves *made* agree for the first ten games;
the moves *offered* do not.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulecraft.engine.ruleset import Ruleset
from rulecraft.load import load_ruleset
from rulecraft.runs.equivcheck import SEED, Written, dealt_alike, first_difference, play_written, replay_difference

ROOT = Path(__file__).resolve().parents[2]
SHENG_JI = ROOT / "variants" / "sheng-ji" / "base.yaml"
ORDER = 'order: "100 * index_of(suits, suit_of(piece)) + power(piece)"'


def mutated(tmp_path: Path, old: str, new: str) -> Ruleset:
    text = SHENG_JI.read_text(encoding="utf-8")
    assert text.count(old) == 1
    path = tmp_path / "sheng-ji.yaml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return load_ruleset(str(path), {"trump": "declared"})


@pytest.fixture(scope="module")
def written() -> Ruleset:
    return load_ruleset(str(SHENG_JI), {"trump": "declared"})


def test_a_throw_the_mutant_no_longer_offers_is_found(written: Ruleset, tmp_path: Path) -> None:
    mutant = mutated(tmp_path, ORDER, ORDER.replace("100", "101"))
    kept: dict[tuple[int, int], Written] = {}
    found = first_difference([written], [mutant], 20_000, kept)
    assert found.startswith(f"game 12 (seed {SEED + 11}) of sheng-ji offers other moves at move 291: seat "), found
    assert "as written, not with the mutant" in found
    # The first eleven games make the same moves with either rules: comparing only the moves made
    # (the check as it was, ten games) let this listing stand.
    assert all(kept[(id(written), i)].moves == play_written(mutant, SEED + i).moves for i in range(11))
    # Its budget spent before game 12, the check finds nothing.
    short = sum(len(kept[(id(written), i)].moves) for i in range(11))
    assert first_difference([written], [mutant], short, kept) == ""


def test_a_change_no_game_can_show_is_not_reported(written: Ruleset, tmp_path: Path) -> None:
    # The phase 'level' sets trump_rank every hand before anything reads it: its initial value is never seen.
    mutant = mutated(tmp_path, 'trump_rank: {scope: hand, type: number, initial: 2,',
                     'trump_rank: {scope: hand, type: number, initial: 3,')
    assert first_difference([written], [mutant], 3000, {}) == ""


def test_a_change_of_the_score_only_is_found_at_the_end(written: Ruleset, tmp_path: Path) -> None:
    # The opponents take over at 70 rather than 80: the same moves are offered all hand, but a hand
    # the opponents end with 70 or 75 points is scored otherwise.
    mutant = mutated(tmp_path, "target: 80", "target: 70")
    game = play_written(written, SEED)
    assert len(game.moves) > 300  # two whole hands
    found = first_difference([written], [mutant], 20_000, {})
    # (game 13's second hand: the opponents end it with 70 or 75; as written the declarers go up a level)
    assert found.startswith(f"game 13 (seed {SEED + 12}) of sheng-ji ends with another result"), found
    assert replay_difference(written, written, SEED, game) == (len(game.moves), "")


def test_a_deal_cut_into_other_packets_is_told_by_what_it_deals(tmp_path: Path) -> None:
    # Auction Pinochle deals 15 cards each in packets of 3; in packets of 4 a seed's shuffle gives the
    # seats other cards, so the games of that seed differ from the first card played. Dealt the cards
    # the rules as written dealt (as a scenario names them), the mutant plays the first hand alike:
    # how a shuffled pack is cut changes no game.
    text = (ROOT / "variants" / "auction-pinochle" / "base.yaml").read_text(encoding="utf-8")
    old = 'count: 15, packet: 3,'
    assert text.count(old) == 1
    path = tmp_path / "pinochle.yaml"
    path.write_text(text.replace(old, 'count: 15, packet: 4,'), encoding="utf-8")
    written, mutant = load_ruleset("auction-pinochle"), load_ruleset(str(path))
    game = play_written(written, SEED)
    at, found = replay_difference(written, mutant, SEED, game)
    assert found.startswith("offers other moves") and at < game.first_hand
    assert dealt_alike(written, mutant, SEED, game)
    assert first_difference([written], [mutant], 2000, {}) == ""
    # A change of the play itself is not excused: dealt alike, the game still goes another way.
    bids = "bids: {min: 300, max: 650, step: 10}"
    assert text.count(bids) == 1
    path.write_text(text.replace(bids, "bids: {min: 310, max: 650, step: 10}"), encoding="utf-8")
    assert not dealt_alike(written, load_ruleset(str(path)), SEED, game)
