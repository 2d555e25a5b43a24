"""Fuzz every command that reads a user's file, as the user runs it: run by hand, not collected by pytest.

    nice .venv/bin/python tests/hardening/fuzz_commands.py --inputs 2000 --seed 1 --findings /tmp/findings

Each input is a real file of the project (a bundled or dogfood rule file, YAML or ``.rules``; a
scenario; a mutants list; a log saved by ``simulate --log-dir``) after one to three text edits (lines
deleted, repeated, swapped or truncated; a number made huge, negative, fractional or a word; a name
changed; deep nesting, a huge list, unicode, tabs, a BOM, CRLF; alias bombs, duplicate keys,
``!!python`` tags), copied with the files beside it into a scratch directory. One to three commands
that read it run there (``validate``, ``test``, ``explain``, ``fmt``, ``convert``, ``simulate -n 2``, a
command with one number option, agent spec (``mc:99999999999``) or ``-o`` given an odd value,
``replay``, ``play`` with a script of illegal and garbage moves on stdin, ``eval`` of a hostile
expression, ``compare -n 2``, ``test --mutate``), each in a forked child of this process (rulecraft is
imported once) with its address space and CPU time capped. A finding is:

- ``traceback``: exit 3 (rulecraft's report of a bug) or a traceback printed;
- ``exit``: an exit status other than 0, 1, 2 (a signal: the memory or CPU cap, a crash);
- ``slow``: more than ``--slow`` seconds of CPU;
- ``memory``: the child's peak resident memory grew more than ``--memory-growth`` MB;
- ``noplace``: exit 1, and no error line names the edited file, though the input was that file;
- ``changed``: a file that was there before and that the command must not write changed (or vanished);
- ``litter``: a temporary file left behind;
- ``usage``: ``replay`` or ``play`` of an edited file, with no odd option, exits 2: the file's problem was
  reported as the user's command line (exit 1 and the place, for a file);
- ``echo``: an error line over 2,000 characters (a user's text not clipped).

Findings are grouped by kind, command and the first error line with its particulars blanked out; the
first input of each group is kept under ``--findings`` to replay (its directory and command line).
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import os
import random
import re
import resource
import shutil
import signal
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "src"))


# ----------------------------------------------------------------------------- the corpus
@dataclass(frozen=True)
class Seed:
    kind: str  # rule | scenario | mutants | log
    path: Path  # the original file
    home: Path  # the directory whose files are copied beside it


def corpus(log_dir: Path) -> list[Seed]:
    from rulecraft.rules.yamlload import load_yaml_file
    from rulecraft.runs.scenario import is_rule_file

    seeds: list[Seed] = []
    for path in sorted((ROOT / "variants").glob("*/*")):
        if path.suffix in (".yaml", ".rules"):
            seeds.append(Seed("rule", path, path.parent))
    seeds.append(Seed("rule", ROOT / "tests/runs/tiny/rules.yaml", ROOT / "tests/runs/tiny"))
    for path in sorted([*(ROOT / "tests/dogfood").glob("*/*.yaml"), *(ROOT / "tests/dogfood").glob("*/*.rules"),
                        *(ROOT / "tests/scenarios").glob("*/*.yaml")]):
        if path.name == "mutants.yaml":
            seeds.append(Seed("mutants", path, path.parent))
        elif path.suffix == ".rules" or is_rule_file(load_yaml_file(path)):
            seeds.append(Seed("rule", path, path.parent))
        else:
            seeds.append(Seed("scenario", path, path.parent))
    for path in sorted(log_dir.glob("*.jsonl")):
        seeds.append(Seed("log", path, path.parent))
    return seeds


def make_logs(log_dir: Path) -> None:
    """One short game of each bundled ruleset and dogfood game, saved as ``simulate --log-dir`` saves it."""
    from rulecraft.cli.errors import run_cli
    from rulecraft.cli.main import cli
    from rulecraft.rules.registry import list_bundled

    names = list_bundled()
    for name in names:
        d = log_dir / name.replace("/", "-")
        code = run_cli(cli, ["simulate", name, "-n", "1", "--seed", "3", "--agents", "random", "--no-timings",
                             "--log-dir", str(d)])
        assert code == 0, name
        for f in d.glob("*.jsonl"):
            f.rename(log_dir / f"{d.name}-{f.name}")
        shutil.rmtree(d)


# ----------------------------------------------------------------------------- edits of a text
NUMBER = re.compile(r"(?<![\w.])-?\d+(\.\d+)?(?![\w.])")
NAME = re.compile(r"\b[a-z][a-z_]{2,}\b")
HOSTILE_NUMBERS = ["999999999999999999999999", "-1", "-999999", "0", "2.5", "1e308", "1e400", "nan", "x", "'7'",
                   "[]", "{}", "null", "true", "9" * 5000, "0x10", "1_000", ".inf"]


def edit(rng: random.Random, text: str, kind: str) -> tuple[str, str]:
    """``text`` after one edit; and what the edit was."""
    lines = text.split("\n")
    n = len(lines)
    op = rng.choice(["delete", "duplicate", "swap", "truncate", "number", "number", "name", "nest", "biglist",
                     "unicode", "tab", "bom", "crlf", "bomb", "dupkey", "tag", "indent", "blank", "longline",
                     "escapes", "longkey", "json" if kind == "log" else "number"])
    i = rng.randrange(n)
    if op == "delete":
        del lines[i:i + rng.choice([1, 1, 2, 5])]
    elif op == "duplicate":
        lines[i:i] = lines[i:i + rng.choice([1, 1, 3])] * rng.choice([1, 2, 50])
    elif op == "swap":
        j = rng.randrange(n)
        lines[i], lines[j] = lines[j], lines[i]
    elif op == "truncate":
        return text[:rng.randrange(len(text) + 1)], op
    elif op == "number":
        spots = list(NUMBER.finditer(text))
        if spots:
            m = rng.choice(spots)
            return text[:m.start()] + rng.choice(HOSTILE_NUMBERS) + text[m.end():], op
    elif op == "name":
        spots = list(NAME.finditer(text))
        if spots:
            m = rng.choice(spots)
            new = rng.choice([m.group()[::-1], m.group() + "x", "", "é" + m.group(), m.group().upper(), "__class__",
                              "a" * 400])
            return text[:m.start()] + new + text[m.end():], op
    elif op == "nest":
        depth = rng.choice([50, 200, 1000, 5000, 100000])
        line = lines[i]
        cut = line.find(": ") + 2 if ": " in line else len(line)
        lines[i] = line[:cut] + rng.choice(["[" * depth + "]" * depth, "{a: " * depth + "1" + "}" * depth,
                                            "(" * depth + "1" + ")" * depth, "[" * depth])
    elif op == "biglist":
        size = rng.choice([1000, 100000, 1000000])
        line = lines[i]
        cut = line.find(": ") + 2 if ": " in line else len(line)
        lines[i] = line[:cut] + rng.choice(["[" + ", ".join(["1"] * size) + "]", "'" + "a" * size + "'"])
    elif op == "unicode":
        pos = rng.randrange(len(text) + 1)
        return text[:pos] + rng.choice(["é", "天", "\u200b", "\u202e", "\U0001f0a1", "\x00", "\x85", "\u2028", "\ud800",
                                        "\x1b[31m", "\r", "\x7f", "\uffff"]) + text[pos:], op
    elif op == "tab":
        lines[i] = "\t" + lines[i].lstrip(" ")
    elif op == "bom":
        return "\ufeff" + text, op
    elif op == "crlf":
        return text.replace("\n", "\r\n"), op
    elif op == "bomb":
        bomb = ['a: &a ["x","x","x","x","x","x","x","x","x"]', 'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
                'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]', 'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
                'e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]', 'f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]',
                'g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]']
        if rng.random() < 0.5:
            lines[i:i] = bomb
        else:
            lines[i] = lines[i] + " &anc"
            lines.insert(min(n, i + 1), "zz: *anc")
    elif op == "dupkey":
        j = rng.randrange(n)
        lines.insert(j, lines[i])
    elif op == "tag":
        line = lines[i]
        cut = line.find(": ") + 2 if ": " in line else 0
        lines[i] = line[:cut] + rng.choice(["!!python/object/apply:os.system ['true'] ", "!!python/name:os.system ",
                                            "!!binary ", "!!set ", "!custom ", "!!timestamp ", "!!float "]) + line[cut:]
    elif op == "indent":
        lines[i] = " " * rng.choice([1, 2, 3, 8]) + lines[i]
    elif op == "blank":
        lines[i] = ""
    elif op == "longline":
        lines[i] = lines[i] + "x" * rng.choice([10000, 1000000])
    elif op == "escapes":  # a quoted text of many escapes, where the line has a value
        line = lines[i]
        cut = line.find(": ") + 2 if ": " in line else len(line)
        escape = rng.choice(['\\" ', "\\n", "\\x41", "\\u00e9"])
        lines[i] = line[:cut] + '"' + escape * rng.choice([10000, 100000]) + '"'
    elif op == "longkey":
        lines[i] = " " * (len(lines[i]) - len(lines[i].lstrip())) + rng.choice([".a", "[x]", "-"]) * 200000 + ": 1"
    elif op == "json":
        if rng.random() < 0.3:  # the header: its ruleset, options, seed, agents
            i = 0
        line = lines[i]
        try:
            event = json.loads(line)
        except ValueError:
            event = None
        if isinstance(event, dict) and event:
            key = rng.choice(sorted(event))
            event[key] = rng.choice([None, -1, 2**70, 1.5, "x", [], {}, [[[]]], "play x", True, "é" * 50,
                                     {"type": "move"}, {"name": "rook", "options": {"x": "y"}}, ["mc:99999999999"] * 4,
                                     {"name": rng.choice(["rook", "doubt", "hearts"]), "options": {}, "hash": "0"}])
            lines[i] = json.dumps(event)
    return "\n".join(lines), op


# ----------------------------------------------------------------------------- commands
GARBAGE_MOVES = ["?", "help", "", "   ", "play", "play nope", "play 9-9", "bid 99999999999999999999", "bid -1",
                 "bid 1.5", "pass", "play " + "x" * 10000, "é天", "\x1b[A", "\x00", "1", "-1", "999999", "0",
                 "undo", "quit now", "q", "hint", "moves", "show", "play a-1 a-1", "play a-1,b-2", "((((", "'",
                 "save /proc/x", "save", "%s%s%n", "{}", "[]"]


def play_script(rng: random.Random) -> str:
    moves = [rng.choice(GARBAGE_MOVES) for _ in range(rng.randint(1, 12))]
    return "\n".join(moves) + rng.choice(["\n", "\nquit\n", ""])


HOSTILE_EXPRESSIONS = ["(" * 5000 + "1" + ")" * 5000, "2 ** 99999999", "9" * 100000, "'a' * 1000000000",
                       "[0] * 1000000000", "nope", "sum(range(10**12))", "count(p for p in pieces())",
                       "x.__class__", "'" + "a" * 1000000 + "'", "1 if " * 2000 + "1" + " else 0" * 2000,
                       "-" * 100000 + "1", "max([])", "1 // 0", "tricks(99)", "__import__('os')", "lambda: 1",
                       "[x for x in range(100000) for y in range(100000)]", "f'{1}'", "é", "\x00", "1e400",
                       "score[seat]", "range(-1)", "sorted([1, 'a'])"]


HOSTILE_AGENTS = ["mc:99999999999999999999", "ismcts:10**30", "mc:d99999999999", "mc:k999999999", "mc:infs",
                  "mc:nans", "mc:1e300s", "default:99999999999", "default:0", "mc:-1", "mc:" + "9" * 5000, "mc:",
                  "mc::::", "bluffer:nan", "bluffer:2", "scripted:" + "x;" * 1000, "random:1", "nope", "mc:0.5",
                  "ismcts:1e3", "mc:h:h", "mc:d0", "default:1.5"]
HOSTILE_VALUES = ["nan", "inf", "-inf", "-1", "0", "1e400", "99999999999999999999999", "9" * 5000, "x", "", "1.5",
                  "0x10", "1_000", " 3", "é"]
HOSTILE_OPTIONS = ["players=", "=4", "a=b=c", "x" * 5000 + "=1", "players=" + "9" * 5000, "players=4.0",
                   "players=true", "pl ayers=4", "players=\x00", "players=[4]", "é=é", "-o", "players=04"]


def hostile_numbers(rng: random.Random, name: str) -> tuple[list[str], str]:
    """A command line of ``name`` with one number option given an odd value, or an odd agent or option."""
    v = rng.choice(HOSTILE_VALUES)
    return rng.choice([
        ["simulate", name, "-n", "1", "--no-timings", "--agents", rng.choice(HOSTILE_AGENTS)],
        ["simulate", name, "-n", rng.choice(["nan", "-1", "0", "1.5", "x", "", "1e400", "9" * 5000]), "--no-timings",
         "--agents", "random"],  # (a huge -n is a long run by request: bounded by Ctrl-C, test_worker_processes)
        ["simulate", name, "-n", "1", "--seed", v, "--no-timings", "--agents", "random"],
        ["simulate", name, "-n", "2", "--workers", v, "--no-timings", "--agents", "random"],
        ["compare", name, name, "-n", "1", "--hands", v, "--no-timings", "--agents", "random"],
        ["compare", name, name, "-n", "1", "--moves", v, "--no-timings", "--agents", "random"],
        ["validate", "--simulate", "1", "--time-limit", v, "--max-moves", "2000", name],
        ["validate", "--simulate", "1", "--max-moves", v, "--time-limit", "5", name],
        ["play", name, "--seed", "1", "--seats", "human," + rng.choice(HOSTILE_AGENTS)],
        ["play", name, "--hands", v, "--seed", "1"],
        ["explain", name, "-o", rng.choice(HOSTILE_OPTIONS)],
        ["explain", name, "--preset", rng.choice(["", "x" * 5000, "é", "\x00"])],
    ]), ""


def commands(rng: random.Random, seed: Seed, name: str) -> list[tuple[list[str], str]]:
    """Command lines (and stdin) that read the file ``name`` (in the scratch directory) of ``seed``'s kind."""
    other = "out.rules" if name.endswith(".yaml") else "out.yaml"
    if seed.kind == "rule":
        menu: list[tuple[list[str], str]] = [
            (["validate", name], ""), (["validate", "--simulate", "1", "--max-moves", "2000", name], ""),
            (["explain", name], ""), (["explain", name, "--format", "json", "--changed"], ""),
            (["convert", name, other], ""), (["simulate", name, "-n", "2", "--agents", "random", "--no-timings",
                                            "--format", "json", "--log-dir", "logs"], ""),
            (["play", name, "--seed", "1", "--seats", "human," + ",".join(["random"] * 7)], play_script(rng)),
            (["play", name, "--seed", "2"], play_script(rng)),
            (["eval", "--ruleset", name, rng.choice(HOSTILE_EXPRESSIONS)], ""),
            (["compare", name, name, "-n", "2", "--agents", "random", "--no-timings"], ""),
            (["diff", name, name], ""),
            hostile_numbers(rng, name),
        ]
        if name.endswith(".rules"):
            menu += [(["fmt", "--check", name], ""), (["fmt", name], "")]
        else:
            menu += [(["fmt", "--check", name], "")]
    elif seed.kind == "scenario":
        menu = [(["validate", name], ""), (["test", name], ""), (["test", "--coverage", name], "")]
    elif seed.kind == "mutants":
        menu = [(["validate", name], ""), (["test", "--mutate", "--max-mutants", "2", "--timeout", "10", "."], "")]
    else:
        menu = [(["replay", name], "\n" * rng.randint(0, 5) + rng.choice(["", "q\n", "x\n", "999\n"])),
                (["replay", name, "--seat", rng.choice(["0", "1", "-1", "99"])], ""),
                (["play", "--resume", name], play_script(rng)), (["validate", name], ""),
                (["replay", name, "--seat", rng.choice(HOSTILE_VALUES)], ""),
                (["play", "--resume", name, "--seats", ",".join(rng.choice(HOSTILE_AGENTS) for _ in range(4))],
                 play_script(rng))]
    picks = rng.sample(menu, k=min(len(menu), rng.randint(1, 3)))
    out = []
    for args, stdin in picks:
        if args[0] == "play" and seed.kind == "rule" and rng.random() < 0.3:  # stdin of plausible moves as well
            stdin = play_script(rng)
        out.append((args, stdin))
    return out


