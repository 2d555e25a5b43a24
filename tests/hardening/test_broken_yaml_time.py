"""A large YAML file with a syntax error near its end gets PyYAML's message without PyYAML reading it all.

libyaml reads rule files; a file it refuses was read again whole by PyYAML's pure-Python reader for its
messages (and the hints written for them): an 880 KB file took 4-6 s to refuse. PyYAML now reads from the
last top-level key before the place libyaml names, and says what the whole reading said.
"""

from __future__ import annotations

from typing import Any

import pytest

from rulecraft.errors import RuleFileError
from rulecraft.rules import yamlload

NOTES = "".join(f'  - "note number {i}, long enough to make the file large"\n' for i in range(15_000))
HEAD = "name: big\n# a comment\nnotes:\n" + NOTES + "seats: {count: 4}\n"

BROKEN_ENDS = [
    "broken: [1, 2\nother: 3\n",  # a flow sequence not closed
    "other: 3\n  bad: x\n",  # indented under a plain value
    "a:\n  b: 1\n c: 2\n",  # a key that lines up with nothing
    "a: 'open\n",  # a quote not closed
    "a: {x: 1, y\n",
    "a: b: c\n",
    "a: @x\n",
    "- item\n",  # a list item in a mapping
]


def message(text: str) -> str:
    with pytest.raises(RuleFileError) as info:
        yamlload.parse_yaml_text(text, "big.yaml")
    return str(info.value)


@pytest.mark.parametrize("end", BROKEN_ENDS)
def test_the_message_is_the_whole_readings_and_pyyaml_reads_only_the_end(end: str,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    text = HEAD + end
    assert len(text) > 800_000
    read: list[int] = []
    real = yamlload._PyLoader

    def counting(stream: str) -> Any:
        read.append(len(stream))
        return real(stream)

    monkeypatch.setattr(yamlload, "_PyLoader", counting)
    fast = message(text)
    assert read and max(read) < 1000, read  # the last section, not 800 KB
    monkeypatch.setattr(yamlload, "_raise_from_last_section", lambda text, error: None)
    read.clear()
    whole = message(text)
    assert read == [len(text)]
    assert fast == whole
    assert int(fast.split(":")[1]) > HEAD.count("\n")  # (the error is in the last lines)


def test_an_alias_after_the_cut_to_an_anchor_above_it_is_read_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    text = "base: &b {x: 1}\n" + HEAD + "broken: [*b, 1\n"
    read: list[int] = []
    real = yamlload._PyLoader
    monkeypatch.setattr(yamlload, "_PyLoader", lambda stream: read.append(len(stream)) or real(stream))
    assert message(text).startswith(f"big.yaml:{text.count(chr(10)) + 1}:")
    assert max(read) == len(text)  # (PyYAML, from the cut, would not know the anchor)
