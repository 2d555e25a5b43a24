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
import re
import stat
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from rulecraft import __version__
from rulecraft.engine.game import Game
from rulecraft.engine.ruleset import Ruleset
from rulecraft.engine.state import State
from rulecraft.engine.views import redact_event
from rulecraft.errors import GivenChanceError, IllegalMoveError, Limit, LogError, RulecraftError, UsageError, clip
from rulecraft.runs.files import PRIVATE, write_lines
from rulecraft.runs.states_before import StatesBefore

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
    if st.hands_keyed:  # (written only when true: a log of any other game reads as it always has)
        header["hands_keyed"] = True
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


def write_atomic(path: str | Path, lines: Iterable[str], private: bool = False, follow_links: bool = True) -> None:
    """Write to a temporary file beside ``path`` and rename: a crash never leaves half a file (runs.files).

    ``private``: a new file is made readable by its owner only (0600), whatever the umask;
    ``follow_links`` False: a symbolic link at ``path`` is replaced, not written through.
    """
    write_lines(path, lines, mode=PRIVATE if private else None, follow_links=follow_links)


def write_log(path: str | Path, st: State, agents: list[str] | None = None, viewer: int | None = None,
              language: str | None = None, private: bool = False, follow_links: bool = True) -> None:
    """``private`` for a game people play: its log holds every hand, so no other user of the machine may read
    it (a new file gets mode 0600; a file replaced keeps its own mode)."""
    write_atomic(path, log_lines(st, agents, viewer, language), private, follow_links)


EVENT_TYPES = frozenset({"header", "hand", "chance", "move", "round", "hand_end", "result", "reveal", "flush", "out",
                         "revoke", "show", "composite"})
CHANCE_KINDS = frozenset({"shuffle", "dice"})
MAX_LOG_BYTES = Limit(64 * 1024 * 1024, "bytes", "is {n} bytes")
MAX_NESTING = Limit(32, "levels", "nests {n} levels deep")  # an event nests 3; json recurses per level
MAX_SEED = 2**256  # a table's chance is 256 secret bits (runs.session.table_seed)
MIN_SEED = -(2**64)  # (seeds typed for research have been negative)
PROGRESS = 256  # moves between two reports of a replay's progress


def parse_log(lines: Iterable[str], name: str = "<log>") -> tuple[dict[str, Any], list[tuple[int, dict[str, Any]]]]:
    """The header and the (line number, event) pairs of a log; LogError names the bad line.

    Everything a replay relies on is checked here, so a log that would replay into a confusing
    failure later is refused at the line that is wrong: one header, first; events of the kinds a
    game writes; a seed, agents and hand limit of the right shape.
    """
    events: list[tuple[int, dict[str, Any]]] = []
    for lineno, line in enumerate(lines, 1):
        if not line.strip():
            continue
        obj = _json_line(line, name, lineno)
        kind = obj.get("type") if isinstance(obj, dict) else None
        if not isinstance(obj, dict) or not isinstance(kind, str):
            raise LogError(f"{name}:{lineno}:1: error: each line must be a JSON object with a 'type'")
        if kind not in EVENT_TYPES:
            raise LogError(f"{name}:{lineno}:1: error: unknown event type '{clip(kind)}' (a game writes "
                           f"{', '.join(sorted(EVENT_TYPES))})")
        if (kind == "header") != (not events):
            if events:
                raise LogError(f"{name}:{lineno}:1: error: a second header (the first is at line {events[0][0]}): a "
                               "log holds one game")
            break
        _check_event(obj, kind, name, lineno)
        events.append((lineno, obj))
    if not events or events[0][1]["type"] != "header":
        raise LogError(f"{name}:1:1: error: a log starts with a header line; this is not a rulecraft log")
    header = events[0][1]
    _check_header(header, f"{name}:{events[0][0]}:1: error: ")
    return header, events[1:]


def _json_line(line: str, name: str, lineno: int) -> Any:
    if line.count("[") + line.count("{") > MAX_NESTING.value:  # only then can it nest that deep: measure it
        depth, col = _nesting(line)
        if MAX_NESTING.exceeded(depth):
            raise LogError(f"{name}:{lineno}:{col}: error: {MAX_NESTING.message('this line', depth)}")
    try:
        return json.loads(line)
    except json.JSONDecodeError as exc:
        raise LogError(f"{name}:{lineno}:{exc.colno}: error: not valid JSON: {exc.msg}") from None
    except ValueError:  # a whole number past Python's limit on the digits it reads from text (4,300)
        found = re.search(r"\d{4301,}", line)
        col = found.start() + 1 if found else 1
        raise LogError(f"{name}:{lineno}:{col}: error: a number too long to be one rulecraft writes") from None
    except RecursionError:  # pragma: no cover - _nesting refuses such lines first
        raise LogError(f"{name}:{lineno}:1: error: this line nests too deeply") from None