# ----------------------------------------------------------------------------- one run, in a forked child
@dataclass
class Run:
    code: int  # exit status, or -signal
    out: str
    cpu: float
    peak_mb: float
    wall: float


def run_forked(args: list[str], stdin: str, cwd: Path, *, memory_mb: int, cpu_seconds: int,
               wall_seconds: float) -> Run:
    inp = cwd.parent / "stdin.txt"
    inp.write_text(stdin, encoding="utf-8", errors="surrogatepass")
    outp = cwd.parent / "out.txt"
    start = time.monotonic()
    pid = os.fork()
    if pid == 0:  # the child
        code = 99
        try:
            os.chdir(cwd)
            fd_in = os.open(inp, os.O_RDONLY)
            fd_out = os.open(outp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            os.dup2(fd_in, 0)
            os.dup2(fd_out, 1)
            os.dup2(fd_out, 2)
            resource.setrlimit(resource.RLIMIT_AS, (memory_mb * 2**20, memory_mb * 2**20))
            resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 5))
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            from rulecraft.cli.errors import run_cli
            from rulecraft.cli.main import cli

            sys.argv = ["rulecraft", *args]
            code = run_cli(cli, args)
        except BaseException as exc:
            with contextlib.suppress(BaseException):
                os.write(2, f"\nESCAPED run_cli: {type(exc).__name__}: {exc}\n".encode(errors="replace"))
            code = 98
        finally:
            try:
                sys.stdout.flush()
                sys.stderr.flush()
            except BaseException:
                pass
            os._exit(code)
    deadline = start + wall_seconds
    while True:
        got, status, usage = os.wait4(pid, os.WNOHANG)
        if got:
            break
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            got, status, usage = os.wait4(pid, 0)
            break
        time.sleep(0.01)
    code = os.waitstatus_to_exitcode(status)
    out = outp.read_bytes().decode("utf-8", "replace")
    return Run(code, out, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, time.monotonic() - start)


