"""A short rule file that would make millions of pieces is refused at the entry, before any is made.

``generate`` with two lists of a thousand values (a 2 kB file) ran for minutes; ``copies: 100000000`` ran
out of memory (an internal MemoryError).
"""

from __future__ import annotations

from cli_support import Cli, error_lines

ENTRY = '    generate: {suit: [a, b], rank: [1, 2, 3]}\n'


def test_a_generated_product_too_large_is_refused_at_its_entry(cli: Cli) -> None:
    values = ", ".join(str(i) for i in range(1000))
    text = cli.tiny().read_text(encoding="utf-8").replace(
        ENTRY, f'    generate: {{suit: [{values}], rank: [{values}]}}\n    where: "rank > suit"\n')
    cli.write("big.yaml", text)
    for args in (("validate", "big.yaml"), ("simulate", "big.yaml", "-n", "1")):
        r = cli(*args)
        assert r.code == 1
        assert error_lines(r.out + r.err)[0] == (
            "big.yaml:10:5: error: this entry makes 1,000,000 pieces; the limit is 10,000 pieces (each combination "
            "generated, times its copies, is a piece)")


def test_copies_count_and_so_do_the_entries_before(cli: Cli) -> None:
    text = cli.tiny().read_text(encoding="utf-8")
    cli.write("copies.yaml", text.replace(ENTRY, ENTRY + "    copies: 100000000\n"))
    r = cli("validate", "copies.yaml")
    assert error_lines(r.out) == ["copies.yaml:10:5: error: this entry makes 600,000,000 pieces; the limit is 10,000 "
                                  "pieces (each combination generated, times its copies, is a piece)"]
    cli.write("two.yaml", text.replace(ENTRY, ENTRY + "    copies: 1666\n  - {id: joker, copies: 5}\n"))
    r = cli("validate", "two.yaml")  # 6 × 1,666 = 9,996 pieces, then 5 more
    assert error_lines(r.out) == ["two.yaml:13:5: error: with this entry the file makes 10,001 pieces; the limit is "
                                  "10,000 pieces (each combination generated, times its copies, is a piece)"]


def test_at_the_limit_a_set_is_made(cli: Cli) -> None:
    text = cli.tiny().read_text(encoding="utf-8")
    cli.write("many.yaml", text.replace(ENTRY, ENTRY + "    copies: 1666\n"))
    r = cli("validate", "--no-build", "many.yaml")
    assert r.code == 0
    from rulecraft.load import load_ruleset

    assert len(load_ruleset(str(cli.cwd / "many.yaml")).pieces.type_of) == 9_996


def test_a_where_that_keeps_nothing_is_named_not_the_attributes_it_took_away(cli: Cli) -> None:
    """Every rule reading 'suit' or 'rank' said "unknown function 'rank'", far from the cause."""
    text = cli.tiny().read_text(encoding="utf-8")
    for where, column in (("false", 5), ('"rank > 5"', 13)):
        cli.write("none.yaml", text.replace(ENTRY, ENTRY + f"    where: {where}\n"))
        r = cli("validate", "none.yaml")
        assert r.code == 1
        assert error_lines(r.out) == [
            f"none.yaml:12:{column}: error: this 'where' keeps none of the 6 pieces its generator makes, so no "
            "piece has the attributes 'suit', 'rank' that rules would read"]


def test_a_generator_emptied_by_its_where_is_allowed_when_other_pieces_have_its_attributes(cli: Cli) -> None:
    text = cli.tiny().read_text(encoding="utf-8")
    extra = '  - id: "x-{suit}-{rank}"\n    generate: {suit: [c], rank: [4, 5]}\n    where: "rank > 5"\n'
    cli.write("extra.yaml", text.replace(ENTRY, ENTRY + extra))
    r = cli("validate", "extra.yaml")
    assert r.code == 0, r.out
