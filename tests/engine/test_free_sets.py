"""Free follows unlisted (trick_free.FreeSets): a follower void in the led suit may play any pieces of
the lead's size, hundreds of thousands of sets; its legal moves count, index and find them without
listing them, in the order a plain enumeration gives, and the decision makes only the plays it reads."""

from __future__ import annotations

import itertools
import random

from support import VOID_FOLLOWER_BURY as BURY
from support import VOID_FOLLOWER_DEAL as DEAL
from support import ruleset

from rulecraft.engine.phases.trick_free import FreePlays
from rulecraft.engine.phases.tricks import Tricks
from rulecraft.engine.state import State
from rulecraft.runs.scenario import start_arranged


def _facing(lead: str) -> State:
    st = start_arranged(ruleset("sheng-ji", trump="hearts"), {"deal": DEAL})
    for move in [*BURY, lead]:
        st.apply(move)
    assert st.to_act == 3
    return st


def _plain(st: State, k: int) -> list[str]:
    """Seat 3's follows of k pieces by plain enumeration: every k of its pieces, identical copies once."""
    ids = st.rs.pieces.type_id
    seen: set[tuple[str, ...]] = set()
    out = []
    for ps in itertools.combinations(sorted(st.hand(3)), k):
        key = tuple(sorted(ids(p) for p in ps))
        if key not in seen:
            seen.add(key)
            out.append("play " + " ".join(ids(p) for p in ps))
    return out


def _multisets(counts: list[int], k: int) -> int:
    """How many k-piece multisets these copies make (a polynomial product, written out)."""
    poly = [1]
    for c in counts:
        poly = [sum(poly[j - i] for i in range(c + 1) if 0 <= j - i < len(poly)) for j in range(len(poly) + c)]
    return poly[k]


def test_a_void_follower_of_four_has_every_set_of_four_in_the_order_of_a_plain_enumeration() -> None:
    st = _facing("play dK dK dA dA")  # a tractor; seat 3 holds no pair in a row: every follow is free
    legal = st.legal_moves()
    expected = _plain(st, 4)
    assert len(expected) == 4809
    assert [m.text for m in legal] == expected
    assert len(legal) == len(expected)
    for i in random.Random(4).sample(range(len(expected)), 50):
        assert legal[i].text == expected[i]
        assert legal.index(legal[i]) == i
        assert legal[i] in legal


def test_a_void_follower_of_an_eight_card_lead_counts_indexes_and_finds_its_moves_unlisted() -> None:
    st = _facing("play dJ dJ dQ dQ dK dK dA dA")
    made = Tricks._free_made(st.rs.phases[st.pidx], st)
    before = len(made._made)
    legal = st.legal_moves()
    ids = st.rs.pieces.type_id
    counts = [len(list(g)) for _, g in itertools.groupby(sorted(ids(p) for p in st.hand(3)))]
    assert len(legal) == _multisets(counts, 8) == 225_081
    assert legal[0].text == "play c8 c8 c9 c10 cJ cQ cK cA"  # the lowest pieces first, as listed
    assert legal[-1].text == "play s9 s9 s10 sJ sJ sQ sK sA"
    for i in random.Random(8).sample(range(len(legal)), 200):
        move = legal[i]
        assert legal.index(move) == i and move in legal
    # a set of the other copy of a pair is the same move; a set with a diamond it lacks is none
    assert st.parse_move("play s3 s3 s5 s5 s7 s7 s9 s9") in legal
    assert all(m.text != "play c8 c9 c10 cJ cQ cK cA dA" for m in legal[:100])
    assert len(made._made) - before < 1_000  # only the plays read were made, not one per set
    st.apply("play s3 s3 s5 s5 s7 s7 s9 s9")  # a free play: legal, and it wins nothing
    assert st.to_act == 2 and st.pdata.seats[st.pdata.best] == 0


def test_free_sets_agree_with_the_listed_free_plays_on_random_hands() -> None:
    rs = ruleset("sheng-ji")
    free = FreePlays(rs.pieces)
    type_of = rs.pieces.type_of
    rng = random.Random(37)
    tried = 0
    for _ in range(200):
        hand = rng.sample(range(len(type_of)), rng.randint(3, 14))
        size = rng.randint(1, min(6, len(hand)))
        suit = rng.randrange(4)

        def preferred(p: int, suit: int = suit) -> bool:
            return p // 26 == suit  # (pieces are numbered suit by suit, 26 a suit)
        listed = free.plays(hand, size, preferred, set())
        taken = {tuple(sorted(type_of[p] for p in pl.pieces)) for pl in rng.sample(listed, min(3, len(listed)))}
        expected = [pl.pieces for pl in free.plays(hand, size, preferred, taken)]
        # (a few sets are listed and each judged on its own: here the sets are asked for at any size)
        assert free.chosen_freely(hand, size, preferred, taken) is None
        sets = free.chosen_freely(hand, size, preferred, taken, listed_up_to=-1)
        if sets is None:  # (the seat holds enough preferred pieces: each is judged on its own, listed)
            assert sum(map(preferred, hand)) >= size
            continue
        tried += 1
        assert list(sets) == expected and len(sets) == len(expected)
        assert all(sets.index(ps) == i for i, ps in enumerate(expected))
        assert not any(tuple(sorted(pl.pieces)) in sets for pl in listed if pl.pieces not in expected)
    assert tried > 100


def test_the_research_action_tree_of_free_follows_is_the_tree_of_every_move_listed() -> None:
    from rulecraft.rl import choices
    from rulecraft.rl.encoding import Encoding

    # void in the led suit; holding two of its five diamonds, unpaired (every follow holds both)
    short = {"hand[0]": [*DEAL["hand[0]"][:1], *DEAL["hand[0]"][2:3], *DEAL["hand[0]"][4:], "c8", "c8"],
             "hand[3]": ["d3", "d4", *DEAL["hand[3]"][2:]]}
    both = st = start_arranged(ruleset("sheng-ji", trump="hearts"), {"deal": short})
    for move in [*BURY, "play dK dK dA dA"]:
        st.apply(move)
    for st in (_facing("play dK dK dA dA"), both):
        legal = st.legal_moves()
        listed = list(legal)
        enc = Encoding(st.rs)
        rng = random.Random(11)
        ends = 0
        for _ in range(30):  # random paths down the tree, token by token, read both ways
            prefix: tuple[int, ...] = ()
            while True:
                shaped, read = choices.options(enc, legal, prefix), choices.options(enc, listed, prefix)
                assert (shaped.nexts, shaped.complete, shaped.ends) == (read.nexts, read.complete, read.ends)
                assert set(shaped.more) == set(read.more)
                if not shaped.more or (rng.random() < 0.2 and shaped.ends):
                    ends += len(shaped.ends or ())
                    break
                prefix = (*prefix, rng.choice(sorted(shaped.more)))
        assert ends > 30
