"""Game logs as JSON Lines: a header naming the ruleset (name, options, content hash), seed, agents
and hand limit, then every event (hands, chance outcomes, moves, rounds), then the result.

Events name pieces, calls and rules by id only, so a log replays whatever language it was shown in;
the header's ``display_language`` (when a game was shown in one) is for display and nothing else.

Logs are written atomically and replay exactly: feeding a log's chance outcomes and moves back
into the same ruleset reaches the same final state. A log *shown to a seat* is redacted from zone
visibility (see ``views.redact_event``) and cannot be replayed.
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
from rulecraft.engine.ruleset import Ruleset
from rulecraft.engine.state import State
from rulecraft.engine.views import redact_event
from rulecraft.errors import IllegalMoveError, LogError

FORMAT = "rulecraft-log/1"


def log_lines(st: State, agents: list[str] | None = None, viewer: int | None = None,
              language: str | None = None) -> list[str]:
    header: dict[str, Any] = {
        "type": "header",
        "format": FORMAT,
        "rulecraft": __version__,
        "ruleset": st.rs.identity,
        "seed": st.seed,
        "agents": agents or [],
        "max_hands": st.hand_limit,
    }
    if viewer is not None:
        header["seat_view"] = viewer
    if language is not None:
        header["display_language"] = language
    lines = [json.dumps(header, sort_keys=True, ensure_ascii=False)]
    for event in st.history:
        shown = redact_event(event, viewer)
        if shown is not None:
            lines.append(json.dumps(shown, sort_keys=True, ensure_ascii=False))
    return lines


def write_atomic(path: str | Path, lines: Iterable[str]) -> None:
    """Write to a temporary file beside ``path`` and rename: a crash never leaves half a file."""
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


def write_log(path: str | Path, st: State, agents: list[str] | None = None, viewer: int | None = None,
              language: str | None = None) -> None:
    write_atomic(path, log_lines(st, agents, viewer, language))


def parse_log(lines: Iterable[str], name: str = "<log>") -> tuple[dict[str, Any], list[tuple[int, dict[str, Any]]]]:
    """The header and the (line number, event) pairs of a log; LogError names the bad line."""
    events: list[tuple[int, dict[str, Any]]] = []
    for lineno, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise LogError(f"{name}:{lineno}:{exc.colno}: error: not valid JSON: {exc.msg}") from exc
        if not isinstance(obj, dict) or not isinstance(obj.get("type"), str):
            raise LogError(f"{name}:{lineno}:1: error: each line must be a JSON object with a 'type'")
        events.append((lineno, obj))
    if not events or events[0][1]["type"] != "header":
        raise LogError(f"{name}:1:1: error: a log starts with a header line; this is not a rulecraft log")
    header = events[0][1]
    if header.get("format") != FORMAT:
        raise LogError(f"{name}:1:1: error: unknown log format {header.get('format')!r} (expected {FORMAT})")
    if header.get("seat_view") is not None:
        raise LogError(f"{name}:1:1: error: this log was redacted for seat {header['seat_view']} "
                       "and cannot be replayed")
    if not isinstance(header.get("seed"), int) or not isinstance(header.get("ruleset"), dict):
        raise LogError(f"{name}:1:1: error: the header lacks the ruleset or the seed")
    return header, events[1:]


def read_log(path: str | Path) -> tuple[dict[str, Any], list[tuple[int, dict[str, Any]]]]:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise LogError(f"{path}: error: cannot read the log: {exc.strerror}") from exc
    except UnicodeDecodeError as exc:
        raise LogError(f"{path}: error: the log is not UTF-8 text") from exc
    return parse_log(text.splitlines(), str(path))


def check_identity(name: str, header: dict[str, Any], rs: Ruleset) -> None:
    logged = header.get("ruleset", {})
    if logged.get("hash") != rs.content_hash:
        raise LogError(
            f"{name}:1:1: error: this log was played under a different ruleset: it names "
            f"'{logged.get('name')}' with options {logged.get('options')} (hash {str(logged.get('hash'))[:12]}), "
            f"but the ruleset given is '{rs.name}' with options {rs.identity['options']} "
            f"(hash {rs.content_hash[:12]})"
        )


def replay_events(header: dict[str, Any], events: list[tuple[int, dict[str, Any]]], rs: Ruleset,
                  name: str = "<log>", upto: int | None = None, keep_states: bool = False
                  ) -> tuple[State, list[State]]:
    """Replay parsed events; returns the final state and (optionally) the state before each move."""
    check_identity(name, header, rs)
    chance = [e for _, e in events if e["type"] == "chance"]
    max_hands = header.get("max_hands")
    try:
        st = Game(rs, int(header["seed"]), int(max_hands) if max_hands else None).new_state(chance=chance)
    except (ValueError, KeyError, TypeError) as exc:
        raise LogError(f"{name}: error: the log's chance outcomes do not fit this ruleset: {exc}") from exc
    states: list[State] = []
    n = 0
    for lineno, e in events:
        if e["type"] != "move":
            continue
        if upto is not None and n >= upto:
            break
        if keep_states:
            states.append(st.clone())
        if st.is_over:
            raise LogError(f"{name}:{lineno}:1: error: the game was already over; this move cannot be played")
        if st.to_act != e.get("seat"):
            raise LogError(f"{name}:{lineno}:1: error: the log has seat {e.get('seat')} moving, "
                           f"but it is seat {st.to_act}'s turn")
        try:
            st.apply(str(e.get("move", "")))
        except IllegalMoveError as exc:
            raise LogError(f"{name}:{lineno}:1: error: move '{e.get('move')}' is not legal here: {exc}") from exc
        n += 1
    return st, states


def replay_lines(lines: Iterable[str], rs: Ruleset, name: str = "<log>") -> State:
    header, events = parse_log(lines, name)
    return replay_events(header, events, rs, name)[0]


def replay(path: str | Path, rs: Ruleset, upto: int | None = None, keep_states: bool = False
           ) -> tuple[State, list[State]]:
    """Replay a log file; with ``keep_states`` also the state before each move (for stepping through)."""
    header, events = read_log(path)
    return replay_events(header, events, rs, str(path), upto, keep_states)
