"""The pages around the table: explain (effective rules and where each came from), replay of an
uploaded log as one seat saw it, and the compare report with its plot (an inline SVG).

Each function takes what a browser sent, checks it, and returns what its template shows.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from markupsafe import Markup

from rulecraft.errors import LogError, UsageError, clip
from rulecraft.web.catalog import Catalog, parse_options
from rulecraft.web.render import table_html
from rulecraft.wording import Seats

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from rulecraft.engine.ruleset import Ruleset
    from rulecraft.engine.state import State


def _side(catalog: Catalog, args: dict[str, str], prefix: str = "") -> tuple[str, dict[str, str], str | None]:
    """A ruleset, its options and preset from ``{prefix}ref``, ``{prefix}opt.NAME``, ``{prefix}preset``."""
    ref = args.get(f"{prefix}ref", "")
    info = catalog.describe(ref)
    preset = args.get(f"{prefix}preset") or None
    if preset is not None and preset not in {p["id"] for p in info["presets"]}:
        raise UsageError(f"{info['name']} has no preset '{clip(preset)}'")
    fields = {k[len(prefix):]: v for k, v in args.items() if k.startswith(f"{prefix}opt.") and v}
    return ref, parse_options(fields, info["options"]), preset


# ---------------------------------------------------------------------- explain
def explain_context(catalog: Catalog, args: dict[str, str]) -> dict[str, Any]:
    from rulecraft.rules.compose import overridden_options, plain

    ref, options, preset = _side(catalog, args)
    rs = catalog.load(ref, options, preset)
    composed = rs.composed
    assert composed is not None
    entries = [e for e in composed.provenance.under("")
               if not (e.path in ("options", "presets") or e.path.startswith(("options[", "presets[")))]
    rules = [{"path": e.path, "value": json.dumps(plain(e.value), ensure_ascii=False), "where": str(e.origin.pos),
              "layer": e.origin.layer, "option": e.origin.layer.startswith("option ")} for e in entries]
    return {"ref": ref, "info": catalog.describe(ref), "composed": composed, "rules": rules,
            "deleted": [{"path": e.path, "where": str(e.origin.pos), "layer": e.origin.layer}
                        for e in composed.provenance.deleted],
            "overridden": sorted(overridden_options(composed)), "options": options, "preset": preset or ""}


# ---------------------------------------------------------------------- replay
MAX_LOG_BYTES = 4 * 1024 * 1024


@dataclass
class Replay:
    rs: Ruleset
    before: Sequence[State]  # the state before each move (made again on demand: runs.states_before)
    final: State
    agents: list[str]


def moves_in(data: bytes) -> int:
    """About how many moves an uploaded log holds (for its progress): its lines that are moves."""
    return data.count(b'"type": "move"') + data.count(b'"type":"move"')


def load_replay(catalog: Catalog, data: bytes, ref: str,
                progress: Callable[[int], None] | None = None) -> tuple[str, Replay]:
    """An uploaded log replayed under ``ref`` (or a bundled ruleset of the name it records); ``progress``
    is told the moves replayed so far, and may raise to stop."""
    from rulecraft.runs.log import parse_log, replay_events

    if len(data) > MAX_LOG_BYTES:
        raise LogError(f"<upload>: error: the log is {len(data)} bytes; at most {MAX_LOG_BYTES} are read")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise LogError("<upload>: error: the log is not UTF-8 text") from None
    header, events = parse_log(text.splitlines(), "<upload>")
    if not ref:
        ref = _bundled_named(catalog, header)
    logged = header.get("ruleset") or {}
    options = {str(k): str(v) for k, v in (logged.get("options") or {}).items()}
    info = catalog.describe(ref)
    parse_options({f"opt.{k}": v for k, v in options.items()}, info["options"])
    rs = catalog.load(ref, options, None)
    final, before = replay_events(header, events, rs, "<upload>", keep_states=True, progress=progress)
    agents = [str(a) for a in header.get("agents") or []] or ["?"] * rs.seats.count
    return secrets.token_urlsafe(12), Replay(rs, before, final, agents)


def _bundled_named(catalog: Catalog, header: dict[str, Any]) -> str:
    from rulecraft.rules.compose import compose

    name = str((header.get("ruleset") or {}).get("name", ""))
    for ref in catalog.bundled():
        if compose(ref).name == name:
            return ref
    raise UsageError(f"the log was played under '{clip(name)}', which is not a bundled ruleset: choose its rule file")


def replay_context(replay: Replay, seat_text: str, step_text: str) -> dict[str, Any]:
    rs = replay.rs
    try:
        seat, step = int(seat_text), int(step_text)
    except ValueError:
        raise UsageError("seat and step are whole numbers") from None
    if not 0 <= seat < rs.seats.count:
        raise UsageError(f"{rs.name} has seats 0 to {rs.seats.count - 1}")
    steps = len(replay.before)
    step = max(0, min(step, steps))
    st = replay.before[step] if step < steps else replay.final
    from rulecraft.engine.views import redact_event

    events = [e for e in (redact_event(x, seat) for x in st.history) if e is not None]
    view = st.view(seat)
    view.pop("legal", None)
    view.pop("legal_count", None)
    labels = tuple(a if a != "human" else "human" for a in replay.agents)
    body = table_html(rs, view, events, Seats(labels), interactive=False)
    return {"rs": rs, "seat": seat, "step": step, "steps": steps, "body": body, "seats": range(rs.seats.count)}


# ---------------------------------------------------------------------- compare
@dataclass
class CompareRequest:
    sides: list[tuple[str, dict[str, str], str | None]]  # each side's ref, options, preset
    files: list[tuple[str, dict[str, str], str | None]]  # each side's rule file (for the child process)
    games: int
    seed: int
    agent: str


def compare_request(catalog: Catalog, args: dict[str, str], limit: int) -> CompareRequest:
    """What a compare form asks for, checked: both rulesets loadable, bounded games, an offered agent."""
    from rulecraft.web.tables import HUMAN, offered_agents

    try:
        games = int(args.get("n", "100"))
        seed = int(args.get("seed", "1"))
    except ValueError:
        raise UsageError("games and seed are whole numbers") from None
    if not 1 <= games <= limit:
        raise UsageError(f"play between 1 and {limit} games per side here (more: rulecraft compare)")
    if not 0 <= seed < 2**63:
        raise UsageError("the seed must be between 0 and 2^63-1")
    agent = args.get("agent", "random")
    if agent == HUMAN or agent not in offered_agents():
        raise UsageError(f"'{clip(agent)}' is not an agent this server offers")
    sides, files = [], []
    for prefix in ("a.", "b."):
        ref, options, preset = _side(catalog, args, prefix)
        catalog.load(ref, options, preset)  # (a ruleset that does not load is said now, not in the child)
        sides.append((ref, options, preset))
        files.append((str(catalog.file_of(ref)), options, preset))
    return CompareRequest(sides, files, games, seed, agent)


def compare_context(catalog: Catalog, request: CompareRequest, records: list[list[dict[str, Any]]],
                    stopped: str | None = None) -> dict[str, Any]:
    """The report of a comparison from each side's game records (the games both sides finished)."""
    from rulecraft.runs.comparison import compare_stats, side_stats

    out: list[dict[str, Any]] = []
    for (ref, options, preset), recs in zip(request.sides, records, strict=True):
        rs = catalog.load(ref, options, preset)
        out.append({"ref": ref, "rs": rs, "options": rs.chosen, "preset": preset or "",
                    "stats": side_stats(recs, rs.seats.count)})
    a, b = out
    games = len(records[0])
    return {"a": a, "b": b, "games": games, "asked": request.games, "stopped": stopped, "seed": request.seed,
            "agent": request.agent, "delta": compare_stats(a["stats"], b["stats"]), "plot": win_rate_plot(a, b)}


