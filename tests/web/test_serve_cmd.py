"""``rulecraft serve`` as a command: its help imports no web library, bad arguments are usage errors."""

from __future__ import annotations

import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path


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


def test_port_0_prints_the_port_it_listens_on_and_a_port_in_use_is_a_usage_error(tmp_path: Path) -> None:
    proc = subprocess.Popen([sys.executable, "-m", "rulecraft.cli.main", "serve", "--port", "0", "--no-local"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        found = re.match(r"rulecraft table at http://127\.0\.0\.1:(\d+)/", line)
        assert found and found.group(1) != "0", line
        port = found.group(1)
        page = _get(f"http://127.0.0.1:{port}/")
        assert "rulecraft" in page
        r = run("serve", "--port", port, "--no-local")  # the same port, taken
        assert r.returncode == 2
        assert r.stderr.startswith(f"error: cannot listen on 127.0.0.1 port {port}: "), r.stderr
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def _get(url: str) -> str:
    for _ in range(100):  # the server starts serving just after it prints its address
        try:
            opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
            with opener.open(url, timeout=5) as response:
                return str(response.read().decode("utf-8"))
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"nothing answers at {url}")
