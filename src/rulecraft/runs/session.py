"""A game people play, at the terminal or in the browser: the state, the bots, the log, and the rules of
the table around the game (its chance, moves as transactions, undo).

Both faces (``rulecraft play`` and ``rulecraft serve``) keep their games here, so what holds for one
holds for the other:

- **A table's chance** (``table_seed``): where more than one person sits, nobody may be able to work
  out the deal from a seed, so the seed is drawn from ``secrets`` (256 bits); a seed someone typed is
  mixed with such bits, never used alone; and each hand draws from a generator of its own made from it
  (``keyed_hands``), so that the deals a seat has seen do not give away the ones to come. It is recorded
  in the log, so replay and resume stay exact.
- **A move is a transaction** (``move``): it is made on a copy of the state, and the copy takes the
  state's place (after the log is written, where it is) only when the move is made whole. A rule that
  fails at run time, or a log that cannot be written, leaves the game exactly as it was. A move may
  name the version of the game it answers: a stale or repeated move is refused, the first one wins.
- **Undo** rebuilds the game from its log up to the person's last move (logs replay exactly; bots are
  "warmed" on the way, asked for each move they made, so their private random streams are where they
  were). It is refused once anything the person could not see has been shown to them since that move
  (a card played or revealed, a hand dealt, a die rolled): taking the move back would keep the knowledge.
"""

from __future__ import annotations

import hashlib
import secrets
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulecraft.agents.base import make_agent
from rulecraft.engine.game import Game
from rulecraft.engine.views import redact_event
from rulecraft.errors import IllegalMoveError, LogError, RulecraftError, UsageError
from rulecraft.runs.log import check_identity, log_lines, parse_log, read_log, replay_events, write_log

if TYPE_CHECKING:
    from rulecraft.agents.base import Agent
    from rulecraft.engine.moves import Move
    from rulecraft.engine.ruleset import Ruleset
    from rulecraft.engine.state import State

HUMAN = "human"
SECRET_BITS = 256  # a table's chance: far past any search (the generator's own state is larger still)


def keyed_hands(given: int | None, people: int) -> bool:
    """Whether a game ``people`` persons play draws each hand from a generator of its own
    (``engine.state.hand_generator``): every game whose seed is secret (``table_seed``), so that what a
    seat sees of the deals (a trick game shows every hand whole by its end) cannot be worked back into the
    one generator of the match, and the deals to come read off it. A seed a person chose to play alone
    keeps the one generator of every other game (``simulate``, scenarios): the game it has always named."""
    return not (given is not None and people <= 1)


def table_seed(given: int | None, people: int) -> int:
    """The seed of a game ``people`` persons play; ``given``: a seed someone chose, or None.

    With one person (against bots) a given seed is used as it is: a reproducible game to practise or
    study. With more, a given seed is mixed with secret bits (a SHA-256 of both), so that no seat who
    knows it can work out the others' pieces; with no seed given, the secret bits are the seed.
    """
    if given is not None and people <= 1:
        return given
    secret = secrets.randbits(SECRET_BITS)
    if given is None:
        return secret
    return int.from_bytes(hashlib.sha256(f"rulecraft table {given} {secret}".encode()).digest(), "big")


class StaleMoveError(IllegalMoveError):
    """A move answered a version of the game that is no longer the current one (made twice, or too late)."""


class MoveFailedError(RulecraftError):
    """The rules failed at run time while making a move; the game is as it was before it."""


