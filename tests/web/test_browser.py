"""A whole hand played through clicks in a real headless Chromium, for one bundled ruleset of each set of
phase kinds (the kinds decide what a page offers: an auction's calls, a nest to give, a claim, dice, a
wall of tiles...); every bundled page's layout and secrecy is checked without clicks by test_table.py and
test_secrecy.py.

Seats 0 and 1 are people, each on their own secret link in its own browser tab; the others are
bots. Every move is made as a person would: select the pieces in the hand, then press the verb's
button (or the move's own button for a bid, a call, a pass ...). After every move, each person's
page is searched for every piece that seat may not see anywhere at that moment (another's hand, a
face-down play, the nest), by its id: none may appear.
"""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest
from webtools import Witness, choose, played_out

from rulecraft.rules.compose import compose
from rulecraft.rules.nested import nested_values
from rulecraft.rules.registry import list_bundled

pytestmark = pytest.mark.browser

BOTS = "first"  # the quickest bot to end a hand: the first legal move
# Options chosen on the start form, to keep the hand short: Doubt's default, one card a play, makes a hand
# of ~100 decisions by the people; up to four a play, the same game in ~30 (its scenarios cover both).
CHOICES = {"doubt": {"per_play": "up-to-four"}}
MOVES_PER_HAND = 400  # a hand that takes more moves than this is a failure, not a slow test
WAIT = 30.0  # seconds a page may take to answer: generous, since a loaded 2-core machine can stall a page for 10
# What a page tells its reader: the text, and every attribute that carries data (names, tooltips, moves,
# values); not the markup itself, whose tag names (h3) could look like a piece id (h3, the three of hearts).
PAGE_WORDS = """
return [document.body.innerText,
        ...[...document.querySelectorAll('*')].flatMap(e => [...e.attributes]
            .filter(a => a.name.startsWith('data-') || ['title', 'value', 'aria-label', 'alt'].includes(a.name))
            .map(a => a.value))].join('\\n');
"""
SYNC = "const done = arguments[arguments.length - 1]; window.rulecraftSync().then(() => done(true));"


def wait(driver: Any, predicate: Any, what: str) -> Any:
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        try:
            found = predicate(driver)
        except Exception:  # the fragment is being replaced under us: look again
            found = None
        if found:
            return found
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}; the page: {driver.page_source[:3000]}")


def start(driver: Any, base: str, ref: str, humans: int, choose_bots: str = BOTS, *, hot: bool = False,
          undo: bool = False) -> None:
    from selenium.webdriver.support.ui import Select

    driver.get(f"{base}/start?ref={ref}")
    for option, choice in CHOICES.get(ref, {}).items():  # each choice asks for the form again
        old = driver.find_element("id", "start")
        Select(driver.find_element("name", f"opt.{option}")).select_by_value(choice)
        wait(driver, lambda d, o=old: stale(o) and d.find_element("id", "start"), "the form with the options")
    seats = driver.find_elements("css selector", "select[name^='seat.']")
    for i, sel in enumerate(seats):
        Select(sel).select_by_value("human" if i < humans else choose_bots)
    driver.find_element("id", "seed").clear()
    driver.find_element("id", "seed").send_keys("1")
    if hot:
        driver.find_element("css selector", "input[name=screens][value=hot]").click()
    if undo:
        driver.find_element("css selector", "input[name=undo]").click()
    driver.find_element("id", "go").click()
    if humans > 1:
        wait(driver, lambda d: "/host/" in d.current_url and d.find_elements("css selector", "a.seat-link, #hot-link"),
             "links")
    else:
        wait(driver, lambda d: "/seat/" in d.current_url and d.find_elements("id", "table"), "the table")


def assert_hides(driver: Any, hidden: set[str], seat: int, ref: str, title: str) -> None:
    page = driver.execute_script(PAGE_WORDS)
    assert f"seat {seat} (you)" in page, f"{ref}: not seat {seat}'s table: {page[:500]}"
    page = page.replace(title, "")  # a title may name a piece ("the 1-5 pair supreme too")
    for type_id in hidden:
        if re.search(rf"(?<![\w-]){re.escape(type_id)}(?![\w-])", page):
            raise AssertionError(f"{ref}: seat {seat}'s page names {type_id}, which seat {seat} cannot see")


def make_move(driver: Any, move: str) -> None:
    """Make ``move`` by clicking: its pieces in the hand, then the verb's button; or the move's own button."""
    from selenium.webdriver.support.ui import Select

    words = move.split(" ")
    verb = words[0]
    if verb in ("play", "down", "give", "claim"):
        pieces = words[2:] if verb == "claim" else words[1:]
        for type_id in pieces:
            driver.find_element("css selector", f"#hand .piece[data-piece='{type_id}']:not(.selected)").click()
        if verb == "claim":
            Select(driver.find_element("id", "claim-value")).select_by_value(words[1].rstrip(":"))
        driver.find_element("css selector", f"button.confirm[data-verb='{verb}']").click()
    else:
        driver.find_element("css selector", f"button.move[data-move='{move}']").click()


