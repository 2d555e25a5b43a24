"""Games in progress on the server: each one's game (``runs.session.Session``), its links, and the rules of
its table.

**One capability per link** (``docs/security.md``). A table hands out unguessable tokens, each a key to
one thing: the *host* link manages the table (the links, who has opened theirs, a link made anew) and
shows no hand; each *seat* link shows that seat's view and moves for it, and is bound to the first
browser that opens it (a cookie), so a link seen by someone else (the host who sent it) opens nothing
once its player has it; the *hot-seat* link (all people at one screen, a table that chose it instead
of links) shows only the seat to act, and only after that player lifted the cover (the server keeps
the cover, not the page); the *spectator* link shows what every seat sees (and everything once the
game is over, if the table chose so).

**Nothing waits on a bot.** Bots think on a copy of the game, outside the table's lock, in a small pool
of threads the whole server shares (``Bots``), one move at a time taken in turn between tables; their
move is made only if the game is still the one they thought about. A person's move is a transaction
(``Session.move``): made whole and logged, or not at all; a move names the version it answers, and the
first of two answering the same one wins.

**Tables outlive the process.** With ``--log-dir`` each table's log (the game) and a small record beside
it (its links and rules; both readable by the owner only) are written as it goes; a server started
again finds them and takes each game up where it stopped when one of its links is next used. Tables in
memory are bounded: a finished one leaves memory first, else an idle one, written down (in the log dir,
or a private folder of the process's own) to be taken up again; a game in progress is never ended to
make room: while every table has bots moving, a new one is refused instead. Tables kept at all (in memory
and set aside) are bounded too, so starting tables without end cannot fill the disk or the index: at
the bound a finished one is forgotten to make room, else a new table is refused.
"""

from __future__ import annotations

import hashlib
import json
import queue
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulecraft.agents.base import known_agents
from rulecraft.errors import IllegalMoveError, LogError, RulecraftError, UsageError, clip
from rulecraft.runs.files import PRIVATE, write_lines
from rulecraft.runs.session import HUMAN, Session, keyed_hands, table_seed

if TYPE_CHECKING:
    from rulecraft.engine.ruleset import Ruleset
    from rulecraft.engine.state import State

HOT, HOST, WATCH = -1, -2, -3  # what a token that is no seat's stands for
NOT_OFFERED = frozenset({"scripted"})  # needs a script: nothing a start form can give
MAX_TABLES = 64  # tables kept in memory at once
MAX_KEPT = 4096  # tables kept at all, in memory and set aside (their logs and records on disk)
MAX_MOVE_TEXT = 2000  # characters in a move sent by a browser
MAX_SEED = 2**63 - 1  # a seed typed on the start form
BOT_MOVES = 200_000  # bot moves in a row before the server gives up (a game that cannot end)
SAVE_EVERY = 200  # bot moves between two saves of the log while bots play on
INLINE_SECONDS = 0.25  # bots answer within the person's request for so long, then in the background
TOKEN_BYTES = 18  # 144 bits per link
RECORD = ".table.json"  # beside a table's log: its links and rules


class TableFullError(UsageError):
    """No room for another table: every one in memory is a game in progress that cannot be set aside."""


# Agents built for one kind of phase, and only worth a seat where the rules have one: the bluffer's
# decisions are claims and challenges; anywhere else it is a random player under another name.
NEEDS_KIND = {"bluffer": "claims"}
DEFAULT_BOT = "default"  # the bot a seat gets unless the form says otherwise, as on the command line


def offered_agents(rs: Ruleset | None = None) -> list[str]:
    """What a seat may be: a person, or any agent the registry knows that needs no argument and can play
    ``rs`` (every one, without a ruleset); the default bot first, as the form shows it."""
    kinds = {ph.kind for ph in rs.phases} if rs is not None else None
    bots = [a for a in known_agents() if a not in NOT_OFFERED
            and (kinds is None or NEEDS_KIND.get(a) is None or NEEDS_KIND[a] in kinds)]
    return [HUMAN, *sorted(bots, key=lambda a: a != DEFAULT_BOT)]