@dataclass
class Session:
    rs: Ruleset
    seed: int
    agents: list[str]
    st: State
    log_path: Path | None
    bots: dict[int, Agent] = field(default_factory=dict)
    language: str | None = None  # shown in; recorded in the log's header for display only
    version: int = 0  # counts every change (a move, an undo): a move names the version it answers
    private_log: bool = True  # a log holds every hand: written for its owner's eyes only (0600)
    follow_links: bool = True  # False: a symbolic link where the log goes is replaced, never written through

    # ------------------------------------------------------------------ making one
    @classmethod
    def new(cls, rs: Ruleset, seed: int, agents: list[str], log_path: Path | None,
            max_hands: int | None = None, hands_keyed: bool = False) -> Session:
        st = Game(rs, seed, max_hands, hands_keyed).new_state()
        session = cls(rs, seed, agents, st, log_path)
        session.bots = session.fresh_bots()
        return session

    @classmethod
    def resume(cls, path: Path, rs: Ruleset, agents: list[str] | None, log_path: Path | None) -> Session:
        """Continue the game saved in ``path``; a log of another ruleset is refused (LogError)."""
        header, events = read_log(path)
        return cls.from_log(header, events, str(path), rs, agents, log_path)

    @classmethod
    def from_log(cls, header: dict[str, Any], events: list[tuple[int, dict[str, Any]]], name: str, rs: Ruleset,
                 agents: list[str] | None, log_path: Path | None) -> Session:
        check_identity(name, header, rs)  # a log of another ruleset is refused before anything else
        names = agents if agents is not None else [str(a) for a in header.get("agents", [])]
        if len(names) != rs.seats.count:
            raise LogError(f"{name}:1:1: error: the log names {len(names)} agent{'s' if len(names) != 1 else ''} "
                           f"for {rs.seats.count} seats")
        for seat, agent in enumerate(names if agents is None else ()):  # (the log's own: its problem, at its header)
            try:
                if agent != HUMAN:
                    make_agent(agent, 0, seat)
            except UsageError as exc:
                raise LogError(f"{name}:1:1: error: the log's agent for seat {seat}: {exc}") from None
        session = cls(rs, int(header["seed"]), names, None, log_path)  # type: ignore[arg-type]
        st, before = replay_events(header, events, rs, name, None, keep_states=True)
        session.bots = session.fresh_bots()
        session._warm(before)
        st.chance_feed = None  # (every outcome was drawn: from here on, the generator, which kept in step)
        session.st = st
        return session

    def fresh_bots(self) -> dict[int, Agent]:
        return {s: make_agent(a, self.seed, s) for s, a in enumerate(self.agents) if a != HUMAN}

    def _warm(self, states: Iterable[State], bots: dict[int, Agent] | None = None) -> None:
        """Ask each bot for each move it made, so its random stream is where it was then."""
        bots = self.bots if bots is None else bots
        for state in states:
            seat = state.to_act
            if seat is not None and seat in bots:
                bots[seat].choose(state, seat)

    # ------------------------------------------------------------------ seats
    @property
    def humans(self) -> list[int]:
        return [s for s, a in enumerate(self.agents) if a == HUMAN]

    def is_human(self, seat: int | None) -> bool:
        return seat is not None and self.agents[seat] == HUMAN

    @property
    def bot_to_act(self) -> int | None:
        st = self.st
        seat = st.to_act
        return seat if not st.is_over and seat is not None and seat in self.bots else None

    # ------------------------------------------------------------------ moves
    def move(self, seat: int, move: Move | str, version: int | None = None, save: bool = False) -> None:
        """``seat`` makes ``move``, as a whole or not at all (see the module's docstring).

        IllegalMoveError says why a move is refused (StaleMoveError: it answered an older version);
        MoveFailedError, that the rules failed while making it. ``save`` writes the log first.
        """
        if version is not None and version != self.version:
            raise StaleMoveError("the game has moved on since this move was chosen (it was made already, or "
                                 "another came first): look at the table again")
        st = self.st
        if st.is_over:
            raise IllegalMoveError("the game is over: no more moves")
        if st.to_act != seat:
            raise IllegalMoveError(f"it is not your turn: seat {st.to_act} is to act")
        trial = st.clone()
        try:
            trial.apply(move)
        except IllegalMoveError:
            raise
        except RulecraftError as exc:
            raise MoveFailedError(f"the move was not made, and the game is as it was before it: the rules "
                                  f"failed while making it: {exc}") from exc
        self._commit(trial, save)

    def bot_turn(self) -> tuple[int, Agent, State]:
        """The bot to act, and a copy of the state for it to think on (nothing else need wait while it thinks)."""
        seat = self.bot_to_act
        assert seat is not None
        st = self.st.clone()
        if not len(st.legal_moves()):
            raise self.no_legal_move()
        return seat, self.bots[seat], st

    def choose_for_bot(self) -> tuple[int, Move]:
        """The bot to act and the move it chooses."""
        seat, bot, st = self.bot_turn()
        return seat, bot.choose(st, seat)

    def no_legal_move(self) -> RulecraftError:
        from rulecraft.runs.simulate import no_legal_move

        return no_legal_move(self.st, None)

    def _commit(self, trial: State, save: bool) -> None:
        if save:
            self.save(trial)  # before the state changes: a log that cannot be written leaves the game as it was
        self.st = trial
        self.version += 1

    # ------------------------------------------------------------------ log
    def log(self, st: State | None = None) -> list[str]:
        return log_lines(st or self.st, self.agents, language=self.language)

    def save(self, st: State | None = None) -> None:
        if self.log_path is not None:
            write_log(self.log_path, st or self.st, self.agents, language=self.language, private=self.private_log,
                      follow_links=self.follow_links)

    # ------------------------------------------------------------------ undo
    def undo(self, seat: int) -> int:
        """Take back ``seat``'s last move and every move since; returns how many went (0: none).

        Only with one person (with several, one player's undo would take back another's move), never
        once the game is over, and never once the person has been shown something since that move.
        """
        if self.humans != [seat]:
            raise UsageError("undo is only available when every other seat is a bot")
        if self.st.is_over:
            raise UsageError("the game is over: its moves stand")
        moves = [e for e in self.st.history if e.get("type") == "move"]
        mine = [i for i, e in enumerate(moves) if e.get("seat") == seat]
        if not mine:
            return 0
        cut = mine[-1]
        header, events = parse_log(self.log(), "<game>")
        final, before = replay_events(header, events, self.rs, "<game>", None, keep_states=True)
        bots = self.fresh_bots()
        back: State | None = None
        later: list[State] = []
        for i, state in enumerate(before):  # (each a copy of its own, made by playing the game forwards once)
            if i < cut:
                self._warm((state,), bots)
            elif i == cut:
                back = state
            else:
                later.append(state)
        assert back is not None
        shown = revealed_since(back, [*later, final], seat)
        if shown:
            raise UsageError(f"undo would take back a move after which you were shown {shown}: what you saw "
                             "stays seen, so the move stands")
        back.chance_feed = None  # (the generator kept in step with the outcomes given: it draws on from here)
        self.bots = bots
        self._commit(back, save=False)
        return len(moves) - cut


