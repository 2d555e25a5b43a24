"""Tien Gow played by the engine against a model written from the rule text alone (RULES-NOTES §3).

The model below knows nothing of the rule file: it reads the tiles, combinations and payments off the
text. Seeded games under random option choices are played by the engine; every decision's legal plays
(face up only to beat the best face-up play, face down always, the 2-stack rule of the last round) and
every hand's payments (stacks, the dealer's terms, 包尊, 四大包, 幺結, 擒, 七支/八支, 入一/入二, 賀尊,
四大賀 and each variant of them) must be the model's. The scenarios pin each rule at a chosen position;
this checks the same rules wherever random play takes them, in combinations no scenario chose.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations
from typing import Any

from rulecraft.engine.game import Game
from rulecraft.load import load_ruleset

CIVIL = {"6-6": 11, "1-1": 10, "4-4": 9, "1-3": 8, "5-5": 7, "3-3": 6, "2-2": 5, "5-6": 4, "4-6": 3, "1-6": 2,
         "1-5": 1}
MILITARY = {"3-6": 6, "4-5": 6, "2-6": 5, "3-5": 5, "2-5": 4, "3-4": 4, "2-4": 3, "1-4": 2, "2-3": 2, "1-2": 1}
# the four families that make mixed pairs, triples and quads: heaven/nine, earth/eight, man/seven, goose/five
FAMILY = {"6-6": 4, "1-1": 3, "4-4": 2, "1-3": 1, "3-6": 4, "4-5": 4, "2-6": 3, "3-5": 3, "2-5": 2, "3-4": 2,
          "1-4": 1, "2-3": 1}
NINES = {"3-6", "4-5"}

OPTIONS = {
    "ru_special": ["special", "plain"],
    "qin_factor": ["2", "4"],
    "qin_quads": ["off", "on"],
    "no_ba_zhi": ["off", "no-ba-zhi", "no-sweeps"],
    "bonuses_in_last_round": ["off", "on"],
    "si_da_he_to": ["winner", "players", "leader", "leader-if-won"],
    "bunmu_son": ["off", "on", "wen-loses-to-long-seven"],
    "pickup": ["two-columns", "tiers-from-bottom", "middle-out"],
}

Play = tuple[int, bool, list[str]]  # seat, face up, tiles


def supreme(tiles: list[str], bunmu: str) -> bool:
    t = sorted(tiles)
    return t == ["1-2", "2-4"] or (bunmu != "off" and t == ["1-5", "1-5"])


def combination(tiles: list[str], bunmu: str) -> tuple[str, int] | None:
    """(make-up, strength) of tiles that may be led or played face up, else None."""
    t = sorted(tiles)
    civil = [x for x in t if x in CIVIL]
    military = [x for x in t if x in MILITARY]
    if len(t) == 1:
        return ("civil", CIVIL[t[0]]) if civil else ("military", MILITARY[t[0]])
    if len(t) == 2:
        if supreme(t, bunmu):
            return ("supreme", 1)
        if len(civil) == 2 and civil[0] == civil[1]:
            return ("civil-pair", CIVIL[civil[0]])
        if (len(military) == 2 and military[0] != military[1] and military[0] in FAMILY
                and FAMILY[military[0]] == FAMILY.get(military[1])):
            return ("military-pair", FAMILY[military[0]])
        if len(civil) == 1 and civil[0] in FAMILY and FAMILY[civil[0]] == FAMILY.get(military[0]):
            return ("mixed-pair", FAMILY[civil[0]])
        return None
    families = {FAMILY.get(x) for x in t}
    if len(families) != 1 or None in families:
        return None
    family = FAMILY[t[0]]
    two_civil = len(civil) == 2 and civil[0] == civil[1]
    two_military = len(military) == 2 and military[0] != military[1]
    if len(t) == 3 and (two_civil or two_military):
        return ("triple-2-civil" if two_civil else "triple-2-military", family)
    if len(t) == 4 and two_civil and two_military:
        return ("quad", family)
    return None


def expected_plays(hand: list[str], plays: list[Play], stacks: int, bunmu: str) -> tuple[set[Any], set[Any]]:
    """The face-up and face-down plays the text allows a seat holding `hand` after `plays` this round."""
    if not plays:
        up = {tuple(sorted(c)) for k in range(1, 5) for c in combinations(hand, k)
              if combination(list(c), bunmu) is not None}
        return up, set()
    size = len(plays[0][2])
    best: tuple[str, int] | None = None
    for _, face_up, tiles in plays:
        if face_up:
            made = combination(tiles, bunmu)
            assert made is not None
            if best is None or (made[0] == best[0] and made[1] > best[1]):  # ties to the earlier play
                best = made
    # with 文尊 losing to the 1-6 pair, that pair (and only it) beats 文尊 led
    wen_beaten = bunmu == "wen-loses-to-long-seven" and sorted(plays[0][2]) == ["1-5", "1-5"]
    beating: set[Any] = set()
    for c in combinations(hand, size):
        if wen_beaten:
            if sorted(c) == ["1-6", "1-6"] and not any(face_up for _, face_up, _ in plays[1:]):
                beating.add(tuple(sorted(c)))
            continue
        made = combination(list(c), bunmu)
        # a supreme pair wins when led and cannot win following
        if made is not None and made[0] != "supreme" and (best is None or (made[0] == best[0] and made[1] > best[1])):
            beating.add(tuple(sorted(c)))
    if len(hand) == 1 and stacks == 0:
        beating = set()  # 結 needs 2 stacks counting the last round's: play it face down
    return beating, {tuple(sorted(c)) for c in combinations(hand, size)}


def expected_payments(rounds: list[tuple[list[Play], int, int]], dealer: int, terms: int,
                      o: dict[str, str]) -> tuple[Counter[tuple[int, int, int]], int, set[str]]:
    """Every payment of a hand, the hand's winner, and which rules came into it."""
    bunmu = o["bunmu_son"]
    pays: Counter[tuple[int, int, int]] = Counter()
    seen: set[str] = set()
    stacks: Counter[int] = Counter()

    def dealer_factor(a: int, b: int) -> int:
        return 1 + terms if dealer in (a, b) else 1

    big_first_lead = False
    for i, (plays, winner, value) in enumerate(rounds):
        last = i == len(rounds) - 1
        leader, _, lead = plays[0]
        if i == 0 and (supreme(lead, bunmu) or any(t == "6-6" or t in NINES for t in lead)):
            big_first_lead = True
        bonus_round = not last or o["bonuses_in_last_round"] == "on"
        if bonus_round and supreme(lead, bunmu):  # 賀尊
            seen.add("he-zun")
            for s in range(4):
                if s != leader:
                    pays[(s, leader, 2 * dealer_factor(s, leader))] += 1
        if bonus_round and len(lead) == 4:  # 四大賀
            seen.add("si-da-he")
            to = o["si_da_he_to"]
            receivers = ([winner] if to == "winner" else [s for s, up, _ in plays if up] if to == "players"
                         else [leader] if to == "leader" or winner == leader else [])
            for q in receivers:
                for s in range(4):
                    if s != q:
                        pays[(s, q, 4 * dealer_factor(s, q))] += 1
        stacks[winner] += value
    plays, winner, _ = rounds[-1]
    leader, _, lead = plays[0]
    won_with = next((t for s, up, t in plays if s == winner and up), lead)
    how = ("bao-zun" if supreme(won_with, bunmu) else "si-da-bao" if len(won_with) == 4 else
           "yao-jie" if won_with == ["1-2"] else
           "wen-lead" if bunmu != "off" and won_with == ["1-5"] and winner == leader else "")
    method = {"bao-zun": 2, "si-da-bao": 4, "yao-jie": 2, "wen-lead": 2}.get(how, 1)
    if how:
        seen.add(how)
    qin = None
    if winner != leader and (
            (lead == ["1-2"] and won_with == ["2-4"])
            or (bunmu != "off" and lead == ["1-5"] and won_with == ["1-6"])
            or (bunmu == "wen-loses-to-long-seven" and sorted(lead) == ["1-5", "1-5"])
            or (o["qin_quads"] == "on" and len(lead) == 4)):
        qin = leader
        seen.add("qin")
    sweep = 1
    if stacks[winner] == 8:
        # 七支 when the last round could not have been won but for the 2-stack rule, else 八支
        barred = len(won_with) == 1 and any(
            combination(t, bunmu) is not None and combination(t, bunmu)[0] == combination(won_with, bunmu)[0]  # type: ignore[index]
            and combination(t, bunmu)[1] > combination(won_with, bunmu)[1]  # type: ignore[index]
            for s, _, t in plays if s != winner)
        sweep = 2 if barred else 4
        if big_first_lead:
            sweep = min(sweep, {"off": 4, "no-ba-zhi": 2, "no-sweeps": 1}[o["no_ba_zhi"]])
        seen.add(f"sweep-x{sweep}")
    for s in range(4):
        n = stacks[s]
        if s == winner or n == 4:
            continue
        if n < 4:
            payer = s if qin is None else qin
            factor = (1 + terms if dealer in (payer, winner) else 1) * method
            factor *= int(o["qin_factor"]) if qin is not None else 1
            factor *= sweep if sweep > 1 else 1
            pays[(payer, winner, (5 if n == 0 else 4 - n) * factor)] += 1
        else:  # 入一 / 入二: paid back by the winner
            seen.add("ru")
            special = o["ru_special"] == "special"
            factor = 1 + terms if winner == dealer or (not special and s == dealer) else 1
            pays[(winner, s, (n - 4) * factor * (1 if special else method))] += 1
    return pays, winner, seen


