"""The error of an expression that does not parse: where (an offset into its text) and what, in words.

Its own module so that both sides of the parser raise it (``parser``, and ``larkparse``, which only
``parser`` imports, when it needs lark); ``parser`` is where callers import it from.
"""

from __future__ import annotations


class ExprSyntaxError(Exception):
    def __init__(self, offset: int, message: str) -> None:
        super().__init__(message)
        self.offset = offset
        self.message = message
