"""Game logs as JSON Lines: a header naming the ruleset (name, options, content hash), seed and agents,
then every event (moves and chance outcomes), then the result. Written atomically; replayed exactly.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from rulecraft import __version__
from rulecraft.engine.game import Game
from rulecraft.engine.state import State
from rulecraft.engine.views import redact_event
from rulecraft.errors import IllegalMoveError, LogError, RulecraftError
from rulecraft.rules.model import Ruleset

FORMAT = "rulecraft-log/1"


def log_lines(st: State, agents: list[str] | None = None, viewer: int | None = None) -> list[str]:
    header = {
        "type": "header",
        "format": FORMAT,
        "rulecraft": __version__,
        "ruleset": st.rs.identity,
        "seed": st.seed,
        "agents": agents or [],
    }
    if viewer is not None:
        header["seat_view"] = viewer
    lines = [json.dumps(header, sort_keys=True, ensure_ascii=False)]
    for event in st.history:
        shown = redact_event(event, viewer)
        if shown is not None:
            lines.append(json.dumps(shown, sort_keys=True, ensure_ascii=False))
    return lines


def write_atomic(path: str | Path, lines: Iterable[str]) -> None:
    """Write to a temporary file beside ``path`` and rename: a crash never leaves half a log."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            for line in lines:
                fh.write(line + "\n")
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_log(path: str | Path, st: State, agents: list[str] | None = None) -> None:
    write_atomic(path, log_lines(st, agents))


def read_log(path: str | Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise LogError(f"{path}: cannot read the log: {exc.strerror}") from exc
    events: list[dict[str, Any]] = []
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise LogError(f"{path}:{lineno}:{exc.colno}: error: not valid JSON: {exc.msg}") from exc
        if not isinstance(obj, dict) or "type" not in obj:
            raise LogError(f"{path}:{lineno}:1: error: each line must be a JSON object with a 'type'")
        events.append(obj)
    if not events or events[0]["type"] != "header":
        raise LogError(f"{path}:1:1: error: a log starts with a header line")
    header = events[0]
    if header.get("format") != FORMAT:
        raise LogError(f"{path}:1:1: error: unknown log format {header.get('format')!r} (expected {FORMAT})")
    if header.get("seat_view") is not None:
        raise LogError(f"{path}:1:1: error: this log was redacted for seat {header['seat_view']} and cannot be replayed")
    return header, events[1:]


def check_identity(path: str | Path, header: dict[str, Any], rs: Ruleset) -> None:
    logged = header.get("ruleset", {})
    if logged.get("hash") != rs.content_hash:
        raise LogError(
            f"{path}:1:1: error: this log was played under a different ruleset: it names "
            f"'{logged.get('name')}' with options {logged.get('options')} (hash {str(logged.get('hash'))[:12]}), "
            f"but the ruleset given has hash {rs.content_hash[:12]}"
        )


def replay(path: str | Path, rs: Ruleset, upto: int | None = None) -> tuple[State, list[State]]:
    """Replay a log; returns the final state and the state before each move (for stepping through)."""
    header, events = read_log(path)
    check_identity(path, header, rs)
    chance = [e for e in events if e["type"] == "chance"]
    try:
        st = Game(rs, int(header.get("seed", 0))).new_state(chance=chance)
    except (ValueError, KeyError) as exc:
        raise LogError(f"{path}: error: the log's chance outcomes do not fit this ruleset: {exc}") from exc
    states = []
    n = 0
    for lineno, e in enumerate(events, 2):
        if e["type"] != "move":
            continue
        if upto is not None and n >= upto:
            break
        states.append(st.clone())
        if st.to_act != e.get("seat"):
            raise LogError(f"{path}:{lineno}:1: error: the log has seat {e.get('seat')} moving, "
                           f"but it is seat {st.to_act}'s turn")
        try:
            st.apply(str(e["move"]))
        except IllegalMoveError as exc:
            raise LogError(f"{path}:{lineno}:1: error: move '{e['move']}' is not legal here: {exc}") from exc
        except RulecraftError:
            raise
        n += 1
    return st, states
