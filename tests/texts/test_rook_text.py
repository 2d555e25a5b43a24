"""Rook (tournament rules) played by the engine against a model written from the rule text alone
(RULES-NOTES §2).

The model knows nothing of the rule file. Seeded games under random option choices (where the Bird
ranks, when it is forced, the 1s kept, who takes the nest, who leads first) are played by the engine; at
every play the legal cards (follow suit, the Bird at any time, trump called by a Bird lead, the Bird
forced on a trump lead), at every trick its winner, and after every hand each team's counters and the
scores (bid made or lost, the other team's count, the nest) must be the model's.
"""

from __future__ import annotations

import random
from typing import Any

from rulecraft.engine.game import Game
from rulecraft.load import load_ruleset

BIRD = "rook-bird"
OPTIONS = {
    "bird_rank": ["highest", "lowest", "between-10-11"],
    "bird_forced": ["always", "only-trump"],
    "ones": ["removed", "kept"],
    "nest_to": ["last-trick", "bidder"],
    "first_lead": ["left-of-dealer", "left-of-bidder"],
    "redeal": ["not-allowed"],  # a redeal call would only cut hands short here
}


def suit(c: str) -> str:
    return "bird" if c == BIRD else c.rsplit("-", 1)[0]


def order(c: str) -> int:
    r = int(c.rsplit("-", 1)[1])
    return 15 if r == 1 else r  # a kept 1 ranks above the 14


def points(c: str) -> int:
    if c == BIRD:
        return 20
    r = int(c.rsplit("-", 1)[1])
    return 15 if r == 1 else 5 if r == 5 else 10 if r in (10, 14) else 0


def legal_cards(hand: list[str], trick: list[str], trump: str, o: dict[str, str]) -> set[str]:
    if not trick:
        return set(hand)
    led = trump if trick[0] == BIRD else suit(trick[0])  # a Bird lead calls for trump
    if led == trump and BIRD in hand:
        trumps = [c for c in hand if c == BIRD or suit(c) == trump]
        if o["bird_forced"] == "always" or len(trumps) == 1:
            return {BIRD}
    follow = {c for c in hand if c != BIRD and suit(c) == led}
    return follow | ({BIRD} & set(hand)) if follow else set(hand)  # the Bird may be played any time


def trick_winner(trick: list[str], seats: list[int], trump: str, o: dict[str, str]) -> int:
    bird = {"highest": 16.0, "lowest": 0.0, "between-10-11": 10.5}[o["bird_rank"]]
    led = trump if trick[0] == BIRD else suit(trick[0])

    def strength(c: str) -> tuple[int, float]:
        if c == BIRD:
            return (2, bird)
        return (2, order(c)) if suit(c) == trump else (1, order(c)) if suit(c) == led else (0, 0)
    return seats[max(range(4), key=lambda i: (strength(trick[i]), -i))]


def play_and_check(game: int, seed: int) -> tuple[list[str], int]:
    rng = random.Random(seed * 1000 + game)
    o = {k: rng.choice(v) for k, v in OPTIONS.items()}
    st = Game(load_ruleset("rook", options=o), seed * 1000 + game, max_hands=3).new_state()
    problems: list[str] = []
    hands = 0
    trick: list[str] = []
    seats: list[int] = []
    nest: list[str] = []
    won: dict[int, list[str]] = {0: [], 1: []}
    bid, declarer, trump, last = 0, 0, "", 0
    score = [0, 0]
    while not st.is_over:
        view: dict[str, Any] = st.view(None)
        seat = st.to_act
        assert seat is not None
        legal = st.legal_moves()
        names = [str(m) for m in legal]
        if view["phase"] == "play":
            hand = view["zones"][f"hand[{seat}]"]["pieces"]
            got = {x.split()[1] for x in names if x.startswith("play ")}
            want = legal_cards(hand, trick, trump, o)
            if got != want:
                problems.append(f"{o} trick {trick} (trump {trump}) holding {hand}: "
                                f"engine {sorted(got)}, text {sorted(want)}")
        passing = "pass" in names and len(names) > 1 and rng.random() < 0.5
        move = legal[names.index("pass")] if passing else rng.choice(legal)
        text = str(move)
        ended = len(st.hand_results)
        st.apply(move)
        verb = text.split()[0]
        if verb == "bid":
            bid, declarer = int(text.split()[1]), seat
        elif verb == "give":
            nest.append(text.split()[1])
        elif verb == "name":
            trump = text.split()[1]
        elif verb == "play":
            trick.append(text.split()[1])
            seats.append(seat)
            if len(trick) == 4:
                last = trick_winner(trick, seats, trump, o)
                engine = [e for e in st.history if e.get("type") == "round"][-1]["winner"]
                if engine != last:
                    problems.append(f"{o} trick {trick} by {seats}, trump {trump}: engine {engine}, text {last}")
                won[last % 2] += trick
                trick, seats = [], []
        for result in st.hand_results[ended:]:
            if not result["voided"]:
                hands += 1
                won[declarer % 2 if o["nest_to"] == "bidder" else last % 2] += nest
                counted = [sum(map(points, won[t])) for t in (0, 1)]
                team = declarer % 2
                score[team] += counted[team] if counted[team] >= bid else -bid
                score[1 - team] += counted[1 - team]
                if result["vars"]["counted"] != counted:
                    problems.append(f"{o} counters: engine {result['vars']['counted']}, text {counted}")
                if not st.is_over and st.view(None)["variables"]["score"] != score:
                    problems.append(f"{o} score: engine {st.view(None)['variables']['score']}, text {score}")
            trick, seats, nest, won, bid, trump = [], [], [], {0: [], 1: []}, 0, ""
    return problems, hands


def test_rook_plays_tricks_and_scores_follow_the_text() -> None:
    problems: list[str] = []
    hands = 0
    for game in range(24):
        found, played = play_and_check(game, seed=2)
        problems += found
        hands += played
    assert not problems, "\n".join(problems[:10])
    assert hands >= 40, hands
