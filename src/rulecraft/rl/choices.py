"""A decision taken as a sequence of tokens: which tokens may come next, and which move a prefix completes.

The legal moves of a decision form a tree of token sequences (``Encoding.move_tokens``). After a
prefix, the legal actions are the tokens that continue some legal move, plus ``done`` when the prefix
is itself a whole move that could also go on (a single that could become a pair). A token after which
nothing can follow completes its move, which is then made. So a move of one token (``pass``, ``bid
85``, a single card) is one step, and a set of k pieces is k steps (or k + 1 with ``done``).

Most decisions list their moves; a claim of any subset of a hand (``ClaimMoves``) is far too many to
list, and its tree is read from its shape instead: a value, then any multiset of the hand's pieces
whose size the claim allows. So is a follow that may go face down (``WithFaceDown``): its listed
moves, then every distinct set of k pieces of the hand, made only when read (dozens or hundreds of
them, where a random playout reads one): after j face-down tokens, the next may be any type, not
below the last, of which a piece is left, with enough left after it for the other k - j - 1.
"""

from __future__ import annotations

import operator
from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple

from rulecraft.engine.moves import Move
from rulecraft.engine.phases.claims import ClaimMoves
from rulecraft.engine.phases.trick_free import FreeSets
from rulecraft.engine.phases.tricks import WithFaceDown
from rulecraft.rl.encoding import DONE, Encoding, EncodingError


class Options(NamedTuple):
    """What may follow a prefix: the tokens (sorted), the move the prefix itself completes, and, when
    known, the move each next token completes (``ends``) and the tokens after which more may follow
    (``more``): so taking a token needs no second pass over the legal moves."""

    nexts: list[int]
    complete: Move | None
    ends: dict[int, Move] | None = None
    more: frozenset[int] | set[int] = frozenset()


Candidates = list[tuple[tuple[int, ...], Move]]  # legal moves with their tokens, those that begin with a prefix


def candidates(enc: Encoding, legal: Sequence[Move], prefix: tuple[int, ...] = (),
               within: Candidates | None = None) -> Candidates | None:
    """The legal moves that begin with ``prefix``, with their tokens (None for a claim of any subset,
    too many to list). ``within``: the candidates of ``prefix`` less its last token, to narrow."""
    if type(legal) is not list and (type(legal) is WithFaceDown or isinstance(legal, ClaimMoves)):
        return None  # (an ABC's isinstance is slow: lists first)
    k = len(prefix)
    if within is not None and k:
        last = prefix[-1]
        return [c for c in within if len(c[0]) >= k and c[0][k - 1] == last]
    known = enc.tokens_by_text
    out = [(known.get(m.text) or enc.move_tokens(m), m) for m in legal]
    return [c for c in out if c[0][:k] == prefix] if k else out


def options(enc: Encoding, legal: Sequence[Move], prefix: tuple[int, ...],
            found: Candidates | None = None) -> Options:
    """What may follow ``prefix`` among the ``legal`` moves (see ``Options``); ``found``: the
    candidates of ``prefix``, when the caller has them."""
    cands = found if found is not None else candidates(enc, legal, prefix)
    if cands is None:
        if type(legal) is WithFaceDown:
            return _face_down_options(enc, legal, prefix)
        return Options(*_claim_options(enc, legal, prefix))  # type: ignore[arg-type]
    k = len(prefix)
    last = k + 1
    ends: dict[int, Move] = {}
    more: set[int] = set()
    complete: Move | None = None
    for toks, m in cands:  # (once per legal move at every step: each length read once)
        n = len(toks)
        if n == last:
            if toks[k] not in ends:
                ends[toks[k]] = m
        elif n == k:
            complete = complete or m
        else:
            more.add(toks[k])
    return Options(sorted(ends.keys() | more) if more else sorted(ends), complete, ends, more)


