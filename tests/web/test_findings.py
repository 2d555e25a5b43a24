"""The findings of issue 32 (a table's secrets, its links, its requests), each closed, over HTTP in this process.

Each test is what an attacker or an unlucky player did: a seat working out the deal from the seed, a
host reading hands, a link opened by someone else, another site's page starting games or comparisons,
a move sent twice or failing half-way, an undo after a reveal, a server restarted under its games.
"""

from __future__ import annotations

import json
import re
import stat
from pathlib import Path
from typing import Any

import anyio
import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient
from webtools import ROOK_SEATS, a_bid, opened, play, settle, start, the_table, version

from rulecraft.engine.game import Game
from rulecraft.web.app import make_app
from rulecraft.web.tables import MAX_TABLES, Table

PIECE = re.compile(r'data-piece="([^"]+)"')


@pytest.fixture()
def client(rules_dir: Path) -> TestClient:
    return TestClient(make_app([rules_dir]), follow_redirects=False)


def hand(table: Table, seat: int) -> set[str]:
    return set(table.st.view(seat)["zones"][f"hand[{seat}]"]["pieces"])


# ---------------------------------------------------------------------- the deal
def test_with_several_people_the_seed_typed_does_not_decide_the_deal(client: TestClient) -> None:
    start(client, seed="1", **{"seat.1": "human"})
    table = the_table(client)
    assert table.seed != 1 and table.seed >= 2**128  # (below 2^128: one chance in 2^128)
    assert [e for e in table.st.history if e["type"] == "chance"] != [
        e for e in Game(table.rs, 1).new_state().history if e["type"] == "chance"]
    start(client, seed="1", **{"seat.1": "human"})
    assert the_table(client).seed != table.seed  # the same seed typed twice: two deals
    start(client, seed="")
    assert the_table(client).seed >= 2**128  # no seed typed: secret bits
    start(client, seed="7")
    assert the_table(client).seed == 7  # one person against bots keeps a typed seed: a game to practise


def test_the_start_page_says_how_the_seed_is_used(client: TestClient) -> None:
    page = client.get("/start", params={"ref": "rook"}).text
    assert 'value=""' in page.split('id="seed"')[1].split(">")[0]  # no seed filled in
    assert "mixed with secret bits" in page


# ---------------------------------------------------------------------- one capability per link
def test_the_host_link_shows_no_hand(client: TestClient) -> None:
    r = start(client, **{"seat.1": "human"})
    table = the_table(client)
    host = r.headers["location"].rsplit("/", 1)[1]
    assert host == table.host_token
    hands = hand(table, 0) | hand(table, 1)
    for path in (f"/host/{host}", f"/hot/{host}/table?seat=0", f"/hot/{host}/table?seat=1", f"/hot/{host}",
                 f"/seat/{host}/table", f"/watch/{host}/table"):
        page = client.get(path).text
        assert not set(PIECE.findall(page)) & hands, path


def test_a_seat_link_opens_only_in_the_browser_that_opened_it_first(client: TestClient, rules_dir: Path) -> None:
    start(client, **{"seat.1": "human"})
    table = the_table(client)
    other = TestClient(client.app, follow_redirects=False)  # someone else who saw the link (the host who sent it)
    first = other.get(f"/seat/{table.seat_tokens[0]}")  # a look (a GET, as a link's preview) takes nothing ...
    assert 'id="take"' in first.text and not set(PIECE.findall(first.text)) & hand(table, 0)
    url = opened(client, table, 0)  # ... its player takes the seat
    for path in (url, f"{url}/table", f"{url}/version"):
        r = other.get(path)
        assert r.status_code == 403 and not set(PIECE.findall(r.text)) & hand(table, 0), path
    r = other.post(f"{url}/move", data={"move": a_bid(table), "version": str(table.version)})
    assert r.status_code == 403
    # The host makes the link anew for a player who lost theirs: the old one opens nothing.
    assert client.get(f"/host/{table.host_token}").text.count("not taken yet") == 1
    client.post(f"/host/{table.host_token}/link", data={"seat": "0"})
    assert client.get(url).status_code == 404
    assert other.get(f"/seat/{table.seat_tokens[0]}").status_code == 200


