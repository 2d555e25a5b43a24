"""The start form: bots as on the command line, and only those that can play the game chosen."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient


def test_the_start_form_offers_the_default_bot_first_and_only_bots_that_can_play_the_game() -> None:
    from rulecraft.web.app import make_app

    client = TestClient(make_app([], allowed_hosts=["testserver"]))
    hearts = client.get("/start?ref=hearts").text
    seat1 = hearts.split('name="seat.1"')[1].split("</select>")[0]
    assert re.findall(r'<option value="([^"]+)" selected', seat1) == ["default"]
    assert 'value="bluffer"' not in hearts  # a claims player, and Hearts has no claims
    assert 'value="bluffer"' in client.get("/start?ref=doubt").text
