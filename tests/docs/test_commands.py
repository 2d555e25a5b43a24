"""Every command the README and docs/*.md show, run as a reader runs it: from a new directory outside the
checkout, with the installed ``rulecraft``, in the order the page gives them (a file one command writes is
there for the next), each checked for its exit status and for the output the page shows.

``doc_commands`` reads the commands out of the pages, so a command added to a page is run here with no
change to this file. Most run exactly as written. ``WAYS`` says, for the others, how they are run and
why: a long run shortened (``-n 300`` → ``-n 2``: the same command on fewer games), a server asked for
its page then stopped, an interactive game given its input, a command checked by another test. A page's
comment that promises output (``# "ok: 1 file valid"``) is checked through ``shows``: the text must be on
the page and in what the command printed. Synopses in the prose (``rulecraft validate PATH...``) are
checked for their command and options; an entry of ``WAYS`` that no page shows any more is an error.
"""

from __future__ import annotations

import inspect
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import time
import tomllib
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from doc_commands import ROOT, DocCommand, pages, read_page

BIN = Path(sys.executable).parent
TIMEOUT = 900  # seconds a command may take (the machine may be loaded; the runs here are short)


@dataclass
class Ran:
    command: str  # as run
    code: int
    out: str  # standard output, then standard error
    work: Path


@dataclass(frozen=True)
class Way:
    """How one documented command is run, when not exactly as written, and what more is checked."""

    why: str = ""  # why it is run otherwise than as written
    replace: tuple[tuple[str, str], ...] = ()  # (as written, as run)
    stdin: str = ""
    code: int = 0
    shows: tuple[str, ...] = ()  # text the page shows as its output: on the page and in the output
    check: Callable[[Ran], str | None] | None = None  # a problem found in the run, or None
    run: Callable[[str, Path], Ran] | None = None  # run it another way (a server, a cluster)
    setup: Callable[[Path], None] | None = None  # prepare the directory first
    elsewhere: str = ""  # the test of this module that checks it instead
    words: tuple[str, ...] = field(default=())


# ---------------------------------------------------------------------- running
def environment() -> dict[str, str]:
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}", "COLUMNS": "100",
           "PYTHONIOENCODING": "utf-8"}
    env.pop("RULECRAFT_TRACEBACK", None)
    return env


def as_run(text: str) -> str:
    """The command as the shell here runs it: ``.venv/bin/X`` is the test environment's, and a script of the
    checkout (``python benchmarks/x.py``, ``tests/...``) is named by its path in the checkout."""
    words = shlex.split(text, posix=True)
    out = []
    for i, w in enumerate(words):
        if w.startswith(".venv/bin/"):
            w = str(BIN / w.removeprefix(".venv/bin/"))
        elif (i == 0 or words[i - 1].endswith(("python", "python3"))) and w.endswith(".py") and (ROOT / w).is_file():
            w = str(ROOT / w)
            if i == 0:
                out.append(sys.executable)
        out.append(w)
    return " ".join(w if w in ("|", "&&", "||", ";") else shlex.quote(w) for w in out)


def shell(command: str, work: Path, stdin: str = "") -> Ran:
    p = subprocess.run(["bash", "-c", command], cwd=work, env=environment(), input=stdin, capture_output=True,
                       text=True, timeout=TIMEOUT)
    return Ran(command, p.returncode, p.stdout + p.stderr, work)


