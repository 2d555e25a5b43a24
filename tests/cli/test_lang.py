"""``--lang``: names beside ids in the table, the moves printed, explain, list, simulate and compare; logs that
replay in any language; a language the ruleset does not have refused with the ones it has."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from support import ruleset

from rulecraft.agents.base import make_agent
from rulecraft.cli.move_input import resolve_move
from rulecraft.cli.table import Seats, event_text, render_table
from rulecraft.engine.game import Game
from rulecraft.engine.state import State
from rulecraft.errors import IllegalMoveError
from rulecraft.runs.log import read_log, replay, write_log
from rulecraft.runs.simulate import play_game

ROOT = Path(__file__).resolve().parents[2]
CJK = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def run(*args: str, stdin: str | None = None, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rulecraft.cli.main", *args], cwd=cwd, capture_output=True,
                          text=True, input=stdin if stdin is not None else "", timeout=180)


def _tien_gow_view() -> dict[str, Any]:
    rs = ruleset("tien-gow")
    view: dict[str, Any] = Game(rs, 3).new_state().view(0)
    view["zones"]["hand[0]"] = {"count": 4, "pieces": ["1-2", "6-6", "3-6", "1-3"]}
    view["zones"]["trick"] = {"count": 2, "pieces": ["2-4"]}
    return view


# ---------------------------------------------------------------------- the table
def test_the_table_shows_names_beside_ids_in_the_language_asked() -> None:
    rs = ruleset("tien-gow")
    text = "\n".join(render_table(rs, _tien_gow_view(), Seats(("you", "a", "b", "c")), lang="zh"))
    hand = text[text.index("your hand"):].splitlines()
    # grouped by kind (文子 / 武子), strongest last as display.sort_by says, every tile as NAME (id)
    assert hand[1].split() == ["文子", "(civil):", "鵝", "(1-3)", "天", "(6-6)"]
    assert hand[2].split() == ["武子", "(military):", "三", "(1-2)", "九", "(3-6)"]
    assert "trick: 六 (2-4) + 1 face down" in text
    assert "文武尊 (bunmu_son)=off" in text


@pytest.mark.parametrize("lang", [None, "en"])
def test_the_default_language_shows_the_table_as_always(lang: str | None) -> None:
    rs = ruleset("tien-gow")
    text = "\n".join(render_table(rs, _tien_gow_view(), Seats(("you", "a", "b", "c")), lang=lang))
    assert re.search(r"civil: +1-3 6-6\n +military: 1-2 3-6", text)
    assert not CJK.search(text.replace(rs.title, ""))


def test_luk_fu_names_its_named_cards_and_suits_and_leaves_the_others_by_id() -> None:
    rs = ruleset("luk-fu")
    view: dict[str, Any] = Game(rs, 3).new_state().view(0)
    view["zones"]["hand[0]"] = {"count": 4, "pieces": ["coins-1", "coins-5", "tens-1", "li-tyen"]}
    text = "\n".join(render_table(rs, view, Seats(("you", "a", "b")), lang="zh"))
    hand = text[text.index("your hand"):].splitlines()
    assert [line.split() for line in hand[1:4]] == [
        ["錢", "(coins):", "毛X", "(coins-1)", "coins-5"],
        ["十", "(tens):", "百子", "(tens-1)"],
        ["special:", "X錢", "(li-tyen)"],  # the seed names no suit for the special card
    ]


def test_moves_printed_name_their_verb_and_pieces() -> None:
    seats = Seats(("you", "a", "b", "c"))
    assert event_text({"type": "move", "seat": 1, "move": "play 2-4 1-2"}, seats, ruleset("tien-gow"), "zh") == \
        "seat 1 (a): play 六 (2-4) 三 (1-2)"
    assert event_text({"type": "move", "seat": 2, "move": "down ?"}, seats, ruleset("tien-gow"), "zh") == \
        "seat 2 (b): down a piece, unseen"
    assert event_text({"type": "move", "seat": 3, "move": "challenge"}, seats, ruleset("yukushi"), "ja") == \
        "seat 3 (c): ゆくし (challenge)"
    assert event_text({"type": "move", "seat": 3, "move": "challenge"}, seats, ruleset("yukushi")) == \
        "seat 3 (c): challenge"


# ---------------------------------------------------------------------- typing a move by a name
def _state_where(name: str, seed: int, legal: str) -> State:
    """A state of a random game of ``name`` in which ``legal`` is a legal move."""
    rs = ruleset(name)
    st = Game(rs, seed).new_state()
    bots = [make_agent("random", seed, s) for s in range(rs.seats.count)]
    for _ in range(2000):
        if any(m.text == legal for m in st.legal_moves()):
            return st
        st.apply(bots[st.to_act].choose(st, st.to_act))  # type: ignore[index]
    raise AssertionError(f"no state with {legal} legal")


def test_a_move_may_be_typed_by_a_name_that_names_one_thing() -> None:
    st = next(s for seed in range(1, 40) for s in [_state_where_or_none("tien-gow", seed, "play 6-6")] if s)
    assert resolve_move(st, "play 天").text == "play 6-6"
    with pytest.raises(IllegalMoveError, match="'九' is the name of 2 pieces: 3-6, 4-5; type the one you mean"):
        resolve_move(st, "play 九")
    st = _state_where("yukushi", 2, "challenge")
    assert resolve_move(st, "ゆくし").text == "challenge"


def _state_where_or_none(name: str, seed: int, legal: str) -> State | None:
    try:
        return _state_where(name, seed, legal)
    except AssertionError:
        return None


# ---------------------------------------------------------------------- the commands
def test_an_unknown_language_is_a_usage_error_listing_the_rulesets_languages(tmp_path: Path) -> None:
    st, _ = play_game(ruleset("tien-gow"), 1, ["random"] * 4, max_hands=1)
    write_log(tmp_path / "g.jsonl", st, ["random"] * 4)
    for args in (["play", "tien-gow", "--seed", "1", "--log", str(tmp_path / "p.jsonl")], ["explain", "tien-gow"],
                 ["simulate", "tien-gow", "-n", "1"], ["compare", "tien-gow", "tien-gow", "-n", "1"],
                 ["replay", str(tmp_path / "g.jsonl")]):
        r = run(*args, "--lang", "fr")
        assert r.returncode == 2, (args, r.stdout, r.stderr)
        assert "tien-gow has no names in 'fr': its languages are en (English), zh (中文)" in r.stderr, r.stderr
        assert "Traceback" not in r.stderr


def test_play_with_lang_shows_the_hand_by_name_and_logs_the_language(tmp_path: Path) -> None:
    # Bots in every seat: the whole game is printed, a log written, and no input is needed.
    log = tmp_path / "g.jsonl"
    r = run("play", "luk-fu", "--lang", "zh", "--seats", "random,random,random", "--seed", "5", "--hands", "2",
            "--log", str(log))
    assert r.returncode == 0, r.stderr
    header, events = read_log(log)
    assert header["display_language"] == "zh"
    moves = [str(e["move"]) for _, e in events if e["type"] == "move"]
    assert all(not CJK.search(m) for m in moves)  # the log names pieces by id only
    played = {w for m in moves for w in m.split()[1:]}
    for tid, name in (("coins-1", "毛X"), ("tens-1", "百子"), ("li-tyen", "X錢")):
        if tid in played:  # face up, it is printed by name beside its id
            assert f"{name} ({tid})" in r.stdout
    assert played & {"coins-1", "tens-1", "li-tyen"}, "seed 5 should show at least one named card"


def test_a_log_replays_in_any_language(tmp_path: Path) -> None:
    rs = ruleset("tien-gow")
    st, moves = play_game(rs, 4, ["random"] * 4, max_hands=1)
    log = tmp_path / "g.jsonl"
    write_log(log, st, ["random"] * 4, language="zh")
    assert replay(log, rs)[0].result == st.result  # the language plays no part in replaying
    shown = {lang: run("replay", str(log), *(["--lang", lang] if lang else [])) for lang in (None, "en", "zh")}
    for r in shown.values():
        assert r.returncode == 0, r.stderr
    lines = {lang: [line for line in r.stdout.splitlines() if line.startswith("move ")] for lang, r in shown.items()}
    assert len(lines["en"]) == len(lines["zh"]) == moves
    assert not any(CJK.search(line) for line in lines["en"])
    # without --lang the replay is shown in the language the log records
    assert lines[None] == lines["zh"] != lines["en"]
    assert any("天 (6-6)" in line or "九 (3-6)" in line for line in lines["zh"])
    tail = {lang: r.stdout[r.stdout.index("result: winner"):] for lang, r in shown.items()}
    assert tail["en"] == tail["zh"]


def test_a_log_that_records_no_language_replays_in_the_rule_files_own_words(tmp_path: Path) -> None:
    rs = ruleset("rook")
    st, _ = play_game(rs, 4, ["random"] * 4, max_hands=1)
    log = tmp_path / "g.jsonl"
    write_log(log, st, ["random"] * 4)  # as simulate writes them: no display language
    r = run("replay", str(log))
    assert r.returncode == 0, r.stderr
    # the variables by the names the rule file gives them, their ids beside: what a player reads at the table
    assert "game score (score): team 0+2:" in r.stdout and "winning bid (bid):" in r.stdout


def test_explain_lists_the_names_and_shows_them_beside_the_rules() -> None:
    r = run("explain", "tien-gow", "--lang", "zh")
    assert r.returncode == 0, r.stderr
    assert "languages: en (English) default, zh (中文)" in r.stdout
    assert "names in zh (中文):" in r.stdout
    assert "6-6 天," in r.stdout and "1-2 三 (also 山雞, 幺雞, 么雞)" in r.stdout
    assert re.search(r"multipliers\[qin\]\.factor = \"qin_factor\" +\(zh: 擒\)", r.stdout)
    assert re.search(r"pieces\[1-1\]\.name = \"1-1 earth\" +\(zh: 地\)", r.stdout)
    data = json.loads(run("explain", "tien-gow", "--lang", "zh", "--rule", "hand.phases[settle]",
                          "--format", "json").stdout)
    assert data["language"] == "zh" and data["names"]["pieces"]["6-6"] == ["天"]
    qin = next(e for e in data["rules"] if e["path"].endswith("multipliers[qin].factor"))
    assert qin["name"] == "擒"
    plain = run("explain", "tien-gow")
    assert "names in" not in plain.stdout and "(zh:" not in plain.stdout


def test_list_shows_each_rulesets_languages() -> None:
    text = run("list").stdout
    assert "tien-gow  Tien Gow" in text
    block = text[text.index("tien-gow  "):]
    assert block.splitlines()[1].strip() == "languages: en (English), zh (中文)  (--lang CODE)"
    data = {e["name"]: e for e in json.loads(run("list", "--format", "json").stdout)}
    assert data["yukushi"]["languages"] == {"en": "English", "ja": "日本語"}
    assert data["rook"]["languages"] == {"en": "English"}


def test_simulate_and_compare_name_options_and_rules_fired() -> None:
    # (the fastest agent: the names, not the play, are under test)
    sim = run("simulate", "tien-gow", "-n", "2", "--no-timings", "--lang", "zh", "--agents", "random")
    assert sim.returncode == 0, sim.stderr
    assert "文武尊 (bunmu_son)=off" in sim.stdout
    cmp = run("compare", "tien-gow", "tien-gow", "-n", "6", "--no-timings", "--lang", "zh", "--agents", "random")
    assert cmp.returncode == 0, cmp.stderr
    fired = re.findall(r"^    (\S+(?: \(\S+\))?) +\d+  \(", cmp.stdout, re.MULTILINE)
    names = ruleset("tien-gow").display.names
    assert fired
    for shown in fired:  # each rule fired is shown by its name when it has one, else by its id
        rid = shown.split("(")[-1].rstrip(")") if "(" in shown else shown
        local = names.term("rules", rid, "zh")
        assert shown == (f"{local} ({rid})" if local else rid)
    assert any("(" in shown for shown in fired)
