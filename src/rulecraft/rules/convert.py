"""Converting a rule file between YAML and the text form, and formatting the text form.

Both directions go through the located data (the same data every command reads) and the file's
comments, tied to the entries they stand by (``comments``), so what the user wrote survives: every
value, every ``source:`` citation and every comment. Before anything is written the result is read
back and compared with the data it came from; a difference is refused, never written.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any

from rulecraft.errors import RuleFileError, SourcePos
from rulecraft.rules.comments import Notes, attach, blank_lines, yaml_comments, yaml_scalar_spans
from rulecraft.rules.registry import RULE_SUFFIXES, RULES_SUFFIX
from rulecraft.rules.rulefiles import is_text_form, read_rule_file
from rulecraft.rules.textload import parse_rules_text, parse_rules_with_comments
from rulecraft.rules.textprint import print_rules
from rulecraft.rules.yamlload import parse_yaml_text
from rulecraft.rules.yamlprint import print_yaml


@dataclass(frozen=True, slots=True)
class Annotated:
    """A rule file's data with its comments, and the name its positions use."""

    data: Any
    notes: Notes
    file: str


def read_annotated(path: str | os.PathLike[str]) -> Annotated:
    """A rule file (either form) read with its comments."""
    doc = read_rule_file(path)  # the checks on the file (size, encoding, a regular file) and the cache
    if is_text_form(path):
        fresh, comments = parse_rules_with_comments(doc.text, doc.file)
        return Annotated(fresh.data, attach(fresh.data, comments + blank_lines(fresh.text)), doc.file)
    spans = yaml_scalar_spans(doc.text)
    layout = yaml_comments(doc.text, spans) + blank_lines(doc.text, spans)
    return Annotated(doc.data, attach(doc.data, layout), doc.file)


def render(source: Annotated, to_text: bool) -> str:
    """The file in the text form (``to_text``) or in YAML; refused unless it reads back as the same data."""
    if not isinstance(source.data, dict | list):
        raise RuleFileError.single(SourcePos(source.file, 1, 1), "the file is empty or not a mapping: there is "
                                                                 "nothing to convert")
    out = print_rules(source.data, source.notes) if to_text else print_yaml(source.data, source.notes)
    back = parse_rules_text(out, "<converted>") if to_text else parse_yaml_text(out, "<converted>")
    if _plain(back.data) != _plain(source.data):  # pragma: no cover - a printer bug, refused rather than written
        raise RuleFileError.single(SourcePos(source.file, 1, 1), "this file cannot be converted faithfully (a bug "
                                                                 "in rulecraft: please report it with the file)")
    return out


def target_is_text(path: str) -> bool | None:
    """Whether OUT asks for the text form (True), YAML (False), or names neither (None)."""
    suffix = os.path.splitext(path)[1]
    if suffix == RULES_SUFFIX:
        return True
    return False if suffix in RULE_SUFFIXES else None


def _plain(data: Any) -> Any:
    return json.loads(json.dumps(data, sort_keys=True))
