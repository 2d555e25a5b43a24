"""A game played from the terminal: the state, the bots, the log, and undo and resume by replaying the log.

Undo and resume both rebuild the game from its log rather than from saved snapshots, because logs
replay exactly: one mechanism, already tested, and nothing a log lacks can creep into a resumed game.
Bots are "warmed" while replaying (asked for each move they made, answer discarded), so a bot's
private random stream is where it was when that move was made: after an undo, the same human move
gets the same replies, and a resumed game's bots play on as they would have.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulecraft.agents.base import make_agent
from rulecraft.cli.options import comma_list
from rulecraft.engine.game import Game
from rulecraft.errors import LogError, UsageError
from rulecraft.runs.log import check_identity, log_lines, parse_log, read_log, replay_events, write_log

if TYPE_CHECKING:
    from rulecraft.agents.base import Agent
    from rulecraft.engine.moves import Move
    from rulecraft.engine.ruleset import Ruleset
    from rulecraft.engine.state import State

HUMAN = "human"


def seat_agents(rs: Ruleset, spec: str | None, seed: int) -> list[str]:
    """``human,random,...`` → one agent name per seat (default: a human in seat 0, random bots elsewhere).

    Each bot name is checked now (``make_agent``), so a typo is a usage error before the game starts.
    """
    n = rs.seats.count
    names = comma_list(spec, "--seats") if spec is not None else [HUMAN] + ["default"] * (n - 1)
    if len(names) != n:
        raise UsageError(f"{rs.name} has {n} seats: --seats needs {n} names separated by commas "
                         f"(e.g. {','.join([HUMAN] + ['random'] * (n - 1))}), got {len(names)}")
    for seat, name in enumerate(names):
        if name != HUMAN:
            make_agent(name, seed, seat)
    return names


@dataclass
class Session:
    rs: Ruleset
    seed: int
    agents: list[str]
    st: State
    log_path: Path
    bots: dict[int, Agent] = field(default_factory=dict)
    language: str | None = None  # shown in (--lang); recorded in the log's header for display only

    # ------------------------------------------------------------------ making one
    @classmethod
    def new(cls, rs: Ruleset, seed: int, agents: list[str], log_path: Path, max_hands: int | None = None) -> Session:
        st = Game(rs, seed, max_hands).new_state()
        session = cls(rs, seed, agents, st, log_path)
        session.bots = session._fresh_bots()
        return session

    @classmethod
    def resume(cls, path: Path, rs: Ruleset, agents: list[str] | None, log_path: Path) -> Session:
        """Continue the game saved in ``path``; the engine refuses a log of another ruleset (LogError)."""
        header, events = read_log(path)
        check_identity(str(path), header, rs)  # a log of another ruleset is refused before anything else
        names = agents if agents is not None else [str(a) for a in header.get("agents", [])]
        if len(names) != rs.seats.count:
            raise LogError(f"{path}:1:1: error: the log names {len(names)} agent{'s' if len(names) != 1 else ''} for "
                           f"{rs.seats.count} seats")
        for seat, name in enumerate(names if agents is None else ()):  # (the log's own: its problem, at its header)
            try:
                if name != HUMAN:
                    make_agent(name, 0, seat)
            except UsageError as exc:
                raise LogError(f"{path}:1:1: error: the log's agent for seat {seat}: {exc}") from None
        session = cls(rs, int(header["seed"]), names, None, log_path)  # type: ignore[arg-type]
        session._rebuild(header, events, str(path), None)
        return session

    def _fresh_bots(self) -> dict[int, Agent]:
        return {s: make_agent(a, self.seed, s) for s, a in enumerate(self.agents) if a != HUMAN}

    def _rebuild(self, header: dict[str, Any], events: list[tuple[int, dict[str, Any]]], name: str,
                 upto: int | None) -> None:
        st, before = replay_events(header, events, self.rs, name, upto, keep_states=True)
        self.bots = self._fresh_bots()
        for state in before:  # warm each bot: its random stream moves as when the move was made
            seat = state.to_act
            if seat is not None and seat in self.bots:
                self.bots[seat].choose(state, seat)
        self.st = st

    # ------------------------------------------------------------------ seats
    @property
    def humans(self) -> list[int]:
        return [s for s, a in enumerate(self.agents) if a == HUMAN]

    def is_human(self, seat: int | None) -> bool:
        return seat is not None and self.agents[seat] == HUMAN

    def bot_move(self) -> Move:
        seat = self.st.to_act
        assert seat is not None and seat in self.bots
        if not len(self.st.legal_moves()):
            from rulecraft.runs.simulate import no_legal_move

            raise no_legal_move(self.st, self.seed)
        return self.bots[seat].choose(self.st, seat)

    # ------------------------------------------------------------------ log, undo
    def save(self) -> None:
        write_log(self.log_path, self.st, self.agents, language=self.language)

    def undo(self) -> int:
        """Take back the human's last move and every move since; returns how many moves went (0: none).

        Only with one human: with several, one player's undo would take back another's move.
        """
        if len(self.humans) != 1:
            raise UsageError("undo is only available when every other seat is a bot")
        human = self.humans[0]
        moves = [e for e in self.st.history if e.get("type") == "move"]
        mine = [i for i, e in enumerate(moves) if e.get("seat") == human]
        if not mine:
            return 0
        cut = mine[-1]
        header, events = parse_log(log_lines(self.st, self.agents), "<game>")
        self._rebuild(header, events, "<game>", cut)
        return len(moves) - cut