# ----------------------------------------------------------------------------- checks
@dataclass
class Finding:
    kind: str
    command: str
    detail: str


def snapshot(d: Path) -> dict[str, str]:
    out = {}
    for p in d.rglob("*"):
        if p.is_file():
            out[str(p.relative_to(d))] = hashlib.sha1(p.read_bytes()).hexdigest()
    return out


ERROR_LINE = re.compile(r"^(\S.*?: )?error: .*$", re.M)


def judge(run: Run, args: list[str], name: str, before: dict[str, str], after: dict[str, str], *, slow: float,
          base_mb: float, growth_mb: float) -> list[Finding]:
    cmd = args[0] + (" --" + args[1].lstrip("-") if len(args) > 1 and args[1].startswith("-") else "")
    found = []
    if run.code == 3 or "Traceback (most recent call last)" in run.out or "ESCAPED run_cli" in run.out:
        found.append(Finding("traceback", cmd, _first_bug_line(run.out)))
    elif run.code not in (0, 1, 2):
        found.append(Finding("exit", cmd, f"exit {run.code}: {run.out[-300:]}"))
    if run.cpu > slow:
        found.append(Finding("slow", cmd, f"{run.cpu:.1f} s of CPU"))
    if run.code == 2 and name in args and args[0] in ("replay", "play") and not any(
            a in args for a in ("--seat", "--seats", "--hands")):  # a file's problem is exit 1, at its place
        found.append(Finding("usage", cmd, _error_line(run.out)))
    long_lines = [line for line in run.out.splitlines() if "error" in line and len(line) > 2000]
    if long_lines:  # a user's text echoed whole (clip it)
        found.append(Finding("echo", cmd, f"{len(long_lines[0]):,} characters: {long_lines[0][:200]}"))
    if run.peak_mb - base_mb > growth_mb:
        found.append(Finding("memory", cmd, f"peak {run.peak_mb:.0f} MB"))
    if run.code == 1:  # (compare, eval, simulate and test report a rule's failure at the rule, in another file)
        lines = [m.group(0) for m in ERROR_LINE.finditer(run.out)]
        if lines and not any(name in line for line in lines) and args[0] not in ("compare", "eval", "simulate",
                                                                                 "test"):
            found.append(Finding("noplace", cmd, lines[0][:300]))
    may_write = set()
    if args[0] == "fmt" and "--check" not in args:
        may_write.add(name)
    if args[:2] == ["play", "--resume"] and run.code == 0:  # a game continued is saved to its log
        may_write.add(name)
    for key, digest in before.items():
        if key not in may_write and after.get(key) != digest:
            found.append(Finding("changed", cmd, f"{key} {'vanished' if key not in after else 'changed'}"))
    for key in after:
        if key not in before and (".tmp" in key or key.startswith(".") or "~" in key):
            found.append(Finding("litter", cmd, key))
    return found


