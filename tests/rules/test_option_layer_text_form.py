"""An option's patch is attributed to the option in a `.rules` file as in YAML (``explain``'s layer and
``--changed``): the text form's mappings carry no end position, so the patch's span is read off its values."""

from __future__ import annotations

from pathlib import Path

from rulecraft.rules.compose import compose

TEXT = """name tiny
options
  goal: "How far the game goes."
    default short
    choices
      short: "To 10.", patch {}
      long: "To 20.", patch.constants.target 20
      longer: "To 30 with two rounds."
        patch
          constants {target 30, rounds 2}
seats {count 2}
constants {target 10, rounds 1}
"""


def _layers(tmp_path: Path, choice: str) -> dict[str, str]:
    f = tmp_path / "tiny.rules"
    f.write_text(TEXT, encoding="utf-8")
    composed = compose(str(f), {"goal": choice})
    return {e.path: e.origin.layer for e in composed.provenance.entries.values()}


def test_a_path_key_patch_belongs_to_its_option(tmp_path: Path) -> None:
    layers = _layers(tmp_path, "long")
    assert layers["constants.target"].startswith("option goal=long")
    assert not layers["constants.rounds"].startswith("option")  # the base value, untouched


def test_a_block_patch_belongs_to_its_option(tmp_path: Path) -> None:
    layers = _layers(tmp_path, "longer")
    assert layers["constants.target"].startswith("option goal=longer")
    assert layers["constants.rounds"].startswith("option goal=longer")
    assert not layers["seats.count"].startswith("option")
