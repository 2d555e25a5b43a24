"""A ``.rules`` file of very many items is read in bounded memory, as a YAML file is.

A 1.5 MB list of 150,000 names peaked at 530 MB inside lark, before the builder counted a value: the
expression grammar keeps a node for each of or/and/comparison/sum/product even with one child, so a name
was seven nodes with their positions. The parser now drops those nodes as it reduces, and a file of more
than 400,000 tokens is refused where the token past the limit is (a bundled rule file holds about 600; a
file of 100,000 values, the YAML reader's bound, written one a line, 300,000).
"""

from __future__ import annotations

import resource

from cli_support import Cli

CAP = 400 * 1024 * 1024


def capped() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (CAP, CAP))


def test_a_list_of_150000_items_is_refused_at_the_token_limit_in_bounded_memory(cli: Cli) -> None:
    cli.write("long.rules", "name x\nnotes\n" + "".join(f"  - x{i}\n" for i in range(150_000)))
    r = cli.process("validate", "long.rules", preexec_fn=capped, timeout=900)  # (a few seconds of CPU)
    assert (r.returncode, r.stderr) == (1, "")
    # three tokens an item ('-', the name, the line end) after the four of the first two lines: the 400,001st is
    # the end of line 133,334
    assert r.stdout.splitlines()[0] == ("long.rules:133334:12: error: the file holds 400,001 tokens or more; the "
                                        "limit is 400,000 tokens")


def test_a_list_of_99000_items_one_a_line_is_read_in_bounded_memory(cli: Cli) -> None:
    # as 'convert' writes a YAML file's list of 99,000 values (the YAML reader takes up to 100,000)
    cli.tiny()
    assert cli("convert", "tiny.yaml", "many.rules").code == 0
    text = (cli.cwd / "many.rules").read_text(encoding="utf-8")
    assert text.count("\nconstants {bonus 10}\n") == 1
    cli.write("many.rules", text.replace("\nconstants {bonus 10}\n", "\nconstants\n  bonus 10\n  many\n" +
                                         "    - a\n" * 99_000))
    r = cli.process("validate", "many.rules", preexec_fn=capped, timeout=900)
    assert (r.returncode, r.stderr) == (0, ""), r.stdout
    assert r.stdout.startswith("ok: 1 file valid (")


def test_an_expression_keeps_its_text_and_place_when_its_nodes_are_dropped(cli: Cli) -> None:
    from rulecraft.rules.textload import load_rules_text

    data = load_rules_text("a [x, 1 + 2*y, (z)]\nb not q or r\n", "t.rules")
    assert [str(v) for v in data["a"]] == ["x", "1 + 2*y", "z"]
    assert [(v.pos.line, v.pos.col) for v in data["a"]] == [(1, 4), (1, 7), (1, 17)]
    assert (str(data["b"]), data["b"].pos.col) == ("not q or r", 3)