def idle(app: Any, table: Any) -> bool:
    """Wait until the bots have answered (they move in the server's threads, woken as a move's request ends)."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        if app.state.bots.settle(WAIT) and table.problem is None and table.session.bot_to_act is None:
            return True
        time.sleep(0.02)
    raise AssertionError(f"the bots did not answer: {table.problem}")


def stale(element: Any) -> bool:
    try:
        element.is_enabled()
        return False
    except Exception:
        return True


def _phase_kinds(data: Any) -> frozenset[str]:
    """Every phase kind a rule file's data names, wherever its phases are (setup, hand, match)."""
    return frozenset(str(p["kind"]) for d in nested_values(data) if isinstance(d, dict)
                     for p in d.get("phases") or () if isinstance(p, dict) and "kind" in p)


FOUNDING = ["rook", "luk-fu", "tien-gow", "yukushi", "doubt"]  # each stands for its kinds when it shares them


def one_per_kinds() -> list[str]:
    """One bundled ruleset of each set of phase kinds: a new game with a new mix of kinds joins."""
    firsts: dict[frozenset[str], str] = {}
    for ref in [*FOUNDING, *(r for r in list_bundled() if r not in FOUNDING)]:
        firsts.setdefault(_phase_kinds(compose(ref).data), ref)
    return list(firsts.values())


@pytest.mark.parametrize("ref", one_per_kinds())
def test_a_whole_hand_through_clicks_and_no_page_shows_what_its_seat_cannot_see(
        browser: Any, server: tuple[str, Any], ref: str) -> None:
    base, app = server
    driver = browser
    start(driver, base, ref, humans=2)
    links = {int(a.get_attribute("data-seat")): a.get_attribute("href")
             for a in driver.find_elements("css selector", "a.seat-link")}
    assert sorted(links) == [0, 1], f"{ref}: the host page should list one link per person, got {links}"
    table, _ = app.state.tables.find(links[0].rsplit("/", 1)[1])
    assert table.agents[2:] == [BOTS] * (len(table.agents) - 2)
    assert driver.current_url.endswith(table.host_token)
    # One window per person, as two people at two browsers; each takes their seat.
    driver.get(links[0])
    driver.find_element("id", "take").click()
    wait(driver, lambda d: d.find_elements("id", "table"), "seat 0's table")
    tabs = {0: driver.current_window_handle}
    driver.switch_to.new_window("window")  # a window: a background tab is slowed
    driver.get(links[1])
    driver.find_element("id", "take").click()
    wait(driver, lambda d: d.find_elements("id", "table"), "seat 1's table")
    tabs[1] = driver.current_window_handle
    witness = Witness(table)
    moves, played = 0, set()
    try:
        while idle(app, table) and not table.st.is_over and not played_out(table):
            seat = table.st.to_act
            assert seat in tabs, f"{ref}: a bot should have answered at once, but seat {seat} is to act"
            if seat != 1:  # seat 1's page after every move; seat 0's at each of its turns
                driver.switch_to.window(tabs[1])
                driver.execute_async_script(SYNC)
                assert_hides(driver, witness.hidden(1), 1, ref, table.rs.title)
            driver.switch_to.window(tabs[seat])
            driver.execute_async_script(SYNC)
            assert_hides(driver, witness.hidden(seat), seat, ref, table.rs.title)
            legal = wait(driver, lambda d: d.find_element("id", "moves").get_attribute("data-legal"), "the moves")
            move = choose(json.loads(legal))
            before = table.version
            status = driver.find_element("css selector", ".status")
            make_move(driver, move)
            wait(driver, lambda d, s=status, b=before: table.version != b and stale(s),
                 f"{ref}: the table after '{move}'")
            error = driver.find_element("id", "msg").text
            assert not error, f"{ref}: '{move}' was refused: {error}"
            moves += 1
            played.add(move.split(" ")[0])
            assert moves < MOVES_PER_HAND, f"{ref}: the hand did not end after {moves} moves by the people"
        # The hand is over: each page shows the next hand (or the result), still hiding the rest.
        assert idle(app, table)
        for seat, tab in tabs.items():
            driver.switch_to.window(tab)
            driver.execute_async_script(SYNC)
            status = driver.find_element("css selector", ".status")
            over = status.get_attribute("data-over") == "1"
            assert over or status.get_attribute("data-hand") == str(table.st.hand_no)
            assert_hides(driver, witness.hidden(seat), seat, ref, table.rs.title)
    finally:
        driver.switch_to.window(tabs[1])
        driver.close()
        driver.switch_to.window(tabs[0])
    assert played_out(table), f"{ref}: no hand was played out"
    assert table.rs.chosen.items() >= CHOICES.get(ref, {}).items(), f"{ref}: the options chosen were not used"
    assert played & {"play", "down", "claim"}, f"{ref}: the people never played a piece: {played}"


