"""Moves: small frozen values with a text form that parses back.

Text forms (pieces are written by their type id, as in the rule file):

    play A [B ...]      pieces face up (a lead or a follow)
    play A [B ...] as R pieces that form several combinations, played as the one named R (a *reading*:
                        the combination's id, see ``engine/readings.py``); without ``as R``, the
                        first of them
    down A [B ...]      pieces face down (a discard in a trick round)
    revoke A [B ...]    pieces face up that broke a follow restriction: only in a game recorded from a
                        table, where the trick phase declares a ``revoke`` penalty; never a legal move
    bid N               a numeric bid
    call NAME           a named call in an auction (``call play``, ``call redeal``), or against a claim
                        (``call exact``)
    pass                pass in an auction, or decline to claim on your turn in a claims round
    give A              put a piece from hand into a side zone (an exchange)
    name VALUE          name a value (``name red`` for trump)
    stop                stop play (when the rules allow it)
    claim V: A [B ...]  pieces face down claimed to be V (``claim V``: a claim that puts down no pieces,
                        about what the seats hold: "seven 4s" among everyone's dice)
    challenge           challenge the last claim (in the response window, or on the seat's turn)
    accept              let the last claim stand (the other answer in the response window)
    draw                take a piece from a stock instead of playing (a shed phase)
    VERB [VALUE]        a verb the rule file names (``double``, ``hold``, ``kontra``, ``declare grand``):
                        each ruleset says which words it adds and whether each takes a value

``str(Move)`` gives the canonical form and ``parse_move(text, ...)`` reads it back.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import NamedTuple

from rulecraft.errors import IllegalMoveError

VERBS_WITH_PIECES = frozenset({"play", "down", "give", "claim", "revoke"})
VERBS_WITH_VALUE = frozenset({"bid", "call", "name", "claim"})
BARE_VERBS = frozenset({"pass", "stop", "challenge", "accept", "draw"})
ALL_VERBS = VERBS_WITH_PIECES | VERBS_WITH_VALUE | BARE_VERBS
_VERB_WORD = re.compile(r"^[a-z][a-z0-9_]*$")


def verb_problem(verb: str, takes_value: bool, known: dict[str, bool]) -> str | None:
    """Why a rule file may not name ``verb`` for moves that take a value (or none), else None.

    A verb is one lower-case word, so a move's text still splits into verb, value and pieces. It may
    be a verb the engine has when that verb has the same shape (``bid``, ``name``, ``pass``), and a
    word the ruleset already named must keep the shape it was given first: ``double 2`` and a bare
    ``double`` in one ruleset would make a typed move mean two things.
    """
    if not _VERB_WORD.match(verb):
        return f"a verb is one lower-case word (letters, digits, _), not '{verb}'"
    if verb in VERBS_WITH_PIECES:
        return f"'{verb}' is the engine's verb for moves that name pieces"
    builtin = True if verb in VERBS_WITH_VALUE else (False if verb in BARE_VERBS else None)
    shape = known.get(verb, builtin)
    if shape is not None and shape != takes_value:
        said = "takes a value" if shape else "takes nothing after it"
        return f"'{verb}' already {said} in this ruleset; give this move another verb"
    return None


class Move(NamedTuple):
    """One decision. ``pieces`` are piece ints; ``text`` caches the canonical text form.

    A named tuple rather than a dataclass: equality and hashing run in C, and both are on the hot
    path (``move in legal``, dictionaries keyed by move) of every playout.
    """

    verb: str
    pieces: tuple[int, ...] = ()
    value: str = ""
    text: str = ""

    def __str__(self) -> str:
        return self.text or self.verb

    def __repr__(self) -> str:
        return f"Move({self.text or self.verb!r})"


# Verbs whose value, when they have one, is a reading written after the pieces (``play A B as R``).
VERBS_WITH_READING = frozenset({"play", "revoke"})


def make_move(verb: str, pieces: tuple[int, ...], value: str, piece_names: list[str]) -> Move:
    """Build a move with its canonical text (pieces named by type id, in the order given)."""
    parts = [verb]
    if verb == "claim":
        parts.append(f"{value}:" if pieces else value)
    elif value and verb not in VERBS_WITH_READING:
        parts.append(value)
    parts.extend(piece_names[p] for p in pieces)
    if value and verb in VERBS_WITH_READING:
        parts += ["as", value]
    return Move(verb, pieces, value, " ".join(parts))


# Moves kept for reuse, per ruleset and process, before the book starts again. A game of a double pack
# meets new sets of pieces in every game (Sheng Ji: some 250 a hand), and a long simulation or a server
# kept every one without this bound. A move made again is equal to the one dropped (a named tuple),
# so ``move in legal`` still holds; only its identity is new.
MOVES_KEPT = 200_000


class MoveBook:
    """Each distinct move of a ruleset, made once and then reused.

    Legal-move lists are rebuilt after every move; interning keeps that free of string work and
    lets ``move in legal`` succeed on identity.
    """

    __slots__ = ("_cache", "_names")

    def __init__(self, piece_names: list[str]) -> None:
        self._names = piece_names
        self._cache: dict[tuple[str, tuple[int, ...], str], Move] = {}

    def get(self, verb: str, pieces: tuple[int, ...] = (), value: str = "") -> Move:
        key = (verb, pieces, value)
        move = self._cache.get(key)
        if move is None:
            if len(self._cache) > MOVES_KEPT:  # (see MOVES_KEPT)
                self._cache.clear()
            move = self._cache[key] = make_move(verb, pieces, value, self._names)
        return move


class UnknownVerb(IllegalMoveError):
    """Text that starts with no verb of any move; the game says which verbs its current decision takes."""

    def __init__(self, word: str) -> None:
        self.word = word
        super().__init__(f"unknown move '{word}'")


def split_move_text(text: str, verbs: Mapping[str, bool] | None = None) -> tuple[str, str, list[str]]:
    """Split move text into (verb, value, piece ids) without resolving pieces.

    ``verbs``: the words a ruleset adds (each: whether it takes a value). Raises IllegalMoveError for
    text that is not a move at all.
    """
    words = text.replace(",", " ").split()
    if not words:
        raise IllegalMoveError("empty move: type a move such as 'play red-14' or 'pass'")
    verb = words[0].lower()
    if verbs and verb in verbs and verb not in ALL_VERBS:
        rest = words[1:]
        if verbs[verb]:
            if len(rest) != 1:
                raise IllegalMoveError(f"'{verb}' takes exactly one value, e.g. '{verb} x'")
            return verb, rest[0], []
        if rest:
            raise IllegalMoveError(f"'{verb}' takes nothing after it")
        return verb, "", []
    if verb not in ALL_VERBS:
        raise UnknownVerb(words[0])
    rest = words[1:]
    value = ""
    if verb == "claim":
        if not rest:
            raise IllegalMoveError("a claim needs a value (and its pieces, if it puts any down), e.g. "
                                   "'claim 7: h7 s7'")
        head = rest[0]
        if head.endswith(":"):
            value, rest = head[:-1], rest[1:]
        elif ":" in head:
            value, first = head.split(":", 1)
            rest = [first, *rest[1:]] if first else rest[1:]
        else:
            value, rest = head, rest[1:]
    elif verb in VERBS_WITH_VALUE:
        if len(rest) != 1:
            raise IllegalMoveError(f"'{verb}' takes exactly one value, e.g. '{verb} {'85' if verb == 'bid' else 'x'}'")
        value, rest = rest[0], []
    elif verb in BARE_VERBS and rest:
        raise IllegalMoveError(f"'{verb}' takes nothing after it")
    elif verb in VERBS_WITH_READING and len(rest) >= 2 and rest[-2].lower() == "as":
        value, rest = rest[-1], rest[:-2]  # the reading: which combination the pieces are played as
    if verb in VERBS_WITH_PIECES and not rest and verb != "claim":  # (a claim may put down nothing)
        raise IllegalMoveError(f"'{verb}' needs at least one piece")
    return verb, value, rest