def test_a_spectator_sees_what_every_seat_sees_and_every_hand_after_the_end_only_if_the_table_chose_it(
        client: TestClient) -> None:
    shown = {}
    for reveal in ("", "1"):  # the same game twice (one person keeps the seed typed), chosen without and with
        start(client, ref="doubt", seed="3", reveal=reveal, **{"seat.0": "human", "seat.1": "first",
                                                               "seat.2": "first", "seat.3": "first"})
        table = the_table(client)
        watch = f"/watch/{table.watch_token}"
        assert not set(PIECE.findall(client.get(f"{watch}/table").text)) & hand(table, 0)
        assert client.get(f"{watch}/log").status_code == 404
        url = opened(client, table, 0)
        while not table.st.is_over:
            play(client, url, table.st.view(0)["legal"][0])
        shown[reveal] = PIECE.findall(client.get(f"{watch}/table").text)
        log = client.get(f"{watch}/log")
        if reveal:
            assert log.status_code == 200 and json.loads(log.text.splitlines()[0])["seed"] == table.seed
        else:
            assert log.status_code == 404
    # Claims are made face down: only with the table's choice does the spectator read what was put down.
    assert len(shown["1"]) > len(shown[""])


# ---------------------------------------------------------------------- undo
def yukushi(client: TestClient, **fields: str) -> tuple[Table, str]:
    start(client, ref="yukushi", seed="1", **{"seat.0": "human", "seat.1": "random", "seat.2": "random",
                                              "seat.3": "random"}, **fields)
    table = the_table(client)
    return table, opened(client, table, 0)


def test_undo_is_the_tables_choice(client: TestClient) -> None:
    table, url = yukushi(client)
    play(client, url, table.st.view(0)["legal"][0])
    r = client.post(f"{url}/undo")
    assert r.status_code == 400 and "plays without undo" in r.json()["error"]


def test_undo_cannot_take_back_a_challenge_after_its_card_was_shown_nor_a_move_after_the_end(
        client: TestClient) -> None:
    table, url = yukushi(client, undo="1")
    while "challenge" not in table.st.view(0).get("legal", []):
        play(client, url, table.st.view(0)["legal"][0])
    before = len(table.st.history)
    play(client, url, "challenge")
    assert any(e["type"] == "reveal" for e in table.st.history[before:])
    moved = list(table.st.history)
    r = client.post(f"{url}/undo")
    assert r.status_code == 400 and "you were shown" in r.json()["error"]
    assert list(table.st.history) == moved
    while not table.st.is_over:
        play(client, url, table.st.view(0)["legal"][0])
    r = client.post(f"{url}/undo")
    assert r.status_code == 400 and "the game is over" in r.json()["error"]


# ---------------------------------------------------------------------- requests from other sites
@pytest.mark.parametrize("headers", [
    {"sec-fetch-site": "cross-site"},
    {"sec-fetch-site": "same-site"},
    {"origin": "http://evil.example"},
    {"origin": "null"},
])
def test_another_sites_page_changes_nothing(client: TestClient, headers: dict[str, str]) -> None:
    r = client.post("/start", data={"ref": "rook", **ROOK_SEATS}, headers=headers)
    assert r.status_code == 403 and not client.app.state.tables.tables()  # type: ignore[attr-defined]
    start(client)
    table = the_table(client)
    url = opened(client, table, 0)
    before = list(table.st.history)
    r = client.post(f"{url}/move", data={"move": a_bid(table), "version": str(table.version)}, headers=headers)
    assert r.status_code == 403 and list(table.st.history) == before
    r = client.post("/compare", data={"a.ref": "rook", "b.ref": "rook", "n": "400", "agent": "ismcts"},
                    headers=headers)
    assert r.status_code == 403
    # This server's own pages pass.
    assert client.post("/start", data={"ref": "rook", **ROOK_SEATS},
                       headers={"sec-fetch-site": "same-origin", "origin": "http://testserver"}).status_code == 303


