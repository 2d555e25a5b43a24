"""``rulecraft play``: a game at the terminal, humans against bots (or each other, hot-seat), for any ruleset.

The loop shows each human the table from their own seat's view, reads moves by their text form,
lets bots answer at once and prints what they did as the human's seat may see it (the redacted
log). The whole table is shown when a player sits down (a new game or hand, a resume, an undo, the
terminal passed in hot-seat play, or asked for with ``table``); between their decisions, only what
changed for their seat (``table.changes``), then what they may do and, as the prompt, what they are
asked in the game's words (``prompts``). The game is saved to a log as it goes, so ``quit``, Ctrl-D
and Ctrl-C all leave a game that ``--resume`` continues.
"""

from __future__ import annotations

import itertools
import re
import secrets
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from rulecraft.cli.console import Console
from rulecraft.cli.move_input import completions, legal_listing, resolve_move, state_summary
from rulecraft.cli.options import parse_option_assignments
from rulecraft.cli.play_session import HUMAN, Session, seat_agents
from rulecraft.cli.prompts import decision_prompt, hand_events
from rulecraft.cli.table import (
    HAND_ZONE,
    RECENT,
    Seats,
    changes,
    event_text,
    hand_lines,
    language,
    log_lines,
    names_of,
    piece_order,
    piece_type,
    render_table,
    table_header,
    variable_lines,
)
from rulecraft.engine.views import redact_event, visible_variables
from rulecraft.errors import IllegalMoveError, RulecraftError, UsageError
from rulecraft.runs.session import keyed_hands, table_seed
from rulecraft.wording import merge_hidden, round_word

if TYPE_CHECKING:
    from rulecraft.engine.ruleset import Ruleset

DEFAULT_LOG = "rulecraft-{name}-{seed}.jsonl"  # in the current directory; -2, -3 ... when taken
OBSERVER = -1  # redact as a seat that is nobody's: what every player may see
COMMANDS = ["?", "moves", "help", "undo", "quit", "table", "hand", "names", "log"]
HELP = [
    "Type a move by its text form: 'play red-14', 'bid 85', 'pass', 'call play', 'name red',",
    "'claim 7: h7 s7', 'challenge', 'accept'. A unique start of a legal move is enough ('play r').",
    "Recording a game played at a table: 'revoke red-5' enters a play that broke the follow rules",
    "(only where the rules say what follows from one; it is found when the trick ends).",
    "After each move only what changed is shown; 'table' shows everything.",
    "  ? or moves   list the legal moves          table   show the whole table",
    "  hand         your hand                      names   your pieces with their names",
    "  log          the last 30 events you may see",
    "  undo         take back your last move (and the bots' replies)",
    "  quit         save the game and stop (Ctrl-D and Ctrl-C save too; continue with --resume)",
]


