"""A hand-written, plain-Python random playout of Rook (tournament rules), the speed baseline.

It makes the same decisions as the engine with random agents — bids (uniform over pass and every
legal bid), the five cards put back into the nest one at a time, trump, and every card played
(uniform over the legal cards) — with the rules hard-coded, so the benchmark can report the
generic engine's speed as a ratio of what straightforward Python achieves on the same machine,
in the same run. It knows one game only: that is its point.
"""

from __future__ import annotations

import random

SUITS = ("red", "yellow", "green", "black")
BIRD = 40  # cards 0..39 are suit * 10 + (rank - 5); 40 is the Rook Bird


def _suit(card: int) -> int:
    return 4 if card == BIRD else card // 10


def _rank(card: int) -> int:
    return 0 if card == BIRD else card % 10 + 5


def _points(card: int) -> int:
    if card == BIRD:
        return 20
    r = _rank(card)
    return 5 if r == 5 else (10 if r in (10, 14) else 0)


def play_match(seed: int, max_hands: int = 200) -> int:
    """Play one random match; returns the number of decisions (moves) made."""
    rng = random.Random(seed)
    score = [0, 0]
    dealer = 0
    moves = 0
    for _ in range(max_hands):
        deck = list(range(41))
        rng.shuffle(deck)
        hands: list[list[int]] = [[], [], [], []]
        nest: list[int] = []
        seat = (dealer + 1) % 4
        dealt = 0
        while deck:
            hands[seat].append(deck.pop())
            dealt += 1
            seat = (seat + 1) % 4
            if dealt % 4 == 0 and len(nest) < 5 and deck:
                nest.append(deck.pop())
        # auction: passing is final; uniform over pass and every legal bid
        passed = [False] * 4
        high, high_seat = 0, -1
        turn = (dealer + 1) % 4
        redeal = False
        while True:
            live = [s for s in range(4) if not passed[s]]
            if not live:
                break
            if live == [high_seat]:
                break
            if passed[turn]:
                turn = (turn + 1) % 4
                continue
            options = ["pass", *list(range(70 if high == 0 else high + 5, 121, 5))]
            if not any(_points(c) for c in hands[turn]):
                options.append("redeal")
            choice = options[rng.randrange(len(options))]
            moves += 1
            if choice == "redeal":
                redeal = True
                break
            if choice == "pass":
                passed[turn] = True
            else:
                high, high_seat = int(choice), turn
            turn = (turn + 1) % 4
        if redeal or high_seat < 0:
            continue
        declarer = high_seat
        hands[declarer].extend(nest)
        nest = []
        for _ in range(5):
            card = hands[declarer].pop(rng.randrange(len(hands[declarer])))
            nest.append(card)
            moves += 1
        trump = rng.randrange(4)
        moves += 1
        won: list[list[int]] = [[], []]
        leader = (dealer + 1) % 4
        for trick in range(9):
            played: list[tuple[int, int]] = []
            led_suit = -1
            for k in range(4):
                s = (leader + k) % 4
                hand = hands[s]
                if k == 0:
                    legal = hand
                else:
                    # follow suit if able; the Bird may always be played and does not count as following
                    follow = [c for c in hand if c != BIRD and _suit(c) == led_suit]
                    legal = ([*follow, BIRD] if BIRD in hand else follow) if follow else hand
                    if led_suit == trump and BIRD in hand:
                        legal = [BIRD]
                card = legal[rng.randrange(len(legal))]
                hand.remove(card)
                moves += 1
                if k == 0:
                    led_suit = trump if card == BIRD else _suit(card)
                played.append((s, card))

            def strength(card: int, led: int = led_suit, trump: int = trump) -> float:
                suit = trump if card == BIRD else _suit(card)
                if suit == trump:
                    return 100 + (16 if card == BIRD else _rank(card))
                return _rank(card) if suit == led else 0

            winner = max(played, key=lambda sc: strength(sc[1]))[0]
            won[winner % 2].extend(c for _, c in played)
            if trick == 8:
                won[winner % 2].extend(nest)
            leader = winner
        counted = [sum(_points(c) for c in won[t]) for t in (0, 1)]
        bidder_team = declarer % 2
        if counted[bidder_team] >= high:
            score[bidder_team] += counted[bidder_team]
        else:
            score[bidder_team] -= high
        score[1 - bidder_team] += counted[1 - bidder_team]
        dealer = (dealer + 1) % 4
        if max(score) >= 300 and score[0] != score[1]:
            break
    return moves
