"""``rulecraft replay``: step through a saved game, forwards and backwards, from one seat's view or all.

The states come from replaying the log (``runs.log.replay_events`` keeping the state before each
move), so what is shown is what the engine reaches, not what the log claims; a corrupt log or one of
another ruleset stops with ``file:line:col: error`` before anything is shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import click

from rulecraft.cli.console import Console
from rulecraft.cli.table import Seats, event_text, language, log_lines, names_of, render_table
from rulecraft.engine.views import redact_event
from rulecraft.errors import UsageError

if TYPE_CHECKING:
    from rulecraft.engine.ruleset import Ruleset
    from rulecraft.engine.state import State

KEYS = "n/Enter next, p previous, g N go to after move N, q quit"


class Replay:
    """Steps 0..M of a game of M moves: step i is the table before move i, step M the end."""

    def __init__(self, rs: Ruleset, before: Sequence[State], final: State, moves: list[dict[str, Any]],
                 seat: int | None, seats: Seats, lang: str | None = None) -> None:
        self.rs = rs
        self.before = before  # made again on demand (runs.states_before): not one whole state per move
        self.final = final
        self.moves = moves
        self.seat = seat
        self.seats = seats
        self.lang = lang

    @property
    def last(self) -> int:
        return len(self.before)

    def move_line(self, i: int) -> str:
        """The i-th move (1-based in the text), redacted for the replay's seat."""
        event = redact_event(self.moves[i], self.seat)
        text = event_text(event, self.seats, self.rs, self.lang) if event is not None else "?"
        return f"move {i + 1}/{len(self.moves)}: {text}"

    def table(self, step: int) -> list[str]:
        st = self.before[step] if step < len(self.before) else self.final
        shown = [redact_event(e, self.seat) for e in st.history[-40:]]
        recent = log_lines([e for e in shown if e is not None], self.seats, self.rs, self.lang)
        return render_table(self.rs, st.view(self.seat), self.seats, recent, self.lang)


def _load(file: str, ruleset: str | None) -> tuple[Ruleset, dict[str, Any], list[tuple[int, dict[str, Any]]]]:
    from rulecraft.runs.log import load_logged_ruleset, read_log

    header, events = read_log(file)
    return load_logged_ruleset(header, file, ruleset), header, events


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--seat", type=int, default=None, help="Show only what this seat could see (default: everything).")
@click.option("--ruleset", default=None, help="The ruleset to replay under (default: the one the log names).")
@click.option("--lang", "lang", default=None, metavar="CODE",
              help="Show pieces and rules by their names in this language of the ruleset (default: the "
                   "language the game was shown in, if the log records one, else the rule file's own).")
def replay(file: str, seat: int | None, ruleset: str | None, lang: str | None) -> int:
    """Step through a saved game (FILE, a log from play or simulate --log-dir)."""
    from rulecraft.runs.log import replay_events

    rs, header, events = _load(file, ruleset)
    if seat is not None and not 0 <= seat < rs.seats.count:
        raise UsageError(f"--seat must be between 0 and {rs.seats.count - 1} for {rs.name}")
    if lang is None:  # the log's own, for display only: the events are ids and replay in any language
        logged = header.get("display_language")
        lang = logged if isinstance(logged, str) and logged in names_of(rs).languages else names_of(rs).default
    shown_in = language(rs, lang)
    final, before = replay_events(header, events, rs, file, keep_states=True)
    moves = [e for _, e in events if e.get("type") == "move"][:len(before)]
    agents = [str(a) for a in header.get("agents", [])]
    labels = tuple(("you" if s == seat else a) if s < len(agents) else "" for s, a in enumerate(agents))
    rp = Replay(rs, before, final, moves, seat, Seats(labels or tuple("" for _ in range(rs.seats.count))),
                shown_in)
    console = Console()
    if not console.interactive:
        for i in range(len(moves)):
            console.echo(rp.move_line(i))
        console.lines(rp.table(rp.last))
        return 0
    return _interactive(rp, console)


def _interactive(rp: Replay, console: Console) -> int:
    step = 0
    console.set_completion(None)
    while True:
        console.echo()
        console.lines(rp.table(step))
        console.echo(rp.move_line(step) if step < rp.last else f"end of the game ({rp.last} moves)")
        try:
            cmd = console.ask(f"[{step}/{rp.last}] {KEYS}> ").strip().lower()
        except (EOFError, KeyboardInterrupt):
            console.echo()
            return 0
        if cmd in ("", "n", "next"):
            step = min(step + 1, rp.last)
        elif cmd in ("p", "prev", "previous"):
            step = max(step - 1, 0)
        elif cmd.startswith("g"):
            arg = cmd[1:].strip()
            if not arg.isdigit():
                console.echo("go to which move? e.g. 'g 12'")
                continue
            step = max(0, min(int(arg), rp.last))
        elif cmd in ("q", "quit"):
            return 0
        else:
            console.echo(f"keys: {KEYS}")


def register(group: click.Group) -> None:
    group.add_command(replay)
