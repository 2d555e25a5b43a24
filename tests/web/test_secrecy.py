"""From one seat's pages, no other seat's hidden piece: a whole hand of every bundled ruleset over HTTP.

Seats 0 and 1 are people, each on their own link in their own client (as two browsers); the others
are bots. After every move, each person's table (and a spectator's) is read as a browser shows it (its
text and every attribute that carries data) and searched for every piece that reader may not see
anywhere at that moment (another's hand, a face-down play, the nest), by its id: none may appear.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient
from webtools import Witness, opened, played_out, settle

from rulecraft.rules.registry import list_bundled
from rulecraft.web.app import make_app

BOTS = "first"
CHOICES = {"doubt": {"per_play": "up-to-four"}}  # (as the browser test: a shorter hand)
MOVES = 400
DATA = ("title", "value", "aria-label", "alt")


class Words(HTMLParser):
    """A page's text and the values of its attributes that carry data (not its tag names)."""

    def __init__(self) -> None:
        super().__init__()
        self.words: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.words.extend(v for k, v in attrs if v and (k.startswith("data-") or k in DATA))

    def handle_data(self, data: str) -> None:
        self.words.append(data)


def words(html: str) -> str:
    parser = Words()
    parser.feed(html)
    return "\n".join(parser.words)


def named(page: str, hidden: set[str], title: str) -> list[str]:
    text = words(page).replace(title, "")  # a title may name a piece ("the 1-5 pair supreme too")
    return sorted(t for t in hidden if re.search(rf"(?<![\w-]){re.escape(t)}(?![\w-])", text))


def choose(legal: list[str]) -> str:
    moves = [m for m in legal if m != "pass"] or legal
    return max(moves, key=lambda m: (len(m.split(" ")), -moves.index(m)))


@pytest.mark.parametrize("ref", list_bundled())
def test_no_page_of_a_seat_or_a_spectator_names_a_piece_it_cannot_see(rules_dir: Path, ref: str) -> None:
    app = make_app([rules_dir])
    host = TestClient(app, follow_redirects=False)
    options = {f"opt.{k}": v for k, v in CHOICES.get(ref, {}).items()}
    form = host.get("/start", params={"ref": ref, **options}).text
    seats = len(re.findall(r'name="seat\.\d+"', form))
    r = host.post("/start", data={"ref": ref, **options, "seat.0": "human", "seat.1": "human",
                                  **{f"seat.{s}": BOTS for s in range(2, seats)}})
    assert r.status_code == 303, r.text
    settle(host)
    table = list(app.state.tables._tables.values())[-1]
    people = {s: TestClient(app, follow_redirects=False) for s in (0, 1)}
    links = {s: opened(client, table, s) for s, client in people.items()}
    for s, client in people.items():
        assert named(client.get(links[s]).text, Witness(table).hidden(s), table.rs.title) == []
    watch = f"/watch/{table.watch_token}"
    witness = Witness(table)
    moves = 0
    while not table.st.is_over and not played_out(table):
        for s, client in people.items():
            assert named(client.get(f"{links[s]}/table").text, witness.hidden(s), table.rs.title) == [], (ref, s)
        assert named(host.get(f"{watch}/table").text, witness.hidden(None), table.rs.title) == [], (ref, "spectator")
        seat = table.st.to_act
        assert seat in people, f"{ref}: a bot should have answered, but seat {seat} is to act"
        client = people[seat]
        version = client.get(f"{links[seat]}/version").json()["version"]
        move = choose(table.st.view(seat)["legal"])
        r = client.post(f"{links[seat]}/move", data={"move": move, "version": version})
        assert r.json()["ok"], (ref, move, r.json())
        settle(host)
        moves += 1
        assert moves < MOVES, f"{ref}: the hand did not end"
    assert played_out(table), f"{ref}: no hand was played out"
    for s, client in people.items():
        assert named(client.get(f"{links[s]}/table").text, witness.hidden(s), table.rs.title) == [], (ref, s)