def play_and_check(game: int, seed: int) -> tuple[list[str], set[str]]:
    rng = random.Random(seed * 1000 + game)
    o = {k: rng.choice(v) for k, v in OPTIONS.items()}
    st = Game(load_ruleset("tien-gow", options=o), seed * 1000 + game, max_hands=4).new_state()
    problems: list[str] = []
    seen: set[str] = set()
    rounds: list[tuple[list[Play], int, int]] = []
    plays: list[Play] = []
    dealer: int | None = None
    terms = 1
    read = 0
    while not st.is_over:
        view = st.view(None)
        seat = st.to_act
        assert seat is not None
        legal = st.legal_moves()
        names = [str(m) for m in legal]
        if view["phase"] == "play":
            hand = view["zones"][f"hand[{seat}]"]["pieces"]
            up, down = expected_plays(hand, plays, view["tricks"][seat], o["bunmu_son"])
            got_up = {tuple(sorted(x.split()[1:])) for x in names if x.startswith("play ")}
            got_down = {tuple(sorted(x.split()[1:])) for x in names if x.startswith("down ")}
            if (got_up, got_down) != (up, down):
                problems.append(f"{o} seat {seat} after {plays} holding {hand}: face up {sorted(got_up ^ up)}, "
                                f"face down {sorted(got_down ^ down)} differ from the text")
        face_up = [m for m in legal if str(m).startswith("play ")]
        if face_up and rng.random() < 0.75:  # lean to face-up and big plays, so bonuses and sweeps happen
            most = max(len(m.pieces) for m in face_up)
            move = rng.choice([m for m in face_up if len(m.pieces) == most] if rng.random() < 0.6 else face_up)
        else:
            move = rng.choice(legal)
        st.apply(move)
        for ev in st.history[read:]:
            kind = ev.get("type")
            if kind == "chance" and ev.get("kind") == "dice" and dealer is None:
                # the highest roller (seat 0) counts counter-clockwise from itself as 1
                dealer = -(sum(ev["dice"]) - 1) % 4
            elif kind == "move" and ev["move"].split()[0] in ("play", "down"):
                verb, *tiles = ev["move"].split()
                plays.append((ev["seat"], verb == "play", tiles))
            elif kind == "round":
                rounds.append((plays, ev["winner"], ev["value"]))
                plays = []
            elif kind == "hand_end":
                assert dealer is not None
                result = st.hand_results[ev["number"] - 1]
                want, winner, used = expected_payments(rounds, dealer, terms, o)
                seen |= used
                got = Counter((p["from"], p["to"], p["amount"]) for p in result["payments"])
                if got != want:
                    problems.append(f"{o} hand {ev['number']} (dealer {dealer}, term {terms}): engine paid "
                                    f"{sorted(got.elements())}, the text {sorted(want.elements())}")
                terms = terms + 1 if winner == dealer else 1  # the winner deals next
                dealer, rounds = winner, []
        read = len(st.history)
    return problems, seen


def test_tien_gow_plays_and_payments_follow_the_text() -> None:
    problems: list[str] = []
    seen: set[str] = set()
    for game in range(80):
        found, used = play_and_check(game, seed=3)
        problems += found
        seen |= used
    assert not problems, "\n".join(problems[:10])
    # the sample reaches the rules it is meant to check (else the test above would pass vacuously)
    assert {"he-zun", "si-da-he", "bao-zun", "yao-jie", "qin", "ru", "sweep-x2", "sweep-x4"} <= seen, seen
