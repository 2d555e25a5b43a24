"""A hand-written, plain-Python random playout of Luk Fu (three players), a naive speed yardstick.

It makes the same decisions as the engine playing ``variants/luk-fu`` with random agents — the
declaration (pass or 'play', from 親), every lead (uniform over the singles, sets, sequences and the
five in hand that the lead rules allow: 親's first lead after passing, no old card alone while
holding one that is not old, a single from the strongest suit among cards that are not old; 'stop'
once a seat has 6 tricks) and every follow (uniform over the plays of the lead's size that beat the
best so far, or when there are none every set of as many cards face down) — with the rules
hard-coded, and the hand's payments. It is written the obvious way: at every decision every set of
cards of the wanted sizes is built and checked. It knows one game only: that is its point.
"""

from __future__ import annotations

import itertools
import random

# Cards 0..35 are suit * 9 + (rank - 1), suits coins, strings, myriads, tens; 36 is the special card.
SPECIAL = 36
FIVE = (0, 9, 18, 27, SPECIAL)  # the four 1s and the special card


def _suit(card: int) -> int:
    """Suit rank: 1 coins .. 4 tens, 0 the special card."""
    return 0 if card == SPECIAL else card // 9 + 1


def _rank(card: int) -> int:
    return 0 if card == SPECIAL else card % 9 + 1


def _unbeatable(card: int) -> bool:
    return card in (0, 27, SPECIAL)  # coins-1, tens-1 and the special card, led alone


def _plays(hand: list[int]) -> list[tuple[tuple[int, ...], str]]:
    """Every combination in a hand: (cards, kind), singles, sets of 3 or 4, sequences of 3 or more, the five."""
    out: list[tuple[tuple[int, ...], str]] = [((c,), "single") for c in sorted(hand)]
    by_rank: dict[int, list[int]] = {}
    by_suit: dict[int, list[int]] = {}
    for c in sorted(hand):
        if c != SPECIAL:
            by_rank.setdefault(_rank(c), []).append(c)
            by_suit.setdefault(_suit(c), []).append(c)
    for cards in by_rank.values():
        for n in (3, 4):
            out.extend((combo, "set") for combo in itertools.combinations(cards, n))
    for cards in by_suit.values():  # sorted by rank: every stretch of consecutive ranks
        for i in range(len(cards)):
            j = i
            while j + 1 < len(cards) and cards[j + 1] == cards[j] + 1:
                j += 1
                if j - i + 1 >= 3:
                    out.append((tuple(cards[i:j + 1]), "sequence"))
    if all(c in hand for c in FIVE):
        out.append((FIVE, "five"))
    return out


def _rate(cards: tuple[int, ...], kind: str, is_lead: bool) -> tuple[object, float]:
    """(class, strength) of a face-up play."""
    if kind == "single":
        c = cards[0]
        return _suit(c), (100 if is_lead and _unbeatable(c) else _rank(c))
    if kind == "five":
        return "five", 100
    top = _rank(cards[-1])
    if kind == "set":
        return ("set", len(cards)), (8.5 if top == 1 and is_lead else top)
    return ("sequence", len(cards)), _suit(cards[0]) * 10 + top


def play_hand(rng: random.Random, dealer: int = 0) -> int:
    """Play one random hand; returns the number of decisions made."""
    deck = list(range(37))
    rng.shuffle(deck)
    hands = [deck[0:12], deck[12:24], deck[24:36]]
    moves = 0
    elder = dealer
    # the declaration: from 親, pass or 'play'; the first 'play' ends it, all passing voids the hand
    declarer, passed = -1, [False, False, False]
    for k in range(3):
        s = (elder + k) % 3
        moves += 1
        if rng.randrange(2):
            declarer = s
            break
        passed[s] = True
    if declarer < 0:
        return moves
    elder_big = passed[elder] and any(len(cards) >= 4 and kind in ("set", "sequence")
                                      for cards, kind in _plays(hands[elder]))
    seen = [False] * 37  # played face up
    mine_down: list[set[int]] = [set(), set(), set()]  # each seat's own face-down discards
    tricks = [0, 0, 0]
    winner = -1
    elder_led = False
    leader = elder
    chips = [0, 0, 0]

    def old(card: int, seat: int) -> bool:
        if _unbeatable(card):
            return True
        if card == SPECIAL:
            return True
        hand = hands[seat]
        return all(seen[q] or q in mine_down[seat] or q in hand
                   for q in range(card + 1, (_suit(card)) * 9))

    while True:
        hand = hands[leader]
        cands = _plays(hand)
        if leader == elder and passed[elder] and not elder_led:
            cands = [c for c in cands if len(c[0]) < 4]
        if leader != declarer:
            singles_ok = [c for c in cands if len(c[0]) > 1 or not old(c[0][0], leader)]
            if any(len(c[0]) == 1 for c in singles_ok):
                cands = singles_ok  # old cards alone only when holding nothing else (if_able)
            free = [_suit(q) for q in hand if not old(q, leader)]
            strongest = max([*free, 0])
            cands = [c for c in cands if len(c[0]) > 1 or old(c[0][0], leader) or _suit(c[0][0]) == strongest]
        stop = tricks[leader] >= 6
        moves += 1
        choice = rng.randrange(len(cands) + (1 if stop else 0))
        if stop:
            if choice == 0:
                break
            choice -= 1
        cards, kind = cands[choice]  # (the rules always leave a card that may be led)
        best, best_rate = leader, _rate(cards, kind, True)
        for c in cards:
            seen[c] = True
        for c in cards:
            hand.remove(c)
        k = len(cards)
        is_five = kind == "five"
        if not is_five:
            for step in (1, 2):
                seat = (leader + step) % 3
                fhand = hands[seat]
                ups = []
                for cand, ckind in _plays(fhand):
                    if len(cand) == k:
                        rated = _rate(cand, ckind, False)
                        if rated[0] == best_rate[0] and rated[1] > best_rate[1]:
                            ups.append((cand, rated))
                moves += 1
                if ups:
                    cand, rated = ups[rng.randrange(len(ups))]
                    best, best_rate = seat, rated
                    for c in cand:
                        seen[c] = True
                else:
                    downs = list(itertools.combinations(sorted(fhand), k))
                    cand = downs[rng.randrange(len(downs))]
                    mine_down[seat].update(cand)
                for c in cand:
                    fhand.remove(c)
        won_by = best
        value = 6 if is_five else k
        tricks[won_by] += value
        if tricks[won_by] >= 6 and tricks[won_by] - value < 6:
            winner = won_by
        if leader == elder:
            elder_led = True
        if is_five or not hands[won_by]:
            break
        leader = won_by
    if winner >= 0:
        for s in range(3):
            if s == winner:
                continue
            if elder_big and winner == elder and declarer != elder and s != declarer:
                continue
            payer = declarer if declarer != winner else s
            amount = tricks[winner] - 5
            chips[payer] -= amount
            chips[winner] += amount
    return moves


def play_match(seed: int, max_hands: int = 1) -> int:
    """Random hands (one by default, as the benchmarks play); returns the number of decisions."""
    rng = random.Random(seed)
    return sum(play_hand(rng, h % 3) for h in range(max_hands))