def _nesting(line: str) -> tuple[int, int]:
    """How deep brackets nest in a JSON line (outside strings), and the column where it first passes the limit."""
    depth = most = 0
    col = 1
    quoted = escaped = False
    for i, ch in enumerate(line):
        if quoted:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                quoted = False
        elif ch == '"':
            quoted = True
        elif ch in "[{":
            depth += 1
            if depth > most:
                most = depth
                if depth == MAX_NESTING.value + 1:
                    col = i + 1
        elif ch in "]}":
            depth -= 1
    return most, col


def _check_event(event: dict[str, Any], kind: str, name: str, lineno: int) -> None:
    at = f"{name}:{lineno}:1: error: "
    if kind == "move" and not (_is_int(event.get("seat")) and isinstance(event.get("move"), str)):
        raise LogError(f"{at}a move names the seat that made it (a number) and the move (its text)")
    if kind == "chance" and not (isinstance(event.get("kind"), str) and event["kind"] in CHANCE_KINDS):
        raise LogError(f"{at}a chance event is a 'shuffle' or 'dice', not {clip(json.dumps(event.get('kind')))}")


def _check_header(header: dict[str, Any], at: str) -> None:
    if header.get("format") != FORMAT:
        raise LogError(f"{at}unknown log format {clip(repr(header.get('format')))} (expected {FORMAT})")
    if header.get("seat_view") is not None:
        raise LogError(f"{at}this log was redacted for seat {clip(header['seat_view'])} and cannot be replayed")
    ruleset, seed = header.get("ruleset"), header.get("seed")
    if not _is_int(seed) or not isinstance(ruleset, dict):
        raise LogError(f"{at}the header lacks the ruleset or the seed")
    if not MIN_SEED < int(seed) < MAX_SEED:  # type: ignore[arg-type]
        raise LogError(f"{at}the seed {clip(seed)} is not a seed rulecraft writes (a whole number of at most 256 "
                       "bits)")
    options = ruleset.get("options", {})
    if not isinstance(ruleset.get("name"), str) or not isinstance(options, dict) \
            or not all(isinstance(v, str) for v in options.values()):
        raise LogError(f"{at}the header's ruleset has a name and options (option: choice)")
    agents = header.get("agents", [])
    if not isinstance(agents, list) or not all(isinstance(a, str) for a in agents):
        raise LogError(f"{at}the header's agents are a list of agent names, one per seat")
    if not isinstance(header.get("hands_keyed", False), bool):
        raise LogError(f"{at}hands_keyed says whether each hand drew from a generator of its own (true or false), "
                       f"not {clip(json.dumps(header['hands_keyed']))}")
    limit = header.get("max_hands")
    if limit is not None and not (_is_int(limit) and limit >= 1):
        raise LogError(f"{at}max_hands is the most hands the match may last (a whole number, at least 1), not "
                       f"{clip(json.dumps(limit))}")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def read_log(path: str | Path) -> tuple[dict[str, Any], list[tuple[int, dict[str, Any]]]]:
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):  # a FIFO would be read forever
            raise LogError(f"{path}: error: cannot read the log: not a regular file")
        if MAX_LOG_BYTES.exceeded(info.st_size):
            raise LogError(f"{path}: error: {MAX_LOG_BYTES.message('the log', info.st_size)}")
        text = Path(path).read_text(encoding="utf-8-sig")  # an editor may have saved it with a byte-order mark
    except OSError as exc:
        raise LogError(f"{path}: error: cannot read the log: {exc.strerror}") from exc
    except UnicodeDecodeError as exc:
        raise LogError(f"{path}: error: the log is not UTF-8 text") from exc
    return parse_log(text.splitlines(), str(path))


