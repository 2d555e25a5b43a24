"""The ``rulecraft`` command: a click group; each command family lives in its own module."""

from __future__ import annotations

import importlib
import sys

import click

from rulecraft import __version__

# Each module exposes ``register(group)``. Order is the order of ``rulecraft --help``.
COMMAND_MODULES = [
    "rulecraft.cli.rules_cmds",  # validate, list, explain, diff, schema
    "rulecraft.cli.eval_cmd",  # eval
    "rulecraft.cli.game_cmds",  # simulate, test
    "rulecraft.cli.compare_cmd",  # compare
    "rulecraft.cli.play_cmds",  # play
    "rulecraft.cli.replay_cmds",  # replay
]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="rulecraft")
def cli() -> None:
    """Play traditional card and tile games by their documented rules and variants."""


def _register_all() -> None:
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:  # a command family not written yet
                continue
            raise
        module.register(cli)


_register_all()


def main() -> None:
    """Entry point: user errors become ``file:line:col: error: ...`` lines and exit 1, never a traceback."""
    from rulecraft.cli.errors import run_cli

    sys.exit(run_cli(cli))


if __name__ == "__main__":
    main()