class PlayLoop:
    """Runs a session to its end or until a player stops; returns the exit code."""

    def __init__(self, session: Session, console: Console, from_start: bool = True) -> None:
        self.s = session
        self.con = console
        humans = session.humans
        # Whose eyes the running commentary is for: the one human; with several, only what all may see.
        self.viewer: int | None = humans[0] if len(humans) == 1 else (OBSERVER if humans else None)
        self.hot_seat = len(humans) > 1
        self.shown_seat: int | None = None
        # Each human seat's view as last shown to it: what changed since is what the next turn shows.
        self.last_view: dict[int, dict[str, Any]] = {}
        self.order = piece_order(session.rs)
        # A new game shows its opening (the bots' first moves); a resumed one starts from where it stopped.
        self.printed = 0 if from_start else len(session.st.history)
        labels = [("you" if len(humans) == 1 else HUMAN) if a == HUMAN else a for a in session.agents]
        self.seats = Seats(tuple(labels))
        console.set_completion(lambda typed: completions(self.s.st, typed, COMMANDS))

    # ------------------------------------------------------------------ output
    def _emit_new_events(self) -> None:
        history = self.s.st.history
        shown = [e for e in (redact_event(event, self.viewer) for event in history[self.printed:]) if e is not None]
        for event in merge_hidden(shown):  # (three cards passed in a row: one line)
            line = event_text(event, self.seats, self.s.rs, self.s.language)
            if line is not None:
                self.con.echo(line)
            if event.get("type") == "hand_end":
                self._hand_summary()
        self.printed = len(history)

    def _hand_summary(self) -> None:
        st = self.s.st
        if st.hand_results and st.rs.counts_rounds:
            tricks = st.hand_results[-1].get("tricks", [])
            self.con.echo(f"  {round_word(st.rs, plural=True)} this hand: "
                          + "  ".join(f"seat {s}: {n}" for s, n in enumerate(tricks)))
        # Only what the seat (or, hot-seat, every seat) may see: a match variable may be hidden.
        values = visible_variables(st, self.viewer)
        for line in variable_lines(st.rs, values, self.seats, scope="match", lang=self.s.language, only_given=True):
            self.con.echo(line)

    def recent(self, seat: int, n: int = RECENT) -> list[str]:
        # The last events that make n lines, hidden moves in a row told once (a few more than n events
        # are read, so that a run of them cut at the start still says how many there were).
        shown: list[dict[str, Any]] = []
        for event in reversed(self.s.st.history):
            redacted = redact_event(event, seat)
            if redacted is not None:
                shown.append(redacted)
                if len(log_lines(shown[::-1], self.seats, self.s.rs, self.s.language)) > n:
                    break
        return log_lines(shown[::-1], self.seats, self.s.rs, self.s.language)[-n:]

    def show_table(self, seat: int) -> None:
        """The whole table as ``seat`` sees it, and what it may do."""
        view = self.s.st.view(seat)
        self.con.echo()
        self.con.lines(render_table(self.s.rs, view, self.seats, self.recent(seat), self.s.language, moves=False))
        self._moves(seat, view)

    def show_changes(self, seat: int) -> None:
        """What changed for ``seat`` since its table was last shown (the whole table at a new hand), and its moves."""
        view = self.s.st.view(seat)
        last = self.last_view.get(seat)
        if last is None:
            self.show_table(seat)
            return
        if last.get("hand_number") != view.get("hand_number"):  # a new deal: its header, then what it changed
            self.con.echo()
            self.con.echo(table_header(self.s.rs, view, self.s.language))
        self.con.lines(changes(self.s.rs, last, view, self.seats, self.s.language))
        self._moves(seat, view)

    def _moves(self, seat: int, view: dict[str, Any]) -> None:
        self.last_view[seat] = view
        if self.s.st.to_act == seat:
            self.con.lines(state_summary(self.s.st, self.order))

    def prompt(self, seat: int) -> str:
        """``trick 3: your lead [seat 0]> ``: what the seat is asked, in the game's words, then whose turn it is."""
        st = self.s.st
        asked = decision_prompt(st.rs, st.view(seat), hand_events(st.history, seat), self.seats, self.s.language)
        return f"{asked} [seat {seat}]> " if asked else f"[seat {seat}]> "

    def show_hand(self, seat: int) -> None:
        held = list(self.s.st.view(seat)["zones"].get(f"{HAND_ZONE}[{seat}]", {}).get("pieces", []))
        self.con.echo(f"your hand (seat {seat}, {len(held)} piece{'' if len(held) == 1 else 's'}):")
        self.con.lines(hand_lines(self.s.rs, held, lang=self.s.language))

    # ------------------------------------------------------------------ the loop
    def run(self) -> int:
        self._emit_new_events()
        try:
            while not self.s.st.is_over:
                st = self.s.st
                seat = st.to_act
                if seat is None:  # pragma: no cover - the engine always has a seat to act in a running game
                    raise RuntimeError("no seat to act in an unfinished game")
                if not self.s.is_human(seat):
                    self._bot_turn()
                    continue
                # The bots' moves since the human's last are printed together, just before its turn, so
                # that a run of them reads as one line ("give 3 pieces", not three lines of one each).
                self._emit_new_events()
                if self._human_turn(seat) == "quit":
                    return self._stop("", 0)
        except EOFError:
            return self._stop("\n", 0)
        except KeyboardInterrupt:
            return self._stop("\ninterrupted: ", 130)
        self._finish()
        return 0

    def _bot_turn(self) -> None:
        seat, move = self.s.choose_for_bot()
        try:
            self.s.move(seat, move)
        except RulecraftError:
            self.s.save()  # the game as it was before the move: the problem is the rule's, at its place
            self._emit_new_events()
            raise

    def _stop(self, lead: str, code: int) -> int:
        self.s.save()
        path = self.s.log_path
        self.con.echo(f"{lead}game saved to {path}; continue with: rulecraft play --resume {path}")
        return code

    def _finish(self) -> None:
        st = self.s.st
        self.s.save()
        self._emit_new_events()
        seat = self.viewer if self.viewer is not None and self.viewer >= 0 else None
        self.con.echo()
        self.con.lines(render_table(st.rs, st.view(seat), self.seats,
                                    self.recent(seat if seat is not None else OBSERVER), self.s.language))
        self.con.echo(f"game over; log saved to {self.s.log_path}")

    def _pass_terminal(self, seat: int) -> None:
        """Hot-seat: hide the last player's hand before the next player sits down."""
        self.con.clear()
        self.con.echo(f"Pass the terminal to {self.seats.name(seat)}.")
        self.con.ask(f"seat {seat}: press Enter when you are ready ")
        self.con.clear()

    def _human_turn(self, seat: int) -> str:
        """One decision of a human seat: 'moved', 'undone' or 'quit'."""
        if not len(self.s.st.legal_moves()):  # the rules left this seat nothing to do: a rule problem
            self.s.save()
            raise self.s.no_legal_move()
        if self.hot_seat and seat != self.shown_seat:
            self._pass_terminal(seat)
            self.last_view.pop(seat, None)  # the screen was cleared: the whole table again
        self.shown_seat = seat
        self.s.save()  # a crash or a closed terminal loses nothing
        self.show_changes(seat)
        prompt = self.prompt(seat)
        while True:
            text = self.con.ask(prompt).strip()
            word = text.lower()
            if not word:
                continue
            if word in ("?", "moves"):
                self.con.lines(legal_listing(self.s.st))
            elif word in ("help", "h"):
                self.con.lines(HELP)
            elif word in ("quit", "q", "exit"):
                return "quit"
            elif word in ("table", "t"):
                self.show_table(seat)
            elif word == "hand":
                self.show_hand(seat)
            elif word == "names":
                self._names(seat)
            elif word == "log":
                self.con.lines(self.recent(seat, 30))
            elif word == "undo":
                if self._undo(seat):
                    return "undone"
            else:
                try:
                    move = resolve_move(self.s.st, text)
                except IllegalMoveError as exc:
                    self.con.echo(f"refused: {exc}")
                    continue
                if move.text != " ".join(text.split()):
                    self.con.echo(f"(taken as: {move.text})")
                try:
                    self.s.move(seat, move)
                except RulecraftError as exc:  # a rule that failed while making it: the game is as it was
                    self.con.echo(f"refused: {exc}")
                    continue
                self._emit_new_events()
                return "moved"

    def _undo(self, seat: int) -> bool:
        try:
            n = self.s.undo(seat)
        except UsageError as exc:
            self.con.echo(f"refused: {exc}")
            return False
        if n == 0:
            self.con.echo("nothing to undo: you have not moved yet")
            return False
        self.printed = len(self.s.st.history)
        self.last_view.clear()  # the table is shown whole again, as it now stands
        self.con.echo(f"undone: your last move and {n - 1} after it")
        return True

    def _names(self, seat: int) -> None:
        """Each held piece's id, name and glyph, and its names in the ruleset's other languages."""
        rs = self.s.rs
        names = names_of(rs)
        held = self.s.st.view(seat)["zones"].get(f"hand[{seat}]", {}).get("pieces", [])
        for tid in dict.fromkeys(held):
            t = piece_type(rs, tid)
            glyph = f"  {t.glyph}" if t.glyph else ""
            local = "".join(f"  {lang}: {' / '.join(n)}" for lang, n in names.all_names("pieces", tid).items()
                            if lang != names.default)
            self.con.echo(f"  {tid:<16} {names.term('pieces', tid, names.default) or t.name}{glyph}{local}")
        if not held:
            self.con.lines(hand_lines(rs, []))


