"""``-o NAME=CHOICE`` assignments from the command line, checked for shape before any file is read."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from typing import Any

import click

from rulecraft.errors import UsageError, clip

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*$")


def parse_option_assignments(items: Iterable[str]) -> dict[str, str]:
    """``("bird_rank=lowest", ...)`` → ``{"bird_rank": "lowest"}``; bad syntax is a UsageError (exit 2).

    Whether the option and choice exist is for composition to say, since only it knows the ruleset.
    Giving the same option twice with different choices is refused rather than silently taking one.
    """
    out: dict[str, str] = {}
    for raw in items:
        text = str(raw).strip()
        name, sep, choice = text.partition("=")
        name, choice = name.strip(), choice.strip()
        if not sep or not name or not choice:
            raise UsageError(f"an option is written NAME=CHOICE (e.g. -o bird_rank=lowest), not '{clip(raw)}'")
        if not _NAME.match(name):
            raise UsageError(f"'{clip(name)}' is not an option name: use letters, digits, _ and - (in '{clip(raw)}')")
        if name in out and out[name] != choice:
            raise UsageError(f"option '{clip(name)}' is given twice, as '{clip(out[name])}' and '{clip(choice)}'")
        out[name] = choice
    return out


def comma_list(text: str, option: str) -> list[str]:
    """``a, b,c`` → ``["a", "b", "c"]``; an empty item is a UsageError rather than dropped, since dropping it
    changes the meaning: ``--agents mc,`` would give every seat mc, and ``--agents ,,`` every seat the default."""
    items = [item.strip() for item in text.split(",")]
    if not any(items):
        raise UsageError(f"{option} is empty: give a name, or one per seat separated by commas")
    for i, item in enumerate(items, 1):
        if not item:
            raise UsageError(f"{option} {clip(text)}: item {i} of {len(items)} is empty (one name per seat, "
                             "separated by commas)")
    return items


class FiniteFloatRange(click.FloatRange):
    """A number option in a range that is also a number: click's FloatRange takes ``nan`` (no comparison
    refuses it) and ``inf``, with which a time limit never fires and a threshold never holds."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if isinstance(number, float) and not math.isfinite(number):
            self.fail(f"{clip(value)!r} is not a finite number.", param, ctx)
        return number
