"""How to play, generated from the rule file: the terminal and the browser say the same, in players' words."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient

from rulecraft.howto import how_to_play
from rulecraft.load import load_ruleset
from rulecraft.rules.registry import list_bundled

GAMES = [r for r in list_bundled() if "/" not in r]


def _howto(ref: str, **options: str):  # type: ignore[no-untyped-def]
    rs = load_ruleset(ref, options) if options else load_ruleset(ref)
    assert rs.composed is not None
    return how_to_play(rs.composed, rs)


def test_hearts_steps_are_its_phases_in_order_with_its_rules_in_the_authors_words() -> None:
    text = _howto("hearts").text()
    steps = re.findall(r"^  \d+\. ([^:]+):", text, re.M)
    assert steps == ["shuffle", "deal", "passing three cards", "the two of clubs leads", "play", "scoring"]
    assert "you must follow the suit led if you can" in text  # a restriction's own message
    assert "points: penalty points so far (lowest wins)" in text  # a variable by its label, with its meaning


def test_the_options_chosen_are_said_with_their_meaning() -> None:
    plain = _howto("doubt").text()
    four = _howto("doubt", per_play="up-to-four").text()
    assert "How many cards one play has: one — Exactly one card per play." in plain
    assert "How many cards one play has: up-to-four — One to four cards per play." in four


def test_partners_are_named_where_the_rules_have_teams() -> None:
    assert "in partnerships: seat 0 and seat 2; seat 1 and seat 3" in _howto("spades").text()
    assert "partnerships" not in _howto("hearts").text().split("Players and pieces")[1].split("\n")[2]


@pytest.mark.parametrize("ref", GAMES)
def test_terminal_and_browser_say_the_same(ref: str) -> None:
    from rulecraft.web.app import make_app

    out = subprocess.run([sys.executable, "-m", "rulecraft.cli.main", "explain", ref, "--how-to-play"],
                         capture_output=True, text=True, check=True).stdout
    howto = _howto(ref)
    assert out == howto.text()
    client = TestClient(make_app([], allowed_hosts=["testserver"]))
    page = client.get(f"/howto?ref={ref}")
    assert page.status_code == 200
    assert f'href="/explain?ref={ref}"' in page.text  # the provenance view, one click away
    for section in howto.sections:
        assert f">{section.heading}</h2>" in page.text
    assert "{" not in re.sub(r"<[^>]+>", "", page.text)  # no raw structure on the page