@click.command()
@click.argument("ruleset", required=False)
@click.option("-o", "--option", "options", multiple=True, metavar="NAME=CHOICE",
              help="Choose an option of the ruleset (repeatable).")
@click.option("--preset", default=None, help="Select a named preset of options.")
@click.option("--seats", "seats_spec", default=None, metavar="A,B,...",
              help="Who plays each seat: 'human' or an agent (default, random, bluffer, ...). "
                   "Default: a human in seat 0, default bots elsewhere.")
@click.option("--seed", type=int, default=None,
              help="Seed of the game: alone against bots, the game it names (to replay a deal); with several people, "
                   "mixed with secret bits so that nobody can work out the deal (default: secret bits).")
@click.option("--hands", "max_hands", type=click.IntRange(min=1), default=None,
              help="Stop the match after this many hands.")
@click.option("--log", "log_file", type=click.Path(dir_okay=False), default=None,
              help="Where to save the game: a new file (default: rulecraft-RULESET-SEED.jsonl, or the resumed "
                   "file).")
@click.option("--resume", "resume_file", type=click.Path(dir_okay=False), default=None,
              help="Continue a game saved in this log (its ruleset, options, seed and seats).")
@click.option("--lang", "lang", default=None, metavar="CODE",
              help="Show pieces and rules by their names in this language of the ruleset (see 'rulecraft "
                   "list'; default: the rule file's own); a resumed game keeps its own unless this is given.")
