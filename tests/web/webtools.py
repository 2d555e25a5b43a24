"""Driving the web app as its pages do, for the tests of tests/web: start a table, open a link, move."""

from __future__ import annotations

import time
from typing import Any

from starlette.testclient import TestClient

from rulecraft.engine.views import visible
from rulecraft.web.tables import Table

ROOK_SEATS = {"seat.0": "human", "seat.1": "random", "seat.2": "random", "seat.3": "random"}


def settle(client: TestClient) -> None:
    """Wait until the bots have answered (they move in the server's own threads, not in the request)."""
    assert client.app.state.bots.settle(120)  # type: ignore[attr-defined]


def start(client: TestClient, **fields: str) -> Any:
    """POST /start for Rook with seed 7, seat 0 a person (``fields`` add or replace), the bots' answers awaited."""
    r = client.post("/start", data={"ref": "rook", "seed": "7", **ROOK_SEATS, **fields})
    settle(client)
    return r


def a_bid(table: Table) -> str:
    return next(m for m in table.st.view(table.st.to_act)["legal"] if m != "pass")


def the_table(client: TestClient) -> Table:
    """The table started last."""
    tables = client.app.state.tables  # type: ignore[attr-defined]
    return list(tables._tables.values())[-1]


def opened(client: TestClient, table: Table, seat: int) -> str:
    """A seat's link, taken in this client (the browser it is bound to from then on), and its page opened."""
    url = f"/seat/{table.seat_tokens[seat]}"
    if client.get(url).status_code == 200 and 'id="take"' in client.get(url).text:
        assert client.post(f"{url}/take").status_code == 303
    assert client.get(url).status_code == 200 and 'id="table"' in client.get(url).text
    return url


def version(client: TestClient, url: str) -> int:
    return int(client.get(f"{url}/version").json()["version"])


def play(client: TestClient, url: str, move: str, at: int | None = None) -> Any:
    """A move sent as the page sends it, answering the version on screen (``at``: another); bots awaited."""
    r = client.post(f"{url}/move", data={"move": move, "version": str(version(client, url) if at is None else at)})
    settle(client)
    return r


def played_out(table: Table) -> bool:
    """A hand was played to its end (the deal is secret with several people: a hand may be voided, redealt)."""
    return any(not h["voided"] for h in table.st.hand_results)


def finished(client: TestClient, r: Any, timeout: float = 120.0) -> Any:
    """The page of a job (compare, replay) once its work is done, polled as its page does."""
    assert r.status_code == 303, r.text
    url = r.headers["location"]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if client.get(f"{url}/status").json()["finished"]:
            return client.get(url)
        time.sleep(0.1)
    raise AssertionError("the job did not finish")


class Witness:
    """What each person has been able to see so far, followed move by move on a copy of the game.

    Seen: visible to the seat in any state so far (the copy replays the server's moves from the same
    seed, so it deals the same), or played face up (``play``) or revealed (a challenge) by anyone: the
    last play of a hand is public though the hand ends before any state shows it in the trick.
    ``hidden(None)``: what a spectator must not see: pieces never visible to every seat at once.
    """

    def __init__(self, table: Any) -> None:
        from rulecraft.engine.game import Game

        self.table = table
        self.copy = Game(table.rs, table.seed, hands_keyed=table.st.hands_keyed).new_state()
        self.done = 0  # events of the server's history already followed
        self.names = table.rs.pieces.columns["id"]
        self.seen: dict[int | None, set[str]] = {s: set() for s in [*table.humans, None]}
        self._look()

    def _look(self) -> None:
        st = self.copy
        everyone = range(st.rs.seats.count)
        for seat, seen in self.seen.items():
            seats = everyone if seat is None else (seat,)
            seen.update(self.names[p] for p in range(st.rs.pieces.count) if all(visible(st, p, s) for s in seats))

    def hidden(self, seat: int | None) -> set[str]:
        """Piece types ``seat`` has never been able to see, so its page must not name them."""
        history = self.table.st.history
        for event in history[self.done:]:
            if event["type"] == "move":
                self.copy.apply(str(event["move"]))
                self._look()
                if str(event["move"]).startswith("play "):
                    for seen in self.seen.values():
                        seen.update(str(event["move"]).split()[1:])
            elif event["type"] == "reveal":
                for seen in self.seen.values():
                    seen.update(event.get("pieces", []))
        self.done = len(history)
        assert self.copy.to_act == self.table.st.to_act  # the copy is the same game
        return set(self.names) - self.seen[seat]


# Moves by which a person passes: the bare 'pass', a choice named 'pass', and a bid of 0 where a game
# writes its pass as one (Auction Pitch, Texas 42).
PASSES = ("pass", "name pass", "bid 0")


def choose(legal: list[str]) -> str:
    """A person who bids, declares and plays rather than passing, so the hand is played out (all passing
    throws a hand in), and who plays as many pieces at once as the rules allow."""
    moves = [m for m in legal if m not in PASSES] or legal
    return max(moves, key=lambda m: (len(m.split(" ")), -moves.index(m)))
