"""How often a piece can be played when held, learnt from the rules by play: the shedding heuristic's
sense of which pieces are hard to get rid of and which let a seat play later.

In a shedding round (``kind: shed``) what may be played is the rule file's restrictions against the
pile as it stands (match the top piece's suit or rank, build next to what lies on the table, a wild piece
goes on anything), so how easily a piece is shed is read off the play itself: a ruleset's hands are played
at random, and at every shedding decision each piece the seat to act holds counts as held, and as playable
when one of the seat's allowed plays has it. A piece's playability is the share of its held decisions in
which it was playable (with one playable and one not counted in advance, so an unseen piece is 0.5): a wild
piece comes out near 1, a piece that can go down only at the end of a long build near 0. Worked out once
per ruleset from a fixed seed, the same in every run, and kept in the user's cache directory as
``agents.piece_values`` keeps its values (keyed by the ruleset's content hash and options and a digest of
rulecraft's source).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from rulecraft.agents.learnt import once_per_ruleset, ruleset_key, shelf
from rulecraft.agents.policy import phase_kind
from rulecraft.agents.rollout import random_move
from rulecraft.engine.game import Game

if TYPE_CHECKING:
    from rulecraft.engine.ruleset import Ruleset
    from rulecraft.engine.state import State

MOVES = 20_000  # random moves played to learn (dozens of shedding hands)
MAX_HANDS = 500
SEED = 20261205
_LEARNT: dict[int, tuple[Ruleset, tuple[float, ...]]] = {}


def playability(st: State) -> tuple[float, ...]:
    """Each piece's playability in ``st``'s ruleset, by piece (learnt once per ruleset, kept between runs)."""
    return once_per_ruleset(_LEARNT, st.rs, _kept_or_learnt)


def _kept_or_learnt(rs: Ruleset) -> tuple[float, ...]:
    key = ruleset_key(rs)
    kept = _read(shelf("playability").get(key), rs.pieces.count)
    if kept is not None:
        return kept
    values = learn(rs)
    shelf("playability").put(key, values)
    return values


def _read(entry: Any, n: int) -> tuple[float, ...] | None:
    if isinstance(entry, tuple) and len(entry) == n and all(type(v) is float for v in entry):
        return entry
    return None


def learn(rs: Ruleset) -> tuple[float, ...]:
    """Playability by piece from random hands (see the module docstring); 0.5 for a piece never held."""
    n = rs.pieces.count
    held = [0] * n
    playable = [0] * n
    rng = random.Random(SEED)
    moves = 0
    for hand in range(MAX_HANDS):
        if moves >= MOVES:
            break
        st = Game(rs, seed=SEED + hand, max_hands=1).new_state()
        st.hand_limit = st.hand_no
        while not st.is_over and moves < MOVES:
            legal = st.legal_moves()
            if not legal:
                break
            if phase_kind(st) == "shed" and st.to_act is not None:
                plays = getattr(st.pdata, "plays_of", None) or ()
                can = {p for play in plays if play is not None for p in play.pieces}
                if plays:  # (a pending choice offers no plays)
                    for p in st.hand(st.to_act):
                        held[p] += 1
                        playable[p] += p in can
            st.apply(random_move(st, rng))
            moves += 1
    return tuple((playable[p] + 1) / (held[p] + 2) for p in range(n))
