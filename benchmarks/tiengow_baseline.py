"""A hand-written, plain-Python random playout of Tien Gow, a naive speed yardstick.

It makes the same decisions as the engine playing ``variants/tien-gow`` with random agents — the
pickup method named by the seat opposite the dealer, every lead (uniform over every distinct
combination in hand: single, supreme pair, pairs, triples, quads) and every follow (uniform over the
face-up plays of the lead's size that beat the best so far, and every distinct set of as many tiles
face down) — with the rules hard-coded, including the 2-stack rule of the last round and the hand's
payments. It is written the obvious way: at every decision every set of tiles of the wanted sizes is
built and looked up in a table of combinations. It knows one game only: that is its point.
"""

from __future__ import annotations

import itertools
import random

# (id, kind, power, family, copies); the index in this list is the tile's type.
TILES = [
    ("6-6", "civil", 11, "heaven-nine", 2), ("1-1", "civil", 10, "earth-eight", 2),
    ("4-4", "civil", 9, "man-seven", 2), ("1-3", "civil", 8, "goose-five", 2),
    ("5-5", "civil", 7, None, 2), ("3-3", "civil", 6, None, 2), ("2-2", "civil", 5, None, 2),
    ("5-6", "civil", 4, None, 2), ("4-6", "civil", 3, None, 2), ("1-6", "civil", 2, None, 2),
    ("1-5", "civil", 1, None, 2),
    ("3-6", "military", 6, "heaven-nine", 1), ("4-5", "military", 6, "heaven-nine", 1),
    ("2-6", "military", 5, "earth-eight", 1), ("3-5", "military", 5, "earth-eight", 1),
    ("2-5", "military", 4, "man-seven", 1), ("3-4", "military", 4, "man-seven", 1),
    ("2-4", "military", 3, None, 1), ("1-4", "military", 2, "goose-five", 1),
    ("2-3", "military", 2, "goose-five", 1), ("1-2", "military", 1, None, 1),
]
TYPE_OF: list[int] = [t for t, tile in enumerate(TILES) for _ in range(tile[4])]  # tile -> type
IDS = {tile[0]: t for t, tile in enumerate(TILES)}
PICKUP_METHODS = 7
SWEEP_AFTER_BIG_LEAD = 4  # the no_ba_zhi option's cap on a sweep after the dealer's big first lead (off)

# Every combination of 2 to 4 tiles: sorted types -> (combination, class, strength).
COMBOS: dict[tuple[int, ...], tuple[str, str, int]] = {}


def _entry(combo: str, cls: str, strength: int, *pattern: str | tuple[str, ...]) -> None:
    choices = [[IDS[x]] if isinstance(x, str) else [IDS[y] for y in x] for x in pattern]
    for types in itertools.product(*choices):
        COMBOS[tuple(sorted(types))] = (combo, cls, strength)


_entry("supreme", "supreme", 1, "2-4", "1-2")
for _i, _civil in enumerate(["1-5", "1-6", "4-6", "5-6", "2-2", "3-3", "5-5", "1-3", "4-4", "1-1", "6-6"]):
    _entry("pair", "civil-pair", _i + 1, _civil, _civil)
for _i, (_a, _b) in enumerate([("1-4", "2-3"), ("2-5", "3-4"), ("2-6", "3-5"), ("3-6", "4-5")]):
    _entry("pair", "military-pair", _i + 1, _a, _b)
for _i, (_c, _m) in enumerate([("1-3", ("1-4", "2-3")), ("4-4", ("3-4", "2-5")), ("1-1", ("3-5", "2-6")),
                               ("6-6", ("3-6", "4-5"))]):
    _entry("pair", "mixed-pair", _i + 1, _c, _m)
    _entry("triple", "triple-2-civil", _i + 1, _c, _c, _m)
    _entry("triple", "triple-2-military", _i + 1, _c, *_m)
    _entry("quad", "quad", _i + 1, _c, _c, *_m)


