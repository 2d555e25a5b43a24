"""Games in progress on the server: the state, the bots, each seat's secret link, undo by replaying the log.

Each human seat gets its own unguessable token; a page holding it is sent only that seat's view.
A hot-seat token stands for every human seat of one game at one screen (the page covers the table
between turns). Bots answer at once, under the table's lock, so two browsers acting together are
taken one after the other. Undo rebuilds the game from its log up to the human's last move, as the
terminal table does: logs replay exactly, and bots are warmed on the way so they answer as before.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulecraft.agents.base import known_agents, make_agent
from rulecraft.engine.game import Game
from rulecraft.errors import IllegalMoveError, UsageError, clip
from rulecraft.runs.log import log_lines, parse_log, replay_events, write_log

if TYPE_CHECKING:
    from rulecraft.agents.base import Agent
    from rulecraft.engine.ruleset import Ruleset
    from rulecraft.engine.state import State

HUMAN = "human"
HOT = -1  # the "seat" a hot-seat token stands for
NOT_OFFERED = frozenset({"scripted"})  # needs a script: nothing a start form can give
MAX_TABLES = 64  # games kept at once; the oldest is dropped beyond
MAX_MOVE_TEXT = 2000  # characters in a move sent by a browser
MAX_SEED = 2**63 - 1
BOT_MOVES = 200_000  # bot moves in a row before the server gives up (a game that cannot end)


def offered_agents() -> list[str]:
    """What a seat may be: a person, or any agent the registry knows that needs no argument."""
    return [HUMAN, *(a for a in known_agents() if a not in NOT_OFFERED)]


def check_seats(rs: Ruleset, seats: list[str]) -> list[str]:
    offered = offered_agents()
    if len(seats) != rs.seats.count:
        raise UsageError(f"{rs.name} has {rs.seats.count} seats; {len(seats)} were chosen")
    for s, name in enumerate(seats):
        if name not in offered:
            raise UsageError(f"seat {s}: '{clip(name)}' is not a player this server offers ({', '.join(offered)})")
    return seats


def check_seed(text: str) -> int:
    try:
        seed = int(str(text).strip())
    except ValueError:
        raise UsageError(f"the seed must be a whole number, not '{clip(str(text))}'") from None
    if not 0 <= seed <= MAX_SEED:
        raise UsageError(f"the seed must be between 0 and {MAX_SEED}")
    return seed


@dataclass
class Table:
    ref: str  # what the browser chose (a bundled name or an allowed path)
    rs: Ruleset
    seed: int
    agents: list[str]
    st: State
    tokens: dict[int, str]  # human seat -> its secret
    hot_token: str
    log_path: Path | None = None
    lang: str | None = None  # the ruleset language the table is shown in (None: its default)
    bots: dict[int, Agent] = field(default_factory=dict)
    version: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def humans(self) -> list[int]:
        return [s for s, a in enumerate(self.agents) if a == HUMAN]

    def fresh_bots(self) -> dict[int, Agent]:
        return {s: make_agent(a, self.seed, s) for s, a in enumerate(self.agents) if a != HUMAN}

    # ------------------------------------------------------------------ playing
    def play(self, seat: int, text: str) -> None:
        """``seat`` makes the move ``text``; IllegalMoveError says why not, in the rule's own words."""
        if not isinstance(text, str) or not text.strip():
            raise IllegalMoveError("no move was sent")
        if len(text) > MAX_MOVE_TEXT:
            raise IllegalMoveError(f"a move has at most {MAX_MOVE_TEXT} characters")
        with self.lock:
            st = self.st
            if st.is_over:
                raise IllegalMoveError("the game is over: no more moves")
            if st.to_act != seat:
                raise IllegalMoveError(f"it is not your turn: seat {st.to_act} is to act")
            st.apply(" ".join(text.split()))
            self._run_bots()
            self._changed()

    def run_bots(self) -> None:
        with self.lock:
            self._run_bots()
            self._changed()

    def _run_bots(self) -> None:
        st = self.st
        for _ in range(BOT_MOVES):
            if st.is_over or st.to_act is None or st.to_act not in self.bots:
                return
            seat = st.to_act
            st.apply(self.bots[seat].choose(st, seat))
        raise UsageError(f"the bots made {BOT_MOVES} moves in a row without the game ending or a person to act")

    def _changed(self) -> None:
        self.version += 1
        if self.log_path is not None:
            write_log(self.log_path, self.st, self.agents)

    def undo(self, seat: int) -> int:
        """Take back ``seat``'s last move and every move since (one human only); returns how many went."""
        with self.lock:
            if self.humans != [seat]:
                raise UsageError("undo is only available when every other seat is a bot")
            moves = [e for e in self.st.history if e.get("type") == "move"]
            mine = [i for i, e in enumerate(moves) if e.get("seat") == seat]
            if not mine:
                return 0
            cut = mine[-1]
            header, events = parse_log(log_lines(self.st, self.agents), "<game>")
            st, before = replay_events(header, events, self.rs, "<game>", cut, keep_states=True)
            self.bots = self.fresh_bots()
            for state in before:  # warm each bot: its random stream moves as when the move was made
                if state.to_act is not None and state.to_act in self.bots:
                    self.bots[state.to_act].choose(state, state.to_act)
            self.st = st
            self._changed()
            return len(moves) - cut

    # ------------------------------------------------------------------ what a seat may see
    def view(self, seat: int) -> dict[str, Any]:
        with self.lock:
            return self.st.view(seat)

    def seen_events(self, seat: int) -> list[dict[str, Any]]:
        """The log as ``seat`` may read it (redacted from zone visibility)."""
        from rulecraft.engine.views import redact_event

        with self.lock:
            out = []
            for event in self.st.history:
                shown = redact_event(event, seat)
                if shown is not None:
                    out.append(shown)
            return out


