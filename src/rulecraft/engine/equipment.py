"""The equipment of a game, as built from its rule file: seats, pieces, zones, variables, combinations.

Everything here is fixed once a ruleset is built; ``engine.board`` holds where things are during a
game. (``engine.ruleset`` adds the procedure: phases, what happens on a voided hand, the match.)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rulecraft.dsl import CompiledExpr, Scope, T
from rulecraft.engine.combos import ComboSpec
from rulecraft.engine.moves import MoveBook
from rulecraft.engine.pieces import NameTable, PieceTable
from rulecraft.errors import SourcePos

if TYPE_CHECKING:
    from rulecraft.rules.compose import Composed


@dataclass(frozen=True, slots=True)
class SeatsSpec:
    count: int
    direction: int  # +1 clockwise (to the left), -1 counter-clockwise
    teams: tuple[tuple[int, ...], ...]
    team_of: tuple[int, ...]
    sits_out: CompiledExpr | None
    decided_by: CompiledExpr | None = None  # the seat whose player decides for ``seat`` (engine/control.py)


@dataclass(frozen=True, slots=True)
class ZoneSpec:
    name: str
    per: str  # "none" | "seat" | "team"
    visibility: str  # "owner" | "all" | "nobody"
    base: int  # index of the first instance in State.zones
    instances: int
    grid: tuple[int, int] | None
    description: str
    pos: SourcePos

    def instance(self, owner: int | None) -> int:
        if self.per == "none":
            return self.base
        if owner is None or not 0 <= owner < self.instances:
            raise IndexError(f"zone '{self.name}' needs an owner between 0 and {self.instances - 1}, not {owner}")
        return self.base + owner


@dataclass(frozen=True, slots=True)
class VarSpec:
    name: str
    scope: str  # "match" | "hand"
    per: str  # "none" | "seat" | "team"
    initial: Any
    expr_type: T
    description: str
    pos: SourcePos
    # Who may see the value, as for zones: "all"; "owner" (a per-seat variable's entry to its seat, a
    # per-team one's to the team's seats, a single value to the seat ``owner`` names); "nobody".
    visibility: str = "all"
    owner: CompiledExpr | None = None
    # The type of the value (of each entry, for a per-seat or per-team variable): the declared
    # ``type``, else the initial value's; T.ANY when neither says.
    value_type: T = T.ANY


@dataclass(frozen=True, slots=True)
class DisplaySpec:
    group_by: str | None
    sort_by: tuple[str, ...]
    piece_label: str  # "name" | "id" | "glyph"
    # The ruleset's languages and the names of pieces, values, phases, rules ... in each (display only:
    # ids never change, so logs and moves are the same in every language).
    names: NameTable = field(default_factory=NameTable)
    # How a graphical table draws each piece (``display.draw``: shape, corner and caption attributes,
    # inks, tile halves and pips), as plain data; the terminal ignores it.
    draw: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class Equipment:
    """What a game is played with: seats, pieces, zones, variables, constants, combinations, and the
    names its expressions may use. A ``Ruleset`` is an Equipment plus the procedure (phases, match).

    Kept apart so the board and the phase kinds, which read only the equipment, sit below the
    ruleset that holds the phases. Treat as immutable: the engine and agents share one instance.
    """

    name: str
    title: str
    chosen: dict[str, str]
    content_hash: str
    composed: Composed | None
    seats: SeatsSpec
    pieces: PieceTable
    zones: tuple[ZoneSpec, ...]
    zone_by_name: dict[str, ZoneSpec]
    variables: tuple[VarSpec, ...]
    var_index: dict[str, int]
    constants: dict[str, Any]
    combinations: dict[str, ComboSpec]
    display: DisplaySpec | None = None
    start_zone: str = "deck"
    scope: Scope | None = None
    trick_scope: Scope | None = None
    data: dict[str, Any] = field(default_factory=dict)
    moves: MoveBook = field(default=None)  # type: ignore[assignment]  # set by the builder
    zone_of_instance: tuple[ZoneSpec, ...] = ()  # zone instance index -> its zone
    public_instance: tuple[bool, ...] = ()  # zone instance index -> whether everyone sees it face up
    hand_base: int = 0  # the first instance of the per-seat zone 'hand' (seat s holds instance hand_base + s)
    # Move verbs the rule file names beyond the engine's own (``double``, ``hold``): each, whether it takes a value.
    verbs: dict[str, bool] = field(default_factory=dict)

    @property
    def identity(self) -> dict[str, Any]:
        return {"name": self.name, "options": dict(sorted(self.chosen.items())), "hash": self.content_hash}

    @property
    def zone_instance_count(self) -> int:
        return sum(z.instances for z in self.zones)