def _error_line(out: str) -> str:
    m = ERROR_LINE.search(out)
    return m.group(0)[:300] if m else out[-300:]


def _first_bug_line(out: str) -> str:
    for line in out.splitlines():
        if "internal error" in line or "ESCAPED" in line or "Error" in line:
            return line.strip()[:300]
    return out[-300:]


def signature(f: Finding) -> str:
    detail = re.sub(r"'[^']*'|\"[^\"]*\"", "'…'", f.detail)
    detail = re.sub(r"\d+", "N", detail)
    detail = re.sub(r"^\S+:N:N: ", "F: ", detail)
    return f"{f.kind} | {f.command} | {detail[:160]}"


# ----------------------------------------------------------------------------- the run
def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--inputs", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--findings", type=Path, default=Path(tempfile.gettempdir()) / "rulecraft-fuzz-findings")
    ap.add_argument("--memory", type=int, default=1500, help="address space of a child, MB")
    ap.add_argument("--cpu", type=int, default=30, help="CPU seconds of a child before SIGXCPU")
    ap.add_argument("--wall", type=float, default=120.0)
    ap.add_argument("--slow", type=float, default=5.0, help="CPU seconds above which a run is a finding")
    ap.add_argument("--memory-growth", type=float, default=400.0, help="MB of peak RSS above the parent's")
    ap.add_argument("--only", choices=["rule", "scenario", "mutants", "log"])
    ap.add_argument("--report", type=Path)
    a = ap.parse_args()

    os.environ.setdefault("XDG_CACHE_HOME", tempfile.mkdtemp(prefix="rulecraft-fuzz-cache-"))
    rng = random.Random(a.seed)
    work = Path(tempfile.mkdtemp(prefix="rulecraft-fuzz-"))
    logs = work / "seed-logs"
    logs.mkdir()
    with contextlib.redirect_stdout(io.StringIO()):
        make_logs(logs)
    seeds = [s for s in corpus(logs) if a.only in (None, s.kind)]
    import rulecraft.cli.main  # noqa: F401 - imported once, before the children fork
    base_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    a.findings.mkdir(parents=True, exist_ok=True)
    groups: dict[str, dict[str, object]] = {}
    kinds: Counter[str] = Counter()
    per_kind: Counter[str] = Counter()
    runs = 0
    started = time.monotonic()
    for k in range(a.inputs):
        kind = a.only or rng.choices(["rule", "scenario", "mutants", "log"], weights=[45, 20, 5, 30])[0]
        seed = rng.choice([s for s in seeds if s.kind == kind])
        text = seed.path.read_text(encoding="utf-8")
        edits = []
        for _ in range(rng.choice([1, 1, 2, 3])):
            text, op = edit(rng, text, seed.kind)
            edits.append(op)
        per_kind[seed.kind] += 1
        case = work / f"case-{k}"
        home = case / "d"
        shutil.copytree(seed.home, home, ignore=shutil.ignore_patterns("*.md"))
        name = seed.path.name
        try:
            (home / name).write_text(text, encoding="utf-8", errors="surrogatepass")
        except UnicodeEncodeError:
            (home / name).write_bytes(text.encode("utf-8", "surrogateescape"))
        for args, stdin in commands(rng, seed, name):
            before = snapshot(home)
            run = run_forked(args, stdin, home, memory_mb=a.memory, cpu_seconds=a.cpu, wall_seconds=a.wall)
            runs += 1
            after = snapshot(home)
            for f in judge(run, args, name, before, after, slow=a.slow, base_mb=base_mb, growth_mb=a.memory_growth):
                kinds[f.kind] += 1
                key = signature(f)
                group = groups.get(key)
                if group is None:
                    keep = a.findings / f"finding-{len(groups) + 1}"
                    shutil.rmtree(keep, ignore_errors=True)
                    shutil.copytree(seed.home, keep / "d", ignore=shutil.ignore_patterns("*.md"))
                    (keep / "d" / name).write_bytes((home / name).read_bytes() if (home / name).exists() else
                                                    text.encode("utf-8", "surrogateescape"))
                    # the edited text as it was before the command ran (fmt may have rewritten it)
                    (keep / "d" / name).write_text(text, encoding="utf-8", errors="surrogateescape")
                    (keep / "command.json").write_text(json.dumps({"args": args, "stdin": stdin, "seed": str(
                        seed.path.relative_to(ROOT)) if seed.path.is_relative_to(ROOT) else seed.path.name,
                        "edits": edits, "detail": f.detail, "cpu": run.cpu}, indent=1), encoding="utf-8")
                    group = groups[key] = {"count": 0, "example": str(keep)}
                    print(f"[{k}] NEW {key}\n    {f.detail[:300]}\n    {keep}", flush=True)
                group["count"] = int(group["count"]) + 1  # type: ignore[call-overload]
        shutil.rmtree(case, ignore_errors=True)
        if k % 50 == 49:
            print(f"... {k + 1} inputs, {runs} runs, {len(groups)} groups, {time.monotonic() - started:.0f} s",
                  flush=True)
    report = {"inputs": a.inputs, "inputs_per_kind": dict(per_kind), "runs": runs, "findings_per_kind": dict(kinds),
              "groups": groups, "seconds": round(time.monotonic() - started)}
    print(json.dumps(report, indent=1))
    if a.report:
        a.report.write_text(json.dumps(report, indent=1), encoding="utf-8")
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
