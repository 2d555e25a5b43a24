"""The contract every input is held to, the targets that feed rulecraft one input each, and how to write inputs.

The contract (README, issue 15): whatever a user gives rulecraft — a rule file, an overlay, an
expression, a scenario, a log, a command line — it answers with a message (a RulecraftError, a
click usage error, a report of problems) in bounded time and memory, and never with a traceback.
So for each input a target either returns or raises a user error; anything else is a *finding*:

- ``traceback``: an exception that is not a user error escaped, or a report says "a bug in rulecraft",
  or the command line exited 3 (its one-line report of a bug);
- ``hang``: the input took more than the time bound (a SIGALRM interrupts it);
- ``exit``: the command line exited with a code other than 0, 1 (a problem) or 2 (usage);
- ``oracle``: a target's own check failed (libyaml and PyYAML disagree; a ``.rules`` error placed outside
  the file, a round trip through ``convert`` that changes the data, ``fmt`` changing a formatted file).

Used by ``test_fuzz.py`` (a short, derandomized run in the suite) and ``run_long.py`` (the long run).
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import string
import tempfile
import traceback
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

import click
import yaml
from click.testing import CliRunner
from hypothesis import strategies as st

from rulecraft.errors import RulecraftError

ROOT = Path(__file__).resolve().parents[2]
TINY = ROOT / "tests" / "runs" / "tiny" / "rules.yaml"
TINY_SCENARIO = ROOT / "tests" / "runs" / "tiny" / "scenarios" / "two-tricks-win-the-bonus.yaml"
BUG_MARKERS = ("a bug in rulecraft", "Traceback (most recent call last)", "internal error:")


# ----------------------------------------------------------------------------- the contract
class Hang(BaseException):
    """Raised by the alarm: a BaseException, so no ``except Exception`` in rulecraft can swallow it."""


class Finding(Exception):
    """An input that broke the contract: its kind (traceback | hang | exit | oracle), target, what happened,
    the input."""

    def __init__(self, kind: str, target: str, detail: str, example: str) -> None:
        super().__init__(kind, target, detail, example)
        self.kind, self.target, self.detail, self.example = kind, target, detail, example

    def __str__(self) -> str:
        return f"{self.kind} in {self.target}: {self.detail}\n  input: {self.example[:2000]}"


@contextlib.contextmanager
def time_bound(seconds: float) -> Iterator[None]:
    """Interrupt the block with Hang after ``seconds`` (main thread, POSIX)."""

    def ring(signum: int, frame: Any) -> None:
        raise Hang()

    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def check(target: str, run: Callable[[], Any], example: Any, seconds: float = 20.0) -> Any:
    """Run one input; raise Finding when the contract is broken, else return what the target returned."""
    shown = example if isinstance(example, str) else repr(example)
    try:
        with time_bound(seconds):
            out = run()
    except Hang:
        raise Finding("hang", target, f"still running after {seconds:g} s", shown) from None
    except (RulecraftError, click.ClickException) as exc:
        said = str(exc)
        if any(marker in said for marker in BUG_MARKERS):  # e.g. convert's "cannot be converted faithfully"
            raise Finding("traceback", target, said[:1000], shown) from exc
        return None
    except Finding:
        raise
    except AssertionError as exc:
        # Raised here (tests/fuzz): an oracle of the target did not hold; raised in rulecraft: a traceback.
        ours = Path(traceback.extract_tb(exc.__traceback__)[-1].filename).parent == Path(__file__).parent
        kind = "oracle" if ours else "traceback"
        raise Finding(kind, target, f"{type(exc).__name__}: {exc}", shown) from exc
    except BaseException as exc:
        raise Finding("traceback", target, f"{type(exc).__name__}: {exc}", shown) from exc
    text = out if isinstance(out, str) else ""
    for marker in BUG_MARKERS:
        if marker in text:
            raise Finding("traceback", target, text[:1000], shown)
    return out


# ----------------------------------------------------------------------------- targets
def target_expression(text: str, assignments: dict[str, Any]) -> str:
    """Compile and evaluate as ``rulecraft eval`` does (with --set constants); print the value."""
    from rulecraft.cli.eval_cmd import eval_scope, evaluate_text, format_value
    from rulecraft.dsl.types import type_of_value

    scope = eval_scope({k: (v, type_of_value(v)) for k, v in assignments.items()})
    return format_value(evaluate_text(text, scope))


def target_expression_in_ruleset(text: str) -> str:
    """Compile an expression where a trick rule is written (game names, rule functions, the cost bound)."""
    from rulecraft.dsl import compile_expr

    rs = tiny_ruleset()
    compile_expr(text, rs.trick_scope)
    return ""


def target_yaml(text: str) -> str:
    """The strict loader; libyaml and PyYAML must read every text alike (values, positions, errors)."""
    import rulecraft.rules.yamlload as Y

    fast = _yaml_outcome(text)
    saved = Y._FastLoader
    Y._FastLoader = None
    try:
        slow = _yaml_outcome(text)
    finally:
        Y._FastLoader = saved
    # Both must accept the same files with the same values and positions. Where both refuse a file, the
    # messages may differ: libyaml reads a few malformed tags ('!0//!x') that PyYAML's scanner stops at,
    # so our own checks (unsupported tag, duplicate key) speak first. The file is refused either way.
    if fast != slow and not (fast.startswith("ERROR") and slow.startswith("ERROR")):
        raise AssertionError(f"libyaml and PyYAML disagree:\n{fast[:600]}\n---\n{slow[:600]}")
    return ""


def _yaml_outcome(text: str) -> str:
    from rulecraft.rules.yamlload import parse_yaml_text

    try:
        return _located_dump(parse_yaml_text(text, "f.yaml").data)
    except RulecraftError as exc:
        return "ERROR " + str(exc)


def _located_dump(value: Any) -> str:
    out: list[str] = []

    def walk(v: Any, path: str) -> None:
        out.append(f"{path} {type(v).__name__} {getattr(v, 'pos', '')} {getattr(v, 'segments', '')} "
                   f"{getattr(v, 'end', '')}")
        if isinstance(v, dict):
            for k, x in v.items():
                out.append(f"{path}/{k!r} {getattr(k, 'pos', '')} {v.key_pos.get(k)}")  # type: ignore[attr-defined]
                walk(x, f"{path}.{k}")
        elif isinstance(v, list):
            for i, x in enumerate(v):
                walk(x, f"{path}[{i}]")
        else:
            out.append(repr(v))

    walk(value, "")
    return "\n".join(out)


def target_rule_file(text: str, name: str = "rules.yaml", simulate: int = 0) -> str:
    """``rulecraft validate`` of one file (optionally playing a game per configuration)."""
    from rulecraft.runs.validate import PlayCheck, validate_file

    check_text(text)
    with scratch() as d:
        path = d / name
        rule_files_beside(d, text)
        path.write_text(text, encoding="utf-8")
        report = validate_file(path, simulate=PlayCheck(simulate, max_moves=3000, time_limit=5.0))
        return "\n".join(d.format() for d in report.diagnostics)


def target_scenario(text: str) -> str:
    """``rulecraft validate`` and ``rulecraft test`` of one scenario (next to the tiny rules it plays)."""
    from rulecraft.runs.scenario import run_scenario_file
    from rulecraft.runs.validate import validate_file

    with scratch() as d:
        rule_files_beside(d, text)
        path = d / "scenario.yaml"
        path.write_text(text, encoding="utf-8")
        out = "\n".join(x.format() for x in validate_file(path).diagnostics)
        try:
            result = run_scenario_file(path)
        except RulecraftError as exc:
            return out + "\n" + str(exc)
        return out + "\n" + "\n".join(result.failures)


def target_log(lines: list[str]) -> str:
    """``rulecraft replay`` of a log (parse, load the ruleset it names, replay every move)."""
    from rulecraft.runs.log import load_logged_ruleset, parse_log, replay_events

    header, events = parse_log(lines, "game.jsonl")
    rs = load_logged_ruleset(header, "game.jsonl")
    replay_events(header, events, rs, "game.jsonl", keep_states=False)
    return ""


def target_cli(args: list[str], stdin: str = "") -> str:
    """The real command line (``run_cli``) in this process, in a scratch directory; returns what it printed."""
    from rulecraft.cli.errors import INTERNAL_ERROR, run_cli
    from rulecraft.cli.main import cli

    with scratch() as d, _cwd(d):
        (d / "rules.yaml").write_text(TINY.read_text(encoding="utf-8"), encoding="utf-8")
        (d / "game.jsonl").write_text("\n".join(base_log()) + "\n", encoding="utf-8")
        (d / "notes.txt").write_text("my notes\n", encoding="utf-8")
        runner = CliRunner()
        with runner.isolation(input=stdin) as (out, err, _):
            code = run_cli(cli, args)
            printed = out.getvalue().decode("utf-8", "replace") + err.getvalue().decode("utf-8", "replace")
        if (d / "notes.txt").read_text(encoding="utf-8") != "my notes\n":
            raise AssertionError("a file the user wrote was overwritten")
        if code == INTERNAL_ERROR or code not in (0, 1, 2):
            kind = "traceback" if code == INTERNAL_ERROR else "exit"
            raise Finding(kind, "cli", f"exit {code}: {printed[-800:]}", " ".join(args))
        return printed


def rule_files_beside(d: Path, text: str) -> None:
    """The files an input may name beside it: the tiny rules as rules.yaml and rules.rules, and each bundled
    ruleset ``X`` (``X/Y``) in the text form as ``X.rules`` (``X-Y.rules``) when the input names it."""
    (d / "rules.yaml").write_text(TINY.read_text(encoding="utf-8"), encoding="utf-8")
    (d / "rules.rules").write_text(text_form("rules.yaml"), encoding="utf-8")
    for name in bundled_names():
        file = rules_file_name(name)
        if file in text:
            (d / file).write_text(text_form(name), encoding="utf-8")


def rules_file_name(bundled: str) -> str:
    return bundled.replace("/", "-") + ".rules"


@cache
def text_form(ruleset: str) -> str:
    """A bundled ruleset (or the tiny rules, ``rules.yaml``) converted to the text form as ``convert`` does."""
    from rulecraft.rules.convert import read_annotated, render
    from rulecraft.rules.registry import resolve_ruleset

    return render(read_annotated(TINY if ruleset == "rules.yaml" else resolve_ruleset(ruleset)), to_text=True)


@contextlib.contextmanager
def scratch() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="rulecraft-fuzz-") as d:
        yield Path(d)


@contextlib.contextmanager
def _cwd(path: Path) -> Iterator[None]:
    old = Path.cwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(old)


@cache
def tiny_ruleset() -> Any:
    from rulecraft.load import load_ruleset

    return load_ruleset(str(TINY))


@cache
def base_log() -> tuple[str, ...]:
    """A real log to mutate: one hand of Tien Gow (dice, a wall, tricks, payments)."""
    from rulecraft.load import load_ruleset
    from rulecraft.runs.log import log_lines
    from rulecraft.runs.simulate import play_game

    rs = load_ruleset("tien-gow")
    st_, _ = play_game(rs, 5, ["random"] * rs.seats.count, max_hands=1)
    return tuple(log_lines(st_, ["random"] * rs.seats.count))


# ----------------------------------------------------------------------------- inputs
NAMES = ["x", "xs", "n", "s", "bonus", "seat", "led", "piece", "trick_winner", "hand", "suit", "rank", "nope", "_",
         "true", "none", "if", "range", "sum", "count", "max", "min", "sorted", "first", "seats", "tricks"]
FUNCS = ["min", "max", "abs", "round", "floor", "ceil", "sum", "count", "len", "any", "all", "range", "sorted",
         "reversed", "first", "last", "suit", "rank", "hand", "seats", "tricks", "zone", "piece", "nope", "higher"]
NUMBERS = ["0", "1", "-1", "2", "7", "100000", "100001", "99999999999999999999", "1e308", "1e400", ".5", "0.1",
           "10" * 50]
STRINGS = ["'a'", '"b"', "'a-1'", "''", "'\\''", '"\\""', "'" + "z" * 300 + "'"]
OPS = ["+", "-", "*", "/", "//", "%", "==", "!=", "<", "<=", ">", ">=", "in", "not in", "and", "or"]


@st.composite
def expressions(draw: Any, depth: int = 4) -> str:
    """Expressions of the language (and near misses of it): every construct, sizes and values at the limits."""
    if depth <= 0 or draw(st.integers(0, 4)) == 0:
        return str(draw(st.one_of(st.sampled_from(NAMES), st.sampled_from(NUMBERS), st.sampled_from(STRINGS),
                                  st.sampled_from(["true", "false", "none", "[]", "[1, 2]", "range(3)", "range(n)"]))))
    sub = expressions(depth - 1)
    kind = draw(st.sampled_from(["op", "op", "unary", "call", "gen", "list", "comp", "cond", "index", "paren"]))
    if kind == "op":
        return f"{draw(sub)} {draw(st.sampled_from(OPS))} {draw(sub)}"
    if kind == "unary":
        return f"{draw(st.sampled_from(['-', 'not ', '+']))}{draw(sub)}"
    if kind == "call":
        args = ", ".join(draw(sub) for _ in range(draw(st.integers(0, 3))))
        return f"{draw(st.sampled_from(FUNCS))}({args})"
    if kind == "gen":
        return f"{draw(st.sampled_from(FUNCS))}({draw(sub)} for v in {draw(sub)} if {draw(sub)})"
    if kind == "list":
        return "[" + ", ".join(draw(sub) for _ in range(draw(st.integers(0, 4)))) + "]"
    if kind == "comp":
        return f"[{draw(sub)} for {draw(st.sampled_from(['v', 'x', 'if']))} in {draw(sub)}]"
    if kind == "cond":
        return f"{draw(sub)} if {draw(sub)} else {draw(sub)}"
    if kind == "index":
        return f"{draw(sub)}[{draw(sub)}]"
    return f"({draw(sub)})"


@st.composite
def big_expressions(draw: Any) -> str:
    """Expressions at and past the limits: nesting, length, loops inside loops, huge literals."""
    n = draw(st.sampled_from([10, 49, 50, 51, 80, 300, 3000]))
    kind = draw(st.sampled_from(["paren", "cond", "neg", "not", "chain", "loops", "literal", "name", "list"]))
    if kind == "paren":
        return "(" * n + "1" + ")" * n
    if kind == "cond":
        return "1 if true else " * n + "0"
    if kind == "neg":
        return "-" * n + "1"
    if kind == "not":
        return "not " * n + "true"
    if kind == "chain":
        return " + ".join(["[1]" if draw(st.booleans()) else "1"] * n)
    if kind == "loops":
        size = draw(st.sampled_from(["3", "1000", "100000", "xs", "n"]))
        return "count(" + "".join(f"[0 for a{i} in range({size})]" for i in range(min(n, 6))) + ")"
    if kind == "literal":
        return "'" + "a" * (n * 5) + "'"
    if kind == "name":
        return "b" * (n * 5)
    return "[" + ", ".join(["range(100000)"] * min(n, 40)) + "]"


EXPRESSION_TEXT = st.one_of(
    expressions(),
    big_expressions(),
    st.text(alphabet=string.printable + "éλ天", max_size=60),
)
ASSIGNMENTS = st.fixed_dictionaries({}, optional={
    "x": st.integers(-10**30, 10**30), "n": st.integers(-5, 200000), "xs": st.lists(st.integers(-3, 3), max_size=5),
    "s": st.text(max_size=5), "bonus": st.booleans(),
})

_SCALARS = st.one_of(
    st.integers(-10**20, 10**20), st.sampled_from([0, 1, -1, 2, 4, 7, 100, 10**6, 2**63]),
    st.floats(allow_nan=False, allow_infinity=False), st.booleans(), st.none(),
    st.sampled_from(["", "true", "won", "hand", "deck", "trick", "single", "a-1", "b-3", "seat", "left_of(dealer)",
                     "tricks(s) >= 2", "score[seat]", "1 // 0", "xs[9]", "max([])", "{suit}-{rank}", "c{nope}",
                     "count(p for p in pieces())", "'$delete'", "$delete", "kind", "tricks", "all", "x" * 400]),
    st.text(max_size=12),
)


def _values(depth: int) -> st.SearchStrategy[Any]:
    if depth <= 0:
        return _SCALARS
    inner = _values(depth - 1)
    return st.one_of(_SCALARS, st.lists(inner, max_size=3),
                     st.dictionaries(st.sampled_from(["id", "kind", "when", "to", "count", "x", "$delete",
                                                      "$replace", "patch", "effects"]), inner, max_size=3))


VALUES = _values(2)


def _paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(data, dict):
        for k, v in data.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out += _paths(v, (*prefix, i))
    return out


def _get(data: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        data = data[step]
    return data


@st.composite
def mutated(draw: Any, base: Any, steps: int = 3) -> Any:
    """``base`` (plain YAML data) after a few random edits: replace, delete, duplicate or move a value."""
    data = json.loads(json.dumps(base))
    for _ in range(draw(st.integers(1, steps))):
        paths = _paths(data)
        path = draw(st.sampled_from(paths))
        op = draw(st.sampled_from(["replace", "replace", "delete", "duplicate", "graft"]))
        if not path:
            continue
        parent, last = _get(data, path[:-1]), path[-1]
        if op == "replace":
            parent[last] = draw(VALUES)
        elif op == "delete":
            del parent[last]
        elif op == "duplicate" and isinstance(parent, list):
            parent.insert(last, json.loads(json.dumps(parent[last])))
        elif op == "graft":
            parent[last] = json.loads(json.dumps(_get(data, draw(st.sampled_from(paths)))))
    return data


def as_yaml(data: Any) -> str:
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=4096)


@cache
def tiny_data() -> Any:
    return yaml.safe_load(TINY.read_text(encoding="utf-8"))


@cache
def scenario_data() -> Any:
    data = yaml.safe_load(TINY_SCENARIO.read_text(encoding="utf-8"))
    data["ruleset"] = "rules.yaml"
    return data


VARIANTS = ROOT / "variants"
SCENARIO_DIRS = ROOT / "tests" / "scenarios"


@cache
def bundled_files() -> tuple[tuple[str, Any], ...]:
    """Every bundled YAML rule file as (its bundled name, its data): each game's base and its overlays."""
    out = []
    for path in sorted(VARIANTS.glob("*/*.yaml")):
        name = path.parent.name if path.stem == "base" else f"{path.parent.name}/{path.stem}"
        out.append((name, json.loads(json.dumps(yaml.safe_load(path.read_text(encoding="utf-8"))))))
    return tuple(out)


