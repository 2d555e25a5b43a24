"""Collecting a rule file's problems while it is built: every helper returns a usable placeholder on
failure, so a rule author sees all problems at once, each at its ``file:line:col``."""

from __future__ import annotations

import contextlib
import difflib
from collections.abc import Iterator
from typing import Any

from rulecraft.dsl import CompiledExpr, Scope, T, compile_expr
from rulecraft.errors import UNKNOWN_POS, Diagnostic, RuleFileError, SourcePos, clip
from rulecraft.rules.located import LStr, pos_of


class Builder:
    """Collects diagnostics while compiling."""

    def __init__(self, source_text: dict[str, str] | None = None) -> None:
        self.diags: list[Diagnostic] = []
        self.source_text = source_text or {}
        # The items being built, innermost last: a problem with a value the file does not write (a
        # default) is reported at the item it belongs to, never at <unknown>:0:0.
        self.context: list[Any] = []
        # When a list: every expression compiled, as (its located text, the scope, the type expected),
        # for tools that change a rule file's expressions and need to know where each is read (mutation
        # testing: which names a replacement may use). None: nothing is kept.
        self.compiled: list[tuple[Any, Scope, T | None]] | None = None

    @contextlib.contextmanager
    def within(self, item: Any) -> Iterator[None]:
        self.context.append(item)
        try:
            yield
        finally:
            self.context.pop()

    def pos(self, where: Any) -> SourcePos:
        if isinstance(where, SourcePos):
            return where
        found = pos_of(where)
        for item in reversed(self.context):
            if found is not UNKNOWN_POS:
                break
            found = pos_of(item)
        return found

    def error(self, where: Any, message: str, rule_path: str = "") -> None:
        self.diags.append(Diagnostic(self.pos(where), message, rule_path))

    def expr(self, text: Any, scope: Scope, expect: T | None, what: str, rule_path: str = "",
             select: bool = False) -> CompiledExpr:
        pos = pos_of(text)
        if isinstance(text, bool):
            text = "true" if text else "false"
        elif isinstance(text, (int, float)):
            text = repr(int(text) if isinstance(text, int) else float(text))
        elif text is None:
            text = "none"
        if not hasattr(text, "pos") and pos is not UNKNOWN_POS:  # a number or true/false keeps its place
            text = LStr(text, pos)
        src = self.source_text.get(pos.file)
        if self.compiled is not None:
            self.compiled.append((text, scope, expect))
        try:
            return compile_expr(str(text) if not hasattr(text, "pos") else text, scope, expect=expect, what=what,
                                source_text=src, select=select)
        except RuleFileError as exc:
            self.diags.extend(exc.diagnostics)
            return compile_expr("none", Scope(name="placeholder"), expect=None, what=what)

    def ref(self, name: Any, known: dict[str, Any] | list[str], kind: str, rule_path: str = "") -> bool:
        """Check that ``name`` is one of ``known``, with a did-you-mean when a close name exists."""
        if name in known:
            return True
        names = list(known)
        close = difflib.get_close_matches(str(name), names, n=1) if len(str(name)) <= 100 else []
        hint = f" (did you mean '{close[0]}'?)" if close else (f"; known: {', '.join(names)}" if names else "")
        default = " (the default, as none is written here)" if pos_of(name) is UNKNOWN_POS else ""
        self.error(name, f"unknown {kind} '{clip(name)}'{default}{hint}", rule_path)
        return False

    def shared_zone(self, name: Any, zones: dict[str, Any], role: str) -> bool:
        """Check that ``name`` is a zone and a shared one: ``role`` (a phase's pile, the zone it shuffles)
        names no owner, so a zone with one instance per seat or team has no instance to mean."""
        if not self.ref(name, zones, "zone"):
            return False
        per = zones[name].per
        if per != "none":
            self.error(name, f"{role} is one shared zone; '{clip(name)}' has one instance per {per}")
            return False
        return True

    def raise_if_errors(self) -> None:
        if self.diags:
            raise RuleFileError(self.diags)
