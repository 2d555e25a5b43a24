"""The browser table says things in the words of the terminal table: moves in the log and a hand's groups are
named in the table's language, beside their ids, as ``rulecraft play --lang`` shows them."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("markupsafe")

from rulecraft.engine.game import Game
from rulecraft.load import load_ruleset
from rulecraft.web.render import table_html
from rulecraft.wording import Seats

SEATS = Seats(("you", "a", "b", "c"))


def _tien_gow() -> tuple[Any, dict[str, Any], list[dict[str, Any]]]:
    rs = load_ruleset("tien-gow")
    view: dict[str, Any] = Game(rs, 3).new_state().view(0)
    view["zones"]["hand[0]"] = {"count": 4, "pieces": ["1-2", "6-6", "3-6", "1-3"]}
    events = [{"type": "move", "seat": 1, "move": "play 2-4 1-2"}, {"type": "move", "seat": 2, "move": "down ?"}]
    return rs, view, events


def log_lines(page: str) -> list[str]:
    log = page[page.index('<details class="log"'):]
    return re.findall(r"<li>(.*?)</li>", log)


def group_labels(page: str) -> list[str]:
    return re.findall(r'<span class="glabel">(.*?)</span>', page)


def test_the_log_names_moves_and_the_hand_its_groups_in_the_tables_language() -> None:
    rs, view, events = _tien_gow()
    page = str(table_html(rs, view, events, SEATS, "zh"))
    # 六 is the 2-4 and 三 the 1-2 in the rule file's names; a face-down play stays unnamed
    assert log_lines(page) == ["seat 1 (a): play 六 (2-4) 三 (1-2)", "seat 2 (b): down a piece, unseen"]
    assert group_labels(page) == ["文子", "武子"]  # grouped by kind, named in the table's language


def test_without_a_language_the_log_and_groups_are_ids_as_always() -> None:
    rs, view, events = _tien_gow()
    page = str(table_html(rs, view, events, SEATS))
    assert log_lines(page) == ["seat 1 (a): play 2-4 1-2", "seat 2 (b): down a piece, unseen"]
    assert group_labels(page) == ["civil", "military"]


def test_a_yukushi_challenge_is_logged_by_its_name_in_japanese() -> None:
    rs = load_ruleset("yukushi")
    view: dict[str, Any] = Game(rs, 1).new_state().view(0)
    events = [{"type": "move", "seat": 3, "move": "challenge"}, {"type": "round", "winner": 1, "value": [2, 3]}]
    lines = log_lines(str(table_html(rs, view, events, SEATS, "ja")))
    # a value that is a list reads as the terminal reads it, not as Python's list
    assert lines == ["seat 3 (c): ゆくし (challenge)", "seat 1 (a) wins the round (worth 2, 3)"]


def test_a_table_started_in_a_language_logs_the_plays_in_it(rules_dir: Path) -> None:
    pytest.importorskip("starlette")
    pytest.importorskip("multipart")
    from starlette.testclient import TestClient
    from webtools import opened, play, start, the_table

    from rulecraft.web.app import make_app

    client = TestClient(make_app([rules_dir]), follow_redirects=False)
    assert start(client, ref="tien-gow", seed="5", lang="zh").status_code == 303
    table = the_table(client)
    url = opened(client, table, 0)
    for _ in range(3):  # a few of the person's plays, each answered by the bots
        if table.st.is_over:
            break
        move = next(m for m in table.st.view(0)["legal"] if m.startswith("play "))
        assert play(client, url, move).json()["ok"] is True
    names = table.rs.display.names
    plays = [line for line in log_lines(client.get(f"{url}/table").text) if ": play " in line]
    assert plays
    for line in plays:  # every tile played face up is shown by its Chinese name beside its id
        played = line.split(": play ", 1)[1]
        ids = re.findall(r"\(([0-9]-[0-9])\)", played)
        assert ids and played == " ".join(f"{names.term('pieces', t, 'zh')} ({t})" for t in ids)


def test_a_finished_game_is_told_in_the_terminals_words() -> None:
    rs, view, _ = _tien_gow()
    view["result"] = {"winners": [2], "scores": [-3, 0, 5, -2], "hands": 200, "truncated": True}
    section = str(table_html(rs, view, [], SEATS)).split('<section class="result"')[1].split("</section>")[0]
    from rulecraft.cli.table import result_lines

    said = [line.strip() for line in result_lines(view["result"], SEATS)]
    assert said == ["result: winner seat 2 (b)", "scores: seat 0: -3  seat 1: 0  seat 2: 5  seat 3: -2",
                    "hands played: 200 (stopped early: hand limit)"]
    assert re.findall(r"<p>(.*?)</p>", section) == ["winner seat 2 (b)", said[1], said[2]]


@pytest.mark.parametrize(("ref", "shown"), [("tien-gow", True), ("doubt", False)])
def test_a_seat_shows_rounds_won_only_where_a_phase_counts_them(ref: str, shown: bool) -> None:
    rs = load_ruleset(ref)
    page = str(table_html(rs, Game(rs, 1).new_state().view(0), [], SEATS))
    assert ("<dt>tricks</dt><dd>0</dd>" in page) == shown