def test_a_refused_play_is_shown_in_the_rules_words_and_undo_refused_after_a_reveal(
        browser: Any, server: tuple[str, Any]) -> None:
    """Select two tiles that make no play, confirm: the page shows the engine's own refusal, nothing changes.
    Undo (the table chose it) would take back a play after which the bots' tiles were shown: refused, in words."""
    import itertools

    from rulecraft.errors import IllegalMoveError

    base, app = server
    driver = browser
    start(driver, base, "tien-gow", humans=1, undo=True)
    table, _ = app.state.tables.find(driver.current_url.rsplit("/", 1)[1])
    bad = None
    for _ in range(40):  # play on (through the page) until seat 0 has a pair of tiles that is no play
        # The bots answer in the background: wait until they are done and it is seat 0's turn, then let
        # the page show that state, so no update replaces the hand under the clicks.
        wait(driver, lambda d: idle(app, table) and (table.st.is_over or table.st.to_act == 0), "seat 0's turn")
        driver.execute_async_script(SYNC)
        hand = table.st.view(0)["zones"]["hand[0]"].get("pieces", [])
        legal = table.st.view(0).get("legal", [])
        if any(m.startswith("play ") for m in legal) and any(e.get("seat") not in (0, None) for e in table.st.history
                                                               if e.get("type") == "move" and "play" in e["move"]):
            bad = next((f"play {a} {b}" for a, b in itertools.combinations(hand, 2)
                        if f"play {a} {b}" not in legal and f"play {b} {a}" not in legal), None)
            if bad:
                break
        before = table.version
        status = driver.find_element("css selector", ".status")
        make_move(driver, choose(legal))
        wait(driver, lambda d, s=status, b=before: table.version != b and stale(s), "the table")
    assert bad is not None, "no two tiles that make no play came up"
    with pytest.raises(IllegalMoveError) as refusal:
        table.st.clone().apply(bad)
    history = len(table.st.history)
    make_move(driver, bad)
    message = wait(driver, lambda d: d.find_element("id", "msg").text, "the refusal")
    assert message == str(refusal.value)
    assert len(table.st.history) == history
    # Undo: seat 0 has seen the bots' tiles played since its last play, so the play stands.
    moves = [e for e in table.st.history if e.get("type") == "move"]
    # (the page may replace its fragment between finding the button and clicking it: find it again)
    wait(driver, lambda d: d.find_element("id", "undo").click() or True, "the undo button")
    wait(driver, lambda d: "you were shown" in d.find_element("id", "msg").text, "the refused undo")
    assert [e for e in table.st.history if e.get("type") == "move"] == moves


def test_hot_seat_covers_the_table_between_people(browser: Any, server: tuple[str, Any]) -> None:
    base, app = server
    driver = browser
    start(driver, base, "rook", humans=2, hot=True)
    table, _ = app.state.tables.find(driver.current_url.rsplit("/", 1)[1])
    assert not table.seat_tokens  # a hot-seat table has no link per seat
    driver.find_element("id", "hot-link").click()
    driver.find_element("id", "take").click()
    seats_seen = []
    for _ in range(2):  # each person passes in turn (passing is final): the screen goes from one to the other
        assert idle(app, table)
        seat = table.st.to_act
        text = wait(driver, lambda d: d.find_element("id", "cover").is_displayed()
                    and d.find_element("id", "cover-text").text, "the cover")
        assert text == f"Pass the screen to seat {seat}."
        assert not driver.find_elements("css selector", "#hand .piece")  # nothing shows under the cover
        driver.find_element("id", "reveal").click()
        wait(driver, lambda d: d.find_elements("css selector", "#hand .piece"), "the hand")
        shown = sorted(p.get_attribute("data-piece") for p in driver.find_elements("css selector", "#hand .piece"))
        assert shown == sorted(table.st.view(seat)["zones"][f"hand[{seat}]"]["pieces"])
        seats_seen.append(seat)
        legal = json.loads(driver.find_element("id", "moves").get_attribute("data-legal"))
        before = table.version
        assert legal[0] == "pass"
        make_move(driver, legal[0])
        wait(driver, lambda d, b=before: table.version != b, "the move")
    assert sorted(seats_seen) == [0, 1]
