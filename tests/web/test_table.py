"""The table as players use it, in a real Chromium at a laptop's 1366×768, for every bundled game: the hand
and the trick on screen together without scrolling, a refused move explained beside the action with the
selection kept, no raw structure or internal name on the page, and no serious accessibility violation."""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest
from tablewalk import HEIGHT, axe_violations, laptop, to_a_play
from test_browser import PAGE_WORDS, wait

from rulecraft.errors import IllegalMoveError
from rulecraft.load import load_ruleset
from rulecraft.rules.registry import list_bundled
from rulecraft.wording import placement

pytestmark = pytest.mark.browser

GAMES = [r for r in list_bundled() if "/" not in r]
IN_VIEW = """
const r = document.querySelector(arguments[0]).getBoundingClientRect();
return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight;
"""
SERIOUS = ("serious", "critical")
# Games whose hands never hold five pieces: their refused selection is sought at this many pieces and more.
SMALL_HANDS = {"briscola": 2}   # three cards in hand, drawn back up after each trick


@pytest.fixture(autouse=True)
def _laptop(browser: Any) -> Any:
    laptop(browser)
    yield
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def audit(driver: Any) -> list[Any]:
    violations = axe_violations(driver)
    if violations is None:
        from conftest import REQUIRED

        if REQUIRED:
            pytest.fail("the accessibility audit needs axe-core: RULECRAFT_AXE names its axe.min.js (.ci/run)")
        pytest.skip("no axe-core here (RULECRAFT_AXE names its axe.min.js; .ci/run fetches it)")
    return [v for v in violations if v[1] in SERIOUS]


@pytest.mark.parametrize("ref", GAMES)
def test_the_table_fits_a_laptop_and_says_only_players_words(browser: Any, server: tuple[str, Any], ref: str) -> None:
    base, app = server
    driver = browser
    table = to_a_play(driver, base, app, ref)
    pieces = table.rs.pieces.count > 0  # (Liar's Dice: dice under cups, no pieces in a hand)
    if pieces:
        wait(driver, lambda d: d.find_elements("css selector", "#hand .piece[role=button]"), "seat 0's hand")
    # One screen: the page does not scroll, and the hand and what is played are both in view.
    assert driver.execute_script("return document.documentElement.scrollHeight") <= HEIGHT
    if pieces:
        assert driver.execute_script(IN_VIEW, "#hand"), f"{ref}: the hand is not in view"
        assert driver.execute_script(IN_VIEW, ".centre .trick"), f"{ref}: the round being played is not in view"
    # Pieces no legal move uses are dimmed, and only those.
    legal = table.st.view(0).get("legal", [])  # (none listed: too many to send)
    used = {w for m in legal for w in m.split(" ")[1:]}
    for piece in driver.find_elements("css selector", "#hand .piece[role=button]"):  # (not a dummy's player's own)
        dimmed = "unplayable" in (piece.get_attribute("class") or "")
        assert dimmed == (piece.get_attribute("data-piece") not in used), f"{ref}: {piece.get_attribute('data-piece')}"
    # Words, not structures: no JSON, and no variable by its id where the rule file gives it a label.
    words = driver.execute_script("return document.body.innerText")
    assert not re.search(r"[{}]|\[\d|\"\w+\":", words), f"{ref}: raw structure on the page: {words[:800]}"
    for name, place in placement(table.rs).items():
        if "_" in name and place != "hidden":
            assert name not in words, f"{ref}: the variable id {name} is shown"
    assert not re.search(r"\bchallengeable\b|\bdecided\b", words)
    assert not audit(driver), f"{ref}: {audit(driver)}"


@pytest.mark.parametrize("ref", GAMES)
def test_a_refused_move_is_said_beside_the_action_and_the_selection_kept(
        browser: Any, server: tuple[str, Any], ref: str) -> None:
    base, app = server
    driver = browser
    if load_ruleset(ref).pieces.count == 0:
        pytest.skip(f"{ref}: no pieces to select (its moves are buttons)")
    table = to_a_play(driver, base, app, ref, more_than=SMALL_HANDS.get(ref, 4))
    pieces = wait(driver, lambda d: d.find_elements("css selector", "#hand .piece[role=button]"), "seat 0's hand")
    # A selection these rules refuse: the whole hand (five pieces or more), else one piece or two.
    verb = driver.find_element("css selector", "button.confirm").get_attribute("data-verb")
    claim = f"{driver.find_element('id', 'claim-value').get_attribute('value')}: " if verb == "claim" else ""
    ids = [p.get_attribute("data-piece") for p in pieces]

    def refused(chosen: tuple[int, ...]) -> bool:
        try:
            table.st.clone().apply(f"{verb} {claim}{' '.join(ids[i] for i in chosen)}")
        except IllegalMoveError:
            return True
        return False

    tries = [tuple(range(len(ids))), *((i,) for i in range(len(ids))), *itertools.combinations(range(len(ids)), 2)]
    chosen = next((c for c in tries if refused(c)), None)
    if chosen is None:
        pytest.skip(f"{ref}: every such selection is a legal play here")
    for i in chosen:
        pieces[i].click()
    before = table.version
    confirm = driver.find_element("css selector", "button.confirm:not([disabled])")
    confirm.click()
    message = wait(driver, lambda d: d.find_element("id", "msg").text, "the refusal")
    assert table.version == before  # nothing changed
    assert driver.execute_script(IN_VIEW, "#msg"), f"{ref}: the refusal is out of view"
    assert driver.find_element("css selector", "#action #msg")  # beside the moves
    selected = [p.get_attribute("data-piece") for p in driver.find_elements("css selector", "#hand .piece.selected")]
    assert selected == [ids[i] for i in chosen], f"{ref}: the selection was not kept after '{message}'"


@pytest.mark.parametrize("ref", GAMES)
def test_the_how_to_play_page_passes_the_audit(browser: Any, server: tuple[str, Any], ref: str) -> None:
    base, _ = server
    browser.get(f"{base}/howto?ref={ref}")
    assert "How to play" in browser.execute_script(PAGE_WORDS)
    assert not audit(browser)