def check_seats(rs: Ruleset, seats: list[str]) -> list[str]:
    offered = offered_agents(rs)
    if len(seats) != rs.seats.count:
        raise UsageError(f"{rs.name} has {rs.seats.count} seats; {len(seats)} were chosen")
    for s, name in enumerate(seats):
        if name not in offered:
            raise UsageError(f"seat {s}: '{clip(name)}' is not a player this server offers ({', '.join(offered)})")
    return seats


def check_seed(text: str | None) -> int | None:
    """A seed typed on the start form (None: left empty, a secret one is drawn)."""
    if text is None or not str(text).strip():
        return None
    try:
        seed = int(str(text).strip())
    except ValueError:
        raise UsageError(f"the seed must be a whole number, not '{clip(str(text))}'") from None
    if not 0 <= seed <= MAX_SEED:
        raise UsageError(f"the seed must be between 0 and {MAX_SEED}")
    return seed


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def new_version() -> int:
    """A table's first version: the time in ms, so a page from before a restart never names a version again."""
    return time.time_ns() // 1_000_000


@dataclass(frozen=True)
class TableRules:
    """What the table chose besides the ruleset."""

    undo: bool = False  # a person alone against bots may take back a move (until something hidden is shown)
    hot_seat: bool = False  # the people share one screen (one hot-seat link) instead of a link each
    reveal_at_end: bool = False  # spectators see every hand and the whole log once the game is over