def play(ruleset: str | None, options: tuple[str, ...], preset: str | None, seats_spec: str | None,
         seed: int | None, max_hands: int | None, log_file: str | None, resume_file: str | None,
         lang: str | None) -> int:
    """Play RULESET at the terminal: you against bots, or several people taking turns at one keyboard."""
    from rulecraft.load import load_ruleset
    from rulecraft.runs.log import load_logged_ruleset, read_log

    console = Console()
    if resume_file is not None and (seed is not None or max_hands is not None):
        raise UsageError("a resumed game keeps its own seed and hand limit: leave out --seed and --hands")
    if resume_file is not None:
        header, _ = read_log(resume_file)
        if ruleset is None:
            rs = load_logged_ruleset(header, resume_file)
        else:
            rs = load_ruleset(ruleset, parse_option_assignments(options), preset)
        agents = seat_agents(rs, seats_spec, int(header["seed"])) if seats_spec is not None else None
        shown_in = language(rs, lang) if lang is not None else _logged_language(rs, header) or names_of(rs).default
        target = Path(resume_file) if log_file is None or _same_file(log_file, resume_file) else new_save(log_file)
        session = Session.resume(Path(resume_file), rs, agents, target)
        session.language = shown_in
        moves = sum(1 for e in session.st.history if e.get("type") == "move")
        console.echo(f"{rs.title}: resumed {resume_file} after {moves} moves")
    else:
        if ruleset is None:
            raise UsageError("name a ruleset to play (a bundled name from 'rulecraft list', or a file), "
                             "or --resume a saved game")
        rs = load_ruleset(ruleset, parse_option_assignments(options), preset)
        # A player reads the game's own words: its names in the rule file's language unless another is asked.
        shown_in = language(rs, lang) if lang is not None else names_of(rs).default
        agents = seat_agents(rs, seats_spec, seed or 0)
        alone = seed is not None and agents.count(HUMAN) <= 1  # the seed typed is the game's (table_seed)
        label = str(seed) if alone else secrets.token_hex(4)  # a secret seed is named nowhere but in the log
        target = new_save(log_file) if log_file is not None else default_save(rs.name, label)
        session = Session.new(rs, table_seed(seed, agents.count(HUMAN)), agents, target, max_hands,
                              hands_keyed=keyed_hands(seed, agents.count(HUMAN)))
        session.language = shown_in
        chance = (f"seed {seed}" if alone else "a secret seed" if seed is None
                  else f"seed {seed} mixed with secret bits (several people)")
        console.echo(f"{rs.title}: {chance}, seats {','.join(agents)}. Type 'help' for commands.")
    return PlayLoop(session, console, from_start=resume_file is None).run()


def _logged_language(rs: Ruleset, header: dict[str, Any]) -> str | None:
    """The language a saved game was shown in, if the ruleset still has it (it only ever affects display)."""
    code = header.get("display_language")
    return str(code) if isinstance(code, str) and code in names_of(rs).languages else None


def new_save(path: str) -> Path:
    """``--log PATH`` for a game that has no save yet: a new file in a directory that exists.

    rulecraft never overwrites a file that is not the game's own save, so an existing file (another
    game's save, or anything else) is refused before the game starts.
    """
    from rulecraft.runs.files import check_writable

    target = check_writable(path, "--log")
    if target.exists():
        raise UsageError(f"--log {path}: the file exists; a new game is saved to a new file, so that nothing is "
                         "overwritten (continue a saved game with --resume)")
    return target


def default_save(name: str, seed: int | str, directory: Path | None = None) -> Path:
    """``rulecraft-NAME-SEED.jsonl`` in the current directory, or the first of ``...-2``, ``...-3`` not taken.

    ``seed``: the seed, or a word in its place where the seed is a secret (a file's name is seen by all).
    """
    stem = DEFAULT_LOG.format(name=re.sub(r"[^A-Za-z0-9._-]+", "-", name)[:40].strip("-.") or "game",
                              seed=seed).removesuffix(".jsonl")
    where = directory or Path()
    for n in itertools.count(1):
        candidate = where / (f"{stem}.jsonl" if n == 1 else f"{stem}-{n}.jsonl")
        if not candidate.exists() and not candidate.is_symlink():
            return candidate
    raise AssertionError("unreachable")  # pragma: no cover


def _same_file(a: str, b: str) -> bool:
    try:
        return Path(a).resolve() == Path(b).resolve()
    except OSError:
        return False


def register(group: click.Group) -> None:
    group.add_command(play)