def win_rate_plot(a: dict[str, Any], b: dict[str, Any]) -> Markup:
    """Win rate per seat for A and B side by side, each with its 95% confidence interval, as SVG."""
    seats = max(len(a["stats"]["win_rate"]), len(b["stats"]["win_rate"]))
    width, height, left, bottom = 80 + seats * 90, 240, 50, 200
    parts = [f'<svg class="plot" viewBox="0 0 {width} {height}" width="{width}" height="{height}" role="img" '
             'aria-label="win rate per seat, A and B, with 95% confidence intervals">']
    for tick in range(0, 101, 25):
        y = bottom - tick * 1.8
        parts.append(f'<line x1="{left}" x2="{width - 10}" y1="{y}" y2="{y}" stroke="#ddd"/>'
                     f'<text x="{left - 6}" y="{y + 4}" text-anchor="end" font-size="11">{tick}%</text>')
    for s in range(seats):
        for k, (side, colour) in enumerate(((a, "#1565c0"), (b, "#e65100"))):
            rates = side["stats"]["win_rate"]
            if s >= len(rates):
                continue
            r = rates[s]
            x = left + 15 + s * 90 + k * 32
            h = r["rate"] * 180
            lo, hi = (bottom - v * 180 for v in r["ci95"])
            parts.append(f'<rect x="{x}" y="{bottom - h:.1f}" width="26" height="{h:.1f}" fill="{colour}">'
                         f'<title>{"AB"[k]} seat {s}: {r["rate"]:.3f} (95% CI {r["ci95"][0]:.3f}–{r["ci95"][1]:.3f})'
                         '</title></rect>'
                         f'<line x1="{x + 13}" x2="{x + 13}" y1="{lo:.1f}" y2="{hi:.1f}" stroke="#000"/>'
                         f'<line x1="{x + 7}" x2="{x + 19}" y1="{lo:.1f}" y2="{lo:.1f}" stroke="#000"/>'
                         f'<line x1="{x + 7}" x2="{x + 19}" y1="{hi:.1f}" y2="{hi:.1f}" stroke="#000"/>')
        parts.append(f'<text x="{left + 44 + s * 90}" y="{bottom + 16}" text-anchor="middle" font-size="12">'
                     f'seat {s}</text>')
    parts.append(f'<rect x="{left}" y="{height - 18}" width="10" height="10" fill="#1565c0"/>'
                 f'<text x="{left + 14}" y="{height - 9}" font-size="11">A</text>'
                 f'<rect x="{left + 40}" y="{height - 18}" width="10" height="10" fill="#e65100"/>'
                 f'<text x="{left + 54}" y="{height - 9}" font-size="11">B</text></svg>')
    return Markup("".join(parts))