@dataclass
class Table:
    key: str  # names its files
    ref: str  # what the browser chose (a bundled name or an allowed path)
    options: dict[str, str]
    preset: str | None
    session: Session
    rules: TableRules
    host_token: str
    watch_token: str
    seat_tokens: dict[int, str]  # each human seat's link (none at a hot-seat table)
    hot_token: str | None
    lang: str | None = None
    claims: dict[str, str] = field(default_factory=dict)  # token -> digest of the cookie of the browser holding it
    record: Path | None = None  # its links and rules, beside its log
    problem: str | None = None  # a failure that stopped the game (a rule failing in a bot's move)
    thinking: int | None = None  # the bot thinking now
    hot_shown: int | None = None  # hot-seat: the seat whose cover is lifted ...
    hot_shown_at: int = -1  # ... at this version
    last_used: float = field(default_factory=time.monotonic)
    lock: threading.RLock = field(default_factory=threading.RLock)
    _bot_run: int = 0

    @property
    def rs(self) -> Ruleset:
        return self.session.rs

    @property
    def version(self) -> int:
        return self.session.version

    @property
    def st(self) -> State:
        return self.session.st

    @property
    def agents(self) -> list[str]:
        return self.session.agents

    @property
    def seed(self) -> int:
        return self.session.seed

    @property
    def humans(self) -> list[int]:
        return self.session.humans

    @property
    def can_undo(self) -> bool:
        return self.rules.undo and len(self.humans) == 1

    def all_tokens(self) -> dict[str, int]:
        """Every token of this table and what it stands for."""
        out = {self.host_token: HOST, self.watch_token: WATCH, **{t: s for s, t in self.seat_tokens.items()}}
        if self.hot_token is not None:
            out[self.hot_token] = HOT
        return out

    # ------------------------------------------------------------------ links bound to a browser
    def claim(self, token: str) -> str | None:
        """Bind ``token`` to the browser opening it: the cookie's secret (None: it is bound already)."""
        with self.lock:
            if token in self.claims:
                return None
            secret = secrets.token_urlsafe(32)
            self.claims[token] = digest(secret)
            return secret

    def holds(self, token: str, cookie: str | None) -> bool:
        bound = self.claims.get(token)
        return bound is not None and cookie is not None and secrets.compare_digest(bound, digest(cookie))

    # ------------------------------------------------------------------ moves
    def play(self, seat: int, text: str, version: int | None) -> None:
        """``seat`` makes the move ``text`` answering ``version``; IllegalMoveError says why not."""
        if not isinstance(text, str) or not text.strip():
            raise IllegalMoveError("no move was sent")
        if len(text) > MAX_MOVE_TEXT:
            raise IllegalMoveError(f"a move has at most {MAX_MOVE_TEXT} characters")
        if version is None:
            raise IllegalMoveError("the move does not say which state of the table it answers: reload the page")
        with self.lock:
            if self.problem is not None:
                raise IllegalMoveError(f"the game cannot go on: {self.problem}")
            self.session.move(seat, " ".join(text.split()), version, save=True)
            self._bot_run = 0
            if self.hot_shown == seat and self.session.st.to_act == seat:
                self.hot_shown_at = self.version  # the same player decides again: the cover stays lifted
            self.last_used = time.monotonic()

    def undo(self, seat: int) -> int:
        if not self.rules.undo:
            raise UsageError("this table plays without undo (the start form chooses it)")
        with self.lock:
            n = self.session.undo(seat)
            if n:
                self.session.save()
            return n

    def bot_step(self) -> bool:
        """One bot move, thought about outside the lock; True while bots are still to act."""
        with self.lock:
            if self.problem is not None or self.session.bot_to_act is None:
                self.thinking = None
                return False
            version = self.version
            try:
                seat, bot, copy = self.session.bot_turn()
            except RulecraftError as exc:
                return self._stopped(exc)
            self.thinking = seat
        try:
            chosen = bot.choose(copy, seat)
        except RulecraftError as exc:
            with self.lock:
                return self._stopped(exc)
        with self.lock:
            if self.version != version:  # an undo came first: think again about the game as it is now
                return True
            try:
                self.session.move(seat, chosen)
            except RulecraftError as exc:
                return self._stopped(exc)
            self._bot_run += 1
            more = self.session.bot_to_act is not None
            if self._bot_run >= BOT_MOVES and more:
                return self._stopped(UsageError(f"the bots made {BOT_MOVES} moves in a row without the game ending "
                                                "or a person to act"))
            if not more or self._bot_run % SAVE_EVERY == 0:
                self.session.save()
            if not more:
                self.thinking = None
            return more

    def _stopped(self, exc: RulecraftError) -> bool:
        self.problem = str(exc)
        self.thinking = None
        self.session.save()
        return False

    # ------------------------------------------------------------------ hot-seat
    def hot_seat_to_show(self) -> int | None:
        """The seat whose table the hot-seat screen may show now: the seat to act, once its cover is lifted."""
        st = self.session.st
        if self.hot_shown is not None and self.hot_shown == st.to_act and self.hot_shown_at == self.version:
            return self.hot_shown
        return None

    def lift_cover(self, version: int | None) -> int:
        with self.lock:
            seat = self.session.st.to_act
            if version != self.version or self.session.st.is_over or seat not in self.humans:
                raise IllegalMoveError("the table has changed: look at the screen again")
            self.hot_shown, self.hot_shown_at = seat, self.version
            return seat

    # ------------------------------------------------------------------ the record beside the log
    def as_record(self) -> dict[str, Any]:
        return {"key": self.key, "ref": self.ref, "options": self.options, "preset": self.preset, "lang": self.lang,
                "rules": {"undo": self.rules.undo, "hot_seat": self.rules.hot_seat,
                          "reveal_at_end": self.rules.reveal_at_end},
                "host": self.host_token, "watch": self.watch_token, "hot": self.hot_token,
                "seats": {str(s): t for s, t in self.seat_tokens.items()}, "claims": self.claims,
                "over": self.session.st.is_over or self.problem is not None}

    def write_record(self) -> None:
        if self.record is not None:
            write_lines(self.record, [json.dumps(self.as_record(), sort_keys=True)], mode=PRIVATE,
                        follow_links=False)


