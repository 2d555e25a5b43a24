"""A long text in a ``.rules`` file is read in time and memory proportional to it (found by
tests/hardening/fuzz_commands.py)."""

from __future__ import annotations

import resource

from cli_support import Cli

CAP = 400 * 1024 * 1024


def capped() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (CAP, CAP))


def with_description(cli: Cli, text: str) -> None:
    tiny = cli.tiny().read_text(encoding="utf-8")
    cli.write("long.yaml", tiny.replace("title: Tiny tricks\n", f'title: Tiny tricks\ndescription: "{text}"\n'))


def test_a_megabyte_description_converts_and_validates_in_the_text_form(cli: Cli) -> None:
    # The expression grammar's STRING pattern, '(plain|escape)*', took ~480 bytes a character in Python's
    # regex engine: convert (which reads its output back) and validate of the .rules file ran out of memory.
    with_description(cli, "a b " * 400_000)
    r = cli.process("convert", "long.yaml", "long.rules", preexec_fn=capped)
    assert (r.returncode, r.stderr, r.stdout) == (0, "", "wrote long.rules (1,601,352 characters, from "
                                                         "1,601,789 bytes)\n")
    r = cli.process("validate", "long.rules", preexec_fn=capped)
    assert (r.returncode, r.stderr) == (0, "")
    assert r.stdout.startswith("ok: 1 file valid (")


def test_a_text_of_many_escapes_is_read_in_seconds(cli: Cli) -> None:
    # Each escape summed the length of the value so far: 20,000 escaped quotes took 6.7 s, 50,000 about 40 s.
    with_description(cli, 'a \\" b ' * 50_000)
    r = cli("convert", "long.yaml", "long.rules")  # cli holds it to a few seconds of CPU
    assert (r.code, r.err, r.out) == (0, "", "wrote long.rules (351,352 characters, from 351,789 bytes)\n")
    r = cli("validate", "long.rules")
    assert (r.code, r.err) == (0, "")
    assert r.out.startswith("ok: 1 file valid (")


def test_a_key_path_deeper_than_a_file_may_nest_is_refused_at_the_key(cli: Cli) -> None:
    # Each step of 'a.b.c' nests a mapping: 300,000 steps made a value too deep to cache (RecursionError,
    # exit 3), after 300 MB in the key's pattern. YAML refuses the same nesting at 65 levels.
    cli.write("deep.rules", "name x\n" + "a" + ".a" * 300_000 + " 1\n")
    r = cli.process("validate", "deep.rules", preexec_fn=capped)
    assert (r.returncode, r.stderr) == (1, "")
    assert r.stdout.splitlines()[0] == ("deep.rules:2:1: error: this key nests lists and mappings 300,001 levels deep "
                                        "or more; the limit is 64 levels")


def test_a_line_of_more_words_than_a_file_may_hold_values_is_refused_at_the_first_too_many(cli: Cli) -> None:
    # A list of words had no bound: 300,000 located strings took 360 MB (a million, 1.2 GB), where a YAML
    # file stops at 100,000 values.
    cli.write("words.rules", "name x\nvalues " + "ab " * 300_000 + "\n")
    r = cli.process("validate", "words.rules", preexec_fn=capped)
    assert (r.returncode, r.stderr) == (1, "")
    assert r.stdout.splitlines()[0] == "words.rules:2:300005: error: the file holds more than 100,000 values"