def bundled_names() -> list[str]:
    return [name for name, _ in bundled_files()]


@cache
def bundled_scenarios() -> tuple[Any, ...]:
    """The data of every bundled game's scenarios (tests/scenarios/GAME/*.yaml; not the mutants lists)."""
    out = []
    for path in sorted(SCENARIO_DIRS.glob("*/*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if isinstance(data, dict) and "steps" in data:
            out.append(json.loads(json.dumps(data)))
    return tuple(out)


@cache
def game_facts(ruleset: str) -> dict[str, list[str]]:
    """What an overlay of ``ruleset`` may name: its phases, constants, options and their choices."""
    data = tiny_data() if ruleset in ("rules.yaml", "rules.rules") else dict(bundled_files())[ruleset]
    if "extends" in data:  # an overlay: what it extends has the phases and constants
        base = game_facts(data["extends"])
        return {k: sorted({*v, *_facts(data)[k]}) for k, v in base.items()}
    return _facts(data)


def _facts(data: Any) -> dict[str, list[str]]:
    def ids(items: Any) -> list[str]:
        return [str(i["id"]) for i in items or [] if isinstance(i, dict) and "id" in i]

    options = data.get("options") or []
    return {"phases": ids((data.get("hand") or {}).get("phases")), "constants": [str(k) for k in
                                                                               data.get("constants") or {}],
            "options": ids(options), "choices": [c for o in options if isinstance(o, dict) for c in
                                                 ids(o.get("choices"))]}


def _misspelt(name: str) -> str:
    return name[:-2] + name[-1] + name[-2] if len(name) > 2 else name + "x"


@st.composite
def overlay_data(draw: Any) -> Any:
    """An overlay of the tiny rules (YAML or .rules) or of a bundled ruleset, naming what that one has."""
    base = draw(st.sampled_from(["rules.yaml", "rules.rules", *bundled_names()]))
    facts = game_facts(base)
    phase_ids = [*facts["phases"], *map(_misspelt, facts["phases"][:2]), "new"]
    option = st.fixed_dictionaries({"id": st.sampled_from([*facts["options"], "new"])}, optional={
        "default": st.sampled_from([*facts["choices"], "nope"]), "$delete": st.booleans(),
        "choices": st.lists(st.fixed_dictionaries({"id": st.sampled_from([*facts["choices"], "new"])},
                                                  optional={"patch": VALUES}), max_size=2)})
    return draw(st.fixed_dictionaries({"extends": st.just(base)}, optional={
        "name": st.text(max_size=8),
        "constants": st.dictionaries(st.sampled_from([*facts["constants"][:6], "new"]), VALUES, max_size=2),
        "hand": st.fixed_dictionaries({"phases": st.lists(st.fixed_dictionaries(
            {"id": st.sampled_from(phase_ids)},
            optional={"$delete": st.booleans(), "first": VALUES, "kind": VALUES, "effects": VALUES}), max_size=3)}),
        "options": st.one_of(VALUES, st.lists(option, max_size=2)),
        "match": st.dictionaries(st.sampled_from(["end_when", "max_hands", "score"]), VALUES),
    }))


def as_rules(data: Any) -> str:
    """``data`` in the text form; when the printer fails, a text saying so (which ``check_text`` reports)."""
    from rulecraft.rules.textprint import print_rules

    try:
        return print_rules(data)
    except Exception as exc:  # a printer bug: reported as a finding by the target, not lost in the generator
        return f"{PRINTER_FAILED} {type(exc).__name__}: {exc}\n# data: {json.dumps(data, default=str)[:3000]}\n"


PRINTER_FAILED = "# THE PRINTER FAILED:"


def check_text(text: str) -> None:
    """Raise when the input is the printer's failure (``as_rules``) rather than a file."""
    if text.startswith(PRINTER_FAILED):
        raise AssertionError(text.splitlines()[0][2:])


def in_form(data: Any, form: str) -> tuple[str, str]:
    """``data`` written as overlay.yaml or overlay.rules: (text, file name)."""
    return (as_rules(data), "overlay.rules") if form == "rules" else (as_yaml(data), "overlay.yaml")


def _scenario_in_form(data: Any, form: str) -> str:
    """A scenario naming its ruleset as written, or naming the ruleset's text form (``X.rules``) beside it."""
    if form == "rules" and isinstance(data, dict) and isinstance(data.get("ruleset"), str):
        named = data["ruleset"]
        data = {**data, "ruleset": "rules.rules" if named == "rules.yaml" else rules_file_name(named)}
    return as_yaml(data)


RULE_FILES = st.deferred(lambda: st.one_of(
    mutated(tiny_data()), st.sampled_from([d for _, d in bundled_files()]).flatmap(mutated)).map(as_yaml))
OVERLAYS = st.deferred(lambda: st.tuples(overlay_data(), st.sampled_from(["yaml", "rules"])).map(
    lambda x: in_form(*x)))
SCENARIOS = st.deferred(lambda: st.tuples(
    st.one_of(mutated(scenario_data()), st.sampled_from(bundled_scenarios()).flatmap(mutated)),
    st.sampled_from(["yaml", "rules"])).map(lambda x: _scenario_in_form(*x)))

YAML_TEXT = st.one_of(
    st.text(alphabet=string.printable + "\t\x00\x85\u2028éλ天", max_size=80),
    st.deferred(lambda: mutated(tiny_data(), 2).map(as_yaml)).map(lambda t: t[: len(t) // 2]),
    st.lists(st.sampled_from(["a: 1\n", "- x\n", "  b: [1, {c: 2}]\n", "&a x: *a\n", "<<: {a: 1}\n", "---\n",
                              "k: 'q\"\n", "d: !!python/object:os.system x\n", "e: |\n  text\n", 'f: "\\x41\\u00e9"\n',
                              "g: 010\n", "h: .inf\n", "[" * 70 + "\n", "dup: 1\ndup: 2\n"]),
             max_size=6).map("".join),
)


@st.composite
def logs(draw: Any) -> list[str]:
    """A real log after a few edits: a line replaced, deleted, duplicated, or a field changed."""
    lines = list(base_log())
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(lines) - 1))
        op = draw(st.sampled_from(["field", "field", "field", "delete", "duplicate", "junk", "deep"]))
        if op == "delete":
            del lines[i]
        elif op == "duplicate":
            lines.insert(draw(st.integers(0, len(lines))), lines[i])
        elif op == "junk":
            lines[i] = draw(st.sampled_from(["", "{", "[]", "null", '{"type": 1}', '{"type": "bogus"}', "é",
                                             '{"type": "move", "seat": 0, "move": "play 9-9"}']))
        elif op == "deep":
            n = draw(st.sampled_from([5, 33, 1000, 100000]))
            lines[i] = '{"type": "hand", "x": ' + "[" * n + "]" * n + "}"
        else:
            try:
                event = json.loads(lines[i])
            except (ValueError, RecursionError):  # an earlier edit made it junk
                continue
            if isinstance(event, dict) and event:
                key = draw(st.sampled_from(sorted(event)))
                event[key] = draw(st.one_of(VALUES, st.sampled_from([[9, 9], [0], ["6-6"] * 40, -1, 2**70, True])))
            lines[i] = json.dumps(event)
    return lines


COMMANDS = {
    "validate": ["rules.yaml", "--simulate", "-n", "--max-moves", "--time-limit", "--no-build", "--format"],
    "simulate": ["rules.yaml", "-n", "--seed", "--agents", "--log-dir", "-o", "--preset", "--format", "--no-timings"],
    "eval": ["--set", "--ruleset", "-o", "--preset"],
    "explain": ["rules.yaml", "--rule", "-o", "--changed", "--format"],
    "diff": ["rules.yaml", "-a", "-b", "--a-preset", "--format"],
    "list": ["--format"],
    "schema": ["--kind"],
    "replay": ["game.jsonl", "--seat", "--ruleset"],
    "play": ["rules.yaml", "--seed", "--seats", "--hands", "--log", "--resume", "-o"],
    "compare": ["rules.yaml", "-n", "--agents", "--seed", "--format", "-a", "-b", "--plot", "--no-timings"],
    "test": ["rules.yaml", "--quiet", "--coverage", "--format"],
}
ARG_VALUES = ["1", "2", "0", "-1", "3", "99999999999999999999", "1e9", "nan", "inf", "x", "", "rules.yaml",
              "game.jsonl", "notes.txt", ".", "/proc/nope", "nodir/x", "rules.yaml/x", "bonus=twenty", "bonus=x",
              "nope=1",
              "random", "mc:1", "mc:0", "mc:infs", "first", "scripted:play a-1", "bluffer:2", "human", "json", "text",
              "x=1", "x=[1,2]", "x={a: 1}", "1 +", "count(range(5))", "tcp://:abc", "notaurl", "constants",
              "hand.phases[play]", "ruleset", "overlay", "out.png", "logs", "a" * 300]


@st.composite
def command_lines(draw: Any) -> list[str]:
    command = draw(st.sampled_from(sorted(COMMANDS)))
    args = [command]
    for _ in range(draw(st.integers(0, 5))):
        args.append(draw(st.sampled_from(COMMANDS[command] + ARG_VALUES)))
    if command in ("simulate", "compare") and "-n" not in args:
        args += ["-n", "2"]  # bounded: the fuzzer is not here to wait for long runs
    if command in ("simulate", "compare"):
        args = [a if not (p == "-n" and a.isdigit() and int(a) > 3) else "2"
                for p, a in zip(["", *args], args, strict=False)]
    if command == "validate" and "--simulate" in args:
        i = args.index("--simulate")
        args[i + 1:i + 2] = ["1"]
    return args


def random_seed() -> int:
    return random.randrange(2**32)