def revealed_since(before: State, after: list[State], seat: int) -> str:
    """What ``seat`` has been shown in the states ``after`` (the last: the game now) that it could not see
    in ``before`` ('' if nothing).

    Read from the events since then as the seat reads them (a piece named in another seat's move, a
    reveal, a die rolled) and from each table since (a piece in view that was hidden: a new hand, the
    nest taken up; a variable the seat may see now and could not then).
    """
    if not after:
        return ""
    now = after[-1]
    ids = now.rs.pieces.columns["id"]
    total = Counter(ids[p] for p in range(now.rs.pieces.count))
    view = before.view(seat)
    seen = _in_view(view)
    hidden = {t for t, n in total.items() if n > seen[t]}
    secret_vars = {v.name for v in now.rs.variables if v.visibility != "all" and v.name not in view["variables"]}
    by_type = now.rs.pieces.by_type_id
    for event in now.history[len(before.history):]:
        shown = redact_event(event, seat)
        if shown is None:
            continue
        if shown.get("type") == "chance" and set(shown) - {"type", "kind"}:
            return f"the outcome of a {shown.get('kind')}"
        if shown.get("seat") == seat and shown.get("type") == "move":
            continue  # (its own move names only what it held)
        named = {w for w in _words(shown) if w in by_type} & hidden
        if named:
            return ", ".join(sorted(named))
    for st in after:
        later = st.view(seat)
        counts = _in_view(later)
        newly = sorted(t for t in hidden if counts[t] > seen[t])
        if newly:
            return ", ".join(newly)
        names = sorted(secret_vars & set(later["variables"]))
        if names:
            return ", ".join(names)
    return ""


def _in_view(view: dict[str, Any]) -> Counter[str]:
    seen: Counter[str] = Counter()
    for zone in view["zones"].values():
        seen.update(zone.get("pieces", ()))
    return seen


def _words(value: Any) -> Iterable[str]:
    if isinstance(value, str):
        yield from value.replace(":", " ").split()
    elif isinstance(value, dict):
        for v in value.values():
            yield from _words(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _words(v)
