"""Reading a rule file in either form: YAML (``.yaml``/``.yml``) or the text form (``.rules``).

Every stage that reads a rule file by path (composition, ``validate``) comes here, so a ``.rules``
file is accepted wherever a YAML one is, with the same checks on the file (size, encoding, not a
FIFO) and the same per-process cache.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from rulecraft.rules.registry import RULES_SUFFIX
from rulecraft.rules.yamlload import YamlDocument, read_yaml_file


def is_text_form(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` names a file in the text form (by its extension)."""
    return Path(path).suffix == RULES_SUFFIX


def document_kind(data: Any) -> str:
    """What a file's data is, by the key only its kind has: a scenario names the ``ruleset`` it plays, a
    mutants file lists ``equivalent`` mutants, an overlay ``extends`` another file; else a whole ruleset."""
    if not isinstance(data, dict):
        return "unknown"
    if "ruleset" in data:
        return "scenario"
    if "equivalent" in data:
        return "mutants"
    if "extends" in data:
        return "overlay"
    return "ruleset"


def read_rule_file(path: str | os.PathLike[str], display: str | None = None) -> YamlDocument:
    """The located data of a rule file, in the form its extension says (YAML otherwise)."""
    return read_yaml_file(path, display, parse_rules if is_text_form(path) else None)


def parse_rules(text: str, filename: str) -> YamlDocument:
    """The text form's reader, imported when a ``.rules`` file is read (it loads lark): a file whose
    document is kept between runs (``disk_cache``) needs no parser."""
    from rulecraft.rules.textload import parse_rules_text

    return parse_rules_text(text, filename)