class Tables:
    """Every game on this server, found by a seat's (or a hot-seat) token."""

    def __init__(self, log_dir: Path | None = None) -> None:
        self._by_token: dict[str, tuple[Table, int]] = {}
        self._tables: OrderedDict[str, Table] = OrderedDict()
        self._lock = threading.Lock()
        self.log_dir = log_dir

    def start(self, ref: str, rs: Ruleset, seed: int, seats: list[str], lang: str | None = None) -> Table:
        agents = check_seats(rs, seats)
        if HUMAN not in agents:
            raise UsageError("choose at least one seat for a person (human); bots alone are 'rulecraft simulate'")
        bots = {s: make_agent(a, seed, s) for s, a in enumerate(agents) if a != HUMAN}
        st = Game(rs, seed).new_state()
        tokens = {s: secrets.token_urlsafe(18) for s, a in enumerate(agents) if a == HUMAN}
        with self._lock:  # the log's name is chosen and first written under the lock: two games never share one
            table = Table(ref, rs, seed, agents, st, tokens, secrets.token_urlsafe(18), self._new_log_path(rs, seed),
                          lang, bots)
            table.run_bots()
            key = table.hot_token
            self._tables[key] = table
            self._by_token[table.hot_token] = (table, HOT)
            for s, tok in tokens.items():
                self._by_token[tok] = (table, s)
            while len(self._tables) > MAX_TABLES:
                _, old = self._tables.popitem(last=False)
                for tok in [old.hot_token, *old.tokens.values()]:
                    self._by_token.pop(tok, None)
        return table

    def find(self, token: str) -> tuple[Table, int] | None:
        if not isinstance(token, str) or len(token) > 64:
            return None
        with self._lock:
            return self._by_token.get(token)

    def _new_log_path(self, rs: Ruleset, seed: int) -> Path | None:
        if self.log_dir is None:
            return None
        stem = f"rulecraft-{rs.name}-{seed}"
        path = self.log_dir / f"{stem}.jsonl"
        n = 2
        while path.exists():
            path = self.log_dir / f"{stem}-{n}.jsonl"
            n += 1
        return path
