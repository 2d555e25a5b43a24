"""The commands the documentation shows, read out of the Markdown as a reader sees them.

``README.md`` and ``docs/*.md`` (but the pages other tests keep: ``docs/security.md``,
``docs/research-api.md`` and ``docs/games/``) are read for:

- each command line of a fenced block (``sh``, ``console``, or none): a line that starts with a
  command (``rulecraft``, ``python``, ``pip``, ``.venv/bin/...``, after ``$ `` in a console block),
  joined with the lines its trailing ``\\`` continues onto; what follows ``  #`` is its comment (often
  the output the doc promises), and in a console block the lines up to the next ``$`` are its output;
- each inline code span in the prose that is a command: a concrete one (``rulecraft diff rook rook
  -b bird_rank=lowest``) is run like the others; a *synopsis* (``rulecraft validate PATH...``, with
  words in capitals, ``[...]``, ``|`` or an ellipsis) is checked for its command and options only;
- each fenced block a paragraph introduces with "Create `FILE`:", which the reader is asked to write.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
KEPT_ELSEWHERE = ("docs/security.md", "docs/research-api.md")  # and docs/games/: other tests keep them
COMMAND_WORDS = ("rulecraft", "python", "python3", "pip", "pygmentize", "pytest", ".venv/bin/", "tests/", ".ci/")
SHELL_LANGUAGES = ("", "sh", "bash", "shell", "console")
PLACEHOLDER = re.compile(r"(?<![\w.-])[A-Z][A-Z_]*(?![\w-])|\[|\||\.\.\.|…")
CREATE = re.compile(r"Create `([^`]+)`:\s*$")


@dataclass(frozen=True)
class DocCommand:
    doc: str  # the page, relative to the checkout
    line: int  # where the command starts (1-based)
    text: str  # the command as a reader types it (continuation lines joined)
    comment: str = ""  # what follows '#' on its line
    output: tuple[str, ...] = ()  # the lines a console block shows after it
    inline: bool = False  # written in the prose, not in a block
    synopsis: bool = False  # an inline form with placeholders: its command and options are checked

    @property
    def where(self) -> str:
        return f"{self.doc}:{self.line}"


@dataclass
class DocPage:
    path: str
    commands: list[DocCommand] = field(default_factory=list)
    files: dict[str, str] = field(default_factory=dict)  # "Create `house.yaml`:" -> the block's text
    blocks: list[tuple[int, str, list[str]]] = field(default_factory=list)  # (line, language, lines) of each fence


def pages() -> list[str]:
    """The documentation pages whose commands are run, relative to the checkout."""
    out = ["README.md"]
    for p in sorted((ROOT / "docs").glob("*.md")):
        rel = p.relative_to(ROOT).as_posix()
        if rel not in KEPT_ELSEWHERE:
            out.append(rel)
    return out


def is_command(text: str) -> bool:
    return text.startswith(COMMAND_WORDS)


def split_comment(line: str) -> tuple[str, str]:
    """(command, comment): the comment starts at a '#' after a space, outside quotes."""
    quote = ""
    for i, c in enumerate(line):
        if quote:
            if c == quote:
                quote = ""
        elif c in "'\"":
            quote = c
        elif c == "#" and i > 0 and line[i - 1] == " ":
            return line[:i].rstrip(), line[i + 1:].strip()
    return line.rstrip(), ""


def read_page(rel: str) -> DocPage:
    page = DocPage(rel)
    lines = (ROOT / rel).read_text(encoding="utf-8").splitlines()
    fence: tuple[int, str] | None = None
    block: list[str] = []
    prose_before = ""
    for n, raw in enumerate(lines, 1):
        stripped = raw.strip()
        if stripped.startswith("```"):
            if fence is None:
                fence = (n, stripped[3:].strip())
                block = []
            else:
                start, language = fence
                page.blocks.append((start, language, block))
                if language in SHELL_LANGUAGES:
                    page.commands.extend(_block_commands(rel, start, language, block))
                made = CREATE.search(prose_before)
                if made:
                    page.files[made.group(1)] = "\n".join(block) + "\n"
                fence = None
                prose_before = ""
            continue
        if fence is not None:
            block.append(raw)
            continue
        if stripped:
            prose_before = stripped
        for m in re.finditer(r"`([^`\n]+)`", raw):
            span = m.group(1).strip()
            if is_command(span) and " " in span:
                # a form with placeholders, or a bare mention of a command ("`rulecraft play` shows ..."): checked
                # (a mention names the command and at most its options: "`rulecraft test --mutate` at 90%")
                bare = span.startswith("rulecraft ") and all(w.startswith("-") for w in span.split()[2:])
                concrete = span.startswith(("pip ", ".venv/bin/pip ")) or not (bare or PLACEHOLDER.search(span))
                page.commands.append(DocCommand(rel, n, span, inline=True, synopsis=not concrete))
    return page


def _block_commands(rel: str, start: int, language: str, block: list[str]) -> list[DocCommand]:
    out: list[DocCommand] = []
    console = language == "console"
    i = 0
    while i < len(block):
        raw = block[i].rstrip()
        line_no = start + 1 + i
        text = raw[2:] if console and raw.startswith("$ ") else raw if not console else ""
        i += 1
        if not is_command(text.strip()):
            continue
        command, comment = split_comment(text.strip())
        while command.endswith("\\") and i < len(block):  # a command continued on the next line
            more, more_comment = split_comment(block[i].strip())
            command = command[:-1].rstrip() + " " + more
            comment = " ".join(c for c in (comment, more_comment) if c)
            i += 1
        output: list[str] = []
        while console and i < len(block) and not block[i].startswith("$ "):
            output.append(block[i].rstrip())
            i += 1
        out.append(DocCommand(rel, line_no, command, comment, tuple(output)))
    return out
