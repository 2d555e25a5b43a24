"""A game played from the terminal: who sits where. The game itself (state, bots, log, moves as
transactions, undo and resume by replaying the log) is ``runs.session.Session``, as in the browser.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulecraft.agents.base import make_agent
from rulecraft.cli.options import comma_list
from rulecraft.errors import UsageError
from rulecraft.runs.session import HUMAN, Session

if TYPE_CHECKING:
    from rulecraft.engine.ruleset import Ruleset

__all__ = ["HUMAN", "Session", "seat_agents"]


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


