"""The size of every bundled rule file in the text form (``.rules``, as ``rulecraft convert`` writes it)
against its YAML, in characters: the table of ``docs/rule-dsl.md`` (issue 19's target: at most 75%).

    python benchmarks/rules_sizes.py                          # the table, and where the characters go
    python benchmarks/rules_sizes.py --before df53edd~2       # with the ratios the printer of a revision gave
    python benchmarks/rules_sizes.py --before REV --write      # and replace the table in docs/rule-dsl.md

``--before`` runs this script on the ``src`` of that git revision (the same YAML files, its printer).

Where the characters go: *kept* is what both forms hold as written (the text of quoted strings, the
descriptions, notes and citations, and the comments); *quotes* the quote marks and escapes around that
text; *indent* the indentation; *rest* everything else: keys, names, numbers, formulas, punctuation,
spaces and line ends. *rest at 75%* is how many characters the rest may have for the file to be at 75%.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

from rulecraft.rules.convert import read_annotated, render

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "rule-dsl.md"
TOKENS = re.compile(r'"((?:[^"\\\n]|\\.)*)"|\'((?:[^\'\\\n]|\\.)*)\'|(#[^\n]*)|(\n *)')


def parts(text: str) -> dict[str, int]:
    """The characters of a text form, by kind (see the module's docstring)."""
    out = {"kept": 0, "quotes": 0, "indent": 0, "rest": 0}
    at = 0
    for m in TOKENS.finditer(text):
        out["rest"] += m.start() - at
        at = m.end()
        if m.group(3) is not None:
            out["kept"] += len(m.group(3))
        elif m.group(4) is not None:
            out["rest"] += 1
            out["indent"] += len(m.group(4)) - 1
        else:
            body = m.group(1) if m.group(1) is not None else m.group(2)
            escapes = len(re.findall(r"\\.", body))
            out["kept"] += len(body) - escapes
            out["quotes"] += 2 + escapes
    out["rest"] += len(text) - at
    return out


def sizes() -> dict[str, tuple[int, int]]:
    """Each bundled YAML file's characters and those of its text form."""
    out = {}
    for path in sorted((ROOT / "variants").glob("*/*.yaml")):
        out[path.relative_to(ROOT).as_posix()] = (len(path.read_text("utf-8")),
                                                  len(render(read_annotated(path), to_text=True)))
    return out


def sizes_at(rev: str) -> dict[str, tuple[int, int]]:
    """:func:`sizes` with the printer of git revision ``rev``."""
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "src"], check=True,
                                 capture_output=True).stdout
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(tmp, filter="data")
        env = {**os.environ, "PYTHONPATH": str(Path(tmp) / "src"), "XDG_CACHE_HOME": str(Path(tmp) / "cache")}
        out = subprocess.run([sys.executable, __file__, "--json"], check=True, capture_output=True, text=True,
                             env=env).stdout
    return {k: (v[0], v[1]) for k, v in json.loads(out).items()}


def ratio(text: int, yaml: int) -> str:
    return f"{text / yaml:.0%}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--write", action="store_true", help="replace the table in docs/rule-dsl.md")
    ap.add_argument("--before", metavar="REV", help="also the ratios the printer of this git revision gave")
    ap.add_argument("--json", action="store_true", help=argparse.SUPPRESS)  # the sizes only, for --before
    args = ap.parse_args()
    now = sizes()
    if args.json:
        print(json.dumps(now))
        return 0
    before = sizes_at(args.before) if args.before else {}
    rows = ["| file | YAML | .rules | ratio |", "|---|---|---|---|"]
    detail = ["| file | kept | quotes | indent | rest | rest at 75% |", "|---|---|---|---|---|---|"]
    total_y = total_t = total_b = 0
    for name, (n_yaml, n_text) in now.items():
        total_y += n_yaml
        total_t += n_text
        was = ""
        if name in before:
            total_b += before[name][1]
            was = f" ({ratio(before[name][1], before[name][0])})"
        rows.append(f"| `{name}` | {n_yaml:,} | {n_text:,} | {ratio(n_text, n_yaml)}{was} |")
        p = parts(render(read_annotated(ROOT / name), to_text=True))
        budget = int(0.75 * n_yaml) - p["kept"] - p["quotes"] - p["indent"]
        detail.append(f"| `{name}` | {p['kept']:,} | {p['quotes']:,} | {p['indent']:,} | {p['rest']:,} | {budget:,} |")
    was = f" ({ratio(total_b, total_y)})" if before else ""
    rows.append(f"| all | {total_y:,} | {total_t:,} | {ratio(total_t, total_y)}{was} |")
    table = "\n".join(rows)
    print(table)
    print()
    print("\n".join(detail))
    if args.write:
        doc = DOC.read_text("utf-8")
        new, n = re.subn(r"(<!-- sizes -->\n)(?:.*?\n)?(<!-- /sizes -->)",
                         lambda m: m.group(1) + table + "\n" + m.group(2), doc, flags=re.S)
        if n != 1:
            print("docs/rule-dsl.md has no <!-- sizes --> ... <!-- /sizes --> markers", file=sys.stderr)
            return 1
        DOC.write_text(new, "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
