"""The generic encoding of any ruleset for learning agents: action ids and observation tensors.

**Actions.** A move is a sequence of *tokens* (``rl.choices`` takes it one token per step):

* a *head* token: a bare verb (``pass``, ``stop``, ``challenge``, ``accept``), a verb with its value
  (``bid 85``, ``call play``, ``name red``) or the value of a claim (``claim 7:``);
* then, for a move with pieces, one *piece* token per piece (``play red-14``, ``down 6-6``, ``give
  red-5``, ``claim h7``), ordered by piece type, identical copies repeated;
* ``done``, offered only when the pieces chosen so far are a whole move and could also go on.

Action ids are the positions in one vocabulary built from the ruleset alone: the five bare tokens,
then every bid of every auction, every named call, every value a choice may name, every claim value,
then ``play``, ``down``, ``give`` and ``claim`` × piece type. The same ruleset and options give the
same ids in every process. A play of k pieces takes k steps instead of one action per set, so the
space stays a few hundred ids for any hand size (a claim of any subset of 13 cards would be 8191 sets
per value as single actions).

**Observations.** A float32 vector, laid out in named sections (``Encoding.sections``), computed only
from what the viewer may see: ``engine.views.visible`` for each piece, ``visible_variables`` for the
variables, and the record as ``redact_event`` shows it to the viewer. The information-state variant
adds what every seat remembers of the hand: the pieces all have seen face up (the engine's public
knowledge, which expressions read as ``seen``). The sections are listed in docs/research-api.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from rulecraft.dsl import CompiledExpr, T
from rulecraft.dsl import ast as A
from rulecraft.dsl.parser import parse
from rulecraft.engine.game import Game
from rulecraft.engine.moves import Move
from rulecraft.engine.phases.calls import Auction, Choose
from rulecraft.engine.phases.claims import Claims
from rulecraft.engine.phases.climb import Climb
from rulecraft.engine.phases.dice import Dice, dice_targets
from rulecraft.engine.phases.shed import Shed
from rulecraft.engine.phases.turns import EachSeat
from rulecraft.engine.phases.values import value_text
from rulecraft.engine.ruleset import Ruleset
from rulecraft.engine.views import HIDDEN_PIECE, redact_event
from rulecraft.errors import RulecraftError

BARE = ("pass", "stop", "challenge", "accept", "done")
DONE = BARE.index("done")
PIECE_VERBS = ("play", "down", "give", "claim")
LIST_SLOTS = 4  # a list-valued variable (dice rolled) shows its first four entries
PUBLIC = -2  # a viewer that is no seat: sees what everyone sees and nothing private
ROWS_KEPT = 100_000  # moves remembered (their tokens, their rows of ``recent``) before the memory starts again
Token = tuple[str, str, int]  # (verb, value, piece type or -1 for a head token)
Vector = npt.NDArray[np.float32]


class EncodingError(RulecraftError):
    """A move the encoding has no action for (a value a rule computes during play)."""


@dataclass(frozen=True, slots=True)
class Section:
    name: str
    start: int
    size: int
    what: str


class Encoding:
    """Action ids and observation layout of one ruleset (see the module docstring)."""

    def __init__(self, rs: Ruleset) -> None:
        self.rs = rs
        self.seats = rs.seats.count
        self.types = len(rs.pieces.types)
        self.type_ids = [t.id for t in rs.pieces.types]
        heads: list[Token] = [(v, "", -1) for v in BARE]
        for verb, value in _head_values(rs):
            if (verb, value, -1) not in heads:
                heads.append((verb, value, -1))
        self.head_count = len(heads)
        self.tokens: list[Token] = heads + [(v, "", t) for v in PIECE_VERBS for t in range(self.types)]
        self.ids = {tok: i for i, tok in enumerate(self.tokens)}
        self.num_actions = len(self.tokens)
        # The strings a variable may hold that the encoding can name (trump, a method named ...).
        self.strings = sorted({tok[1] for tok in heads if tok[1]})
        self.string_index = {s: i for i, s in enumerate(self.strings)}
        self.max_sides = max((p.sides for p in rs.phases if isinstance(p, Dice)), default=0)
        # Per-seat (per-team) variables dice are rolled into (each seat's cup): each entry the viewer may
        # see is encoded as how many of its dice show each face.
        self.cups = {vi: sides for vi, sides in dice_targets(rs) if rs.variables[vi].per in ("seat", "team")}
        # A move's tokens by its text (the same for identical copies: tokens name piece types).
        self.tokens_by_text: dict[str, tuple[int, ...]] = {}
        self._rows: dict[tuple[int | None, int, str], Any] = {}  # see move_row
        self._cells: dict[int | None, tuple[list[int], list[list[int]], list[list[int]]]] = {}  # see piece_cells
        self.recent = 2 * self.seats  # moves of this hand shown, latest first
        self.row_width = self.seats + self.head_count + 3 + self.types + 1  # one move of ``recent``
        self.var_widths = [self._var_width(i) for i in range(len(rs.variables))]
        self.sections, self.size = self._layout(recall=False)
        self.recall_sections, self.recall_size = self._layout(recall=True)
        self.at = {s.name: s.start for s in self.sections}  # where each section starts
        self._at_recall = {s.name: s.start for s in self.recall_sections}

    # ----------------------------------------------------------------- actions
    def piece_token(self, verb: str, piece_type: int) -> int:
        return self.ids[(verb, "", piece_type)]

    def move_tokens(self, move: Move) -> tuple[int, ...]:
        """The token ids of a move, in the order they are chosen."""
        toks = self.tokens_by_text.get(move.text)
        if toks is None:
            if len(self.tokens_by_text) > ROWS_KEPT:  # (a claims game has many distinct moves)
                self.tokens_by_text.clear()
            toks = self.tokens_by_text[move.text] = self._tokens_of(move)
        return toks

    def _tokens_of(self, move: Move) -> tuple[int, ...]:
        out: list[int] = []
        if move.verb == "claim" or not move.pieces:
            key = (move.verb, move.value, -1)
            if key not in self.ids:
                raise EncodingError(f"the move '{move.text}' has no action id: '{move.verb} {move.value}' is not "
                                    "among the values the rule file lists (see docs/research-api.md)")
            out.append(self.ids[key])
        type_of = self.rs.pieces.type_of
        out.extend(self.ids[(move.verb, "", type_of[p])] for p in sorted(move.pieces, key=lambda p: (type_of[p], p)))
        return tuple(out)

    def action_string(self, action: int) -> str:
        verb, value, t = self.tokens[action]
        if t >= 0:
            return f"{verb} {self.type_ids[t]}"
        if verb == "claim":
            return f"claim {value}:"
        return f"{verb} {value}" if value else verb

    # ----------------------------------------------------------------- observations
    def _layout(self, recall: bool) -> tuple[list[Section], int]:
        n, t = self.seats, self.types
        zones = self.rs.zone_instance_count
        summary = self.row_width
        parts = [
            ("seat", n, "the observing seat, one-hot"),
            ("to_act", n + 1, "the seat to act, one-hot (last: nobody)"),
            ("phase", len(self.rs.phases) + 1, "the current phase, one-hot (last: the game is over)"),
            ("active", n, "seats playing this hand"),
            ("zones", zones * (t + 1), "per zone instance: visible pieces by type, then how many it holds"),
            ("tricks", n, "tricks (or stacks) taken this hand, per seat"),
            ("variables", sum(self.var_width(i) for i in range(len(self.rs.variables))),
             "each variable the viewer may see (see docs/research-api.md)"),
            ("recent", self.recent * summary, f"the last {self.recent} moves of this hand, latest first, as the "
             "viewer could read them: the seat, the move's head, the pieces shown, how many were hidden"),
            ("selection", self.head_count + 3 + t, "the move being chosen: its head, pieces chosen so far"),
            ("hand", 1, "the hand number"),
        ]
        if recall:
            parts.append(("seen", t, "pieces seen face up by every seat this hand, by type"))
        sections, start = [], 0
        for name, size, what in parts:
            sections.append(Section(name, start, size, what))
            start += size
        return sections, start

    def var_width(self, i: int) -> int:
        """How many numbers variable ``i`` takes in the observation."""
        return self.var_widths[i]

    def _var_width(self, i: int) -> int:
        v = self.rs.variables[i]
        if i in self.cups:
            return 1 + (self.seats if v.per == "seat" else len(self.rs.seats.teams)) * self.cups[i]
        if v.per == "seat":
            return 1 + self.seats
        if v.per == "team":
            return 1 + len(self.rs.seats.teams)
        if v.expr_type is T.SEAT:
            return 1 + self.seats + 1
        if v.expr_type is T.STRING:
            return 1 + len(self.strings) + 1
        if v.expr_type is T.LIST:
            return 1 + LIST_SLOTS
        return 2

    def offsets(self, recall: bool = False) -> dict[str, int]:
        """Where each section starts in the vector (with ``recall``: the information-state vector, the same
        sections at the same places and ``seen`` after them)."""
        return self._at_recall if recall else self.at

    # ----------------------------------------------------------------- pieces of the observation
    def zone_sees(self, viewer: int | None) -> list[bool]:
        """Per zone instance: whether ``viewer`` sees the face-up pieces in it (``engine.views.visible``
        for a piece nobody showed, put down or passed; PUBLIC, no seat, sees only zones everyone sees)."""
        out = [False] * self.rs.zone_instance_count
        team_of = self.rs.seats.team_of
        for zone in self.rs.zones:
            for owner in range(zone.instances):
                if viewer is None or zone.visibility == "all":
                    sees = True
                elif zone.visibility != "owner" or viewer == PUBLIC:
                    sees = False
                elif zone.per == "seat":
                    sees = owner == viewer
                else:
                    sees = zone.per == "team" and team_of[viewer] == owner
                out[zone.base + owner] = sees
        return out

    def piece_cells(self, viewer: int | None) -> tuple[list[int], list[list[int]], list[list[int]]]:
        """Where a piece adds to the ``zones`` section, worked out once per viewer: per zone instance the
        cell of its count; per piece and zone instance the cell of the piece's type (``seen``), and that
        cell if ``viewer`` sees the zone's face-up pieces, else -1 (``zone_sees``)."""
        found = self._cells.get(viewer)
        if found is None:
            width = self.types + 1
            base = self.at["zones"]
            zones = range(self.rs.zone_instance_count)
            count = [base + zi * width + width - 1 for zi in zones]
            sees = self.zone_sees(viewer)
            seen = [[base + zi * width + t for zi in zones] for t in self.rs.pieces.type_of]
            vis = [[c if sees[zi] else -1 for zi, c in enumerate(row)] for row in seen]
            found = self._cells[viewer] = (count, seen, vis)
        return found

    def var_slots(self) -> list[int]:
        """Where each variable starts within the ``variables`` section."""
        out, at = [], 0
        for i in range(len(self.rs.variables)):
            out.append(at)
            at += self.var_width(i)
        return out

    def write_variable(self, i: int, shown: dict[str, Any], out: Any, at: int) -> None:
        """Variable ``i`` as ``shown`` to a viewer (``visible_variables``) into ``out`` from ``at`` (zeroed)."""
        v = self.rs.variables[i]
        if v.name not in shown:
            return
        out[at] = 1.0  # the viewer may see (some of) it
        value = shown[v.name]
        if i in self.cups:
            sides = self.cups[i]
            for k, faces in enumerate(value):
                for face in faces if isinstance(faces, list) else ():
                    if isinstance(face, int) and 1 <= face <= sides:
                        out[at + 1 + k * sides + face - 1] += 1.0
        elif v.per in ("seat", "team"):
            for k, x in enumerate(value):
                out[at + 1 + k] = _number(x)
        elif v.expr_type is T.SEAT:
            out[at + 1 + (int(value) if isinstance(value, int) and 0 <= value < self.seats else self.seats)] = 1.0
        elif v.expr_type is T.STRING:
            out[at + 1 + self.string_index.get(str(value), len(self.strings))] = 1.0
        elif v.expr_type is T.LIST:
            for k, x in enumerate(list(value or [])[:LIST_SLOTS]):
                out[at + 1 + k] = _number(x)
        else:
            out[at + 1] = _number(value)

    def move_row(self, viewer: int | None, seat: int, text: str) -> Any:
        """A move of the record as one row of ``recent``, as ``viewer`` may read it (``redact_event``): the
        seat, the move's head, the pieces shown, how many were hidden; a float32 memoryview of ``row_width``
        numbers, made once per (viewer, seat, move) and copied whole into a view (one copy in C, not a cell
        at a time)."""
        key = (viewer, seat, text)
        row = self._rows.get(key)
        if row is None:
            if len(self._rows) > ROWS_KEPT:  # (a claims game has many distinct moves)
                self._rows.clear()
            seen = redact_event({"type": "move", "seat": seat, "move": text}, viewer)
            head, types, hidden = self.read_move(str(seen["move"]) if seen is not None else text)
            cells = np.zeros(self.row_width, np.float32)
            cells[seat] = 1.0
            if head >= 0:
                cells[self.seats + head] = 1.0
            for ty in types:
                cells[self.seats + self.head_count + 3 + ty] += 1.0
            if hidden:
                cells[self.row_width - 1] = float(hidden)
            row = self._rows[key] = memoryview(cells)  # type: ignore[arg-type]
        return row

    def read_move(self, text: str) -> tuple[int, list[int], int]:
        """(head slot, piece types shown, pieces hidden) of a move's text as a seat may read it."""
        words = text.split()
        verb = words[0]
        if verb == "claim":
            head = self.ids.get(("claim", words[1].rstrip(":"), -1), -1)
            rest = words[2:]
        elif verb in ("play", "down", "give"):
            head = self.head_count + ("play", "down", "give").index(verb)
            rest = words[1:]
        else:
            head = self.ids.get((verb, words[1] if len(words) > 1 else "", -1), -1)
            rest = []
        by_id = self.rs.pieces.by_type_id
        types = [by_id[w] for w in rest if w in by_id]
        return head, types, sum(1 for w in rest if w == HIDDEN_PIECE)

    def selection_cells(self, selection: tuple[int, ...]) -> dict[int, float]:
        """The move being chosen as (offset in the ``selection`` section, value): its head, the pieces so far."""
        cells: dict[int, float] = {}
        for a in selection:
            verb, _value, ty = self.tokens[a]
            if ty < 0:
                cells[a] = 1.0
            else:
                if verb != "claim":
                    cells[self.head_count + ("play", "down", "give").index(verb)] = 1.0
                at = self.head_count + 3 + ty
                cells[at] = cells.get(at, 0.0) + 1.0
        return cells

    def describe(self, recall: bool = True) -> list[dict[str, Any]]:
        """The observation layout as data (name, start, size, what), for documentation and tools;
        ``recall``: of the information state (the observation, then ``seen``). The structured
        observation's layout: ``rl.structured.Structure(enc).describe()``."""
        return [{"name": s.name, "start": s.start, "size": s.size, "what": s.what}
                for s in (self.recall_sections if recall else self.sections)]


