"""The web app in this process: a Starlette test client, or a real uvicorn server on a free port
for the browser tests (which then look inside the server's games to know what each seat may see)."""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
# CI installs Debian's chromium and chromium-driver (.ci/run) and sets this, so there a browser test never skips.
REQUIRED = os.environ.get("RULECRAFT_BROWSER_TESTS") == "required"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--window-size=1200,1600"]


@pytest.fixture(scope="session")
def rules_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An allowed folder holding one local overlay, beside a secret the server must never read."""
    root = tmp_path_factory.mktemp("web")
    allowed = root / "allowed"
    allowed.mkdir()
    (root / "secret.yaml").write_text("name: TOP-SECRET-CONTENT\n", encoding="utf-8")
    (allowed / "house.yaml").write_text(
        "extends: rook\nname: rook-house\nsource: our kitchen table\nconstants:\n  target: 500\n", encoding="utf-8")
    (allowed / "escape.yaml").write_text("extends: ../secret.yaml\nname: escape\n", encoding="utf-8")
    (allowed / "link.yaml").symlink_to(root / "secret.yaml")
    return allowed


@pytest.fixture(scope="session")
def server(rules_dir: Path) -> Iterator[tuple[str, Any]]:
    """(base URL, app) of a real server on 127.0.0.1 and a free port, for the session."""
    pytest.importorskip("uvicorn")
    import uvicorn

    from rulecraft.web.app import make_app

    app = make_app([rules_dir], allowed_hosts=["127.0.0.1", "localhost"])  # as rulecraft serve does
    config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", lifespan="off")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not (srv.started and srv.servers) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert srv.started, "the server did not start"
    port = srv.servers[0].sockets[0].getsockname()[1]
    yield f"http://127.0.0.1:{port}", app
    srv.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """A real headless Chromium from the system's packages; nothing is downloaded."""
    if not (os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)):
        if REQUIRED:
            pytest.fail(f"the browser tests need {CHROMIUM} and {CHROMEDRIVER} (apt-get install chromium "
                        "chromium-driver)")
        pytest.skip(f"no {CHROMIUM} / {CHROMEDRIVER} here (apt-get install chromium chromium-driver)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="rulecraft-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in [*FLAGS, f"--user-data-dir={profile}"]:
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.implicitly_wait(0)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
