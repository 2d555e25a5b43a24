"""Attacks on a running table from outside (HTTP, forms) that issue 32's findings did not cover, each closed.

Each test is what an attacker did, and fails on the code before its fix: started tables without end
(each idle game set aside on disk, none ever forgotten) until the server's disk and memory ran out.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient
from webtools import ROOK_SEATS, finished, settle

from rulecraft.web.app import make_app
from rulecraft.web.tables import RECORD


@pytest.fixture()
def client(rules_dir: Path) -> TestClient:
    return TestClient(make_app([rules_dir]), follow_redirects=False)


def a_table(client: TestClient) -> int:
    """POST /start for a Rook table two people play (its bots settled): the status."""
    r = client.post("/start", data={"ref": "rook", **ROOK_SEATS, "seat.1": "human"})
    settle(client)
    return r.status_code


# ---------------------------------------------------------------------- exhausting the server
def test_tables_kept_are_bounded_a_finished_one_is_forgotten_first_and_a_game_in_progress_never(
        client: TestClient) -> None:
    tables = client.app.state.tables  # type: ignore[attr-defined]
    tables.max_tables, tables.max_kept = 2, 4
    assert [a_table(client) for _ in range(4)] == [303] * 4  # two in memory, two set aside (a private folder)
    r = client.post("/start", data={"ref": "rook", **ROOK_SEATS, "seat.1": "human"})
    assert r.status_code == 503 and "in progress" in r.text  # a fifth would pass the bound: refused, said so
    assert len(tables.tables()) == 2 and len(set(tables._on_disk.values())) == 2
    assert len(list(tables._spill_dir.iterdir())) == 4  # (a log and a record each: nothing more was written)
    # Every game in progress is still there: none was ended to make room.
    aside = list(dict.fromkeys(tables._on_disk.values()))
    tokens = {record: next(t for t, r in tables._on_disk.items() if r == record) for record in aside}
    # A finished game set aside makes room: it is forgotten, its files in the private folder too.
    done, _ = tables.find(tokens[aside[0]])  # (taken up: another idle game is set aside for it)
    with done.lock:
        done.problem = "stopped"  # (as a game whose rule failed at run time: over)
    assert tables.find(tokens[aside[1]]) is not None  # (the finished one leaves memory first, set aside)
    assert done.record in tables._aside and done.record.exists()
    assert a_table(client) == 303
    assert not done.record.exists() and all(tables.find(t) is None for t in done.all_tokens())
    # A finished game in memory makes room too; the games in progress are all still found.
    in_memory = tables.tables()[-1]
    with in_memory.lock:
        in_memory.problem = "stopped"
    assert a_table(client) == 303 and tables.in_memory(in_memory.host_token) is None
    assert a_table(client) == 503
    assert len(tables.tables()) + len(set(tables._on_disk.values())) == 4


def test_a_closed_table_leaves_nothing_in_the_servers_private_folder(client: TestClient) -> None:
    tables = client.app.state.tables  # type: ignore[attr-defined]
    tables.max_tables = 1
    assert a_table(client) == 303
    for _ in range(6):  # start a table (the last one is set aside on disk for it), close the one set aside: again
        assert a_table(client) == 303
        record = next(iter(tables._on_disk.values()))
        host = json.loads(record.read_text(encoding="utf-8"))["host"]
        assert client.post(f"/host/{host}/close").status_code == 303
        assert client.get(f"/host/{host}").status_code == 404
    # Only the games still kept are in the private folder: a closed one's log went with it (nobody could
    # read it there: the folder is the server's own, removed when it stops).
    kept = set(tables._on_disk.values())
    assert sorted(tables._spill_dir.iterdir()) == sorted([*kept, *(r.with_name(r.name.replace(RECORD, ".jsonl"))
                                                                    for r in kept)])


def test_replays_kept_are_bounded_by_their_moves_not_only_by_their_number(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    # A replay keeps states as its log has moves (a 4 MB log: about 60,000 moves and 100 MB); 32 of them were
    # kept whatever their length: an upload loop held gigabytes. The oldest go while the moves kept pass the bound.
    from rulecraft.load import load_ruleset
    from rulecraft.runs.log import log_lines
    from rulecraft.runs.simulate import play_game
    from rulecraft.web import app as web_app

    rs = load_ruleset("rook")
    st, moves = play_game(rs, 3, ["random"] * 4, max_hands=1)
    log = ("\n".join(log_lines(st, ["random"] * 4)) + "\n").encode()
    monkeypatch.setattr(web_app, "MAX_REPLAY_MOVES", 2 * moves + moves // 2, raising=False)
    pages = []
    for _ in range(3):
        r = finished(client, client.post("/replay", data={"seat": "0"}, files={"log": ("g.jsonl", log, "text/plain")}))
        assert r.status_code == 303, r.text
        pages.append(r.headers["location"])
    assert client.get(pages[0]).status_code == 404  # the oldest was forgotten to keep the moves within the bound
    assert [client.get(p).status_code for p in pages[1:]] == [200, 200]


# ---------------------------------------------------------------------- headers
def test_a_links_cookie_is_marked_secure_when_the_table_is_served_over_https(rules_dir: Path) -> None:
    # Behind an HTTPS proxy (as docs/security.md advises for a network), the cookie that binds a seat to its
    # browser must never travel in the clear: a page the browser is sent to over http would carry it.
    for scheme, secure in (("https", True), ("http", False)):
        client = TestClient(make_app([rules_dir]), base_url=f"{scheme}://testserver", follow_redirects=False)
        r = client.post("/start", data={"ref": "rook", **ROOK_SEATS})  # (one person: bound at the start)
        settle(client)
        cookie = r.headers["set-cookie"].lower()
        assert "httponly" in cookie and "samesite=lax" in cookie
        assert ("; secure" in cookie) is secure, (scheme, cookie)
        r = client.post("/start", data={"ref": "rook", **ROOK_SEATS, "seat.1": "human"})  # (two: taken by a POST)
        settle(client)
        table = list(client.app.state.tables._tables.values())[-1]  # type: ignore[attr-defined]
        taken = client.post(f"/seat/{table.seat_tokens[1]}/take")
        assert ("; secure" in taken.headers["set-cookie"].lower()) is secure, scheme


def test_a_failure_of_the_servers_own_is_a_plain_500_with_every_header_and_no_traceback(
        rules_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Starlette answers an unexpected exception outside every middleware: a 500 without the security headers
    # (nothing forbade caching or framing it), its traceback written by the server for each request.
    app = make_app([rules_dir])

    def broken() -> list[str]:
        raise RuntimeError("a bug with a secret: /home/someone/.config")

    monkeypatch.setattr(app.state.catalog, "bundled", broken)
    client = TestClient(app, follow_redirects=False, raise_server_exceptions=False)
    r = client.get("/")
    assert r.status_code == 500
    assert r.headers["cache-control"] == "no-store" and "frame-ancestors 'none'" in r.headers[
        "content-security-policy"]
    assert "secret" not in r.text and "Traceback" not in r.text and "RuntimeError" not in r.text
    assert client.get("/start", params={"ref": "rook"}).status_code == 200  # (and the server goes on)