class Bots:
    """The threads that move bots, for every table of the server: a bounded pool, taken in turn.

    A table with a bot to act is queued once; a worker makes one of its bot moves and queues it again
    behind the others, so a long run of bot moves at one table never starves another. The threads
    are daemons: a server told to stop does not wait for a bot to finish thinking.

    Quick bots answer within the person's own request (``answer``: for up to ``INLINE_SECONDS``, in the
    request's worker thread, never on the event loop), so the page that sent a move usually gets the
    table back with the bots' replies made; what is left over goes to the pool.
    """

    def __init__(self, workers: int = 2) -> None:
        self._queue: queue.SimpleQueue[Table | None] = queue.SimpleQueue()
        self._pending: set[int] = set()
        self._lock = threading.Lock()
        self._idle = threading.Condition(self._lock)
        self._threads = [threading.Thread(target=self._work, name=f"rulecraft-bots-{i}", daemon=True)
                         for i in range(max(1, workers))]
        for t in self._threads:
            t.start()

    def wake(self, table: Table) -> None:
        with self._lock:
            if id(table) in self._pending:
                return
            self._pending.add(id(table))
        self._queue.put(table)

    def answer(self, table: Table, seconds: float = INLINE_SECONDS) -> None:
        """Make the table's bot moves here for up to ``seconds``, then leave the rest to the pool."""
        with self._lock:
            if id(table) in self._pending:  # (the pool has it already)
                return
            self._pending.add(id(table))
        deadline = time.monotonic() + seconds
        more = True
        try:
            while more and time.monotonic() < deadline:
                more = table.bot_step()
        except Exception:
            more = True  # (the pool's worker says what failed)
        if more:
            self._queue.put(table)
            return
        with self._idle:
            self._pending.discard(id(table))
            self._idle.notify_all()

    def settle(self, timeout: float = 60.0) -> bool:
        """Wait until no table has a bot move pending (for tests and a clean stop); False on timeout."""
        deadline = time.monotonic() + timeout
        with self._idle:
            while self._pending:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._idle.wait(left)
        return True

    def stop(self) -> None:
        for _ in self._threads:
            self._queue.put(None)

    def _work(self) -> None:
        while True:
            table = self._queue.get()
            if table is None:
                return
            try:
                more = table.bot_step()
            except Exception as exc:  # an engine failure: the table stops with a message, the server goes on
                with table.lock:
                    table.problem = f"the server failed while a bot moved ({type(exc).__name__})"
                    table.thinking = None
                more = False
            if more:
                self._queue.put(table)
                continue
            with self._idle:
                self._pending.discard(id(table))
                self._idle.notify_all()


Loader = Callable[[str, dict[str, str], "str | None"], "Ruleset"]