def load_logged_ruleset(header: dict[str, Any], name: str, ruleset: str | None = None) -> Ruleset:
    """The ruleset a log was played under (``ruleset`` instead of the one it names, with its options).

    A ruleset or an option the log names that does not exist here is a problem of the log, at its header.
    """
    from rulecraft.load import load_ruleset

    logged = header["ruleset"]
    options = {str(k): str(v) for k, v in (logged.get("options") or {}).items()}
    try:
        return load_ruleset(ruleset or str(logged["name"]), options)
    except UsageError as exc:
        problem = exc
        bundled = None if ruleset else _bundled_named(str(logged["name"]))
    if bundled is not None:
        try:
            return load_ruleset(bundled, options)
        except UsageError as exc:  # (options the ruleset does not have: still the log's problem, at its header)
            problem = exc
    # A log names its ruleset, not the path of the file it was read from: say how to give that file.
    hint = "" if ruleset or bundled else (f" (a game played from a rule file of your own: name that file, as in "
                                          f"'replay {name} --ruleset FILE' or 'play FILE --resume {name}')")
    raise LogError(f"{name}:1:1: error: cannot load the ruleset this log was played under: {problem}{hint}")


def _bundled_named(name: str) -> str | None:
    """The bundled ruleset whose ``name:`` is ``name``: an overlay's name need not be the name it is bundled
    under (an overlay bundled as ``game/variant`` may be named ``game-variant``), and a log records the former."""
    from rulecraft.rules.compose import compose
    from rulecraft.rules.registry import list_bundled

    for ref in list_bundled():
        try:
            if compose(ref).name == name:
                return ref
        except RulecraftError:
            continue
    return None


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
                  name: str = "<log>", upto: int | None = None, keep_states: bool = False,
                  progress: Callable[[int], None] | None = None) -> tuple[State, Sequence[State]]:
    """Replay parsed events; returns the final state and (optionally) the state before each move (made
    again on demand: see ``states_before``). ``progress(moves)`` is told every ``PROGRESS`` moves (and may
    raise, to stop a long replay whose reader left)."""
    check_identity(name, header, rs)
    agents = header.get("agents") or []
    if agents and len(agents) != rs.seats.count:
        raise LogError(f"{name}:1:1: error: the log names {len(agents)} agent{'s' if len(agents) != 1 else ''} for "
                       f"{rs.seats.count} seats")
    chance = [e for _, e in events if e["type"] == "chance"]
    lines = {id(e): lineno for lineno, e in events}
    try:
        st = Game(rs, int(header["seed"]), header.get("max_hands"), header.get("hands_keyed") is True
                  ).new_state(chance=chance)
        moves = sum(1 for _, e in events if e["type"] == "move")
        states = StatesBefore(moves if upto is None else min(moves, upto))
        n = 0
        for lineno, e in events:
            if e["type"] != "move":
                continue
            if upto is not None and n >= upto:
                break
            if keep_states:
                states.record(st, str(e.get("move", "")))
            if st.is_over:
                raise LogError(f"{name}:{lineno}:1: error: the game was already over; this move cannot be played")
            if st.to_act != e.get("seat"):
                raise LogError(f"{name}:{lineno}:1: error: the log has seat {e.get('seat')} moving, "
                               f"but it is seat {st.to_act}'s turn")
            try:
                st.apply(str(e.get("move", "")))
            except IllegalMoveError as exc:
                raise LogError(f"{name}:{lineno}:1: error: move '{clip(e.get('move'))}' is not legal here: "
                               f"{exc}") from exc
            n += 1
            if progress is not None and n % PROGRESS == 0:
                progress(n)
    except GivenChanceError as exc:
        raise LogError(f"{name}:{lines.get(id(exc.event), 1)}:1: error: this chance outcome does not fit the "
                       f"ruleset: {exc}") from None
    if upto is None and st.chance_feed:  # outcomes the game never drew: not this game's log
        raise LogError(f"{name}:{lines.get(id(st.chance_feed[0]), 1)}:1: error: the game never drew this chance "
                       "outcome (a shuffle or roll the moves before it do not lead to)")
    return st, states


def replay_lines(lines: Iterable[str], rs: Ruleset, name: str = "<log>") -> State:
    header, events = parse_log(lines, name)
    return replay_events(header, events, rs, name)[0]


def replay(path: str | Path, rs: Ruleset, upto: int | None = None, keep_states: bool = False
           ) -> tuple[State, Sequence[State]]:
    """Replay a log file; with ``keep_states`` also the state before each move (for stepping through)."""
    header, events = read_log(path)
    return replay_events(header, events, rs, str(path), upto, keep_states)
