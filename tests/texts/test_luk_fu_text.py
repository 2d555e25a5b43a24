"""Luk Fu played by the engine against a model written from the rule text alone (RULES-NOTES §1).

The model knows nothing of the rule file. Seeded games under random option choices (3 or 4 players,
both readings of old cards, the five's three readings, every payment option) are played by the engine,
and at every decision the legal leads (old cards, the strongest suit, the declarer's freedom, a hand of
only old cards, 親's first lead after passing) and follows (beat the best play if you can, else discard
face down), and after every hand the winner, the payments and the next dealer, must be the model's.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations
from typing import Any

from rulecraft.engine.game import Game
from rulecraft.load import load_ruleset

SUIT_ORDER = {"coins": 1, "strings": 2, "myriads": 3, "tens": 4}
FIVE = ["coins-1", "li-tyen", "myriads-1", "strings-1", "tens-1"]
UNBEATABLE_LED = {"coins-1", "tens-1", "li-tyen"}  # old, and unbeatable when led alone
RED = {"coins-9", "strings-9", "myriads-9", "tens-9", "tens-8", "coins-1", "tens-1", "li-tyen"}

OPTIONS = {
    "players": ["3", "4"],
    "old_cards": ["known-to-leader", "public-plus-original-run"],
    "doubled_high": ["off", "on"],
    "red_cards": ["off", "captured", "own-winning"],
    "five_tricks": ["six", "eight", "unbeatable"],
    "no_winner_deal": ["moves", "stays-if-elder-declared"],
    "passed_elder_five": ["barred", "may-show"],
}

Play = tuple[int, bool, list[str]]


def rank(c: str) -> int:
    return 0 if c == "li-tyen" else int(c.split("-")[1])


def suit(c: str) -> str:
    return "special" if c == "li-tyen" else c.split("-")[0]


def kind(cards: list[str]) -> str | None:
    """single, set, sequence or five; None for cards that make no lead."""
    if len(cards) == 1:
        return "single"
    if sorted(cards) == FIVE:
        return "five"
    if "li-tyen" in cards:
        return None
    ranks = sorted(rank(c) for c in cards)
    if len(cards) in (3, 4) and len(set(ranks)) == 1:
        return "set"
    if len(cards) >= 3 and len({suit(c) for c in cards}) == 1 and ranks == list(range(ranks[0], ranks[0] + len(cards))):
        return "sequence"
    return None


def beats(play: list[str], best: list[str], best_led: bool) -> bool:
    k = kind(play)
    if k is None or k != kind(best) or len(play) != len(best) or k == "five":
        return False
    if k == "single":
        if best_led and best[0] in UNBEATABLE_LED:
            return False
        return suit(play[0]) == suit(best[0]) and rank(play[0]) > rank(best[0])
    if k == "set":
        if best_led and rank(best[0]) == 1:
            return rank(play[0]) == 9  # a led set of 1s falls only to 9s
        return rank(play[0]) > rank(best[0])
    mine, theirs = SUIT_ORDER[suit(play[0])], SUIT_ORDER[suit(best[0])]
    return mine > theirs or (mine == theirs and max(map(rank, play)) > max(map(rank, best)))


def is_old(card: str, hand: set[str], seen: set[str], own_discards: set[str], dealt: set[str], reading: str) -> bool:
    if card in UNBEATABLE_LED:
        return True
    s, r = suit(card), rank(card)
    if reading == "known-to-leader":  # what the leader knows cannot beat it
        return all(f"{s}-{q}" in seen | own_discards | hand for q in range(r + 1, 10))
    # the top card not yet played face up, and the cards dealt to the leader in sequence with it
    top = next((q for q in range(9, 0, -1) if f"{s}-{q}" not in seen), 0)
    return top <= r or all(f"{s}-{q}" in dealt for q in range(r, top + 1))


def expected_leads(hand: list[str], free: bool, only_small: bool, old: set[str]) -> set[Any]:
    held = set(hand)
    if free:
        singles = held
    else:
        new = [c for c in hand if c not in old]
        strongest = max((SUIT_ORDER[suit(c)] for c in new), default=None)
        singles = {c for c in new if SUIT_ORDER[suit(c)] == strongest} if new else held
    leads: set[tuple[str, ...]] = {(c,) for c in singles}
    leads |= {tuple(sorted(c)) for k in range(3, len(hand) + 1) for c in combinations(sorted(hand), k)
              if kind(list(c)) is not None}
    if only_small:
        leads = {c for c in leads if len(c) < 4}
    return leads


def expected_follows(hand: list[str], plays: list[Play]) -> tuple[set[Any], set[Any]]:
    size = len(plays[0][2])
    best_at = max((i for i, p in enumerate(plays) if p[1]), default=0)
    best = plays[best_at][2]
    up = {tuple(sorted(c)) for c in combinations(hand, size) if beats(list(c), best, best_at == 0)}
    return up, (set() if up else {tuple(sorted(c)) for c in combinations(hand, size)})


Payments = Counter[tuple[int, int, int]]


def settle(o: dict[str, str], n: int, dealer: int, dealt: dict[int, set[str]], declarer: int | None,
           passed: set[int], rounds: list[tuple[list[Play], int, int]]) -> tuple[Payments, int, set[str]]:
    """The payments of a hand played out, the next dealer, and which rules came into it."""
    seen: set[str] = set()
    elder = dealer if n == 3 else (dealer + 2) % 4
    tricks: Counter[int] = Counter()
    winner = None
    for _, w, value in rounds:
        before = tricks[w]
        tricks[w] += value
        if before < 6 <= tricks[w]:
            if winner is not None:
                seen.add("later-six")
            winner = w  # a seat that plays on past 6 loses to a later 6
    pays: Counter[tuple[int, int, int]] = Counter()
    if winner is None:
        seen.add("no-winner")
        stays = o["no_winner_deal"] == "stays-if-elder-declared" and declarer == elder
        return pays, dealer if stays else (dealer - 1) % n, seen
    assert declarer is not None  # a hand played out had a declarer
    losers = [s for s in range(n) if s != winner and not (n == 4 and s == dealer)]
    payer = {s: declarer if declarer != winner else s for s in losers}  # a losing declarer pays for both
    hand = sorted(dealt[elder])
    big = any(len(c) >= 4 and kind(list(c)) in ("set", "sequence") for c in combinations(hand, 4))
    half = elder in passed and big and winner == elder and declarer != elder
    if half:
        seen.add("elder-collects-from-declarer-only")
    total = tricks[winner]
    base = (total - 5) * (3 if o["doubled_high"] == "on" and total >= 12 else
                          2 if o["doubled_high"] == "on" and total >= 10 else 1)
    taken = [c for plays, w, _ in rounds if w == winner for _, _, cs in plays for c in cs]
    own = [c for plays, w, _ in rounds if w == winner for s, _, cs in plays if s == winner for c in cs]
    red = {"off": 0, "captured": sum(c in RED for c in taken),
           "own-winning": sum(c in RED for c in own)}[o["red_cards"]]
    for s in losers:
        if not half or s == declarer:
            pays[(payer[s], winner, base)] += 1
            if red:
                pays[(payer[s], winner, red)] += 1
                seen.add("red-cards")
    if n == 4:
        card = next(iter(dealt[dealer]))
        r = 1 if card == "li-tyen" else rank(card)
        bonus = sum((1 if c == "li-tyen" else rank(c)) == r for c in own)
        for s in losers:
            if bonus:
                pays[(payer[s], dealer, bonus)] += 1
                seen.add("dealer-bonus")
    if declarer != winner:
        seen.add("declarer-lost")
    return pays, dealer if winner == dealer else (dealer - 1) % n, seen


def play_and_check(game: int, seed: int) -> tuple[list[str], set[str]]:
    rng = random.Random(seed * 1000 + game)
    o = {k: rng.choice(v) for k, v in OPTIONS.items()}
    n = int(o["players"])
    st = Game(load_ruleset("luk-fu", options=o), seed * 1000 + game, max_hands=5).new_state()
    problems: list[str] = []
    used: set[str] = set()
    dealer, hand_no, read = 0, 0, 0
    dealt: dict[int, set[str]] = {}
    seen: set[str] = set()
    discards: dict[int, set[str]] = {}
    declarer: int | None = None
    passed: set[int] = set()
    elder_led = False
    plays: list[Play] = []
    rounds: list[tuple[list[Play], int, int]] = []
    while not st.is_over:
        view = st.view(None)
        if view["hand_number"] != hand_no:
            hand_no = view["hand_number"]
            if view["variables"]["dealer"] != dealer:
                problems.append(f"{o} hand {hand_no}: dealer {view['variables']['dealer']}, the text {dealer}")
                dealer = view["variables"]["dealer"]
            dealt = {s: set(view["zones"][f"hand[{s}]"]["pieces"]) for s in range(n)}
            seen, discards, rounds = set(), {s: set() for s in range(n)}, []
            declarer, passed, elder_led = None, set(), False
        elder = dealer if n == 3 else (dealer + 2) % 4
        seat = st.to_act
        assert seat is not None
        legal = st.legal_moves()
        names = [str(m) for m in legal]
        if view["phase"] == "play":
            hand = view["zones"][f"hand[{seat}]"]["pieces"]
            got_up = {tuple(sorted(x.split()[1:])) for x in names if x.startswith("play ")}
            got_down = {tuple(sorted(x.split()[1:])) for x in names if x.startswith("down ")}
            if not plays:
                old = {c for c in hand if is_old(c, set(hand), seen, discards[seat], dealt[seat], o["old_cards"])}
                small = seat == elder and elder in passed and not elder_led
                want = expected_leads(hand, seat == declarer, small, old)
                if small and o["passed_elder_five"] == "may-show" and sorted(hand) != FIVE and set(FIVE) <= set(hand):
                    want.add(tuple(FIVE))
                if got_up != want:
                    problems.append(f"{o} lead by seat {seat} holding {sorted(hand)}: {sorted(got_up ^ want)} differ")
                used.add("old-card-restricted" if any(len(c) == 1 for c in want) and len(
                    [c for c in want if len(c) == 1]) < len(hand) else "lead")
            else:
                up, down = expected_follows(hand, plays)
                if (got_up, got_down) != (up, down):
                    problems.append(f"{o} seat {seat} after {plays} holding {hand}: face up {sorted(got_up ^ up)}, "
                                    f"face down {len(got_down)} vs {len(down)}")
        face_up = [m for m in legal if str(m).startswith("play ")]
        if "stop" in names and rng.random() < 0.5:
            move = legal[names.index("stop")]
        elif "call play" in names and rng.random() < 0.5:
            move = legal[names.index("call play")]
        else:
            move = rng.choice(face_up) if face_up and rng.random() < 0.8 else rng.choice(legal)
        ended = len(st.hand_results)
        st.apply(move)
        for ev in st.history[read:]:
            if ev.get("type") == "move":
                verb, *cards = ev["move"].split()
                if ev["move"] == "call play":
                    declarer = ev["seat"]
                elif verb == "pass" and declarer is None:
                    passed.add(ev["seat"])
                elif verb in ("play", "down"):
                    elder_led = elder_led or (not plays and ev["seat"] == elder)
                    plays.append((ev["seat"], verb == "play", cards))
                    (seen if verb == "play" else discards[ev["seat"]]).update(cards)
            elif ev.get("type") == "round":
                lead = plays[0][2]
                value = {"six": 6, "eight": 8, "unbeatable": 5}[o["five_tricks"]] if sorted(lead) == FIVE else len(lead)
                if ev["value"] != value:
                    problems.append(f"{o} a lead of {lead} counted {ev['value']} tricks, the text {value}")
                rounds.append((plays, ev["winner"], value))
                plays = []
        read = len(st.history)
        for result in st.hand_results[ended:]:
            paid: Payments = Counter()
            if result["voided"]:
                used.add("all-pass")
                dealer = (dealer - 1) % n  # everyone passed: the deal moves right
            else:
                paid, dealer, rules = settle(o, n, dealer, dealt, declarer, passed, rounds)
                used |= rules
            got = Counter((p["from"], p["to"], p["amount"]) for p in result["payments"] if p["amount"])
            paid = Counter({k: v for k, v in paid.items() if k[2]})
            if got != paid:
                problems.append(f"{o} hand {result['hand']}: engine paid {sorted(got.elements())}, "
                                f"the text {sorted(paid.elements())}")
    return problems, used


def test_luk_fu_leads_follows_and_payments_follow_the_text() -> None:
    problems: list[str] = []
    used: set[str] = set()
    for game in range(40):
        found, rules = play_and_check(game, seed=5)
        problems += found
        used |= rules
    assert not problems, "\n".join(problems[:10])
    assert {"old-card-restricted", "all-pass", "no-winner", "declarer-lost", "red-cards", "dealer-bonus",
            "elder-collects-from-declarer-only"} <= used, used