def legal_actions(enc: Encoding, legal: Sequence[Move], prefix: tuple[int, ...],
                  found: Options | None = None) -> list[int]:
    nexts, complete = (found or options(enc, legal, prefix))[:2]
    if complete is not None and nexts:
        return sorted([*nexts, DONE])
    return nexts


def action_id(enc: Encoding, action: object) -> int:
    """``action`` as an action id of ``enc``, or ValueError: a float was truncated (1.5 took action 1), a
    bool was an id, and a negative id counted from the end of the table (-1 took the last action)."""
    try:
        if isinstance(action, bool):
            raise TypeError
        number = operator.index(action)  # type: ignore[arg-type]  # (ints, NumPy integers and 0-d arrays)
    except TypeError:
        raise ValueError(f"an action is a whole number, an id from 0 to {enc.num_actions - 1}, not "
                         f"{str(action)[:60]!r}") from None
    if not 0 <= number < enc.num_actions:
        raise ValueError(f"action {number} is out of range: ids are 0 to {enc.num_actions - 1}")
    return number


def choose(enc: Encoding, legal: Sequence[Move], prefix: tuple[int, ...],
           action: int, found: Options | None = None) -> tuple[tuple[int, ...], Move | None]:
    """Take ``action`` after ``prefix``: (the new prefix, and the move to make when it is complete).
    ``found``: ``options(enc, legal, prefix)``, when the caller has it already.

    Raises ValueError for an action that is not an id or not legal here.
    """
    action = action_id(enc, action)
    here = found or options(enc, legal, prefix)
    if action == DONE and here.complete is not None and here.nexts:
        return (), here.complete
    if action not in here.nexts:
        raise ValueError(f"action {action} ('{enc.action_string(action)}') is not legal here")
    longer = (*prefix, action)
    if here.ends is not None:  # (known from the same pass: no second one)
        if action not in here.more:
            return (), here.ends[action]
        return longer, None
    after, done = options(enc, legal, longer)[:2]
    if not after:
        if done is None:  # pragma: no cover - a token offered always continues or ends some move
            raise EncodingError(f"no move ends with '{enc.action_string(action)}'")
        return (), done
    return longer, None


def _claim_options(enc: Encoding, legal: ClaimMoves, prefix: tuple[int, ...]) -> tuple[list[int], Move | None]:
    rs = enc.rs
    heads = {enc.move_tokens(m)[0]: m for m in legal.heads}  # 'pass', and a challenge made on the seat's turn
    if not prefix:
        out = list(heads)
        for value, kmax in legal.vmax.items():
            if kmax >= legal.kmin:
                key = ("claim", value, -1)
                if key not in enc.ids:
                    raise EncodingError(f"the claim value '{value}' has no action id")
                out.append(enc.ids[key])
        return sorted(out), None
    if len(prefix) == 1 and prefix[0] in heads:
        return [], heads[prefix[0]]
    value = enc.tokens[prefix[0]][1]
    chosen = [enc.tokens[a][2] for a in prefix[1:]]
    type_of = rs.pieces.type_of
    held = Counter(type_of[p] for p in legal.hand)
    picked = Counter(chosen)
    nexts: list[int] = []
    if len(chosen) < legal.vmax.get(value, 0):
        last = chosen[-1] if chosen else -1
        nexts = [enc.piece_token("claim", t) for t in sorted(held) if t >= last and held[t] > picked[t]]
    complete = None
    if len(chosen) >= legal.kmin:
        complete = legal.find("claim", value, [enc.type_ids[t] for t in chosen])
    return nexts, complete