def _number(x: Any) -> float:
    if isinstance(x, bool):
        return 1.0 if x else 0.0
    if isinstance(x, (int, float)):
        return float(x)
    return 0.0


def _head_values(rs: Ruleset) -> list[tuple[str, str]]:
    """Every (verb, value) a decision of this ruleset can take, read from its phases."""
    out: list[tuple[str, str]] = []
    for phase in rs.phases:
        if isinstance(phase, Auction):
            if phase.ladder is not None:
                out.extend((phase.bid_verb, t) for t in phase.ladder.names)
            out.extend((verb, "") for verb, takes_value in phase.verbs().items() if not takes_value)
            out.extend(("call", c) for c in phase.calls)
            out.extend(("call", e.id) for e in phase.extra)
        elif isinstance(phase, Choose):
            out.extend((phase.verb, v) for v in _listed(rs, phase.options, phase.item_kind))
        elif isinstance(phase, EachSeat) and phase.values is not None:
            out.extend((phase.verb, v) for v in _listed(rs, phase.values, phase.item_kind))
        elif isinstance(phase, Claims):
            out.extend(("claim", str(v)) for v in phase.values)
            out.extend(("call", c.id) for c in phase.calls)  # (named calls against a claim: an exact count)
        elif isinstance(phase, Shed):  # (only a ruleset with a stock to draw from gets an id for 'draw')
            if phase.stock is not None:
                out.append(("draw", ""))
            for item in phase.on_play:
                if item.choose is not None:
                    out.extend((item.choose.verb, v) for v in _listed(rs, item.choose.values, item.choose.kind))
        elif isinstance(phase, Climb):  # calls on a turn, values a play or a round's end asks for
            out.extend(("call", c.id) for c in phase.calls)
            specs = [item.choose for item in phase.on_play if item.choose is not None]
            if phase.capture is not None and phase.capture.choose is not None:
                specs.append(phase.capture.choose)
            for spec in specs:
                seats = [str(s) for s in range(rs.seats.count)] if spec.kind is T.SEAT else []
                out.extend((spec.verb, v) for v in seats or _listed(rs, spec.values, spec.kind))
    return out