class Tables:
    """Every table of this server, found by any of its tokens; in memory, or taken up again from its log."""

    def __init__(self, log_dir: Path | None = None, bots: Bots | None = None, load: Loader | None = None,
                 max_tables: int = MAX_TABLES, max_kept: int = MAX_KEPT) -> None:
        self._by_token: dict[str, tuple[Table, int]] = {}
        self._tables: OrderedDict[str, Table] = OrderedDict()  # by key, least recently used first
        self._on_disk: dict[str, Path] = {}  # token -> record of a table not in memory
        self._aside: OrderedDict[Path, bool] = OrderedDict()  # record of a table set aside -> whether it is over
        self._lock = threading.Lock()
        self._loading = threading.Lock()
        self.log_dir = log_dir
        self.bots = bots or Bots()
        self.load = load
        self.max_tables = max_tables
        self.max_kept = max_kept
        self._spill_dir: Path | None = None
        if log_dir is not None:
            self._index(log_dir)

    # ------------------------------------------------------------------ a new table
    def start(self, ref: str, rs: Ruleset, seed: int | None, seats: list[str], lang: str | None = None,
              rules: TableRules | None = None, options: dict[str, str] | None = None,
              preset: str | None = None) -> Table:
        rules = rules or TableRules()
        agents = check_seats(rs, seats)
        humans = agents.count(HUMAN)
        if humans == 0:
            raise UsageError("choose at least one seat for a person (human); bots alone are 'rulecraft simulate'")
        key = secrets.token_hex(6)
        log = None if self.log_dir is None else self.log_dir / f"rulecraft-{_file_word(rs.name)}-{key}.jsonl"
        session = Session.new(rs, table_seed(seed, humans), agents, log, hands_keyed=keyed_hands(seed, humans))
        session.version = new_version()
        session.follow_links = False
        session.language = lang
        hot = rules.hot_seat and humans > 1
        seat_tokens = {} if hot else {s: _token() for s, a in enumerate(agents) if a == HUMAN}
        table = Table(key, ref, dict(options or {}), preset, session, TableRules(rules.undo, hot, rules.reveal_at_end),
                      _token(), _token(), seat_tokens, _token() if hot else None, lang,
                      record=None if log is None else log.with_suffix(RECORD))
        self._add(table, new=True)  # (first: a server with no room refuses the table before anything is written)
        session.save()
        table.write_record()
        self.bots.wake(table)
        return table

    # ------------------------------------------------------------------ finding one
    def in_memory(self, token: str) -> tuple[Table, int] | None:
        """``find`` for a table in memory only (quick: for the event loop); None otherwise."""
        if not isinstance(token, str) or len(token) > 64:
            return None
        with self._lock:
            found = self._by_token.get(token)
            if found is not None:
                found[0].last_used = time.monotonic()
                self._tables.move_to_end(found[0].key)
            return found

    def find(self, token: str) -> tuple[Table, int] | None:
        """The table ``token`` opens and what it stands for (None: no such link). May take a game up from its
        log: call it off the event loop."""
        found = self.in_memory(token)
        if found is not None or not isinstance(token, str):
            return found
        with self._lock:
            record = self._on_disk.get(token)
        if record is None:
            return None
        with self._loading:  # one at a time: two requests for one table take it up once
            with self._lock:
                found = self._by_token.get(token)
            if found is None:
                found = self._take_up(record, token)
        return found

    def tables(self) -> list[Table]:
        with self._lock:
            return list(self._tables.values())

    def close(self, table: Table) -> None:
        """The host ends the table: its links open nothing from now on (its log stays in ``--log-dir``; a copy in
        this process's private folder goes, as nobody could read it there)."""
        with self._lock:
            self._tables.pop(table.key, None)
            for token in table.all_tokens():
                self._by_token.pop(token, None)
                self._on_disk.pop(token, None)
            if table.record is not None:
                self._aside.pop(table.record, None)
        if table.record is not None:
            table.record.unlink(missing_ok=True)
            self._remove_spilled(table.record)

    def new_link(self, table: Table, seat: int) -> str:
        """The host makes a seat's link anew (its player lost it, or someone else opened it first)."""
        with self._lock, table.lock:
            old = table.seat_tokens[seat]
            token = _token()
            table.seat_tokens[seat] = token
            table.claims.pop(old, None)
            self._by_token.pop(old, None)
            self._by_token[token] = (table, seat)
        table.write_record()
        return token

    # ------------------------------------------------------------------ memory
    def _add(self, table: Table, new: bool = False) -> None:
        with self._lock:
            while new and len(self._tables) + len(self._aside) >= self.max_kept:
                if not self._forget_finished():
                    raise TableFullError(f"this server keeps {self.max_kept} games, every one still in progress, its "
                                         "most: finish or close one first")
            while len(self._tables) >= self.max_tables:
                if not self._set_aside():
                    raise TableFullError(f"this server holds {len(self._tables)} games whose bots are all moving, its "
                                         "most at once: try again in a moment")
            self._tables[table.key] = table
            for token, role in table.all_tokens().items():
                self._by_token[token] = (table, role)

    def _set_aside(self) -> bool:
        """Take one table out of memory: a finished one first, else the least recently used with no bot to
        move, written down to be taken up again (``_spill``). Never a game in progress that would be lost."""
        chosen = next((t for t in self._tables.values() if t.session.st.is_over or t.problem), None)
        if chosen is None:
            chosen = next((t for t in self._tables.values() if t.session.bot_to_act is None), None)
            if chosen is not None and chosen.record is None:
                self._spill(chosen)
        if chosen is None:
            return False
        del self._tables[chosen.key]
        for token in chosen.all_tokens():
            self._by_token.pop(token, None)
            if chosen.record is not None:
                self._on_disk[token] = chosen.record
        if chosen.record is not None:
            over = chosen.session.st.is_over or chosen.problem is not None
            self._aside[chosen.record] = over
            if over:
                chosen.write_record()  # (says so: a server started again may forget it first)
        return True

    def _forget_finished(self) -> bool:
        """Forget one finished table, to keep the tables kept within ``max_kept``: one in memory first, else the
        one set aside longest ago (its files too, if they are in this process's private folder; a log in
        ``--log-dir`` stays, to be replayed). False when every table kept is a game in progress."""
        table = next((t for t in self._tables.values() if t.session.st.is_over or t.problem), None)
        if table is not None:
            del self._tables[table.key]
            for token in table.all_tokens():
                self._by_token.pop(token, None)
            if table.record is not None:
                self._remove_spilled(table.record)
            return True
        record = next((r for r, over in self._aside.items() if over), None)
        if record is None:
            return False
        del self._aside[record]
        for token in [t for t, r in self._on_disk.items() if r == record]:
            del self._on_disk[token]
        self._remove_spilled(record)
        return True

    def _remove_spilled(self, record: Path) -> None:
        """Remove a table's record and log if they are in this process's private folder (``_spill``)."""
        if self._spill_dir is not None and record.parent == self._spill_dir:
            record.unlink(missing_ok=True)
            _log_of(record).unlink(missing_ok=True)

    def _spill(self, table: Table) -> None:
        """Write a table kept in memory only (no ``--log-dir``) into a private folder of this process's own,
        removed when it stops, so that it can leave memory without its game being lost."""
        if self._spill_dir is None:
            import atexit
            import shutil
            import tempfile

            self._spill_dir = Path(tempfile.mkdtemp(prefix="rulecraft-tables-"))  # (mode 0700)
            atexit.register(shutil.rmtree, self._spill_dir, True)
        log = self._spill_dir / f"rulecraft-{_file_word(table.rs.name)}-{table.key}.jsonl"
        with table.lock:
            table.session.log_path = log
            table.record = log.with_suffix(RECORD)
            table.session.save()
        table.write_record()

    # ------------------------------------------------------------------ taking tables up after a restart
    def _index(self, log_dir: Path) -> None:
        for record in sorted(log_dir.glob(f"*{RECORD}"), key=_written):  # (oldest first: forgotten first)
            try:
                if record.is_symlink() or not record.is_file():
                    continue
                data = json.loads(record.read_text(encoding="utf-8"))
                tokens = [data["host"], data["watch"], data.get("hot"), *data["seats"].values()]
            except (OSError, ValueError, KeyError, TypeError, AttributeError):
                continue  # not a record this server wrote: left alone
            for token in tokens:
                if isinstance(token, str):
                    self._on_disk[token] = record
            self._aside[record] = data.get("over") is True

    def _take_up(self, record: Path, token: str) -> tuple[Table, int] | None:
        from rulecraft.runs.log import read_log

        try:
            data = json.loads(record.read_text(encoding="utf-8"))
            log = _log_of(record)
            if self.load is None or log.is_symlink():
                return None
            rs = self.load(str(data["ref"]), {str(k): str(v) for k, v in data.get("options", {}).items()},
                           data.get("preset"))
            header, events = read_log(log)
            session = Session.from_log(header, events, str(log), rs, None, log)
            rules = data.get("rules", {})
            table = Table(str(data["key"]), str(data["ref"]), dict(data.get("options", {})), data.get("preset"),
                          session, TableRules(bool(rules.get("undo")), bool(rules.get("hot_seat")),
                                              bool(rules.get("reveal_at_end"))),
                          str(data["host"]), str(data["watch"]), {int(s): str(t) for s, t in data["seats"].items()},
                          data.get("hot"), data.get("lang"), dict(data.get("claims", {})), record)
        except (OSError, ValueError, KeyError, TypeError, RulecraftError):
            with self._lock:
                for t in [t for t, r in self._on_disk.items() if r == record]:
                    del self._on_disk[t]
                self._aside.pop(record, None)
            return None
        session.version = new_version()
        session.follow_links = False
        session.language = table.lang
        self._add(table)  # (TableFullError: no room now; the record stays, to be taken up later)
        with self._lock:
            for t in table.all_tokens():
                self._on_disk.pop(t, None)
            self._aside.pop(record, None)
        self.bots.wake(table)
        return table, table.all_tokens()[token]


def _log_of(record: Path) -> Path:
    return record.with_name(record.name.removesuffix(RECORD) + ".jsonl")


def _written(path: Path) -> tuple[float, str]:
    try:
        return path.lstat().st_mtime, path.name
    except OSError:
        return 0.0, path.name


def _token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def _file_word(name: str) -> str:
    import re

    return re.sub(r"[^A-Za-z0-9._-]+", "-", name)[:40].strip("-.") or "game"


__all__ = ["HOST", "HOT", "HUMAN", "WATCH", "Bots", "LogError", "Table", "TableFullError", "TableRules", "Tables",
           "check_seed", "offered_agents"]
