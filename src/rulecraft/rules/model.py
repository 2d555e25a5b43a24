"""The frozen, fully checked Ruleset built from a composed rule file.

``build_ruleset`` is the last stage of loading: it resolves every reference (pieces, zones,
variables, combinations, phases), compiles every expression in the scope where it will run, and
collects every problem as a Diagnostic, so a rule author sees all of them at once. The engine only
ever receives the result, so it never re-checks a rule.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rulecraft.dsl import CompiledExpr, Scope, T, compile_expr
from rulecraft.errors import Diagnostic, RuleFileError, SourcePos
from rulecraft.rules.located import pos_of

if TYPE_CHECKING:
    from rulecraft.engine.combos import ComboSpec
    from rulecraft.engine.effects import Effect
    from rulecraft.engine.moves import MoveBook
    from rulecraft.engine.phases.base import Phase
    from rulecraft.engine.pieces import PieceTable
    from rulecraft.rules.compose import Composed


@dataclass(frozen=True, slots=True)
class SeatsSpec:
    count: int
    direction: int  # +1 clockwise (to the left), -1 counter-clockwise
    teams: tuple[tuple[int, ...], ...]
    team_of: tuple[int, ...]
    sits_out: CompiledExpr | None


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


@dataclass(frozen=True, slots=True)
class MatchSpec:
    start: tuple[Effect, ...]
    after_hand: tuple[Effect, ...]
    end_when: CompiledExpr
    max_hands: int
    score: CompiledExpr  # per seat (name `seat`): the match result


@dataclass(frozen=True, slots=True)
class DisplaySpec:
    group_by: str | None
    sort_by: tuple[str, ...]
    piece_label: str  # "name" | "id" | "glyph"


@dataclass(slots=True)
class Ruleset:
    """A ruleset ready to play. Treat as immutable: the engine and agents share one instance."""

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
    phases: tuple[Phase, ...] = ()
    on_void: tuple[Effect, ...] = ()
    match: MatchSpec | None = None
    display: DisplaySpec | None = None
    start_zone: str = "deck"
    scope: Scope | None = None
    trick_scope: Scope | None = None
    data: dict[str, Any] = field(default_factory=dict)
    moves: MoveBook = field(default=None)  # type: ignore[assignment]  # set by the builder
    zone_of_instance: tuple[ZoneSpec, ...] = ()  # zone instance index -> its zone
    public_instance: tuple[bool, ...] = ()  # zone instance index -> whether everyone sees it face up
    hand_base: int = 0  # the first instance of the per-seat zone 'hand' (seat s holds instance hand_base + s)

    @property
    def identity(self) -> dict[str, Any]:
        return {"name": self.name, "options": dict(sorted(self.chosen.items())), "hash": self.content_hash}

    @property
    def zone_instance_count(self) -> int:
        return sum(z.instances for z in self.zones)


class Builder:
    """Collects diagnostics while compiling; every helper returns a usable placeholder on failure."""

    def __init__(self, source_text: dict[str, str] | None = None) -> None:
        self.diags: list[Diagnostic] = []
        self.source_text = source_text or {}

    def error(self, where: Any, message: str, rule_path: str = "") -> None:
        self.diags.append(Diagnostic(where if isinstance(where, SourcePos) else pos_of(where), message, rule_path))

    def expr(self, text: Any, scope: Scope, expect: T | None, what: str, rule_path: str = "",
             select: bool = False) -> CompiledExpr:
        if isinstance(text, bool):
            text = "true" if text else "false"
        elif isinstance(text, (int, float)):
            text = repr(text)
        elif text is None:
            text = "none"
        pos = pos_of(text)
        src = self.source_text.get(pos.file)
        try:
            return compile_expr(str(text) if not hasattr(text, "pos") else text, scope, expect=expect, what=what,
                                source_text=src, select=select)
        except RuleFileError as exc:
            self.diags.extend(exc.diagnostics)
            return compile_expr("none", Scope(name="placeholder"), expect=None, what=what)

    def ref(self, name: Any, known: dict[str, Any] | list[str], kind: str, rule_path: str = "") -> bool:
        """Check that ``name`` is one of ``known``, with a did-you-mean when a close name exists."""
        if name in known:
            return True
        names = list(known)
        close = difflib.get_close_matches(str(name), names, n=1)
        hint = f" (did you mean '{close[0]}'?)" if close else (f"; known: {', '.join(names)}" if names else "")
        self.error(name, f"unknown {kind} '{name}'{hint}", rule_path)
        return False

    def raise_if_errors(self) -> None:
        if self.diags:
            raise RuleFileError(self.diags)


def build_ruleset(composed: Composed) -> Ruleset:
    """Build the frozen Ruleset; raises RuleFileError listing every semantic problem found."""
    from rulecraft.engine.build import build_from_data

    return build_from_data(
        composed.data,
        name=composed.name,
        chosen=dict(composed.chosen),
        content_hash=composed.content_hash,
        composed=composed,
        source_text=dict(getattr(composed, "source_text", {}) or {}),
    )


def load_ruleset(ref: str, options: dict[str, str] | None = None, preset: str | None = None) -> Ruleset:
    """Load, compose, validate and build a ruleset from a path or bundled name."""
    from rulecraft.rules.compose import compose
    from rulecraft.rules.schema_check import check_composed

    composed = compose(ref, options or {}, preset)
    check_composed(composed)
    return build_ruleset(composed)


def ruleset_scope(ref: str) -> Scope:
    """The constants, functions and piece attributes of a ruleset, for ``rulecraft eval --ruleset``."""
    rs = load_ruleset(ref)
    assert rs.scope is not None
    return rs.scope


PosFn = Callable[[Any], SourcePos]
