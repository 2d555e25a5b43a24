"""Collecting a rule file's problems while it is built: every helper returns a usable placeholder on
failure, so a rule author sees all problems at once, each at its ``file:line:col``."""

from __future__ import annotations

import difflib
from typing import Any

from rulecraft.dsl import CompiledExpr, Scope, T, compile_expr
from rulecraft.errors import Diagnostic, RuleFileError, SourcePos
from rulecraft.rules.located import pos_of


class Builder:
    """Collects diagnostics while compiling."""

    def __init__(self, source_text: dict[str, str] | None = None) -> None:
        self.diags: list[Diagnostic] = []
        self.source_text = source_text or {}

    def error(self, where: Any, message: str, rule_path: str = "") -> None:
        self.diags.append(Diagnostic(where if isinstance(where, SourcePos) else pos_of(where), message, rule_path))

    def expr(self, text: Any, scope: Scope, expect: T | None, what: str, rule_path: str = "",
             select: bool = False) -> CompiledExpr:
        if isinstance(text, bool):
            text = "true" if text else "false"
        elif isinstance(text, (int, float)):
            text = repr(text)
        elif text is None:
            text = "none"
        pos = pos_of(text)
        src = self.source_text.get(pos.file)
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
        close = difflib.get_close_matches(str(name), names, n=1)
        hint = f" (did you mean '{close[0]}'?)" if close else (f"; known: {', '.join(names)}" if names else "")
        self.error(name, f"unknown {kind} '{name}'{hint}", rule_path)
        return False

    def raise_if_errors(self) -> None:
        if self.diags:
            raise RuleFileError(self.diags)
