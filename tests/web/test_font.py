"""The font the table ships covers every character the bundled rule files write beyond Latin, and is served."""

from __future__ import annotations

import pytest
from fontsubset import OUT, needed

pytest.importorskip("starlette")
ttlib = pytest.importorskip("fontTools.ttLib")

from starlette.testclient import TestClient  # noqa: E402


def test_every_character_of_the_bundled_games_is_in_the_shipped_font() -> None:
    cmap = ttlib.TTFont(str(OUT)).getBestCmap()
    chars = needed()
    assert {"天", "九", "ゆ", "錢", "♥"} <= chars  # (the games' own scripts are in the rule files)
    missing = sorted(c for c in chars if ord(c) not in cmap and not c.isspace())
    assert not missing, f"run tests/web/fontsubset.py: the font lacks {''.join(missing)}"


def test_the_font_is_served_to_the_table_and_allowed_by_its_policy() -> None:
    from rulecraft.web.app import make_app

    client = TestClient(make_app([], allowed_hosts=["testserver"]))
    r = client.get("/static/fonts/rulecraft-cjk.otf")
    assert r.status_code == 200 and r.content == OUT.read_bytes()
    assert "font-src 'self'" in r.headers["content-security-policy"]
    assert "rulecraft-cjk.otf" in client.get("/static/table.css").text
