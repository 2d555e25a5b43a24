"""Every value nested in rule data, for the passes that look through a whole section for one thing
(the messages of a phase's restrictions, the source positions a value spans, the kinds of its phases)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any


def nested_values(value: Any) -> Iterator[Any]:
    """``value`` and every mapping value and list item within it, depth first, in the order written."""
    stack = [value]
    while stack:
        v = stack.pop()
        yield v
        if isinstance(v, dict):
            stack.extend(reversed(list(v.values())))
        elif isinstance(v, list):
            stack.extend(reversed(v))
