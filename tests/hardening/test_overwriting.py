"""Nothing a user wrote is destroyed: rulecraft writes only new files, or files that are its own
(this game's save, a PNG it could have drawn)."""

from __future__ import annotations

import pytest
from cli_support import Cli


def test_two_new_games_get_two_saves(cli: Cli) -> None:
    cli.tiny()
    first = cli("play", "tiny.yaml", "--seed", "7")  # stdin is empty: the game is saved at once
    second = cli("play", "tiny.yaml", "--seed", "7")
    assert first.out.splitlines()[-1] == ("game saved to rulecraft-tiny-7.jsonl; continue with: rulecraft play "
                                          "--resume rulecraft-tiny-7.jsonl")
    assert second.out.splitlines()[-1] == ("game saved to rulecraft-tiny-7-2.jsonl; continue with: rulecraft play "
                                           "--resume rulecraft-tiny-7-2.jsonl")
    assert (cli.cwd / "rulecraft-tiny-7.jsonl").read_text() != ""
    # resuming saves to the file resumed: the game's own save
    third = cli("play", "tiny.yaml", "--resume", "rulecraft-tiny-7.jsonl")
    assert third.out.splitlines()[-1].startswith("game saved to rulecraft-tiny-7.jsonl;")


@pytest.mark.parametrize("existing", ["notes.txt", "rulecraft-tiny-1.jsonl"])
def test_log_never_replaces_a_file(cli: Cli, existing: str) -> None:
    cli.tiny()
    cli.write(existing, "my notes\n")
    message = (f"error: --log {existing}: the file exists; a new game is saved to a new file, so that nothing is "
               "overwritten (continue a saved game with --resume)\n")
    r = cli("play", "tiny.yaml", "--seed", "1", "--log", existing)
    assert (r.code, r.out, r.err) == (2, "", message)
    assert (cli.cwd / existing).read_text() == "my notes\n"


def test_resume_into_another_existing_file_is_refused(cli: Cli) -> None:
    cli.tiny()
    cli("play", "tiny.yaml", "--seed", "3", "--log", "game.jsonl")
    cli.write("notes.txt", "my notes\n")
    r = cli("play", "tiny.yaml", "--resume", "game.jsonl", "--log", "notes.txt")
    assert (r.code, r.err) == (2, "error: --log notes.txt: the file exists; a new game is saved to a new file, so that "
                                  "nothing is overwritten (continue a saved game with --resume)\n")
    assert (cli.cwd / "notes.txt").read_text() == "my notes\n"


def test_a_second_run_into_the_same_log_dir_is_refused(cli: Cli) -> None:
    cli.tiny()
    assert cli("simulate", "tiny.yaml", "-n", "2", "--log-dir", "logs").code == 0
    kept = (cli.cwd / "logs" / "game-000000.jsonl").read_text()
    r = cli("simulate", "tiny.yaml", "-n", "2", "--seed", "9", "--log-dir", "logs")
    assert (r.code, r.err) == (2, "error: --log-dir logs: already holds game logs (game-000000.jsonl and 1 more); "
                                  "give a new or empty directory, so that no log is overwritten\n")
    assert (cli.cwd / "logs" / "game-000000.jsonl").read_text() == kept


def test_plot_replaces_only_an_image(cli: Cli) -> None:
    pytest.importorskip("matplotlib", reason="matplotlib is not installed (extra 'plot')")
    cli.tiny()
    cli.write("notes.txt", "my notes\n")
    r = cli("compare", "tiny.yaml", "tiny.yaml", "-n", "2", "--plot", "notes.txt")
    assert (r.code, r.err) == (2, "error: --plot notes.txt: the file exists and is not a PNG image; rulecraft replaces "
                                  "only an image it could have drawn: choose another name\n")
    assert (cli.cwd / "notes.txt").read_text() == "my notes\n"
    assert cli("compare", "tiny.yaml", "tiny.yaml", "-n", "2", "--plot", "p.png").code == 0
    assert cli("compare", "tiny.yaml", "tiny.yaml", "-n", "2", "--plot", "p.png").code == 0  # its own image: replaced
