"""The figures the documentation shows that are made from the code: remake them, or say what is stale.

    python tests/docs/regenerate.py            # rewrite every generated block of the docs
    python tests/docs/regenerate.py --check    # change nothing; exit 1 and name each stale block

Generated blocks sit between ``<!-- NAME -->`` and ``<!-- /NAME -->`` markers:

- ``games`` in ``README.md``: every bundled ruleset (``rulecraft list``), its title, its options with their
  choices (the default in bold) and its presets; an overlay by what it changes of its base's defaults;
- ``sizes`` in ``docs/rule-dsl.md``: each bundled rule file's characters in YAML and in the text form,
  as ``benchmarks/rules_sizes.py`` measures them (its ``--write`` writes the same block).

``tests/docs/test_figures.py`` fails when a block is not what this script would write, so a game added
to ``variants/`` (or an option added, a title changed) cannot leave the README's list behind unnoticed.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
REGENERATE = "python tests/docs/regenerate.py"


def rulecraft_json(*args: str) -> Any:
    out = subprocess.run([sys.executable, "-m", "rulecraft.cli.main", *args, "--format", "json"], cwd=ROOT,
                         capture_output=True, text=True, check=True, timeout=300)
    return json.loads(out.stdout)


def games_table() -> str:
    """The README's table of bundled rulesets, from ``rulecraft list --format json``."""
    entries = {e["name"]: e for e in rulecraft_json("list")}
    rows = ["| ruleset | game | options: `-o NAME=CHOICE` (the default in bold) | presets |", "|---|---|---|---|"]
    for name, e in entries.items():
        base = entries.get(name.split("/")[0]) if "/" in name else None
        if base is not None and [o["id"] for o in base["options"]] == [o["id"] for o in e["options"]]:
            defaults = {o["id"]: o["default"] for o in base["options"]}
            changed = [f"`{o['id']}={o['default']}`" for o in e["options"] if o["default"] != defaults[o["id"]]]
            options = f"as `{base['name']}`" + (f", by default {', '.join(changed)}" if changed else "")
        else:
            options = "; ".join(f"`{o['id']}`: " + ", ".join(_choices(o)) for o in e["options"]) or "–"
        presets = ", ".join(f"`{p['id']}`" for p in e["presets"]) or "–"
        rows.append(f"| `{name}` | {e['title']} | {options} | {presets} |")
    return "\n".join(rows)


def _choices(option: dict[str, Any]) -> list[str]:
    return [f"**{c['id']}**" if c["id"] == option["default"] else c["id"] for c in option["choices"]]


def sizes_table() -> str:
    """The table ``benchmarks/rules_sizes.py`` prints first (its ``--write`` puts it in docs/rule-dsl.md)."""
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "rules_sizes.py")], cwd=ROOT,
                         capture_output=True, text=True, check=True, timeout=300).stdout
    return out.split("\n\n", 1)[0].strip()


BLOCKS: dict[str, tuple[str, Callable[[], str]]] = {
    "games": ("README.md", games_table),
    "sizes": ("docs/rule-dsl.md", sizes_table),
}


def block(text: str, name: str) -> str | None:
    """What a page holds between ``<!-- name -->`` and ``<!-- /name -->`` (None: no such markers)."""
    m = re.search(rf"<!-- {name} -->\n(.*?)\n?<!-- /{name} -->", text, flags=re.S)
    return m.group(1).strip() if m else None


def replace(text: str, name: str, new: str) -> str:
    return re.sub(rf"(<!-- {name} -->\n).*?(<!-- /{name} -->)", lambda m: m.group(1) + new + "\n" + m.group(2),
                  text, count=1, flags=re.S)


def stale() -> list[str]:
    """Each generated block that differs from what would be written now, as 'page: block'."""
    out = []
    for name, (page, make) in BLOCKS.items():
        if block((ROOT / page).read_text(encoding="utf-8"), name) != make():
            out.append(f"{page}: <!-- {name} -->")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="change nothing; exit 1 when a block is stale")
    args = ap.parse_args()
    if args.check:
        found = stale()
        for where in found:
            print(f"stale: {where} (run {REGENERATE})")
        return 1 if found else 0
    for name, (page, make) in BLOCKS.items():
        path = ROOT / page
        text = path.read_text(encoding="utf-8")
        if block(text, name) is None:
            print(f"{page} has no <!-- {name} --> ... <!-- /{name} --> markers", file=sys.stderr)
            return 1
        new = replace(text, name, make())
        if new != text:
            path.write_text(new, encoding="utf-8")
            print(f"rewrote {page}: <!-- {name} -->")
    return 0


if __name__ == "__main__":
    sys.exit(main())
