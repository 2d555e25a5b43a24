"""The terminal a person plays at: printing lines, asking for a line, clearing the screen.

Kept apart from the game loop so the loop reads as game logic, and so readline (tab completion of
legal moves) is switched on only for a real terminal: piped input must read plainly, line by line.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

import click

CLEAR = "\033[H\033[2J\033[3J"  # home, clear the screen, and clear the scrollback too (xterm)


class Console:
    def __init__(self) -> None:
        self.interactive = sys.stdin.isatty()
        self._complete: Callable[[str], list[str]] | None = None
        self._matches: list[str] = []
        if self.interactive:
            self._setup_readline()

    def _setup_readline(self) -> None:
        try:
            import readline
        except ImportError:  # pragma: no cover - platforms without readline still play, without completion
            return
        readline.set_completer_delims("")  # complete the whole line: moves have spaces in them
        readline.set_completer(self._completer)
        readline.parse_and_bind("tab: complete")

    def _completer(self, text: str, state: int) -> str | None:
        if state == 0:
            self._matches = self._complete(text) if self._complete is not None else []
        return self._matches[state] if state < len(self._matches) else None

    def set_completion(self, complete: Callable[[str], list[str]] | None) -> None:
        self._complete = complete

    def echo(self, line: str = "") -> None:
        click.echo(line)

    def lines(self, lines: list[str]) -> None:
        click.echo("\n".join(lines))

    def ask(self, prompt: str) -> str:
        """A line from the player; EOFError on Ctrl-D (or the end of piped input), KeyboardInterrupt on Ctrl-C."""
        sys.stdout.flush()
        return input(prompt)

    def clear(self) -> None:
        """Hide what is on the screen (a real terminal is cleared; piped output gets a divider)."""
        if sys.stdout.isatty():
            sys.stdout.write(CLEAR)
            sys.stdout.flush()
        else:
            click.echo("\n" + "-" * 60)
