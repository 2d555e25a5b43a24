"""``rulecraft serve`` as a command: its help imports no web library, bad arguments are usage errors."""

from __future__ import annotations

import subprocess
import sys


def run(*args: str, prelude: str = "") -> subprocess.CompletedProcess[str]:
    code = (f"import sys\n{prelude}\nsys.argv = ['rulecraft', *{list(args)!r}]\n"
            "from rulecraft.cli.main import main\nmain()\n")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)


def test_help_says_what_serve_does_and_imports_no_web_library() -> None:
    code = ("import sys; sys.argv = ['rulecraft', 'serve', '--help']\n"
            "from rulecraft.cli.main import cli\n"
            "try:\n    cli()\nexcept SystemExit:\n    pass\n"
            "print([m for m in sys.modules if m.split('.')[0] in ('starlette', 'uvicorn', 'jinja2')])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "one secret link per seat" in " ".join(out.split()) and "127.0.0.1" in out
    assert out.strip().endswith("[]"), out


def test_a_bad_host_or_folder_is_a_usage_error() -> None:
    r = run("serve", "--host", "every-where")
    assert r.returncode == 2 and "--host 'every-where': give an IP address" in r.stderr + r.stdout
    r = run("serve", "--rules-dir", "/no/such/folder")
    assert r.returncode == 2 and "--rules-dir /no/such/folder: no such folder" in r.stderr + r.stdout


def test_without_the_web_extra_serve_says_how_to_install_it() -> None:
    r = run("serve", prelude="sys.modules['starlette'] = None  # as if not installed")
    assert r.returncode == 2, r.stderr
    assert "pip install 'rulecraft[web]'" in r.stderr + r.stdout and "Traceback" not in r.stderr