def test_a_comparison_is_never_started_by_a_get(client: TestClient) -> None:
    page = client.get("/compare", params={"a": "1", "a.ref": "rook", "b.ref": "rook", "n": "400",
                                          "agent": "ismcts"}).text
    assert "<svg" not in page and 'method="post"' in page
    assert not client.app.state.jobs._jobs  # type: ignore[attr-defined]


def test_starting_games_never_ends_one_in_progress(client: TestClient) -> None:
    start(client)
    table = the_table(client)
    url = opened(client, table, 0)
    history = list(table.st.history)
    for _ in range(MAX_TABLES):
        assert client.post("/start", data={"ref": "rook", **ROOK_SEATS}).status_code == 303
    settle(client)
    tables = client.app.state.tables  # type: ignore[attr-defined]
    assert table.key not in tables._tables  # the first game, idle, left memory (written down in a private folder)
    again = tables.find(table.seat_tokens[0])[0]
    assert list(again.st.history) == history
    assert play(client, url, a_bid(table)).json()["ok"]  # and its player plays on


def test_with_a_log_dir_an_idle_game_leaves_memory_and_comes_back(rules_dir: Path, tmp_path: Path) -> None:
    app = make_app([rules_dir], log_dir=tmp_path)
    app.state.tables.max_tables = 2  # type: ignore[attr-defined]
    client = TestClient(app, follow_redirects=False)
    start(client)
    first = the_table(client)
    url = opened(client, first, 0)
    start(client)
    start(client)  # the first game, idle, is set aside for this one
    assert first.key not in app.state.tables._tables  # type: ignore[attr-defined]
    assert play(client, url, a_bid(first)).json()["ok"]  # and taken up again when its player moves


# ---------------------------------------------------------------------- moves
def test_a_repeated_or_stale_move_is_refused_and_the_first_one_wins(client: TestClient) -> None:
    table, url = yukushi(client)
    while "accept" not in table.st.view(0).get("legal", []):
        play(client, url, table.st.view(0)["legal"][0])
    at = version(client, url)
    assert play(client, url, "accept", at).json()["ok"]
    assert "accept" in table.st.view(0)["legal"]  # the bots claimed again: 'accept' is a legal move again ...
    before = list(table.st.history)
    r = play(client, url, "accept", at)  # ... but this one answered the claim already accepted
    assert r.status_code == 409 and "moved on" in r.json()["error"]
    assert list(table.st.history) == before
    r = client.post(f"{url}/move", data={"move": "accept"})
    assert r.status_code == 400 and "which state of the table" in r.json()["error"]


def test_a_rule_failing_at_run_time_leaves_the_game_and_its_log_as_they_were(
        rules_dir: Path, tmp_path: Path) -> None:
    broken = rules_dir.parent / "broken"
    broken.mkdir(exist_ok=True)
    (broken / "broken.yaml").write_text(
        "extends: rook\nname: rook-broken-house\nhand:\n  phases:\n    - id: play\n      on_round:\n"
        "        - id: house-bonus\n          when: 'true'\n          set: {bid: 'bid // (bid - bid)'}\n",
        encoding="utf-8")
    logs = tmp_path / "logs"
    logs.mkdir()
    client = TestClient(make_app([broken], log_dir=logs), follow_redirects=False)
    start(client, ref=str(broken / "broken.yaml"), **{"seat.1": "first", "seat.2": "first", "seat.3": "first"})
    table = the_table(client)
    url = opened(client, table, 0)
    (log,) = logs.glob("*.jsonl")
    for _ in range(200):
        history, text, to_act = list(table.st.history), log.read_text(encoding="utf-8"), table.st.to_act
        r = play(client, url, next((m for m in table.st.view(0)["legal"] if m != "pass"), "pass"))
        if r.status_code != 200:
            break
    assert r.status_code == 422, r.text
    error = r.json()["error"]
    assert "the game is as it was before it" in error and "broken.yaml:9:" in error and "ZeroDivisionError" in error
    assert list(table.st.history) == history and table.st.to_act == to_act == 0
    assert log.read_text(encoding="utf-8") == text
    assert client.get(f"{url}/table").status_code == 200