def _listed(rs: Ruleset, values: CompiledExpr | None, kind: T) -> list[str]:
    """The values a choice offers, as moves write them: its list on a game not yet dealt (a list, a
    range, a constant), and those its shape says a list computed during play may hold (``_drawn_from``:
    a value the game leaves out before the deal, as Euchre's turned-up suit, may be offered later)."""
    if values is None:
        return []
    found: list[Any] = []
    try:
        st = Game(rs, 0, max_hands=1).new_state()
        listed = values(st.ctx)
        if isinstance(listed, (list, tuple, range)):
            found = list(listed)
    except Exception:  # (a list read from the game: only its shape can say)
        pass
    found += _drawn_from(parse(values.text)) or []
    ids = rs.pieces.columns["id"]
    return list(dict.fromkeys(value_text(v, kind, ids) for v in found))


def _drawn_from(node: A.Node) -> list[Any] | None:
    """The values a list computed during play may hold, read from its shape: the items of a list of
    constants; for ``[x for x in SOURCE if ...]`` those SOURCE may hold (the game only leaves some out:
    Euchre's suits other than the one turned up); for ``A if ... else B`` those of both. None when
    the shape says nothing (such values have no action id: EncodingError when one is played)."""
    if isinstance(node, A.ListExpr):
        if node.comp is None:
            constants = [i.value for i in node.items if isinstance(i, A.Literal)]
            return constants if len(constants) == len(node.items) else None
        element = node.items[0] if len(node.items) == 1 else None
        if isinstance(element, A.Name) and element.id == node.comp.var:
            return _drawn_from(node.comp.iter)
        return None
    if isinstance(node, A.Cond):
        body, orelse = _drawn_from(node.body), _drawn_from(node.orelse)
        return None if body is None or orelse is None else body + orelse
    return None