# ---------------------------------------------------------------------- the other ways
def serve(command: str, work: Path) -> Ran:
    """A server: started on a free port, asked for its first page, stopped with Ctrl-C."""
    args = [*shlex.split(command), "--port", "0"]
    p = subprocess.Popen(args, cwd=work, env=environment(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         text=True, start_new_session=True)
    try:
        assert p.stdout is not None
        first = p.stdout.readline()
        m = re.search(r"http://\S+/", first)
        if not m:
            return Ran(command, p.wait(timeout=TIMEOUT) or 1, first + p.stdout.read(), work)
        page = ""
        for _ in range(100):  # (uvicorn may take a moment to answer)
            try:
                with urllib.request.urlopen(m.group(0), timeout=30) as reply:
                    page = reply.read().decode("utf-8")
                break
            except OSError:
                time.sleep(0.2)
        os.killpg(p.pid, signal.SIGINT)
        code = p.wait(timeout=60)
        return Ran(command, 0 if page and code in (0, -signal.SIGINT, 130) else code or 1, first + page, work)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()


def dask_cluster(command: str, work: Path) -> Ran:
    """``--dask ADDRESS``: the same command against a one-worker cluster started here, on fewer games."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, protocol="tcp",
                                  dashboard_address=None) as cluster:
        command = re.sub(r"--dask \S+", f"--dask {cluster.scheduler_address}", command)
        return shell(command, work)


def pip_install(command: str, work: Path) -> Ran:
    """Not run (it would install into this environment): it must install from the checkout an extra it has."""
    m = re.fullmatch(r"(?:\S*/)?pip install '(\.)?(?:\[(\w+)\])?'|(?:\S*/)?pip install \.", command)
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    if m is None or (m.group(1) is None and "[" in command):
        return Ran(command, 1, "rulecraft is not on the package index: install from the checkout "
                               "('.venv/bin/pip install .', or '.[EXTRA]')", work)
    if m.group(2) is not None and m.group(2) not in extras:
        return Ran(command, 1, f"pyproject.toml has no extra '{m.group(2)}': {', '.join(extras)}", work)
    return Ran(command, 0, "", work)


def browser_marker(command: str, work: Path) -> Ran:
    """``pytest -m browser``: the suite runs those tests; the marker must be declared and used."""
    declared = any(m.startswith("browser:") for m in
                   tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]["markers"])
    used = any("pytest.mark.browser" in p.read_text() for p in (ROOT / "tests").rglob("test_*.py"))
    return Ran(command, 0 if declared and used else 1, "" if declared and used else "no 'browser' marker", work)


def house_rules(work: Path) -> None:
    (work / "house-rules").mkdir(exist_ok=True)
    (work / "house-rules" / "house.yaml").write_text((work / "house.yaml").read_text())


def same_with_one_worker(ran: Ran) -> str | None:
    """``--workers`` changes nothing but the time: the run again with one worker gives the same figures."""
    again = shell(ran.command.replace("--workers 2", "--workers 1"), ran.work)

    def figures(out: str) -> object:
        data = json.loads(out)
        return {k: v for k, v in data.items() if "second" not in k}

    return None if figures(again.out) == figures(ran.out) else "the figures differ with --workers 1"


def png_written(name: str) -> Callable[[Ran], str | None]:
    def check(ran: Ran) -> str | None:
        path = ran.work / name
        return None if path.is_file() and path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" else f"no PNG at {name}"
    return check


def names_beside_ids(ran: Ran) -> str | None:
    return None if re.search(r"[\u4e00-\u9fff]+ \(\d-\d\)", ran.out) else "no tile named beside its id (天 (6-6))"


FEWER = "the same command on fewer games (the figures are not shown; the count only makes it longer)"
WAYS: dict[str, Way] = {
    # README.md
    "python3 -m venv .venv && .venv/bin/pip install . && .venv/bin/rulecraft simulate rook -n 200 --seed 1":
        Way(elsewhere="test_the_main_job_as_written"),
    "python3 -m venv .venv && .venv/bin/pip install '.[test]' && .venv/bin/python -m pytest":
        Way(elsewhere="test_the_test_command_is_what_ci_runs"),
    ".venv/bin/python tests/fuzz/run_long.py --inputs 1000000":
        Way(why="the long run by hand takes hours: 40 inputs", replace=(("--inputs 1000000", "--inputs 40"),)),
    "rulecraft validate --simulate 20 variants/ --workers 2":
        Way(why="one game per configuration, and no wall-clock bound: the bound is 30 s, which a long random game "
                "of Doubt with two packs passes on a loaded machine",
            replace=(("--simulate 20", "--simulate 1 --time-limit 3600"),), words=("configurations checked",)),
    "rulecraft simulate rook -n 1000 --seed 1 --format json --workers 2":
        Way(why=FEWER, replace=(("-n 1000", "-n 8"),), check=same_with_one_worker),
    "rulecraft simulate luk-fu -n 100 --agents mc,default,default": Way(why=FEWER, replace=(("-n 100", "-n 1"),)),
    "rulecraft compare luk-fu luk-fu -a old_cards=known-to-leader -b old_cards=public-plus-original-run "
    "-n 300 --plot oldcards.png": Way(why=FEWER, replace=(("-n 300", "-n 6"),), check=png_written("oldcards.png")),
    "rulecraft compare rook rook -b nest_to=bidder --agents mc:10 --hands 1 -n 300 --workers 2":
        Way(why=FEWER, replace=(("-n 300", "-n 2"),)),
    "rulecraft compare doubt doubt -b per_play=up-to-four --agents mc:10 --moves 400 -n 300 --workers 2":
        Way(why=FEWER, replace=(("-n 300", "-n 2"),)),
    "rulecraft simulate tien-gow -n 10000 --dask tcp://scheduler:8786":
        Way(why="a cluster started here, and fewer games", replace=(("-n 10000", "-n 8"),), run=dask_cluster),
    "rulecraft test --mutate tests/scenarios/rook --workers 2":
        Way(why="a sample of the mutants (the page shows no figure; the whole run is a minute of two cores)",
            replace=(("--workers 2", "--workers 2 --max-mutants 30"),), words=("kill rate",)),
    "rulecraft play rook --seed 7": Way(stdin="?\ntable\nhelp\nquit\n",
                                        words=("legal moves (", "=== Rook", "? or moves", "show the whole table",
                                               "game saved to rulecraft-rook-7.jsonl")),
    "rulecraft play rook --seats human,human,random,random": Way(stdin="\nquit\n", words=("Pass the terminal",)),
    "rulecraft play --resume rulecraft-rook-7.jsonl": Way(stdin="quit\n", words=("resumed rulecraft-rook-7.jsonl",)),
    "rulecraft replay rulecraft-rook-7.jsonl --seat 0": Way(words=("move 1/",)),
    # (the deal is secret: the person may be asked first to name how the tiles are picked up, before any tile
    # is in their hand; a pick-up named where a tile is to be played is refused, and the game goes on)
    "rulecraft play tien-gow --lang zh": Way(stdin="name two-columns\nquit\n", check=names_beside_ids),
    ".venv/bin/pip install '.[web]'": Way(run=pip_install),
    "rulecraft serve": Way(why="on a free port (8000 may be taken), its page asked for, then Ctrl-C",
                           run=serve, shows=("http://127.0.0.1",)),
    "rulecraft serve --rules-dir house-rules --log-dir games":
        Way(why="on a free port, with the house rule of the section below in house-rules/", run=serve,
            setup=house_rules, words=("house",)),
    "pytest -m browser": Way(run=browser_marker),
    "python tests/docs/regenerate.py": Way(why="--check: the same figures, compared and written nowhere (a test "
                                               "must not change the checkout)",
                                           replace=(("regenerate.py", "regenerate.py --check"),)),
    "rulecraft validate house.yaml": Way(shows=("ok: 1 file valid",)),
    "rulecraft explain house.yaml --rule constants": Way(shows=("constants.target = 500  house.yaml:6:11  overlay "
                                                                "house.yaml",)),
    "rulecraft explain house.yaml | head -4": Way(shows=("first_lead=left-of-dealer (overridden)",)),
    "python benchmarks/bench_author_loop.py": Way(why="one round", replace=(("bench_author_loop.py",
                                                                              "bench_author_loop.py --rounds 1"),)),
    "python benchmarks/bench_playouts.py":
        Way(why="one short slice of one ruleset", replace=(("bench_playouts.py", "bench_playouts.py --seconds 0.3 "
                                                              "--slices 1 --ruleset rook"),)),
    "python benchmarks/bench_expressions.py":
        Way(why="fewer evaluations", replace=(("bench_expressions.py", "bench_expressions.py --number 2000 "
                                                                       "--repeat 1"),)),
    ".venv/bin/pip install '.[rl]'": Way(run=pip_install),
    # docs/expressions.md: the error shown is an error
    "rulecraft eval \"max(0, trick - 5)\" --set tricks=11": Way(code=1),
    # docs/rule-dsl.md
    "rulecraft simulate doubt.rules -n 100": Way(why=FEWER, replace=(("-n 100", "-n 5"),)),
    "pygmentize -l rules FILE.rules": Way(why="on the file convert wrote above", replace=(("FILE.rules",
                                                                                           "doubt.rules"),)),
    "python benchmarks/rules_sizes.py --write": Way(why="--write would rewrite the checkout's docs/rule-dsl.md; "
                                                        "tests/docs/test_figures.py checks the table",
                                                    replace=((" --write", ""),)),
    # docs/tutorial-new-game.md
    "rulecraft test --mutate tests/scenarios/hearts --workers 2": Way(shows=("kill rate 100.0%",)),
    "rulecraft simulate hearts -n 100": Way(why=FEWER, replace=(("-n 100", "-n 3"),)),
}


# ---------------------------------------------------------------------- one page
def run_command(cmd: DocCommand, work: Path, page_text: str) -> str | None:
    """Run one documented command; a problem, or None."""
    way = WAYS.get(cmd.text, Way())
    if way.elsewhere:
        return None
    for text in way.shows:
        if text not in cmd.comment and text not in page_text:
            return f"the page no longer shows {text!r} (WAYS in {Path(__file__).name} says it does)"
    command = cmd.text
    for old, new in way.replace:
        if old not in command:
            return f"WAYS replaces {old!r}, which the command no longer holds"
        command = command.replace(old, new)
    if way.setup is not None:
        way.setup(work)
    ran = way.run(command, work) if way.run is not None else shell(as_run(command), work, way.stdin)
    if ran.code != way.code:
        return f"exit status {ran.code}, not {way.code}:\n{ran.out[-3000:]}"
    if "Traceback (most recent call last)" in ran.out:
        return f"a traceback:\n{ran.out[-3000:]}"
    if cmd.output and ran.out.splitlines() != list(cmd.output):
        return "printed:\n" + ran.out + "\nbut the page shows:\n" + "\n".join(cmd.output)
    for text in (*way.shows, *way.words):
        if text not in ran.out and " ".join(text.split()) not in " ".join(ran.out.split()):  # (a comment joins lines)
            return f"{text!r} is not in what it printed:\n{ran.out[-3000:]}"
    return way.check(ran) if way.check is not None else None


_HELP: dict[str, str] = {}


def check_synopsis(cmd: DocCommand) -> str | None:
    """A form with placeholders: its command exists and takes every option it names."""
    words = cmd.text.replace("[", " ").replace("]", " ").split()
    if words[0] != "rulecraft":
        script = ROOT / words[0] if (ROOT / words[0]).is_file() else None
        head = [sys.executable, str(script)] if script else [str(BIN / words[0])]
    else:
        head = [str(BIN / "rulecraft"), words[1]]
    key = " ".join(head)
    if key not in _HELP:
        p = subprocess.run([*head, "--help"], capture_output=True, text=True, env=environment(), timeout=TIMEOUT)
        _HELP[key] = p.stdout if p.returncode == 0 else ""
    helptext = _HELP[key]
    if not helptext:
        return f"'{key} --help' fails: no such command"
    for w in words:
        for option in re.findall(r"^-{1,2}[a-z][\w-]*", w):
            if not re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", helptext):
                return f"'{key}' takes no option {option}"
        if "|" in w:
            missing = [alt for alt in w.split("|") if alt not in helptext]
            if missing:
                return f"'{key}' offers no {', '.join(missing)}"
    return None


@pytest.mark.parametrize("page", pages())
def test_every_command_of_the_page_runs_as_shown(page: str, tmp_path: Path) -> None:
    doc = read_page(page)
    if not doc.commands:
        pytest.skip(f"{page} shows no command")
    work = tmp_path / "work"
    work.mkdir()
    for name, text in doc.files.items():  # "Create `house.yaml`:" — the reader writes it
        (work / name).write_text(text, encoding="utf-8")
    text = (ROOT / page).read_text(encoding="utf-8")
    problems = []
    for cmd in doc.commands:
        if cmd.synopsis and not WAYS.get(cmd.text, Way()).replace:  # (a way may fill in a synopsis's placeholder)
            problem = check_synopsis(cmd)
        else:
            problem = run_command(cmd, work, text)
        if problem:
            problems.append(f"{cmd.where}: {cmd.text}\n  {problem}")
    assert not problems, "\n\n".join(problems)


def test_every_way_is_of_a_command_a_page_shows() -> None:
    shown = {c.text for p in pages() for c in read_page(p).commands}
    stale = sorted(set(WAYS) - shown)
    assert not stale, f"WAYS names commands no page shows any more: {stale}"
    tests = {name for name, _ in inspect.getmembers(sys.modules[__name__], inspect.isfunction)}
    assert all(w.elsewhere in tests for w in WAYS.values() if w.elsewhere)


# ---------------------------------------------------------------------- the README's two commands
def test_the_test_command_is_what_ci_runs() -> None:
    # The README's test command is .ci/run's last line, exactly; CI runs it (it cannot run inside itself).
    readme = read_page("README.md")
    command = next(c.text for c in readme.commands if c.text.endswith("-m pytest"))
    lines = [line for line in (ROOT / ".ci" / "run").read_text().splitlines() if line.strip()]
    assert lines[-1] == command


def checkout_copy(dest: Path) -> None:
    """The checkout's files as a new clone has them (tracked, or new and not ignored), without its .venv."""
    listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"], cwd=ROOT,
                            capture_output=True, check=False)
    if listed.returncode == 0:
        for rel in filter(None, listed.stdout.decode().split("\0")):
            src = ROOT / rel
            if src.is_file():
                (dest / rel).parent.mkdir(parents=True, exist_ok=True)
                (dest / rel).write_bytes(src.read_bytes())
        return
    import shutil  # (no git: a source archive) everything but what a build leaves

    shutil.copytree(ROOT, dest, dirs_exist_ok=True, ignore=shutil.ignore_patterns(
        ".venv", ".git", "__pycache__", "*.egg-info", ".pytest_cache", "build", "dist"))


