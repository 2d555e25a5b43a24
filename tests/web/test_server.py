"""The server without a browser: what it accepts, what it refuses, and what each seat is sent."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("multipart")

from starlette.testclient import TestClient
from webtools import a_bid, finished, opened, play, settle, start, the_table

from rulecraft.web.app import make_app


@pytest.fixture()
def client(rules_dir: Path) -> TestClient:
    return TestClient(make_app([rules_dir]), follow_redirects=False)


# ---------------------------------------------------------------------- starting
def test_a_game_starts_and_its_one_person_is_sent_to_their_seat(client: TestClient) -> None:
    r = start(client)
    assert r.status_code == 303 and r.headers["location"].startswith("/seat/")
    table = the_table(client)
    assert table.agents == ["human", "random", "random", "random"] and table.seed == 7
    assert r.headers["location"] == f"/seat/{table.seat_tokens[0]}"
    page = client.get(r.headers["location"]).text
    assert "your move" in page and table.rs.title.replace('"', "&#34;") in page


def test_several_people_get_a_page_of_secret_links_one_per_seat(client: TestClient) -> None:
    r = start(client, **{"seat.2": "human"})
    assert r.headers["location"].startswith("/host/")
    table = the_table(client)
    page = client.get(r.headers["location"]).text
    assert sorted(table.seat_tokens) == [0, 2]
    for token in table.seat_tokens.values():
        assert f"/seat/{token}" in page
    assert len(set(table.seat_tokens.values())) == 2 and all(len(t) >= 20 for t in table.seat_tokens.values())


@pytest.mark.parametrize(("fields", "message"), [
    ({"ref": "no-such-game"}, "neither a bundled ruleset nor a rule file"),
    ({"opt.bird_rank": "sideways"}, "option bird_rank has no choice 'sideways'"),
    ({"opt.colour": "red"}, "unknown option 'colour'"),
    ({"preset": "nope"}, "has no preset 'nope'"),
    ({"seat.1": "scripted:pass"}, "is not a player this server offers"),
    ({"seat.1": "mc:100000000"}, "is not a player this server offers"),
    ({"seed": "-1"}, "the seed must be between"),
    ({"screens": "hot", "seat.0": "random"}, "at least one seat for a person"),
    ({"seed": "9" * 40}, "the seed must be between"),
    ({"seed": "x"}, "the seed must be a whole number"),
    ({"seat.0": "random"}, "at least one seat for a person"),
    ({"lang": "xx"}, "has no names in 'xx'"),
])
def test_a_bad_start_is_refused_with_a_message(client: TestClient, fields: dict[str, str], message: str) -> None:
    r = start(client, **fields)
    assert r.status_code == 400
    assert message in r.text.replace("&#39;", "'")
    assert not client.app.state.tables._tables  # type: ignore[attr-defined]


def test_the_start_form_shows_each_option_and_preset_with_description_and_source(client: TestClient) -> None:
    page = client.get("/start", params={"ref": "luk-fu"}).text
    assert "Both readings" not in page  # (not a description of this ruleset: the check below is specific)
    assert "Three players, or four with the dealer sitting out holding one card." in page
    assert "ルクフ, 1995-12-27 (players and dealing paragraphs)" in page
    assert "As played at the page author&#39;s club" in page
    # The seat count follows the options: four players, four seats.
    assert len(re.findall(r'name="seat\.\d"', page)) == 3
    four = client.get("/start", params={"ref": "luk-fu", "opt.players": "4"}).text
    assert len(re.findall(r'name="seat\.\d"', four)) == 4


# ---------------------------------------------------------------------- rulesets from folders
def test_a_rule_file_in_an_allowed_folder_can_be_played(client: TestClient, rules_dir: Path) -> None:
    house = str(rules_dir / "house.yaml")
    assert house in client.get("/").text
    r = start(client, ref=house)
    assert r.status_code == 303
    assert the_table(client).rs.constants["target"] == 500


@pytest.mark.parametrize("ref", [
    "../secret.yaml", "/etc/passwd", "{root}/../secret.yaml", "{root}/link.yaml", "{root}/escape.yaml",
    "{root}", "variants/../../secret.yaml", "{root}/nope.yaml", "x" * 5000, "rook\x00",
])
def test_no_path_a_browser_sends_reads_a_file_outside_the_allowed_folders(
        client: TestClient, rules_dir: Path, ref: str) -> None:
    ref = ref.replace("{root}", str(rules_dir))
    for r in (start(client, ref=ref), client.get("/start", params={"ref": ref}),
              client.get("/explain", params={"ref": ref})):
        assert r.status_code == 400, r.text
        assert "TOP-SECRET" not in r.text and "root:" not in r.text
        assert "outside the folders" in r.text or "neither a bundled ruleset" in r.text or "choose a ruleset" in r.text


# ---------------------------------------------------------------------- playing
def test_a_seat_is_sent_its_own_hand_and_never_another(client: TestClient) -> None:
    start(client, **{"seat.1": "human"})
    table = the_table(client)
    names = table.rs.pieces.columns["id"]
    for seat, other in ((0, 1), (1, 0)):
        page = client.get(f"{opened(client, table, seat)}/table").text
        mine = set(table.st.view(seat)["zones"][f"hand[{seat}]"]["pieces"])
        theirs = {names[p] for p in table.st.zones[table.rs.hand_base + other]}
        shown = set(re.findall(r'data-piece="([^"]+)"', page))
        assert shown == mine, f"seat {seat} sees {shown - mine} beyond its hand"
        assert not shown & theirs


def test_a_legal_move_is_made_and_the_bots_answer(client: TestClient) -> None:
    start(client)
    table = the_table(client)
    url = opened(client, table, 0)
    assert table.st.to_act == 0
    bid = a_bid(table)
    before = len([e for e in table.st.history if e.get("type") == "move"])
    r = play(client, url, f"  {bid} ")
    assert r.json()["ok"] is True
    moves = [e for e in table.st.history if e.get("type") == "move"]
    assert moves[before] == {"type": "move", "seat": 0, "move": bid}
    assert len(moves) > before + 1 and all(e["seat"] != 0 for e in moves[before + 1:])  # the bots answered
    assert table.st.to_act == 0 or table.st.is_over  # ... until a person is to act again


@pytest.mark.parametrize(("move", "message"), [
    ("bid 71", "a bid must be"),  # refused by the auction, in its words
    ("play red-5", "not allowed in the auction"),
    ("dance", "unknown"),
    ("", "no move was sent"),
    ("bid " + "7" * 3000, "at most"),
])
def test_a_bad_move_is_refused_in_the_rules_words_and_changes_nothing(
        client: TestClient, move: str, message: str) -> None:
    start(client)
    table = the_table(client)
    before = len(table.st.history)
    r = play(client, opened(client, table, 0), move)
    assert r.status_code == 400 and r.json()["ok"] is False
    assert message in r.json()["error"]
    assert len(table.st.history) == before


def test_a_seat_cannot_move_out_of_turn_or_for_another(client: TestClient) -> None:
    start(client, **{"seat.1": "human"})
    table = the_table(client)
    acting = table.st.to_act
    waiting = 1 - acting
    legal = table.st.view(acting)["legal"]
    before = len(table.st.history)
    r = play(client, opened(client, table, waiting), legal[-1])
    assert r.status_code == 400 and f"not your turn: seat {acting} is to act" in r.json()["error"]
    assert len(table.st.history) == before


def test_an_unknown_token_is_not_found_and_says_nothing_more(client: TestClient) -> None:
    start(client)
    for path in ("/seat/nope", "/seat/nope/table", "/hot/nope/state", "/host/nope", "/replay/nope", "/watch/nope",
                 "/jobs/nope"):
        r = client.get(path)
        assert r.status_code == 404
    table = the_table(client)
    # Each token opens its own kind of page only: a seat's is no host's, hot-seat's or spectator's, and so on.
    seat = table.seat_tokens[0]
    for path in (f"/hot/{seat}/state", f"/host/{seat}", f"/watch/{seat}", f"/seat/{table.host_token}",
                 f"/seat/{table.watch_token}/table", f"/host/{table.watch_token}", f"/hot/{table.host_token}"):
        assert client.get(path).status_code == 404, path


def test_undo_takes_back_the_persons_move_and_the_bots_replies_and_replays_the_same(client: TestClient) -> None:
    start(client, undo="1", seed="4")  # (a deal where the bots bid on after seat 0's bid, calling no redeal)
    table = the_table(client)
    url = opened(client, table, 0)
    opening = [e for e in table.st.history if e.get("type") == "move"]  # the bots' bids before seat 0's turn
    bid = a_bid(table)
    assert play(client, url, bid).json()["ok"]
    after_first = list(table.st.history)
    r = client.post(f"{url}/undo")
    assert r.json()["ok"] and r.json()["undone"] == len([e for e in after_first if e.get("type") == "move"]) - len(
        opening)
    settle(client)
    assert [e for e in table.st.history if e.get("type") == "move"] == opening
    assert play(client, url, bid).json()["ok"]
    assert list(table.st.history) == after_first  # the bots answer as before: same seeds, warmed


def test_hot_seat_shows_only_the_seat_to_act_once_its_cover_is_lifted(client: TestClient) -> None:
    start(client, **{"seat.1": "human", "screens": "hot"})
    table = the_table(client)
    assert table.seat_tokens == {} and table.hot_token is not None
    hot = f"/hot/{table.hot_token}"
    assert 'id="take"' in client.get(hot).text and client.post(f"{hot}/take").status_code == 303
    state = client.get(f"{hot}/state").json()
    assert state["seat"] == table.st.to_act and state["humans"] == [0, 1] and state["shown"] is None
    assert client.get(f"{hot}/table").status_code == 409  # covered: no hand is sent
    assert client.post(f"{hot}/move", data={"move": "pass", "version": state["version"]}).status_code == 409
    assert client.post(f"{hot}/reveal", data={"version": str(state["version"])}).json()["seat"] == table.st.to_act
    page = client.get(f"{hot}/table").text
    seat = table.st.to_act
    hand = table.st.view(seat)["zones"][f"hand[{seat}]"]["pieces"]
    assert set(re.findall(r'data-piece="([^"]+)"', page)) == set(hand)


# ---------------------------------------------------------------------- explain, replay, compare
def test_explain_lists_the_effective_rules_and_where_each_came_from(client: TestClient) -> None:
    page = client.get("/explain", params={"ref": "rook", "opt.bird_rank": "lowest"}).text
    assert "constants.bird_rank" in page and "option bird_rank=lowest" in page
    assert re.search(r"variants/rook/base\.yaml:\d+:\d+", page)


def test_a_saved_log_replays_as_one_seat_saw_it(client: TestClient, tmp_path: Path) -> None:
    from rulecraft.load import load_ruleset
    from rulecraft.runs.log import log_lines
    from rulecraft.runs.simulate import play_game

    rs = load_ruleset("rook")
    st, moves = play_game(rs, 3, ["random"] * 4, max_hands=1)
    text = "\n".join(log_lines(st, ["random"] * 4)) + "\n"
    r = finished(client, client.post("/replay", data={"seat": "2"},
                                     files={"log": ("game.jsonl", text.encode(), "text/plain")}))
    assert r.status_code == 303, r.text
    location = r.headers["location"]
    page = client.get(location).text
    assert f"move 0 of {moves}" in page and "as seat 2" in page
    # Step 5: seat 2's hand as it was, and no other seat's.
    replay = client.app.state  # (the view is checked against the engine's own replay)
    from rulecraft.runs.log import parse_log, replay_events

    header, events = parse_log(text.splitlines())
    _, before = replay_events(header, events, rs, keep_states=True)
    step = client.get(location.replace("step=0", "step=5")).text
    shown = set(re.findall(r'data-piece="([^"]+)"', step))
    view = before[5].view(2)
    visible = {p for z in view["zones"].values() for p in z.get("pieces", [])}
    assert set(view["zones"]["hand[2]"]["pieces"]) <= shown <= visible | {
        str(e["move"]).split()[1] for e in (x for _, x in events) if str(e.get("move", "")).startswith("play ")}
    assert replay is not None


@pytest.mark.parametrize(("content", "message"), [
    (b"not json\n", "error"),
    (b'{"type": "header"}\n', "error"),
    (b"\xff\xfe", "not UTF-8"),
])
def test_a_bad_log_is_refused_at_its_line(client: TestClient, content: bytes, message: str) -> None:
    r = finished(client, client.post("/replay", data={"seat": "0"}, files={"log": ("x.jsonl", content, "text/plain")}))
    assert r.status_code == 400 and message in r.text


def test_a_log_naming_a_file_as_its_ruleset_reads_nothing(client: TestClient, rules_dir: Path) -> None:
    secret = rules_dir.parent / "secret.yaml"
    header = ('{"type": "header", "format": "rulecraft-log/1", "seed": 1, "agents": [], "max_hands": 1, '
              f'"ruleset": {{"name": "{secret}", "options": {{}}, "hash": "x"}}}}\n')
    r = finished(client, client.post("/replay", data={"seat": "0"},
                                     files={"log": ("x.jsonl", header.encode(), "text/plain")}))
    assert r.status_code == 400 and "TOP-SECRET" not in r.text


def test_compare_reports_win_rates_with_intervals_and_a_plot(client: TestClient) -> None:
    r = client.post("/compare", data={"a.ref": "rook", "b.ref": "rook", "b.opt.bird_rank": "lowest", "n": "6",
                                      "seed": "2", "agent": "random"})
    page = finished(client, r).text
    assert "<svg" in page and "95% confidence" in page
    assert "bird_rank=lowest" in page
    # The numbers are the runs' own: the same seeded games played here give the same win rates.
    from rulecraft.load import load_ruleset
    from rulecraft.runs.comparison import side_stats
    from rulecraft.runs.simulate import simulate

    for options in ({}, {"bird_rank": "lowest"}):
        stats = side_stats(simulate(load_ruleset("rook", options), 6, 2, ["random"] * 4).records, 4)
        for r in stats["win_rate"]:
            assert f"{r['rate']:.3f} ({r['ci95'][0]:.3f}–{r['ci95'][1]:.3f})" in page
    assert client.post("/compare", data={"a.ref": "rook", "b.ref": "rook", "n": "100000"}).status_code == 400
    assert client.post("/compare", data={"a.ref": "rook", "b.ref": "rook", "agent": "human"}).status_code == 400


def test_each_game_is_saved_to_a_log_that_replays_to_the_same_game(rules_dir: Path, tmp_path: Path) -> None:
    from rulecraft.runs.log import replay

    client = TestClient(make_app([rules_dir], log_dir=tmp_path), follow_redirects=False)
    start(client)
    start(client)  # the same ruleset and seed: a second file, never the first overwritten
    table = the_table(client)
    play(client, opened(client, table, 0), a_bid(table))
    logs = sorted(tmp_path.glob("*.jsonl"))
    assert len(logs) == 2 and all(p.name.startswith("rulecraft-rook-") for p in logs)
    (log,) = [p for p in logs if table.key in p.name]
    st, _ = replay(log, table.rs)
    assert st.history[:] == table.st.history[:]


def test_serving_this_machine_only_refuses_a_request_addressed_to_another_name(rules_dir: Path) -> None:
    app = make_app([rules_dir], allowed_hosts=["127.0.0.1", "localhost"])
    assert TestClient(app, base_url="http://127.0.0.1:8000").get("/").status_code == 200
    assert TestClient(app, base_url="http://evil.example:8000").get("/").status_code == 400