def _key(tiles: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(sorted(TYPE_OF[x] for x in tiles))


def _rate(tiles: tuple[int, ...]) -> tuple[str, str, int] | None:
    """(combination, class, strength) of a face-up play, or None when it is no combination."""
    if len(tiles) == 1:
        kind, power = TILES[TYPE_OF[tiles[0]]][1:3]
        return "single", str(kind), int(power)
    return COMBOS.get(_key(tiles))


def _distinct(hand: list[int], size: int) -> list[tuple[int, ...]]:
    """Every distinct set of ``size`` tiles of the hand (identical tiles counted once)."""
    seen: set[tuple[int, ...]] = set()
    out = []
    for tiles in itertools.combinations(sorted(hand), size):
        k = _key(tiles)
        if k not in seen:
            seen.add(k)
            out.append(tiles)
    return out


def play_hand(rng: random.Random) -> int:
    """Play one random hand; returns the number of decisions made."""
    deck = list(range(len(TYPE_OF)))
    moves = 0
    dealer = (sum(rng.randint(1, 6) for _ in range(3)) - 1) % 4  # the first dealer's roll
    rng.shuffle(deck)
    rng.randrange(PICKUP_METHODS)  # the seat opposite the dealer names the pickup method
    moves += 1
    roll = sum(rng.randint(1, 6) for _ in range(3))
    rng.randint(1, 2)  # which end of the wall
    first = (dealer + 2 + roll - 1) % 4
    hands = [deck[8 * ((s - first) % 4): 8 * ((s - first) % 4) + 8] for s in range(4)]
    stacks = [0, 0, 0, 0]
    chips = [0, 0, 0, 0]
    terms = 1
    leader = dealer
    round_no = 1
    big_first_lead = last_barred = False
    hand_winner, win_method, qin_payer = -1, "", -1

    def factor(a: int, b: int) -> int:
        return 1 + terms if dealer in (a, b) else 1

    while hands[leader]:
        # the lead: every distinct combination in hand
        hand = hands[leader]
        leads = []
        for size in range(1, min(4, len(hand)) + 1):
            for tiles in _distinct(hand, size):
                rated = _rate(tiles)
                if rated is None:
                    continue
                if size == 1 and size == len(hand) and stacks[leader] == 0:
                    continue  # the 2-stack rule: cannot win the last round with no stack taken
                leads.append((tiles, rated))
        moves += 1
        if leads:
            tiles, rated = leads[rng.randrange(len(leads))]
            best, best_rate = leader, rated
        else:
            singles = _distinct(hand, 1)  # no combination may be led: one tile face down
            tiles = singles[rng.randrange(len(singles))]
            best, best_rate = -1, None
        last = len(tiles) == len(hand)
        k = len(tiles)
        played = {leader: (tiles, rated if leads else None)}
        for x in tiles:
            hand.remove(x)
        combo = played[leader][1][0] if leads else ""
        if round_no == 1 and leader == dealer and (combo == "supreme" or any(
                TILES[TYPE_OF[x]][0] == "6-6" or (TILES[TYPE_OF[x]][3] == "heaven-nine"
                                                  and TILES[TYPE_OF[x]][1] == "military") for x in tiles)):
            big_first_lead = True
        if combo == "supreme" and not last:  # 賀尊
            for s in range(4):
                if s != leader:
                    amount = 2 * factor(s, leader)
                    chips[s] -= amount
                    chips[leader] += amount
        for step in (1, 2, 3):
            seat = (leader + step) % 4
            hand = hands[seat]
            ups = []
            for cand in _distinct(hand, k):
                rated = _rate(cand)
                if rated is None or (best_rate is not None and (rated[1] != best_rate[1]
                                                                or rated[2] <= best_rate[2])):
                    continue  # no combination, or does not beat the best face-up play
                if last and k == 1 and stacks[seat] == 0:
                    last_barred = True
                    continue
                ups.append((cand, rated))
            downs = _distinct(hand, k)
            choice = rng.randrange(len(ups) + len(downs))
            moves += 1
            if choice < len(ups):
                cand, rated = ups[choice]
                best, best_rate = seat, rated
                played[seat] = (cand, rated)
            else:
                cand = downs[choice - len(ups)]
                played[seat] = (cand, None)
            for x in cand:
                hand.remove(x)
        winner = best if best >= 0 else leader
        stacks[winner] += k
        if combo == "quad" and not last:  # 四大賀
            for s in range(4):
                if s != winner:
                    amount = 4 * factor(s, winner)
                    chips[s] -= amount
                    chips[winner] += amount
        if last:
            hand_winner = winner
            best_combo = played[winner][1][0] if played[winner][1] else ""
            win_tile = TILES[TYPE_OF[played[winner][0][0]]][0]
            win_method = ("supreme" if best_combo == "supreme" else "quad" if best_combo == "quad" else
                          "yao" if best_combo == "single" and win_tile == "1-2" else "")
            led = TILES[TYPE_OF[played[leader][0][0]]][0]
            if winner != leader and combo == "single" and led == "1-2" and win_tile == "2-4":
                qin_payer = leader  # 擒
        leader = winner
        round_no += 1
    # settlement
    # a sweep is 七支 (x2) when won only thanks to the 2-stack rule, else 八支 (x4), capped after a big first lead
    cap = SWEEP_AFTER_BIG_LEAD if big_first_lead else 4
    sweep = min(2 if last_barred else 4, cap) if stacks[hand_winner] == 8 else 1
    for s in range(4):
        if s == hand_winner:
            continue
        if stacks[s] < 4:
            payer = qin_payer if qin_payer >= 0 else s
            amount = 5 if stacks[s] == 0 else 4 - stacks[s]
            if payer == dealer or hand_winner == dealer:
                amount *= 1 + terms
            amount *= {"supreme": 2, "quad": 4, "yao": 2}.get(win_method, 1)
            if qin_payer >= 0:
                amount *= 2
            amount *= sweep
            chips[payer] -= amount
            chips[hand_winner] += amount
        elif stacks[s] >= 5:
            amount = (stacks[s] - 4) * (1 + terms if hand_winner == dealer else 1)
            chips[hand_winner] -= amount
            chips[s] += amount
    return moves


def play_match(seed: int, max_hands: int = 1) -> int:
    """Random hands (one by default, as the benchmarks play); returns the number of decisions."""
    rng = random.Random(seed)
    return sum(play_hand(rng) for _ in range(max_hands))