def test_the_main_job_as_written(tmp_path: Path) -> None:
    # In a copy of the checkout, exactly the README's command: a new virtual environment, the package
    # installed from the copy (not in editable mode), the bundled files from the installed package.
    readme = read_page("README.md")
    cmd = next(c for c in readme.commands if c.text.startswith("python3 -m venv .venv && .venv/bin/pip install . &&"))
    checkout_copy(tmp_path)
    env = {k: v for k, v in environment().items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    env["PATH"] = os.environ.get("PATH", "").replace(f"{BIN}{os.pathsep}", "")
    p = subprocess.run(["bash", "-c", cmd.text], cwd=tmp_path, env=env, capture_output=True, text=True,
                       timeout=3 * TIMEOUT)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    block = next(lines for line, language, lines in readme.blocks if line > cmd.line and language == "")
    shown, timing = block[:-1], re.compile(r"  [\d.]+ s, [\d,]+ moves/s")
    assert timing.fullmatch(block[-1]), "README.md: the main job's output ends with its timing line"
    printed = p.stdout.splitlines()  # (after pip's own lines)
    start = printed.index(shown[0]) if shown[0] in printed else 0
    assert printed[start:start + len(shown)] == shown, "README.md's main job printed:\n" + "\n".join(printed[start:])
    assert timing.fullmatch(printed[start + len(shown)]), printed[start + len(shown):]
