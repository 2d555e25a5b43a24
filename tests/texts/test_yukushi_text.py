"""Yukushi played by the engine against a model written from the rule text alone (RULES-NOTES §4).

The model knows nothing of the rule file. Seeded games (2 to 5 seats, every next_turn choice, both
challenge windows) are played by the engine's random agents, and every play must keep the turn's rank,
every challenge must turn up the last play and send the whole pile to the right seat (the player after
a lie, the challenger after a truth), every flush must take the whole pile after everyone else passed,
the next turn must start where the option says, and seats must go out in the order in which their last
play survived (everyone passed, someone played on it, or a challenge found it true).
"""

from __future__ import annotations

from rulecraft.agents.base import make_agent
from rulecraft.engine.game import Game
from rulecraft.load import load_ruleset

CHOICES = [
    {"players": "2", "next_turn": "winner", "challenge_until": "next-play"},
    {"players": "3", "next_turn": "picker", "challenge_until": "response"},
    {"players": "4", "next_turn": "after-player", "challenge_until": "next-play"},
    {"players": "5", "next_turn": "verish", "challenge_until": "response"},
    {"players": "4", "next_turn": "winner", "challenge_until": "response"},
    {"players": "3", "next_turn": "verish", "challenge_until": "next-play"},
]


def play_and_check(game: int) -> tuple[list[str], dict[str, int]]:
    o = CHOICES[game % len(CHOICES)]
    n = int(o["players"])
    st = Game(load_ruleset("yukushi", options=o), 4000 + game).new_state()
    agents = [make_agent("random", 4000 + game, s) for s in range(n)]
    problems: list[str] = []
    counts = {"lie": 0, "truth": 0, "flush": 0, "out": 0}
    hands = {s: set(st.view(None)["zones"][f"hand[{s}]"]["pieces"]) for s in range(n)}
    pile: list[tuple[int, list[str]]] = []
    rank: str | None = None
    last = 0
    out: list[int] = []
    waiting: int | None = None  # a seat whose last cards are down, until that play survives
    starts: int | None = None
    read = len(st.history)

    def first_in(s: int) -> int:
        return next((s + k) % n for k in range(n) if (s + k) % n not in out)

    while not st.is_over:
        if starts is not None and st.to_act != starts:
            problems.append(f"{o} game {game}: the next turn starts with seat {st.to_act}, the text {starts}")
        starts = None
        seat = st.to_act
        assert seat is not None
        st.apply(agents[seat].choose(st, seat))
        for ev in st.history[read:]:
            kind = ev.get("type")
            if kind == "move" and ev["move"].startswith("claim "):
                head, cards = ev["move"].split(":", 1)
                claim = head.split()[1]
                if rank is not None and claim != rank:
                    problems.append(f"{o}: a claim of {claim} in a turn of {rank}")
                if waiting is not None:
                    out.append(waiting)  # someone played on it: it survived
                    waiting = None
                rank, last = claim, ev["seat"]
                hands[last] -= set(cards.split())
                pile.append((last, cards.split()))
                if not hands[last]:
                    waiting = last
            elif kind == "reveal":
                player, cards = pile[-1]
                lie = any(c[1:] != rank for c in cards)
                challenger = ev["challenger"]
                picker = player if lie else challenger
                taken = sum(len(cs) for _, cs in pile)
                counts["lie" if lie else "truth"] += 1
                if (ev["claimant"], ev["lie"], ev["picker"], ev["taken"]) != (player, lie, picker, taken):
                    problems.append(f"{o}: {ev} but the text: claimant {player}, lie {lie}, "
                                    f"picker {picker}, taken {taken}")
                for _, cs in pile:
                    hands[picker] |= set(cs)
                if waiting is not None and not lie:
                    out.append(waiting)
                waiting = None
                start = {"winner": challenger if lie else player, "picker": picker, "after-player": (player + 1) % n,
                         "verish": challenger if lie else (challenger + 1) % n}[o["next_turn"]]
                pile, rank = [], None
                starts = first_in(start) if n - len(out) > 1 else None
            elif kind == "flush":
                counts["flush"] += 1
                taken = sum(len(cs) for _, cs in pile)
                if (ev["count"], ev["last_player"]) != (taken, last):
                    problems.append(f"{o}: {ev} but the text: {taken} cards, last player {last}")
                if waiting is not None:
                    out.append(waiting)
                    waiting = None
                pile, rank = [], None
                starts = first_in(last) if n - len(out) > 1 else None
            elif kind == "out":
                counts["out"] += 1
        read = len(st.history)
    places = st.hand_results[-1]["vars"]["place"]
    order = sorted(range(n), key=lambda s: places[s])
    if order[:len(out)] != out:
        problems.append(f"{o} game {game}: seats went out in the order {order}, the text {out}")
    return problems, counts


def test_yukushi_challenges_flushes_and_going_out_follow_the_text() -> None:
    problems: list[str] = []
    totals = {"lie": 0, "truth": 0, "flush": 0, "out": 0}
    for game in range(18):
        found, counts = play_and_check(game)
        problems += found
        for k, v in counts.items():
            totals[k] += v
    assert not problems, "\n".join(problems[:10])
    assert all(totals[k] > 0 for k in totals), totals
