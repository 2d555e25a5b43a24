"""Cheap inputs for the long fuzz run: seeds from the hypothesis strategies, then random edits of them.

Hypothesis builds a structured input in tens of milliseconds, which is most of the cost of a long
run; an edit of an input it built costs microseconds. So the long run draws a pool of seeds per
target from the same strategies the CI run uses, then edits them as a mutational fuzzer does
(insert a token of the languages rulecraft reads, delete or duplicate a span, change a character,
splice two seeds). The edits are drawn from one ``random.Random``, so a run is repeatable from its
seed.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import harness
import textform

# Tokens of the expression language, YAML and JSON, and characters readers trip on.
TOKENS: list[str] = [
    *harness.NAMES, *harness.FUNCS, *harness.NUMBERS, *harness.STRINGS, *harness.OPS,
    "(", ")", "[", "]", "{", "}", ",", ":", ".", " if ", " else ", " for ", " not ", "lambda", "__class__",
    "\n", "\n  ", "\n- ", "- ", ": ", "&a ", "*a", "!!str ", "!!python/name:os.system ", "<<: ", "---\n", "...\n",
    "|\n", ">-\n", "#", "'", '"', "\\", "\t", "\x00", "\x85", "\u2028", "\ufeff", "é", "天", "\U0001f0a1",
    '"type": ', '"move"', '"chance"', '"header"', "null", "true", "false", "1e999", "-0", "NaN",
    "9" * 40, "(" * 40, "[" * 40, "{" * 40, "a" * 200,
]


def edit_text(rng: random.Random, text: str, pool: list[str], tokens: list[str] = TOKENS) -> str:
    """``text`` after one to four random edits (``pool``: other seeds, for splicing)."""
    for _ in range(rng.randint(1, 4)):
        n = len(text)
        i = rng.randint(0, n)
        op = rng.randrange(6)
        if op == 0:
            text = text[:i] + rng.choice(tokens) + text[i:]
        elif op == 1 and n:
            text = text[:i] + text[i + rng.randint(1, min(16, n)):]
        elif op == 2 and n:
            j = rng.randint(i, min(n, i + 32))
            text = text[:j] + text[i:j] * rng.randint(1, 8) + text[j:]
        elif op == 3 and n:
            text = text[:i] + chr(rng.choice([rng.randint(32, 126), rng.randint(0, 0x2FFF)])) + text[i + 1:]
        elif op == 4 and pool:
            other = rng.choice(pool)
            text = text[:i] + other[rng.randint(0, len(other)):]
        else:
            text = text[:i] + str(rng.choice([0, 1, -1, 2, 10**6, 10**30])) + text[i:]
    return text


def edit_lines(rng: random.Random, lines: list[str], pool: list[str]) -> list[str]:
    """A log after edits: lines edited as text, dropped, repeated or swapped."""
    lines = list(lines)
    for _ in range(rng.randint(1, 3)):
        if not lines:
            lines.append(rng.choice(pool) if pool else "")
            continue
        k = rng.randrange(len(lines))
        op = rng.randrange(4)
        if op == 0:
            lines[k] = edit_text(rng, lines[k], pool)
        elif op == 1:
            del lines[k]
        elif op == 2:
            lines.insert(k, lines[k])
        else:
            j = rng.randrange(len(lines))
            lines[k], lines[j] = lines[j], lines[k]
    return lines


RULES_TOKENS = [*TOKENS, *textform.RULES_TOKENS]


def edit_rules_text(rng: random.Random, text: str, pool: list[str]) -> str:
    """A ``.rules`` text after edits: of its characters (with the pieces of its syntax) or of its lines
    (indented, dedented, repeated, moved: the layout is its syntax)."""
    if rng.random() < 0.5:
        return edit_text(rng, text, pool, RULES_TOKENS)
    lines = text.split("\n")
    for _ in range(rng.randint(1, 3)):
        k = rng.randrange(len(lines))
        op = rng.randrange(4)
        if op == 0:
            lines[k] = " " * rng.choice([1, 2, 4]) + lines[k]
        elif op == 1:
            lines[k] = lines[k][rng.choice([1, 2]):]
        elif op == 2:
            lines.insert(k, lines[k])
        else:
            lines.insert(rng.randrange(len(lines) + 1), lines.pop(k))
    return "\n".join(lines)


def editor(name: str) -> Callable[[random.Random, Any, list[Any]], Any]:
    """How to edit a seed of target ``name`` (seeds keep the shape the target's runner takes)."""

    def text(rng: random.Random, seed: Any, pool: list[Any]) -> Any:
        return edit_text(rng, seed, pool)

    def first_of_pair(rng: random.Random, seed: Any, pool: list[Any]) -> Any:
        return (edit_text(rng, seed[0], [p[0] for p in pool]), *seed[1:])

    def log(rng: random.Random, seed: Any, pool: list[Any]) -> Any:
        return edit_lines(rng, seed, [line for p in pool[:50] for line in p])

    def args(rng: random.Random, seed: Any, pool: list[Any]) -> Any:
        return edit_lines(rng, seed, [a for p in pool[:50] for a in p])

    def rules(rng: random.Random, seed: Any, pool: list[Any]) -> Any:
        return edit_rules_text(rng, seed, pool)

    def overlay(rng: random.Random, seed: Any, pool: list[Any]) -> Any:
        # An overlay in the text form is edited as .rules text; in YAML, as YAML.
        same = [p[0] for p in pool if p[1] == seed[1]]
        edit = edit_rules_text if seed[1].endswith(".rules") else edit_text
        return (edit(rng, seed[0], same), seed[1])

    return {"expression": first_of_pair, "rule file": first_of_pair, "log": log, "cli": args, "overlay": overlay,
            "rules text": rules, "rules cli": rules}.get(name, text)
