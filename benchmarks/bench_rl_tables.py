"""Write the generated tables of docs/research-api.md: sizes from the code, speeds measured here.

    python benchmarks/bench_rl_tables.py            # the sizes table (what tests/rl/test_docs.py checks)
    python benchmarks/bench_rl_tables.py --speeds   # and the speeds tables, measured now (a few minutes)
    python benchmarks/bench_rl_tables.py --check    # exit 1 when the doc's sizes differ from the code's

Each table sits between two marker lines in the doc (``<!-- generated: sizes -->`` ...
``<!-- end: sizes -->``) and is replaced whole. Sizes depend on the code only, and a test fails when
the doc disagrees with it; speeds depend on the machine and its load, so the table says how and when
they were measured (as ratios in the same run, which travel between machines better than rates).
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from rulecraft.load import load_ruleset
from rulecraft.rl.encoding import Encoding
from rulecraft.rules.registry import list_bundled

DOC = Path(__file__).resolve().parents[1] / "docs" / "research-api.md"
SPEED_RULESETS = ("hearts", "rook", "big-two", "luk-fu")


def sizes_table() -> str:
    """Every bundled ruleset's action ids and observation sizes, read from its encoding."""
    lines = ["| ruleset | seats | action ids | observation | information state | piece planes (zones x types) |",
             "|---|---:|---:|---:|---:|---|"]
    for ref in list_bundled():
        enc = Encoding(load_ruleset(ref))
        lines.append(f"| `{ref}` | {enc.seats} | {enc.num_actions:,} | {enc.size:,} | {enc.recall_size:,} "
                     f"| {enc.rs.zone_instance_count} x {enc.types} |")
    return "\n".join(lines)


def openspiel_rate(ref: str, seconds: float) -> float:
    """Random OpenSpiel actions per CPU second (chance outcomes included), one-hand games."""
    from rulecraft.rl.openspiel import load_game

    game = load_game(ref, max_hands=1)
    rng = random.Random(1)
    actions, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, weights)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            actions += 1
    return actions / (time.process_time() - start)


def speeds_table(rounds: int) -> str:
    from bench_rl import measure

    from rulecraft.rl.pettingzoo import env  # noqa: F401  (the adapter must import before timing starts)

    before_env = None
    import tempfile

    from ab_playouts import _load, _source

    with tempfile.TemporaryDirectory(prefix="rulecraft-rl-") as tmp:
        work = Path(tmp)
        (work / "rev").mkdir()
        _load(_source("cf832a3", work / "rev"), "rulecraft_before", work)
        before_env = __import__("rulecraft_before.rl.pettingzoo", fromlist=["env"]).env
        lines = ["| ruleset | raw engine moves/s | PettingZoo steps/s | PettingZoo / raw | before (cf832a3) / raw "
                 "| OpenSpiel actions/s |",
                 "|---|---:|---:|---:|---:|---:|"]
        for ref in SPEED_RULESETS:
            m = measure(ref, before_env, rounds, 4)
            lines.append(f"| `{ref}` | {m['raw per s']:,.0f} | {m['after per s']:,.0f} | {m['after / raw']:.2f} "
                         f"| {m['before / raw']:.2f} | {openspiel_rate(ref, 2.0):,.0f} |")
    stamp = time.strftime("%Y-%m-%d")
    return "\n".join(lines) + (f"\n\nMeasured {stamp} by `python benchmarks/bench_rl_tables.py --speeds` "
                               f"({rounds} rounds; CPU time of one process on a shared 2-core machine).")


def where_table(rounds: int) -> str:
    """Where a PettingZoo step's time goes (``bench_rl.py --where``), and the ratio the loop would reach
    if the observation vector cost nothing."""
    from bench_rl import where

    lines = ["| ruleset | engine | PettingZoo API floor | adapter | observation | whole step "
             "| engine / step | without the observation |",
             "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for ref in SPEED_RULESETS:
        w = where(ref, rounds, 4)
        bare = w["engine"] / (w["engine"] + w["floor"] + w["adapter"])
        lines.append(f"| `{ref}` | {w['engine']:.1f} | {w['floor']:.1f} | {w['adapter']:.1f} | {w['observation']:.1f} "
                     f"| {w['step']:.1f} | {w['engine'] / w['step']:.2f} | {bare:.2f} |")
    return "\n".join(lines) + (f"\n\nCPU microseconds per step, measured {time.strftime('%Y-%m-%d')} by "
                               f"`python benchmarks/bench_rl_tables.py --speeds` ({rounds} rounds).")


def replace(doc: str, name: str, table: str) -> str:
    pattern = re.compile(rf"(<!-- generated: {name} -->\n).*?(\n<!-- end: {name} -->)", re.S)
    if not pattern.search(doc):
        raise SystemExit(f"{DOC}: no '<!-- generated: {name} -->' ... '<!-- end: {name} -->' markers")
    return pattern.sub(lambda m: m.group(1) + table + m.group(2), doc)


def written(doc: str, name: str) -> str:
    """The table between a doc's markers."""
    found = re.search(rf"<!-- generated: {name} -->\n(.*?)\n<!-- end: {name} -->", doc, re.S)
    return found.group(1) if found else ""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--speeds", action="store_true", help="measure and write the speeds table too")
    ap.add_argument("--rounds", type=int, default=7, help="rounds of the speed benchmark (default 7)")
    ap.add_argument("--check", action="store_true", help="write nothing: exit 1 if the sizes table is stale")
    args = ap.parse_args()
    doc = DOC.read_text(encoding="utf-8")
    sizes = sizes_table()
    if args.check:
        if written(doc, "sizes") != sizes:
            print(f"{DOC}: the sizes table differs from the code: run python benchmarks/bench_rl_tables.py")
            raise SystemExit(1)
        return
    doc = replace(doc, "sizes", sizes)
    if args.speeds:
        doc = replace(doc, "speeds", speeds_table(args.rounds))
        doc = replace(doc, "where", where_table(args.rounds))
    DOC.write_text(doc, encoding="utf-8")
    print(f"{DOC} written")


if __name__ == "__main__":
    main()
