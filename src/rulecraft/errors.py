"""The one error root of rulecraft, and the source positions every user-facing error carries.

Every problem a user can cause (a broken rule file, an unknown option, an illegal move, a corrupt log)
is a subclass of :class:`RulecraftError`. The CLI prints those as ``file:line:col: error: message``
and exits 1; anything else escaping to the top is a bug in rulecraft.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True, order=True)
class SourcePos:
    """A place in a rule file: 1-based line and column, as editors count them."""

    file: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"

    def __reduce__(self) -> tuple[Any, ...]:
        # Rule files' located data is kept between runs as a pickle (disk_cache) and holds one of these
        # per value: the dataclass's own state functions for slots pickle and unpickle at half the speed.
        return (SourcePos, (self.file, self.line, self.col))


UNKNOWN_POS = SourcePos("<unknown>", 0, 0)


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One problem found in a rule file, with where it is and which rule path it concerns."""

    pos: SourcePos
    message: str
    rule_path: str = ""
    severity: str = "error"
    # Extra lines shown under the message (the offending source line and a caret, hints).
    context: tuple[str, ...] = field(default=(), compare=False)

    def format(self) -> str:
        head = f"{self.pos}: {self.severity}: {self.message}"
        if not self.context:
            return head
        return "\n".join((head, *self.context))

    def as_json(self) -> dict[str, object]:
        return {
            "path": self.pos.file,
            "line": self.pos.line,
            "column": self.pos.col,
            "severity": self.severity,
            "message": self.message,
            "rule_path": self.rule_path,
        }


def clip(text: object, limit: int = 60) -> str:
    """User text quoted in a message, cut to ``limit`` characters: a 3 MB name is not echoed back."""
    shown = str(text)
    if len(shown) <= limit:
        return shown
    return f"{shown[:limit]}… ({len(shown):,} characters)"


_LOCATED_NAMES = re.compile(r"'L(Str|Int|Float|List|Dict)'")


def python_reason(exc: BaseException, limit: int = 300) -> str:
    """``TypeError: ...`` for a failure while a rule ran, without internal class names: rule values are
    located strings and numbers underneath (LStr, LInt), which mean nothing to a rule author."""
    text = _LOCATED_NAMES.sub(lambda m: f"'{m.group(1).lower()}'", clip(exc, limit))
    return f"{type(exc).__name__}: {text}"


def source_window(line: str, col: int, width: int = 100) -> tuple[str, int]:
    """A long source line cut to ``width`` characters around 1-based ``col``: (the text shown, col in it).

    So an error in a 2 MB line shows its neighbourhood with a caret, not the 2 MB.
    """
    if len(line) <= width:
        return line, col
    start = max(0, min(col - 1 - width // 2, len(line) - width))
    shown = line[start:start + width]
    lead = "…" if start > 0 else ""
    tail = "…" if start + width < len(line) else ""
    return lead + shown + tail, col - start + len(lead)


@dataclass(frozen=True, slots=True)
class Limit:
    """A bound that keeps what one input may cost finite, stated the same way wherever it is exceeded.

    ``measure`` says how an input is measured, with ``{n}`` for the amount (``"nests {n} levels
    deep"``); the message then reads "this expression nests 300 levels deep; the limit is 50 levels".
    Every limit is checked before the costly work it guards, so refusing is cheap.
    """

    value: int
    unit: str
    measure: str

    def exceeded(self, amount: int) -> bool:
        return amount > self.value

    def message(self, subject: str, amount: int, advice: str = "") -> str:
        text = f"{subject} {self.measure.format(n=f'{amount:,}')}; the limit is {self.value:,} {self.unit}"
        return f"{text} ({advice})" if advice else text

    def refuse(self, pos: SourcePos, subject: str, amount: int, advice: str = "") -> RuleFileError:
        return RuleFileError.single(pos, self.message(subject, amount, advice))


def sort_diagnostics(diags: list[Diagnostic]) -> list[Diagnostic]:
    """Order problems by file and position, so output reads top to bottom like the file."""
    return sorted(diags, key=lambda d: (d.pos.file, d.pos.line, d.pos.col, d.message))


class RulecraftError(Exception):
    """Root of every error a user can cause. ``str()`` is the message the CLI prints."""


class RuleFileError(RulecraftError):
    """A rule file (or scenario, or overlay) has one or more problems."""

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = sort_diagnostics(list(diagnostics))
        super().__init__("\n".join(d.format() for d in self.diagnostics))

    @classmethod
    def single(cls, pos: SourcePos, message: str, rule_path: str = "") -> RuleFileError:
        return cls([Diagnostic(pos, message, rule_path)])


class UsageError(RulecraftError):
    """The user asked for something that does not exist (unknown ruleset, option, agent...). Exit 2."""


class IllegalMoveError(RulecraftError):
    """A move was refused; the message says why, in the rule's own terms."""

    def __init__(self, message: str, rule_id: str = ""):
        self.rule_id = rule_id
        # A refusal quotes what the player typed, whichever rule refuses it: a 2 MB word is shown clipped.
        super().__init__(_LONG_WORD.sub(lambda m: clip(m.group()), message))


_LONG_WORD = re.compile(r"[^\s']{201,}")  # longer than any word a rule or a move of a game needs


class ExpressionRuntimeError(RulecraftError):
    """An expression failed while a game ran (say a division by zero); names the rule and where it is.

    ``reason`` is what went wrong without the rule's position (``ZeroDivisionError: division by zero``).
    """

    def __init__(self, message: str, reason: str = "") -> None:
        self.reason = reason or message
        super().__init__(message)


class LogError(RulecraftError):
    """A game log is corrupt, truncated, or belongs to a different ruleset."""


class GivenChanceError(RulecraftError):
    """A chance outcome given to a game (by a log or a scenario) that its ruleset could not produce:
    dice [9, 9] from six-sided dice, a shuffle naming a piece that does not exist. ``event`` is the
    outcome given, so the caller can say where it was written."""

    def __init__(self, message: str, event: object = None) -> None:
        self.event = event
        super().__init__(message)
