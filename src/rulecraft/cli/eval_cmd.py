"""``rulecraft eval``: compile and evaluate one expression, to try a formula before putting it in a rule file.

The expression is checked exactly as a rule file's would be, so its errors look the same
(``<expression>:1:COL: error: ...`` with the line and a caret). ``--set NAME=VALUE`` adds
constants; ``--ruleset`` adds a ruleset's constants, piece functions and rule-file functions — the
names every expression of that ruleset sees at load time. Names that exist only while a game runs
(seats, variables, zones) are not available: there is no game to read them from.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

import click

from rulecraft.dsl import Scope, T, compile_expr
from rulecraft.dsl.types import type_of_value
from rulecraft.errors import RulecraftError, SourcePos, UsageError, clip
from rulecraft.rules.compose import plain

EXPR_FILE = "<expression>"

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_KEYWORDS = frozenset({"if", "else", "for", "in", "and", "or", "not", "true", "false", "none"})


class EvalError(RulecraftError):
    """The expression could not be evaluated outside a game."""


def parse_value(text: str) -> tuple[Any, T]:
    """A ``--set`` value as YAML/JSON — ``3``, ``2.5``, ``true``, ``red``, ``"red"``, ``[1, 2]`` — and its type.

    Read with the rule files' own YAML loader, so ``yes``/``no`` stay strings and ``010`` is ten,
    exactly as they would in a rule file's ``constants:``.
    """
    from rulecraft.rules.yamlload import load_yaml_text

    try:
        value = plain(load_yaml_text(text, "--set"))
    except RulecraftError as exc:
        raise UsageError(f"cannot read the value '{text}': {_first_line(exc)}") from None
    if isinstance(value, dict) or (isinstance(value, list) and any(isinstance(v, dict) for v in value)):
        raise UsageError(f"a --set value is a number, true/false, a string or a list, not a mapping: '{text}'")
    return value, type_of_value(value)


def parse_assignments(items: Iterable[str]) -> dict[str, tuple[Any, T]]:
    out: dict[str, tuple[Any, T]] = {}
    for raw in items:
        name, sep, value = raw.partition("=")
        name = name.strip()
        if not sep or not name:
            raise UsageError(f"--set is written NAME=VALUE (e.g. --set tricks=7), not '{raw}'")
        if not _NAME.match(name) or name in _KEYWORDS:
            raise UsageError(f"'{name}' cannot be a name: use letters, digits and _, not a word of the language")
        parsed = parse_value(value.strip())
        if name in out and out[name] != parsed:  # as -o does: a name given two values is refused, not overridden
            raise UsageError(f"--set gives '{name}' twice, as {_shown(out[name][0])} and {_shown(parsed[0])}")
        out[name] = parsed
    return out


def _shown(value: Any) -> str:
    return clip(json.dumps(value, ensure_ascii=False))


def eval_scope(assignments: dict[str, tuple[Any, T]], ruleset: str | None = None,
               options: dict[str, str] | None = None, preset: str | None = None) -> Scope:
    """The scope ``rulecraft eval`` compiles in: --set constants over a ruleset's constants scope."""
    parent = _ruleset_constants(ruleset, options or {}, preset) if ruleset else None
    scope = Scope(parent=parent, name="eval")
    for name, (value, type_) in assignments.items():
        scope.add_constant(name, type_, value, doc="set on the command line")
    return scope


def evaluate_text(text: str, scope: Scope) -> Any:
    """Compile ``text`` as the file ``<expression>`` and evaluate it; every failure is a RulecraftError."""
    from rulecraft.engine.board import Ctx

    fn = compile_expr(_located(text), scope, what="the expression", source_text=text)
    try:
        return fn(Ctx(None))
    except RulecraftError:
        raise
    except Exception as exc:  # a function that needs a running game
        raise EvalError(f"{EXPR_FILE}:1:1: error: this expression cannot be evaluated outside a game "
                        f"({type(exc).__name__}: {exc})") from exc


def format_value(value: Any) -> str:
    """How ``rulecraft eval`` prints a result: in the language's own words, lists as JSON."""
    try:
        return _format_value(value)
    except ValueError:  # Python prints whole numbers of at most 4,300 digits
        raise EvalError(f"{EXPR_FILE}:1:1: error: the value is a whole number too long to print "
                        "(more than 4,300 digits)") from None


def _format_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    if isinstance(value, (int, float, str)):
        return str(value) if isinstance(value, str) else repr(plain(value))
    if isinstance(value, Iterable):
        return json.dumps(_jsonable(value))
    return str(value)


@click.command("eval")
@click.argument("expression")
@click.option("--set", "assignments", multiple=True, metavar="NAME=VALUE",
              help="Define a constant (repeatable): a number, true/false, a string or a list, e.g. --set xs=[1,2].")
@click.option("--ruleset", default=None, metavar="RULESET",
              help="Make a ruleset's constants, piece functions and rule-file functions available.")
@click.option("-o", "--option", "options", multiple=True, metavar="NAME=CHOICE",
              help="Choose an option of the ruleset (repeatable; needs --ruleset).")
@click.option("--preset", default=None, help="Select a named preset of the ruleset's options (needs --ruleset).")
def eval_command(expression: str, assignments: tuple[str, ...], ruleset: str | None, options: tuple[str, ...],
                 preset: str | None) -> None:
    """Compile and evaluate EXPRESSION, and print its value.

    \b
    Examples:
      rulecraft eval "max(0, tricks - 5) * (2 if tricks >= 10 else 1)" --set tricks=11
      rulecraft eval "suit(piece('joker'))" --ruleset my-game
    """
    from rulecraft.cli.options import parse_option_assignments

    if (options or preset) and not ruleset:
        raise UsageError("-o/--option and --preset choose options of a ruleset: give --ruleset too")
    chosen = parse_option_assignments(options)
    scope = eval_scope(parse_assignments(assignments), ruleset, chosen, preset)
    click.echo(format_value(evaluate_text(expression, scope)))


def register(group: click.Group) -> None:
    group.add_command(eval_command)


# ----------------------------------------------------------------------------- helpers
def _ruleset_constants(ref: str, options: dict[str, str], preset: str | None) -> Scope:
    """The ruleset's load-time scope: constants, pieces and user functions (the game scope needs a game)."""
    from rulecraft.load import load_ruleset

    rs = load_ruleset(ref, options, preset)
    s = rs.scope
    while s is not None and s.name != "constants":
        s = s.parent
    if s is None:
        raise EvalError(f"error: the ruleset '{ref}' has no constants scope to evaluate in")
    return s


def _located(text: str) -> Any:
    """``text`` as the one-file ``<expression>``, so errors say ``<expression>:LINE:COL``."""
    from rulecraft.rules.located import LStr

    located = LStr(text, SourcePos(EXPR_FILE, 1, 1))
    starts = [i + 1 for i, ch in enumerate(text) if ch == "\n"]
    if starts:
        located.segments = ((0, SourcePos(EXPR_FILE, 1, 1)),  # type: ignore[attr-defined]
                            *((start, SourcePos(EXPR_FILE, line, 1)) for line, start in enumerate(starts, 2)))
    return located






def _jsonable(value: Any) -> Any:
    if isinstance(value, (bool, int, float, str)) or value is None:
        return plain(value)
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, Iterable):
        return [_jsonable(v) for v in value]
    return str(value)


def _first_line(exc: Exception) -> str:
    text = str(exc).split("\n", 1)[0]
    return text.split(": error: ", 1)[-1]
