"""Reading a move typed by a person: the exact text form, or a unique prefix of a legal move.

The engine's own parser decides first, so a refused move gets the engine's explanation in the rule's
terms; only when the text is not a legal move does a prefix get a chance ("play r" when one red
piece may be played), and never when the text is a whole move (``bid 12`` is refused, not read as
``bid 120``).
Move sets that are combinatorial (any subset of a hand) are not scanned for prefixes: they can
hold millions of moves, and a prefix of one is rarely unique anyway.
A move may also be typed with names from the ruleset's languages (``play 天``): each word that names
exactly one piece, call or verb is read as its id.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import TYPE_CHECKING

from rulecraft.engine.moves import VERBS_WITH_PIECES, VERBS_WITH_VALUE, split_move_text
from rulecraft.errors import IllegalMoveError

if TYPE_CHECKING:
    from rulecraft.engine.moves import Move
    from rulecraft.engine.state import State

PREFIX_SCAN = 5000  # legal moves scanned for prefixes and completions
LISTED = 40  # legal moves listed by '?'


class AmbiguousMove(IllegalMoveError):
    """The text is the start of several legal moves."""

    def __init__(self, text: str, candidates: list[str]) -> None:
        self.candidates = candidates
        shown = ", ".join(candidates[:8]) + (f" (and {len(candidates) - 8} more)" if len(candidates) > 8 else "")
        super().__init__(f"'{text}' could be any of: {shown}")


def with_ids(st: State, text: str) -> str:
    """``play 天`` → ``play 6-6``: words that are names, in any of the ruleset's languages, read as their ids.

    The first word may name a verb, the others a piece or a call. A name of several things (九 is both
    3-6 and 4-5) is refused: the player is told to type the id.
    """
    names = st.rs.display.names if st.rs.display else None
    if names is None or not names.by_name:
        return text
    out = []
    for i, word in enumerate(text.split(" ")):
        for category in ("verbs",) if i == 0 else ("pieces", "calls"):
            ids = names.lookup(word, category)
            if len(ids) > 1:
                raise IllegalMoveError(f"'{word}' is the name of {len(ids)} {category}: {', '.join(ids)}; "
                                       "type the one you mean by its id")
            if ids:
                word = ids[0]
                break
        out.append(word)
    return " ".join(out)


def scannable(st: State) -> list[Move]:
    legal = st.legal_moves()
    return list(legal) if len(legal) <= PREFIX_SCAN else []


def resolve_move(st: State, text: str) -> Move:
    """The legal move ``text`` means; IllegalMoveError (with the engine's reason) when it means none."""
    text = " ".join(text.split())
    try:
        return st.parse_move(text)
    except IllegalMoveError as exc:
        refusal = exc
    by_id = with_ids(st, text)
    if by_id != text:
        return resolve_move(st, by_id)
    if _complete(st, text):
        raise refusal
    lowered = text.lower()
    candidates = [m for m in scannable(st) if m.text.lower().startswith(lowered)]
    if len(candidates) == 1:
        return candidates[0]
    if candidates:
        raise AmbiguousMove(text, [m.text for m in candidates])
    raise refusal


def _complete(st: State, text: str) -> bool:
    """Whether ``text`` is a whole move (so a refusal stands): every piece named exists, a number is whole.

    'play coins-1' must not become the run 'play coins-1 coins-2 coins-3', nor 'bid 12' 'bid 120';
    'play red', 'pl' or 'name re' are unfinished and may be completed.
    """
    try:
        verb, value, words = split_move_text(text, st.rs.verbs)
    except IllegalMoveError:
        return False
    if words:
        return all(w in st.rs.pieces.by_type_id for w in words)
    return not value or value.lstrip("-").replace(".", "", 1).isdigit() or verb not in VERBS_WITH_VALUE


def legal_listing(st: State, limit: int = LISTED) -> list[str]:
    """Lines listing the legal moves (the first ``limit`` of a large set, with how many there are)."""
    legal = st.legal_moves()
    total = len(legal)
    shown = [m.text for m in itertools.islice(legal, limit)]
    lines = [f"legal moves ({total}):"]
    lines.extend(f"  {t}" for t in shown)
    if total > limit:
        lines.append(f"  … and {total - limit} more: {shapes(legal)}")
    return lines


def shapes(legal: Sequence[Move], samples: int = 2000) -> str:
    """What a large move set is made of, from evenly spaced samples: verbs and the values each names.

    A claims turn can offer a hundred thousand moves; listing forty of them says less than
    "claim A, 2 … K with pieces from your hand".
    """
    total = len(legal)
    step = max(1, total // samples)
    values: dict[str, list[str]] = {}
    for i in range(0, total, step):
        m = legal[i]
        seen = values.setdefault(m.verb, [])
        if m.value and m.value not in seen:
            seen.append(m.value)
    parts = []
    for verb, vals in values.items():
        shown = ", ".join(vals[:14]) + (" …" if len(vals) > 14 else "")
        with_pieces = " with pieces from your hand" if verb in VERBS_WITH_PIECES else ""
        parts.append(f"{verb} {shown}{with_pieces}".replace("  ", " ").strip() if vals else f"{verb}{with_pieces}")
    return "; ".join(parts)


def completions(st: State, typed: str, commands: list[str]) -> list[str]:
    """Legal moves and session commands starting with ``typed`` (for readline's tab completion)."""
    lowered = typed.lower()
    moves = [m.text for m in scannable(st)]
    if not moves:  # a combinatorial set: complete the verb and the pieces of the hand instead
        seat = st.to_act
        hand = [st.rs.pieces.type_id(p) for p in st.hand(seat)] if seat is not None else []
        head, _, last = typed.rpartition(" ")
        if head:
            return [f"{head} {pid}" for pid in sorted(set(hand)) if pid.lower().startswith(last.lower())]
        moves = sorted({m.verb for m in itertools.islice(st.legal_moves(), PREFIX_SCAN)})
    return [t for t in [*moves, *commands] if t.lower().startswith(lowered)]
