"""Screenshots of each bundled game's table for docs/web/ (by hand: python tests/web/screenshots.py docs/web).

Starts the server and a headless Chromium as the browser tests do, plays each game through its
HTTP API (seat 0 a person, the rest bots) until a round is under way, and saves seat 0's page.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import conftest
from test_browser import choose, start

from rulecraft.rules.registry import list_bundled

PLAIN = {"play", "down", "claim"}


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    servers = conftest.server.__wrapped__(Path(tempfile.mkdtemp()))  # type: ignore[attr-defined]
    base, app = next(servers)
    browsers = conftest.browser.__wrapped__()  # type: ignore[attr-defined]
    driver = next(browsers)
    for ref in (r for r in list_bundled() if "/" not in r):
        start(driver, base, ref, humans=1, choose_bots="random")
        table = app.state.tables.find(driver.current_url.rsplit("/", 1)[1])[0]
        # Play on until seat 0 is to act with a round under way (pieces on the table) and a piece to play.
        for _ in range(2000):
            st = table.st
            legal = st.view(0).get("legal", [])
            if not legal:  # the bots are moving (in the server's pool): wait for seat 0's turn
                time.sleep(0.05)
                continue
            plays = [m for m in legal if m.split(" ")[0] in PLAIN]
            if plays and any(e.get("type") == "move" and str(e.get("move", "")).split(" ")[0] in PLAIN
                             for e in st.history[-3:]):
                break
            table.play(0, choose(legal), table.version)
        driver.get(driver.current_url)
        for piece in driver.find_elements("css selector", "#hand .piece.playable")[:1]:
            piece.click()
        height = driver.execute_script("return document.body.scrollHeight")
        driver.set_window_size(1200, min(max(height + 40, 900), 2400))
        path = out / f"{ref}.png"
        driver.save_screenshot(str(path))
        print(path)


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/web"))
