"""Bring a browser table to the moment a player looks at most: a round under way, their turn, a piece to play.
Shared by the table's browser tests and the screenshot script (docs/web/)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from test_browser import start
from webtools import choose

PLAIN = {"play", "down", "claim"}
AXE_RUN = """
const done = arguments[arguments.length - 1];
axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'best-practice']}})
   .then(r => done(r.violations.map(v => [v.id, v.impact, v.help,
                                          v.nodes.slice(0, 3).map(n => n.target.join(' ') + ': ' +
                                                                  (n.failureSummary || '').slice(0, 200))])));
"""
WIDTH, HEIGHT = 1366, 768  # a laptop's screen: the table must fit it whole


def laptop(driver: Any, width: int = WIDTH, height: int = HEIGHT) -> None:
    """The page's viewport exactly width × height (a window's size would include the browser's frame)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})


def to_a_play(driver: Any, base: str, app: Any, ref: str, more_than: int = 0) -> Any:
    """Start ``ref`` with seat 0 a person against random bots, play on (through the table, for seat 0) until
    seat 0 is to act with pieces on the table, a piece to play and more than ``more_than`` pieces in hand;
    open its page. The table is returned."""
    start(driver, base, ref, humans=1, choose_bots="random")
    table = app.state.tables.find(driver.current_url.rsplit("/", 1)[1])[0]
    for _ in range(400):
        app.state.bots.settle(60)
        st = table.st
        if st.is_over or st.to_act != 0:
            continue
        legal = st.view(0).get("legal", [])
        plays = [m for m in legal if m.split(" ")[0] in PLAIN]
        held = st.view(0)["zones"]["hand[0]"]["count"]
        if plays and held > more_than and any(e.get("type") == "move" and str(e.get("move", "")).split(" ")[0]
                                              in PLAIN for e in st.history[-3:]):
            break
        table.play(0, choose(legal), table.version)
        app.state.bots.answer(table)
    app.state.bots.settle(60)
    driver.get(driver.current_url)
    return table


def axe_source() -> str | None:
    """axe-core's script, from the file RULECRAFT_AXE names (.ci/run fetches it from the npm registry)."""
    path = os.environ.get("RULECRAFT_AXE")
    return Path(path).read_text(encoding="utf-8") if path and Path(path).is_file() else None


def axe_violations(driver: Any) -> list[Any] | None:
    """axe-core's violations on the page (id, impact, help, a few nodes), or None without axe-core here."""
    source = axe_source()
    if source is None:
        return None
    driver.execute_script(source)
    return list(driver.execute_async_script(AXE_RUN))
