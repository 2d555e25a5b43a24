"""The text form of rule files (``.rules``) under the fuzzer: its inputs and its two targets.

Inputs: the tiny rules or a bundled game (every game under variants/, so the late kinds — each_seat,
climb, groups, show, typed choices — are in them) converted to the text form: whole with its
comments, a few of its top-level sections, or after edits of its data; then a few edits of the text
with the pieces of the ``.rules`` syntax (``|``, ``ID:``, paths, quotes, indentation, comments).
Only data goes through the printer and the oracles compare data (or the printer's output with
itself), so the checks hold whatever layout the printer chooses.

The contract for a ``.rules`` text, beyond ``harness.check``'s (no traceback, no hang):

- refused: the message starts ``file:line:col: error:`` and the place is in the file;
- read: ``convert`` to YAML and back gives the same data, and formatting twice changes nothing;
- on the command line (``validate``, ``fmt --check``, ``convert`` both ways, ``fmt``): exit 0 or 1
  (never 2 for a file that exists, never 3), a located message with each 1, and the same data and
  canonical text after the round trip.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

import harness
from hypothesis import strategies as st

# Pieces of the .rules syntax (docs/rule-dsl.md) and of the values it holds.
RULES_TOKENS = [
    " | ", "|", "| |", ": ", ":", ", ", ",", "\n", "\n  ", "\n    ", "\n- ", "- ", "-\n  ", '"', '"x"', "'",
    '"a" / "b"', "{", "}", "{}", "{a 1}", "[", "]", "[]", "(", ")", ".", "..", "[play]", "[x].y", ".a", "a.b[c].d",
    "#", " # note", "\n# note\n", "\\", "\\n", "\\x4", "\\x41", "\\u00e9", "\\U0010ffff", "\\U00110000",
    "\\ud800", "\\q", "\t", "\r", "\r\n", "\ufeff", "\x00", "\u2028", "\x85", " ", "  ", "$delete true",
    "$replace", "extends rules.rules", "extends rules.yaml", "id", "kind ", "patch.", "name: ", "x:", '"k":',
    "id: ", "f(s)", "f(", "stacks(s) ", "true", "none", "-", "--", "1e999", "-0", "0x1", "9" * 30, "é", "天",
    "if", "else", "for v in", "not", "and", "==", "=", "&", "!",
]
FILE = "rules.rules"


@cache
def sources() -> tuple[tuple[str, Any], ...]:
    """(ruleset, data) of every input source: the tiny rules (``rules.yaml``) and each bundled rule file."""
    return (("rules.yaml", harness.tiny_data()), *harness.bundled_files())


@st.composite
def rules_texts(draw: Any) -> str:
    name, data = draw(st.sampled_from(sources()))
    # Mostly parts of files: a whole bundled file takes a tenth of a second to read, a part a hundredth.
    how = draw(st.sampled_from(["whole", "sections", "part", "part", "part", "mutated", "mutated sections",
                                "mutated part"]))
    if how == "whole":
        text = harness.text_form(name)
    else:
        part = data
        if "sections" in how:
            keys = draw(st.lists(st.sampled_from(sorted(data)), min_size=1, max_size=3, unique=True))
            part = {k: v for k, v in data.items() if k in keys}
        elif "part" in how:  # one mapping or list deep in the file, under the key that holds it
            paths = [p for p in harness._paths(data) if p and isinstance(p[-1], str)
                     and isinstance(harness._get(data, p), dict | list)]
            path = draw(st.sampled_from(paths))
            part = {path[-1]: harness._get(data, path)}
        if "mutated" in how:
            part = draw(harness.mutated(part))
        text = harness.as_rules(part)
    if text.startswith(harness.PRINTER_FAILED):
        return text
    for _ in range(draw(st.integers(0, 3))):
        text = draw(text_edits(text))
    return text


@st.composite
def text_edits(draw: Any, text: str) -> str:
    """``text`` after one edit: a piece of syntax inserted, a span deleted, a line indented, dedented,
    repeated or moved."""
    op = draw(st.sampled_from(["insert", "insert", "delete", "indent", "dedent", "repeat", "move"]))
    if op in ("insert", "delete"):
        i = draw(st.integers(0, len(text)))
        if op == "insert":
            return text[:i] + draw(st.sampled_from(RULES_TOKENS)) + text[i:]
        return text[:i] + text[i + draw(st.integers(1, 12)):]
    lines = text.split("\n")
    k = draw(st.integers(0, len(lines) - 1))
    if op == "indent":
        lines[k] = draw(st.sampled_from([" ", "  ", "    "])) + lines[k]
    elif op == "dedent":
        lines[k] = lines[k][draw(st.sampled_from([1, 2])):]
    elif op == "repeat":
        lines.insert(k, lines[k])
    else:
        lines.insert(draw(st.integers(0, len(lines))), lines.pop(k))
    return "\n".join(lines)


RULES_TEXT = st.deferred(rules_texts)

_LOCATED = re.compile(r"^(?P<file>[^\n]+?):(?P<line>\d+):(?P<col>\d+): error: ", re.M)


def normalised(text: str) -> str:
    """The text as the loader numbers its lines (no BOM; CRLF and CR are line ends)."""
    return text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")


def located(message: str, file: str, text: str) -> None:
    """Raise unless ``message`` has an error at ``file:line:col`` (in any file; a place in ``file`` is in it)."""
    found = list(_LOCATED.finditer(message))
    if not found:
        raise AssertionError(f"an error without its file:line:col: {message[:600]}")
    lines = normalised(text).split("\n")
    for m in found:
        if m["file"] != file and not m["file"].endswith("/" + file):
            continue
        line, col = int(m["line"]), int(m["col"])
        if not 1 <= line <= len(lines) or not 1 <= col <= len(lines[line - 1]) + 1:
            raise AssertionError(f"an error at {line}:{col}, which is not in the file ({len(lines)} lines): "
                                 f"{message[:600]}")


def plain(data: Any) -> Any:
    from rulecraft.rules.convert import _plain

    return _plain(data)


# ----------------------------------------------------------------------------- targets
def target_rules_text(text: str) -> str:
    """Read a ``.rules`` text as ``convert`` and ``fmt`` do; hold it to the round trips (in this process)."""
    from rulecraft.errors import RulecraftError
    from rulecraft.rules.comments import attach, yaml_comments
    from rulecraft.rules.convert import Annotated, render
    from rulecraft.rules.textload import parse_rules_with_comments
    from rulecraft.rules.yamlload import parse_yaml_text

    harness.check_text(text)
    try:
        doc, comments = parse_rules_with_comments(text, FILE)
    except RulecraftError as exc:
        located(str(exc), FILE, text)
        raise
    if not isinstance(doc.data, dict | list):
        return ""
    as_yaml = render(Annotated(doc.data, attach(doc.data, comments), FILE), to_text=False)
    back = parse_yaml_text(as_yaml, "out.yaml")
    if plain(back.data) != plain(doc.data):
        raise AssertionError(f"convert to YAML changed the data:\n{as_yaml[:1500]}")
    once = render(Annotated(back.data, attach(back.data, yaml_comments(as_yaml)), "out.yaml"), to_text=True)
    again, again_comments = parse_rules_with_comments(once, "back.rules")
    if plain(again.data) != plain(doc.data):
        raise AssertionError(f"convert back to .rules changed the data:\n{once[:1500]}")
    twice = render(Annotated(again.data, attach(again.data, again_comments), "back.rules"), to_text=True)
    if twice != once:
        raise AssertionError(f"formatting a formatted file changed it:\n{once[:1500]}\n---\n{twice[:1500]}")
    return ""


def target_rules_cli(text: str) -> str:
    """The real command line on a ``.rules`` file: validate, fmt --check, convert both ways, fmt."""
    from rulecraft.cli.errors import INTERNAL_ERROR, run_cli
    from rulecraft.cli.main import cli
    from rulecraft.rules.rulefiles import read_rule_file

    harness.check_text(text)
    printed: list[str] = []

    def run(*args: str, codes: tuple[int, ...] = (0, 1)) -> int:
        from click.testing import CliRunner

        with CliRunner().isolation() as (out, err, _):
            code = run_cli(cli, list(args))
            said = out.getvalue().decode("utf-8", "replace") + err.getvalue().decode("utf-8", "replace")
        printed.append(f"$ rulecraft {' '.join(args)}\n{said}")
        if code == INTERNAL_ERROR or code not in codes:
            kind = "traceback" if code == INTERNAL_ERROR else "exit"
            raise harness.Finding(kind, "rules cli", f"rulecraft {' '.join(args)}: exit {code}: {said[-800:]}", text)
        if code == 1 and not said.startswith("would reformat"):
            located(said, args[-1] if args[0] == "fmt" else args[1], text)
        return code

    with harness.scratch() as d, harness._cwd(d):
        harness.rule_files_beside(d, text)
        (d / FILE).write_text(text, encoding="utf-8")
        run("validate", FILE)
        run("fmt", "--check", FILE)
        if run("convert", FILE, "out.yaml") == 0:
            run("convert", "out.yaml", "back.rules", codes=(0,))
            first = plain(read_rule_file(d / FILE).data)
            for other in ("out.yaml", "back.rules"):
                if plain(read_rule_file(d / other).data) != first:
                    raise AssertionError(f"{other} holds other data than {FILE}:\n{(d / other).read_text()[:1500]}")
            run("fmt", "--check", "back.rules", codes=(0,))
            run("fmt", FILE, codes=(0,))
            run("fmt", "--check", FILE, codes=(0,))
    return "\n".join(printed)
