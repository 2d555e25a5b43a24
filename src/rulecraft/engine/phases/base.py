"""What every phase kind provides. A phase's per-hand data lives in ``Board.pdata`` and must copy cheaply."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from rulecraft.errors import UNKNOWN_POS, ExpressionRuntimeError, SourcePos, clip

if TYPE_CHECKING:
    from rulecraft.dsl import CompiledExpr, Scope
    from rulecraft.engine.board import Board
    from rulecraft.engine.builder import Builder
    from rulecraft.engine.equipment import Equipment
    from rulecraft.engine.moves import Move


class Phase:
    """A step of a hand. Subclasses set ``kind`` and implement ``build`` and the run-time methods."""

    kind: ClassVar[str] = ""
    # Whether the phase counts the rounds each seat wins (``tricks(seat)``): views show the counts
    # only for a ruleset with such a phase, where they mean something.
    counts_rounds: ClassVar[bool] = False

    def __init__(self, pid: str, pos: SourcePos) -> None:
        self.id = pid
        self.pos = pos
        # Whether the phase runs this hand (``when:`` in the rule file; e.g. only in the first hand).
        self.when: CompiledExpr | None = None
        # What the state calls for the legal moves and to make a move: the methods below, unless the
        # phase generates functions for its ruleset that do the same in fewer steps (trick_code).
        self.decide: Callable[[Board], list[Move]] = self.legal
        self.play: Callable[[Board, Move], bool] = self.apply

    @classmethod
    def build(cls, b: Builder, rs: Equipment, raw: dict[str, Any], scope: Scope) -> Phase:
        raise NotImplementedError

    def begin(self, st: Board) -> None:
        """Start the phase: set ``st.pdata`` (never None afterwards, use an empty object)."""
        st.pdata = _Empty()

    def step(self, st: Board) -> bool:
        """Do automatic work. Return True when a decision is pending (``st.to_act`` set), False when done."""
        return False

    def legal(self, st: Board) -> list[Move]:
        return []

    def apply(self, st: Board, move: Move) -> bool:
        """Make a legal move. Return True only when the next decision is set here (``st.to_act``)
        and no automatic work is pending, so the flow need not step the phase; False otherwise."""
        raise NotImplementedError

    def breach(self, st: Board, verb: str, value: str, piece_ids: list[str]) -> Move | None:
        """A move no rule allows that a game recorded at a table may still hold, because the ruleset
        says what follows from it (a trick phase's ``revoke``): the move when this one is such a
        breach, else None. Never among the legal moves, so agents never make one."""
        return None

    def verbs(self) -> dict[str, bool]:
        """The move verbs this phase's rules name beyond the engine's own: each, whether it takes a value."""
        return {}

    def public_view(self, st: Board) -> dict[str, Any] | None:
        """What every seat may see of the phase beyond the zones (claims made, challenges revealed...).

        Shown in every seat's view under ``public``; it must hold nothing a seat may not know.
        """
        return None

    def explain(self, st: Board, verb: str, value: str, piece_ids: list[str]) -> str:
        """Why a move the player asked for is not legal now, in the rule's terms."""
        moves = self.legal(st)
        hint = ", ".join(sorted({m.verb for m in moves}))
        return f"'{' '.join([verb, value, *piece_ids]).strip()}' is not allowed now; you may: {hint}"


class _Empty:
    __slots__ = ()

    def copy(self) -> _Empty:
        return self


def pieces_held(st: Board, seat: int | None, piece_ids: list[str]) -> tuple[list[int], str | None]:
    """The seat's pieces that ``piece_ids`` name (a copy for each time an id is named) and the first id it
    does not hold, None when it holds them all: what a refusal says first when a move names pieces."""
    hand = list(st.hand(seat)) if seat is not None else []
    type_id = st.rs.pieces.type_id
    chosen: list[int] = []
    for pid in piece_ids:
        p = next((x for x in hand if type_id(x) == pid), None)
        if p is None:
            return chosen, pid
        hand.remove(p)
        chosen.append(p)
    return chosen, None


def describe_legal(moves: list[Move], limit: int = 8) -> str:
    texts = [m.text for m in moves[:limit]]
    more = f" (and {len(moves) - limit} more)" if len(moves) > limit else ""
    return ", ".join(texts) + more


def rule_failed(pos: SourcePos, message: str) -> ExpressionRuntimeError:
    """A rule that cannot do what it says with this hand's values: the error is named at that rule."""
    where = f"{pos}: " if pos is not UNKNOWN_POS else ""
    return ExpressionRuntimeError(f"{where}error: {message}", message)


def seat_of(expr: CompiledExpr, ctx: Any, seats: int, what: str) -> int:
    """The seat that ``expr`` (a phase's first player, next player, picker...) names in this hand.

    A value that is no seat is an error at the expression: a seat number out of range would otherwise
    index past the seats (or, negative, silently mean a seat counted from the end).
    """
    value = expr(ctx)
    if not isinstance(value, bool) and isinstance(value, (int, float)) and value == value and \
            value in range(seats):
        return int(value)
    raise rule_failed(expr.pos, f"{what}: '{clip(expr.text, 100)}' gave {clip(repr(value), 100)}, which is no "
                                f"seat (seats are numbered 0 to {seats - 1})")


def places_variable(b: Builder, rs: Equipment, raw: dict[str, Any]) -> int:
    """The index of the per-seat variable a phase's ``places`` names (where seats' finishing places go), or -1."""
    if "places" not in raw or not b.ref(raw["places"], rs.var_index, "variable"):
        return -1
    index = rs.var_index[str(raw["places"])]
    if rs.variables[index].per != "seat":
        b.error(raw["places"], f"'places' names a variable with one value per seat; '{raw['places']}' is not")
    return index


def record_place(st: Board, places_var: int, finished: list[int], seat: int) -> None:
    """``seat`` goes out next: it joins ``finished``, and its place (1, 2, ...) goes into the places variable."""
    finished.append(seat)
    if places_var >= 0:
        st.vars[places_var][seat] = len(finished)