def _face_down_options(enc: Encoding, legal: WithFaceDown, prefix: tuple[int, ...]) -> Options:
    """``options`` of a follow that may go face down, its sets read from their shape (see the module
    docstring): the listed moves as a list, then the face-down tree, the same tokens, ends and moves."""
    if isinstance(legal.sets, FreeSets):
        return _free_options(enc, legal, legal.sets, prefix)
    head = options(enc, legal.head, prefix)
    sets = legal.sets
    k = len(sets[0])
    chosen: list[int] = []
    for a in prefix:
        verb, _value, t = enc.tokens[a]
        if verb != "down" or t < 0 or (chosen and t < chosen[-1]):
            return head  # (not a face-down set: only the listed moves begin so)
        chosen.append(t)
    if len(chosen) >= k:
        return head
    type_of = enc.rs.pieces.type_of
    held: dict[int, list[int]] = {}  # the hand's pieces by type, lowest first
    for p in sorted(set().union(*sets)):
        held.setdefault(type_of[p], []).append(p)
    left = {t: len(ps) for t, ps in held.items()}
    for t in chosen:
        left[t] = left.get(t, 0) - 1
        if left[t] < 0:
            return head
    ends = dict(head.ends or {})
    more = set(head.more)
    need = k - len(chosen)  # tokens still to choose, this one included
    last = chosen[-1] if chosen else -1
    types = sorted(t for t in left if t >= last)
    after = sum(left[t] for t in types)  # pieces left of this type and those above it
    for t in types:
        if left[t] > 0 and after - 1 >= need - 1:
            tok = enc.piece_token("down", t)
            if need > 1:
                more.add(tok)
            elif tok not in ends:
                move = _face_down_move(legal, held, [*chosen, t])
                if move is None:  # pragma: no cover - every distinct set is listed
                    return options(enc, list(legal), prefix)
                ends[tok] = move
        after -= left[t]
    return Options(sorted(ends.keys() | more), head.complete, ends, more)


def _free_options(enc: Encoding, legal: WithFaceDown, sets: FreeSets, prefix: tuple[int, ...]) -> Options:
    """``options`` of free follows (``trick_free.FreeSets``, face up: ``play`` tokens), read from their shape:
    the pieces every set holds and any others, types in order. A prefix goes on with type t when a set
    can still follow: t's pieces are not used up, every type each set holds that is not yet chosen
    comes at or after t, and enough pieces are left from t on."""
    head = options(enc, legal.head, prefix)
    fixed, free = sets.type_counts()
    avail = {t: fixed.get(t, 0) + free.get(t, 0) for t in fixed.keys() | free.keys()}
    chosen: Counter[int] = Counter()
    last = -1
    for a in prefix:
        verb, _value, t = enc.tokens[a]
        if verb != "play" or t < last or chosen[t] >= avail.get(t, 0):
            return head  # (not the beginning of a free follow: only the listed moves begin so)
        chosen[t] += 1
        last = t
    need = sets.size - sum(chosen.values())  # pieces still to choose, the next one included
    if need <= 0:
        return head
    ends = dict(head.ends or {})
    more = set(head.more)
    for t in sorted(u for u in avail if u >= last and chosen[u] < avail[u]):
        chosen[t] += 1
        owed = {f: n - chosen[f] for f, n in fixed.items() if n > chosen[f]}  # held by every set, not chosen
        left = sum(avail[u] - chosen[u] for u in avail if u >= t)
        if all(f >= t for f in owed) and sum(owed.values()) <= need - 1 <= left:
            tok = enc.piece_token("play", t)
            if need > 1:
                more.add(tok)
            elif tok not in ends:
                found = sets.find_types(list(chosen.elements()))
                if found is not None:  # (else the pieces are a combination's play: listed in the head)
                    ends[tok] = legal[len(legal.head) + sets.index(found)]
        chosen[t] -= 1
    return Options(sorted(ends.keys() | more), head.complete, ends, more)


def _face_down_move(legal: WithFaceDown, held: dict[int, list[int]], types: list[int]) -> Move | None:
    """The face-down move of these piece types: the set of the lowest pieces of each (as the engine lists
    its distinct sets), read from the lazy list."""
    counts = Counter(types)
    pieces = tuple(sorted(p for t, c in counts.items() for p in held[t][:c]))
    try:
        i = legal.sets.index(pieces)
    except ValueError:
        return None
    return legal[len(legal.head) + i]
