"""option('id'): the chosen choice, read from an id written out in the rule text.

The content hash (rules/compose.py) finds the options the rules read by the text of their calls, so
two choices whose patches are alike still hash apart; the compiler refuses every form of the call
that text search could miss, and an id no option has."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulecraft.errors import RuleFileError
from rulecraft.load import load_ruleset
from rulecraft.rules.compose import compose

TOY = """\
name: toy
seats: {{count: 2}}
zones: [{{id: hand, per: seat, visibility: owner}}]
pieces: [{{id: a, attributes: {{rank: 1}}}}]
variables: {{x: {{scope: hand, initial: 0}}}}
constants: {{low_id: low}}
functions:
  read(o): "{read}"
hand:
  phases:
    - id: score
      kind: effects
      effects: [{{set: {{x: {expr}}}}}]
options:
  - id: low
    default: dealt
    choices: [{{id: dealt, patch: {{}}}}, {{id: taker, patch: {{}}}}]
"""


def _write(tmp_path: Path, expr: str, read: str = "o") -> str:
    path = tmp_path / "toy.yaml"
    path.write_text(TOY.format(expr=expr, read=read), encoding="utf-8")
    return str(path)


# Every way the expression grammar writes a call with a text argument.
WRITTEN = [
    "\"1 if option('low') == 'dealt' else 2\"",
    "'1 if option(\"low\") == \"dealt\" else 2'",
    "\"1 if option( 'low' , ) == 'dealt' else 2\"",
    "\"1 if option\\n('low') == 'dealt' else 2\"",
    "\"1 if option('lo\\\\x77') == 'dealt' else 2\"",  # an escape in the id: 'lo\x77' is 'low'
]


@pytest.mark.parametrize("expr", WRITTEN)
def test_each_written_form_is_read_and_hashed(tmp_path: Path, expr: str) -> None:
    ref = _write(tmp_path, expr)
    dealt, taker = load_ruleset(ref, {"low": "dealt"}), load_ruleset(ref, {"low": "taker"})
    assert dealt.content_hash != taker.content_hash  # the patches are alike: only the read tells them apart
    assert compose(ref, {"low": "dealt"}).content_hash == dealt.content_hash


@pytest.mark.parametrize(("expr", "read", "message"), [
    ("\"option('lo' + 'w')\"", "o", "argument 1 of option() must be written out"),
    ("\"option(low_id)\"", "o", "argument 1 of option() must be written out"),
    ("\"read('low')\"", "option(o)", "in function 'read': argument 1 of option() must be written out"),
    ("\"option('lwo')\"", "o", "there is no option 'lwo' (options: low)"),
])
def test_forms_text_search_would_miss_are_refused_where_written(tmp_path: Path, expr: str, read: str,
                                                                 message: str) -> None:
    ref = _write(tmp_path, expr, read)
    with pytest.raises(RuleFileError) as info:
        load_ruleset(ref)
    assert message in str(info.value)
    assert "toy.yaml:" in str(info.value)


def test_the_choice_is_what_the_rules_read(tmp_path: Path) -> None:
    from rulecraft.engine.game import Game
    ref = _write(tmp_path, "\"1 if option('low') == 'dealt' else 2\"")
    for choice, want in (("dealt", 1), ("taker", 2)):
        rs = load_ruleset(ref, {"low": choice})
        st = Game(rs, 1, 1).new_state()
        assert st.vars[rs.variables.index(next(v for v in rs.variables if v.name == "x"))] == want
