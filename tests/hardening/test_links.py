"""Symbolic links as outputs: written through, so a link stays a link; one that cannot be followed is refused.

Every file was written as a temporary file renamed over the path, and the rename replaced a link with a
plain file: ``fmt`` of a linked .rules file cut the link and left the file it named unformatted, and a
link in a loop was taken for a free name.
"""

from __future__ import annotations

import os

from cli_support import Cli, error_lines


def test_fmt_of_a_linked_file_formats_the_file_and_keeps_the_link(cli: Cli) -> None:
    cli.tiny()
    (cli.cwd / "shared").mkdir()
    assert cli("convert", "tiny.yaml", "shared/tiny.rules").code == 0
    target = cli.cwd / "shared" / "tiny.rules"
    formatted = target.read_text(encoding="utf-8")
    target.write_text(formatted.replace("name tiny", "name   tiny", 1), encoding="utf-8")
    os.symlink("shared/tiny.rules", cli.cwd / "tiny.rules")
    r = cli("fmt", "tiny.rules")
    assert (r.code, r.out) == (0, "formatted tiny.rules\n")
    assert os.readlink(cli.cwd / "tiny.rules") == "shared/tiny.rules"
    assert target.read_text(encoding="utf-8") == formatted


def test_convert_force_onto_a_link_replaces_what_it_names(cli: Cli) -> None:
    cli.tiny()
    cli.write("old.rules", "name old\n")
    os.symlink("old.rules", cli.cwd / "out.rules")
    assert cli("convert", "--force", "tiny.yaml", "out.rules").code == 0
    assert os.readlink(cli.cwd / "out.rules") == "old.rules"
    assert (cli.cwd / "old.rules").read_text(encoding="utf-8").startswith("# yaml-language-server")


def test_a_link_in_a_loop_is_refused_as_an_output(cli: Cli) -> None:
    cli.tiny()
    os.symlink("b.jsonl", cli.cwd / "a.jsonl")
    os.symlink("a.jsonl", cli.cwd / "b.jsonl")
    r = cli("play", "tiny.yaml", "--seed", "1", "--log", "a.jsonl")
    assert r.code == 2
    assert error_lines(r.err) == ["error: --log a.jsonl: a symbolic link that cannot be followed (Too many levels of "
                                  "symbolic links)"]
    os.symlink("c.rules", cli.cwd / "d.rules")
    os.symlink("d.rules", cli.cwd / "c.rules")
    r = cli("convert", "tiny.yaml", "c.rules")
    assert r.code == 1
    assert error_lines(r.err) == ["error: cannot write c.rules: a symbolic link that cannot be followed (Too many "
                                  "levels of symbolic links)"]
    assert os.readlink(cli.cwd / "c.rules") == "d.rules"
    assert os.readlink(cli.cwd / "a.jsonl") == "b.jsonl"


def test_a_link_in_a_loop_among_scenarios_is_an_error_at_the_link(cli: Cli) -> None:
    # Python before 3.13 raises RuntimeError (not OSError) resolving such a link: 'test' of the folder was an
    # internal error.
    (cli.cwd / "suite").mkdir()
    os.symlink("b.yaml", cli.cwd / "suite" / "a.yaml")
    os.symlink("a.yaml", cli.cwd / "suite" / "b.yaml")
    for args in (("test", "suite"), ("test", "--coverage", "suite")):
        r = cli(*args)
        assert r.code == 1
        assert "suite/a.yaml:1:1: error: cannot read the file: Too many levels of symbolic links" in r.out + r.err


def test_a_ruleset_that_is_no_file_says_what_it_is(cli: Cli) -> None:
    # Each was 'no such rule file', though there is something by that name.
    os.mkfifo(cli.cwd / "fifo.yaml")
    os.symlink("nowhere.yaml", cli.cwd / "dangling.yaml")
    os.symlink("l2.yaml", cli.cwd / "l1.yaml")
    os.symlink("l1.yaml", cli.cwd / "l2.yaml")
    for name, message in [("fifo.yaml", "error: fifo.yaml: not a regular file (a rule file is a file of text)"),
                          ("dangling.yaml", "error: dangling.yaml: a symbolic link to a file that does not exist"),
                          ("l1.yaml", "error: l1.yaml: cannot read it (Too many levels of symbolic links)"),
                          ("missing.yaml", "error: no such rule file: missing.yaml")]:
        r = cli("simulate", name, "-n", "1")
        assert (r.code, error_lines(r.err)) == (2, [message])
