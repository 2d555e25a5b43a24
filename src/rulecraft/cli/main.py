"""The ``rulecraft`` command: a click group; each command family lives in its own module.

A command's module (and what it imports: the engine, the expression compiler, plotting) is loaded
only when that command runs, so ``rulecraft --help`` and a quick ``eval`` do not pay for ``play``.
The group lists the commands from the table below; a test checks that each short help here is the
command's own.
"""

from __future__ import annotations

import importlib
import sys

import click

from rulecraft import __version__

# Command -> (the module whose ``register(group)`` defines it, the first sentence of its help).
COMMANDS: dict[str, tuple[str, str]] = {
    "compare": ("rulecraft.cli.compare_cmd", "Compare rulesets A and B over the same N seeded games: win rates, "
                                             "scores, length, rules fired, balance."),
    "convert": ("rulecraft.cli.convert_cmds", "Convert rule file IN to OUT, in the form OUT's extension names "
                                              "(.rules for the text form, .yaml)."),
    "diff": ("rulecraft.cli.rules_cmds", "Show the rules that differ between A and B, each with where it came from."),
    "eval": ("rulecraft.cli.eval_cmd", "Compile and evaluate EXPRESSION, and print its value."),
    "explain": ("rulecraft.cli.rules_cmds", "Show the effective rules of RULESET and where each came from "
                                            "(options marked *)."),
    "fmt": ("rulecraft.cli.convert_cmds", "Format .rules files in place, in the canonical layout convert writes "
                                          "(comments are kept)."),
    "list": ("rulecraft.cli.rules_cmds", "List the bundled rulesets by family, with their options (default marked *) "
                                         "and presets."),
    "play": ("rulecraft.cli.play_cmds", "Play RULESET at the terminal: you against bots, or several people taking "
                                        "turns at one keyboard."),
    "replay": ("rulecraft.cli.replay_cmds", "Step through a saved game (FILE, a log from play or simulate "
                                            "--log-dir)."),
    "schema": ("rulecraft.cli.rules_cmds", "Print a JSON Schema (for editors: yaml-language-server, VS Code)."),
    "serve": ("rulecraft.web.command", "Serve a table in the browser: play any ruleset with friends or bots, one "
                                       "secret link per seat."),
    "simulate": ("rulecraft.cli.game_cmds", "Play N seeded games of RULESET and summarise them."),
    "test": ("rulecraft.cli.game_cmds", "Run rule scenarios (YAML files, or directories of them) and report like "
                                        "pytest."),
    "validate": ("rulecraft.cli.rules_cmds", "Check rule files, overlays and scenarios (files, or directories "
                                             "searched for *.yaml and *.rules)."),
}


def load_command(name: str) -> click.Command:
    """The command ``name``, its module imported now."""
    module = importlib.import_module(COMMANDS[name][0])
    found = click.Group()
    module.register(found)
    return found.commands[name]


class _LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        return load_command(cmd_name) if cmd_name in COMMANDS else None

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # The listing from the table, so that --help imports no command's module.
        with formatter.section("Commands"):
            limit = formatter.width - 6 - max(len(name) for name in COMMANDS)
            rows = [(name, click.Command(name, help=text).get_short_help_str(limit))
                    for name, (_, text) in sorted(COMMANDS.items())]
            formatter.write_dl(rows)


@click.group(cls=_LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="rulecraft")
def cli() -> None:
    """Play traditional card and tile games by their documented rules and variants."""


def main() -> None:
    """Entry point: user errors become ``file:line:col: error: ...`` lines and exit 1, never a traceback."""
    from rulecraft.cli.errors import run_cli

    sys.exit(run_cli(cli))


if __name__ == "__main__":
    main()
