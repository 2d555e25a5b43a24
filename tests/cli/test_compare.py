"""``rulecraft compare`` and ``simulate --workers/--dask`` as a user runs them (exit codes included)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rulecraft.rules.registry import list_bundled

ROOT = Path(__file__).resolve().parents[2]
OLD_CARDS = ["luk-fu", "luk-fu", "-a", "old_cards=known-to-leader", "-b", "old_cards=public-plus-original-run",
             "--agents", "random"]  # the machinery, not the agents, is under test here: the fastest agent


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rulecraft.cli.main", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)


@pytest.fixture(scope="module")
def report() -> dict:  # type: ignore[type-arg]
    r = run("compare", *OLD_CARDS, "-n", "24", "--seed", "3", "--format", "json", "--no-timings")
    assert r.returncode == 0, r.stderr
    assert r.stderr == ""  # no progress bar when stderr is not a terminal
    return json.loads(r.stdout)  # type: ignore[no-any-return]


def test_compare_json_has_both_sides_and_the_difference(report: dict) -> None:  # type: ignore[type-arg]
    assert set(report) == {"games", "seed", "a", "b", "b_minus_a"}
    assert report["a"]["ruleset"]["options"]["old_cards"] == "known-to-leader"
    assert report["b"]["ruleset"]["options"]["old_cards"] == "public-plus-original-run"
    for side in (report["a"], report["b"]):
        assert {"win_rate", "scores", "length", "rules_fired", "balance", "truncated", "games"} <= set(side)
        assert "seconds" not in side
        assert side["games"] == 24
        assert sum(w["wins"] for w in side["win_rate"]) == pytest.approx(24)
        for w in side["win_rate"]:
            lo, hi = w["ci95"]
            assert 0 <= lo <= w["rate"] <= hi <= 1
        fp = side["balance"]["first_player"]
        assert 0 <= fp["ci95"][0] <= fp["win_rate"] <= fp["ci95"][1] <= 1
        assert fp["advantage"] == pytest.approx(fp["win_rate"] - fp["mean_win_rate"], abs=2e-6)
        assert {"mean", "stdev", "q05", "q50", "q95"} <= set(side["scores"][0])
        assert side["length"]["hands"]["mean"] == 12  # a Luk Fu match is 12 deals by default
        assert side["rules_fired"]["old-card-led"]["count"] > 0
        assert 0 <= side["balance"]["lead_for_good"]["mean"] <= 1
    # The stricter public reading makes fewer cards old, so the rule fires less often.
    a, b = report["a"]["rules_fired"]["old-card-led"], report["b"]["rules_fired"]["old-card-led"]
    assert b["count"] < a["count"]
    assert report["b_minus_a"]["rules_fired_per_game"]["old-card-led"] == pytest.approx(
        b["per_game"] - a["per_game"], abs=1e-3)


def test_compare_text_and_plot(tmp_path: Path) -> None:
    plot = tmp_path / "cmp.png"  # its directory must exist: rulecraft creates none for a file
    args = ["compare", *OLD_CARDS, "-n", "6", "--no-timings"]
    pytest.importorskip("matplotlib", reason="matplotlib is not installed (extra 'plot')")
    r = run(*args, "--plot", str(plot))
    assert r.returncode == 0, r.stderr
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert not [p for p in plot.parent.iterdir() if p.name.startswith(".")]  # no temporary file left
    out = r.stdout
    assert "A: luk-fu (" in out and "old_cards=public-plus-original-run" in out
    assert "seat 0: wins" in out and "95% CI" in out
    assert "first player wins" in out and "old-card-led" in out and "B - A (95% CI" in out


def test_compare_is_the_same_with_workers(report: dict) -> None:  # type: ignore[type-arg]
    r = run("compare", *OLD_CARDS, "-n", "24", "--seed", "3", "--format", "json", "--no-timings",
            "--workers", "2")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == report


@pytest.mark.parametrize(("args", "message"), [
    (["compare", "luk-fu", "luk-fu", "--agents", "nobody"],
     "known agents: bluffer, default, first, ismcts, mc, random"),
    (["compare", "luk-fu", "luk-fu", "-b", "old_card=x"], "unknown option 'old_card'"),
    (["compare", "luk-fu", "luk-fu", "-a", "old_cards=x"], "choices: known-to-leader, public-plus-original-run"),
    (["compare", "luk-fu", "nosuch"], f"bundled rulesets: {', '.join(list_bundled())}"),
    (["compare", "luk-fu", "luk-fu", "--agents", "mc:abc"], "bad mc argument"),
    (["simulate", "luk-fu", "--agents", "nobody"], "known agents:"),
])
def test_bad_input_is_a_usage_error(args: list[str], message: str) -> None:
    r = run(*args, "-n", "2")
    assert r.returncode == 2, r.stdout + r.stderr
    assert message in r.stderr
    assert "Traceback" not in r.stderr


def test_simulate_is_the_same_in_one_process_with_workers_and_on_a_cluster() -> None:
    base = ["simulate", "tien-gow", "-n", "6", "--seed", "4", "--format", "json", "--no-timings"]
    one = run(*base)
    two = run(*base, "--workers", "2")
    assert one.returncode == two.returncode == 0, one.stderr + two.stderr
    assert one.stdout == two.stdout
    distributed = pytest.importorskip("distributed", reason="dask.distributed is not installed (extra 'dask')")
    with distributed.LocalCluster(n_workers=1, processes=False, threads_per_worker=1, dashboard_address=None,
                                  host="127.0.0.1", protocol="tcp") as cluster:
        on_cluster = run(*base, "--dask", cluster.scheduler_address)
    assert on_cluster.returncode == 0, on_cluster.stderr
    assert on_cluster.stdout == one.stdout


def test_differences_come_with_intervals_that_hold_them(report: dict) -> None:  # type: ignore[type-arg]
    d = report["b_minus_a"]
    ci = d["ci95"]
    for s, x in enumerate(d["win_rate"]):
        lo, hi = ci["win_rate"][s]
        assert -1 <= lo <= x <= hi <= 1 and hi - lo > 0
        lo, hi = ci["mean_score"][s]
        assert lo <= d["mean_score"][s] <= hi
    lo, hi = ci["rules_fired_per_game"]["old-card-led"]
    assert lo <= d["rules_fired_per_game"]["old-card-led"] <= hi
    assert lo < hi  # the rule fires a different number of times in different games: a spread


def test_per_hand_mode_plays_one_hand_per_game() -> None:
    r = run("compare", *OLD_CARDS, "-n", "8", "--seed", "2", "--format", "json", "--no-timings", "--hands", "1")
    assert r.returncode == 0, r.stderr
    rep = json.loads(r.stdout)
    assert rep["hands_per_game"] == 1
    for side in (rep["a"], rep["b"]):
        assert side["length"]["hands"]["max"] == 1  # a Luk Fu match is 12 deals; here each game is one


def test_per_hand_text_says_games_were_stopped_by_hands_not_truncated() -> None:
    r = run("compare", *OLD_CARDS, "-n", "6", "--seed", "2", "--no-timings", "--hands", "1")
    assert r.returncode == 0, r.stderr
    assert "each game is the first hand of a match, won by the seat ahead after it (--hands 1)" in r.stdout
    # A Luk Fu match is 12 deals: every game stops after its first
    assert r.stdout.count("6 stopped after 1 hand (--hands), 0 ended before") == 2
    assert "truncated" not in r.stdout


def test_moves_mode_compares_the_first_moves_and_says_how_games_still_going_were_scored() -> None:
    args = ["compare", "doubt", "doubt", "-b", "per_play=up-to-four", "--agents", "random", "-n", "6", "--seed", "2",
            "--no-timings", "--moves", "120"]
    r = run(*args, "--format", "json")
    assert r.returncode == 0, r.stderr
    rep = json.loads(r.stdout)
    assert rep["moves_per_game"] == 120
    for side in (rep["a"], rep["b"]):
        assert side["length"]["moves"]["max"] == 120  # a Doubt hand of random seats runs to thousands of moves
        assert side["truncated"] == 6
        assert all(score["max"] <= 0 for score in side["scores"])  # minus the pieces held
    text = run(*args)
    assert text.returncode == 0, text.stderr
    assert "each game is its first 120 moves, a game still going then won by the seat holding the fewest pieces" \
        in text.stdout
    assert text.stdout.count("6 stopped (--moves 120 or --hands), 0 ended before") == 2


def test_moves_mode_scores_games_that_ended_and_games_cut_on_one_scale() -> None:
    # Yukushi between default seats: at 250 moves some games of A have ended (by the rules: 0-3 by finishing
    # order) and the rest are cut (minus the pieces held); B's stricter challenge window ends all ten.
    args = ["compare", "yukushi", "yukushi", "-b", "challenge_until=response", "--agents", "default", "-n", "10",
            "--seed", "2", "--no-timings", "--moves", "250"]
    r = run(*args, "--format", "json")
    assert r.returncode == 0, r.stderr
    rep = json.loads(r.stdout)
    a, b = rep["a"], rep["b"]
    assert 0 < a["truncated"] < a["games"]  # the mix the scores must not mix
    for side in (a, b):
        assert all(score["max"] <= 0 for score in side["scores"])  # a game that ended is scored by pieces held too
        assert side["score_measure"] == "minus pieces held"
        ended = side["games"] - side["truncated"]
        assert all(sc.get("n", 0) == ended for sc in side["ended_rules_scores"])
    assert max(sc["max"] for sc in b["ended_rules_scores"]) == 3  # the rules' own scale, kept apart
    text = run(*args)
    assert text.returncode == 0, text.stderr
    assert "every game's score, ended or cut, is minus the pieces held when it stopped" in text.stdout
    ended_a = a["games"] - a["truncated"]
    assert f"the rules' scores of the {ended_a} games that ended before the cut:" in text.stdout
    assert "mean score (minus pieces held)" in text.stdout


def test_without_moves_scores_are_the_rules_own() -> None:
    from rulecraft.load import load_ruleset
    from rulecraft.runs.simulate import play_record

    rs = load_ruleset("yukushi")
    rec = play_record(rs, 2, 0, ["default"] * 4)
    assert "rules_scores" not in rec
    assert sorted(rec["scores"]) == [0, 1, 2, 3]  # finishing order, as the match's score says
    cut = play_record(rs, 2, 0, ["default"] * 4, max_moves=10_000)  # ends before the bound: the same game
    assert cut["rules_scores"] == rec["scores"] and cut["winners"] == rec["winners"]
    assert max(cut["scores"]) == 0 and cut["scores"] != rec["scores"]


def test_precision_follows_the_interval() -> None:
    from rulecraft.cli.compare_cmd import with_ci

    assert with_ci(12.3456, [2.0, 22.7]) == "+12 [+2, +23]"
    assert with_ci(0.123456, [0.1, 0.15]) == "+0.123 [+0.100, +0.150]"
    assert with_ci(-1.5, None) == "-1.5"
