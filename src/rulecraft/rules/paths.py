"""Rule paths: how a place in the rule data is named to people (``hand.phases[play].follow``).

Lists of items with an ``id`` are addressed by id (``phases[play]``), other lists by index
(``effects[0]``), keys that are not plain names are quoted (``add["score[t]"]``). Provenance,
schema errors, ``explain`` and ``diff`` all use these names, so they can be matched up.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

_PLAIN_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*$")
_PLAIN_ID = re.compile(r"^[^\[\]\"\s.]+$")


def key_step(path: str, key: Any) -> str:
    text = str(key)
    if _PLAIN_KEY.match(text):
        return f"{path}.{text}" if path else text
    return f"{path}[{json.dumps(text, ensure_ascii=False)}]"


def item_step(path: str, item: Any, index: int) -> str:
    if isinstance(item, dict) and "id" in item and isinstance(item["id"], (str, int)) \
            and not isinstance(item["id"], bool):
        ident = str(item["id"])
        shown = ident if _PLAIN_ID.match(ident) and not ident.isdigit() else json.dumps(ident, ensure_ascii=False)
        return f"{path}[{shown}]"
    return f"{path}[{index}]"


def item_noun(path: str) -> str:
    """What an item of the list at rule path ``path`` is called in a message: ``hand.phases`` -> phase,
    ``...restrictions`` -> restriction, ``...entries`` -> entry, ``...on_round`` -> item of on_round."""
    key = re.split(r"[.\]]", path)[-1] if path else "the list"
    if key.endswith("ies"):
        return key[:-3].replace("_", " ") + "y"
    if key.endswith("s"):
        return key[:-1].replace("_", " ")
    return f"item of {key}"


def rule_path(data: Any, steps: Iterable[Any]) -> str:
    """The rule path of the value reached from ``data`` by ``steps`` (keys and list indices)."""
    path = ""
    node = data
    for step in steps:
        if isinstance(node, list) and isinstance(step, int):
            item = node[step] if 0 <= step < len(node) else None
            path = item_step(path, item, step)
            node = item
        elif isinstance(node, dict):
            path = key_step(path, step)
            node = node.get(step)
        else:
            path = key_step(path, step) if not isinstance(step, int) else f"{path}[{step}]"
            node = None
    return path
