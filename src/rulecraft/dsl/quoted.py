"""What a quoted text in an expression means: Python's reading of the literal, its escapes included.

An escape Python does not know (``'\\h'``) is refused here, not kept as two characters: Python keeps
it today with a warning (a ``DeprecationWarning`` in 3.11, a ``SyntaxWarning`` printed on the user's
terminal from 3.12) and means to refuse it, so a rule file reads the same under every version and
the reader says where the escape is instead of a warning without a place.
"""

from __future__ import annotations

import ast
import warnings


def quoted_text(literal: str) -> str:
    """The text a quoted literal (quotes included) stands for; SyntaxError or ValueError for an escape
    that means nothing."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # an unknown escape's warning becomes Python's SyntaxError
        value = ast.literal_eval(literal)
    if not isinstance(value, str):
        raise ValueError("not a text")
    return value


__all__ = ["quoted_text"]
