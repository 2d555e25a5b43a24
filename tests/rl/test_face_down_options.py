"""A follow that may go face down offers its sets lazily (``WithFaceDown``): the action tree read from
their shape (``rl.choices``) is the tree of every move listed, token by token."""

from __future__ import annotations

import random

from rulecraft.engine.game import Game
from rulecraft.engine.phases.tricks import WithFaceDown
from rulecraft.load import load_ruleset
from rulecraft.rl import choices
from rulecraft.rl.encoding import Encoding


def test_face_down_sets_read_from_their_shape_offer_what_the_listed_moves_offer() -> None:
    rs = load_ruleset("luk-fu")
    enc = Encoding(rs)
    decisions = prefixes = ended = 0
    for seed in range(12):
        st = Game(rs, seed, max_hands=1).new_state()
        rng = random.Random(seed)
        while not st.is_over:
            legal = st.legal_moves()
            if type(legal) is WithFaceDown:
                decisions += 1
                listed = list(legal)
                frontier: list[tuple[int, ...]] = [()]
                while frontier:  # every prefix of every face-down set, and of the moves listed first
                    prefix = frontier.pop()
                    shaped, read = choices.options(enc, legal, prefix), choices.options(enc, listed, prefix)
                    assert (shaped.nexts, shaped.complete, shaped.ends) == (read.nexts, read.complete, read.ends), \
                        f"seed {seed}: after {[enc.action_string(a) for a in prefix]}"
                    assert set(shaped.more) == set(read.more)
                    prefixes += 1
                    ended += len(set(shaped.ends or ()) - set(shaped.more))
                    frontier += [(*prefix, a) for a in shaped.more]
            st.apply(legal[rng.randrange(len(legal))])
    assert decisions >= 5 and prefixes > 3 * decisions and ended > 0, (decisions, prefixes, ended)