# ---------------------------------------------------------------------- files
def test_logs_are_private_and_a_link_in_the_log_dir_is_not_followed(rules_dir: Path, tmp_path: Path) -> None:
    logs, elsewhere = tmp_path / "logs", tmp_path / "elsewhere"
    logs.mkdir()
    elsewhere.mkdir()
    for name in ("rulecraft-rook-7.jsonl", "rulecraft-rook-7-2.jsonl"):  # where a game of seed 7 was logged
        (logs / name).symlink_to(elsewhere / name)
    client = TestClient(make_app([rules_dir], log_dir=logs), follow_redirects=False)
    start(client)
    assert not list(elsewhere.iterdir())
    written = [p for p in logs.iterdir() if not p.is_symlink()]
    assert written and all(stat.S_IMODE(p.stat().st_mode) == 0o600 for p in written)
    # Someone who may write in the folder puts a link where the game's log is: the next move's log replaces it.
    table = the_table(client)
    log = table.session.log_path
    assert log is not None
    log.unlink()
    log.symlink_to(elsewhere / "captured.jsonl")
    assert play(client, opened(client, table, 0), a_bid(table)).json()["ok"]
    assert not (elsewhere / "captured.jsonl").exists()
    assert not log.is_symlink() and stat.S_IMODE(log.stat().st_mode) == 0o600


def test_a_game_is_taken_up_again_after_a_restart(rules_dir: Path, tmp_path: Path) -> None:
    client = TestClient(make_app([rules_dir], log_dir=tmp_path), follow_redirects=False)
    start(client)
    table = the_table(client)
    url = opened(client, table, 0)
    assert play(client, url, a_bid(table)).json()["ok"]
    history = list(table.st.history)
    restarted = TestClient(make_app([rules_dir], log_dir=tmp_path), follow_redirects=False)
    restarted.cookies = client.cookies  # the same browser
    assert restarted.get(url).status_code == 200
    assert TestClient(restarted.app).get(url).status_code == 403  # still bound to its browser
    again = the_table(restarted)
    assert list(again.st.history) == history and again.seed == table.seed
    legal = again.st.view(0)["legal"]
    assert play(restarted, url, legal[-1]).json()["ok"]


def test_rule_files_only_are_served_and_errors_quote_nothing_else(tmp_path: Path) -> None:
    root = tmp_path / "home"
    (root / ".config").mkdir(parents=True)
    (root / "compose.yaml").write_text("services:\n  db:\n    password: hunter2\n", encoding="utf-8")
    (root / ".config" / "app.yaml").write_text("token: abc\npassword: hunter3\n", encoding="utf-8")
    (root / "house.yaml").write_text("extends: rook\nname: house\n", encoding="utf-8")
    client = TestClient(make_app([root]), follow_redirects=False)
    index = client.get("/").text
    assert "house.yaml" in index and "compose.yaml" not in index and "app.yaml" not in index
    for ref in (root / "compose.yaml", root / ".config" / "app.yaml"):
        for r in (client.get("/explain", params={"ref": str(ref)}), client.get("/start", params={"ref": str(ref)})):
            assert r.status_code == 400
            assert "hunter" not in r.text and "services" not in r.text and "token" not in r.text


# ---------------------------------------------------------------------- what the browser is told
def test_every_page_forbids_inline_script_framing_sniffing_and_the_referrer(client: TestClient) -> None:
    r = start(client, **{"seat.1": "human"})
    table = the_table(client)
    pages = ["/", "/start?ref=rook", r.headers["location"], f"/seat/{table.seat_tokens[0]}",
             f"/watch/{table.watch_token}", "/explain?ref=rook", "/replay", "/compare", "/nope", "/static/table.js"]
    for path in pages:
        r = client.get(path)
        csp = r.headers["content-security-policy"]
        assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp and "unsafe-inline" not in csp.split(
            "script-src")[1].split(";")[0], path
        assert r.headers["x-content-type-options"] == "nosniff" and r.headers["referrer-policy"] == "no-referrer"
        if not path.startswith("/static/"):
            assert inline_script(r.text) == [], path
            assert r.headers["cache-control"] == "no-store"


