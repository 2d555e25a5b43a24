"""Screenshots of each bundled game's table and its how-to-play page for docs/web/, at 1366×768 (a laptop).

By hand: ``.venv/bin/python tests/web/screenshots.py docs/web [GAME ...]``. Starts the server and a headless
Chromium as the browser tests do, plays each game through its HTTP API (seat 0 a person, the rest bots)
until a round is under way, and saves seat 0's page as ``GAME.png`` and the how-to-play page as
``GAME-howto.png``. With axe-core (RULECRAFT_AXE names its axe.min.js) it prints beside each image how many
accessibility violations axe-core finds there, by impact. Never run by the tests: only this script writes
into docs/web/.
"""

from __future__ import annotations

import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

import conftest
from tablewalk import HEIGHT, WIDTH, axe_violations, laptop, to_a_play

from rulecraft.rules.registry import list_bundled


def main(out: Path, only: list[str]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    servers = conftest.server.__wrapped__(Path(tempfile.mkdtemp()))  # type: ignore[attr-defined]
    base, app = next(servers)
    browsers = conftest.browser.__wrapped__()  # type: ignore[attr-defined]
    driver = next(browsers)
    for ref in (r for r in list_bundled() if "/" not in r and (not only or r in only)):
        laptop(driver)
        to_a_play(driver, base, app, ref)
        for piece in driver.find_elements("css selector", "#hand .piece.playable")[:1]:
            piece.click()
        path = out / f"{ref}.png"
        driver.save_screenshot(str(path))
        print(path, audit(driver))
        driver.get(f"{base}/howto?ref={ref}")
        height = driver.execute_script("return document.documentElement.scrollHeight")
        laptop(driver, WIDTH, max(height, HEIGHT))
        path = out / f"{ref}-howto.png"
        driver.save_screenshot(str(path))
        print(path, audit(driver))


def audit(driver: Any) -> str:
    """axe-core's violations on the page, counted by impact ("axe: 0 violations"; "axe: 1 moderate (region)")."""
    violations = axe_violations(driver)
    if violations is None:
        return "(no axe-core: RULECRAFT_AXE names its axe.min.js)"
    impacts = Counter(v[1] for v in violations)
    rules = ", ".join(v[0] for v in violations)
    counts = ", ".join(f"{n} {impact}" for impact, n in sorted(impacts.items()))
    return f"axe: {counts} ({rules})" if violations else "axe: 0 violations"


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/web"), sys.argv[2:])