def inline_script(html: str) -> list[str]:
    """What of a page would run as inline script: a script with no src, a handler attribute, a javascript: URL."""
    from html.parser import HTMLParser

    found: list[str] = []

    class Scripts(HTMLParser):
        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            names = dict(attrs)
            if tag == "script" and not names.get("src"):
                found.append("<script> without src")
            found.extend(f"{tag} {k}=" for k, v in attrs if k.startswith("on")
                         or (v or "").strip().lower().startswith("javascript:"))

    Scripts().feed(html)
    return found


def test_a_body_is_refused_while_it_streams_in_past_its_bound(rules_dir: Path) -> None:
    """A chunked upload with no length: the server stops reading at its bound, not at the end of 64 MB."""
    app = make_app([rules_dir])
    sent = 0
    answer: dict[str, Any] = {}
    chunk = b"x" * 65536
    head = b'--x\r\nContent-Disposition: form-data; name="log"; filename="a.jsonl"\r\n\r\n'

    async def receive() -> dict[str, Any]:
        nonlocal sent
        body = head if sent == 0 else chunk
        sent += len(body)
        return {"type": "http.request", "body": body, "more_body": sent < 64 * 1024 * 1024}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            answer["status"] = message["status"]

    scope = {"type": "http", "method": "POST", "path": "/replay", "raw_path": b"/replay", "query_string": b"",
             "root_path": "", "scheme": "http", "server": ("testserver", 80), "client": ("127.0.0.1", 1),
             "http_version": "1.1", "headers": [(b"host", b"testserver"),
                                                (b"content-type", b"multipart/form-data; boundary=x")]}
    anyio.run(app, scope, receive, send)
    assert answer["status"] == 413
    assert sent <= 5 * 1024 * 1024


# ---------------------------------------------------------------------- long work
def test_a_comparison_is_bounded_in_number_and_time_and_stops_when_its_page_is_closed(client: TestClient) -> None:
    import multiprocessing
    import time

    jobs = client.app.state.jobs  # type: ignore[attr-defined]
    jobs.abandoned, jobs.deadline = 3.0, 6.0
    costly = {"a.ref": "rook", "b.ref": "rook", "n": "400", "agent": "ismcts", "seed": "1"}
    first = client.post("/compare", data=costly)
    second = client.post("/compare", data={**costly, "agent": "random"})
    assert first.status_code == second.status_code == 303
    r = client.post("/compare", data=costly)  # a third at once: refused, not queued without end
    assert r.status_code == 503 and "try again" in r.text
    # The first one's page is never looked at again (its client left): it stops, its games with it.
    # The second one's page keeps asking: it runs until its time is up, then reports the games played.
    # (Its time is the server's 6 s, counted from when its first game is in: on a loaded machine, starting
    # the child process alone can take longer, and a job stopped with no game has no figures to show.)
    kept = jobs.get(second.headers["location"].rsplit("/", 1)[1])
    kept.deadline = 600.0
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not client.get(f"{second.headers['location']}/status").json()["done"]:
        time.sleep(0.5)
    kept.deadline = time.monotonic() - kept.started + 6.0
    while time.monotonic() < deadline and not client.get(f"{second.headers['location']}/status").json()["finished"]:
        time.sleep(0.5)
    left = jobs.get(first.headers["location"].rsplit("/", 1)[1])
    assert left.finished and left.stopped == "its page was closed"
    page = client.get(second.headers["location"]).text
    assert "Stopped after" in page and "the most this server gives one" in page and "<svg" in page
    for _ in range(50):
        if not multiprocessing.active_children():
            break
        time.sleep(0.1)
    assert not multiprocessing.active_children()
