"""A ruleset ready to play: the equipment, plus the procedure — the phases of a hand, what happens
when a hand is voided, and the match (start, after each hand, when it ends, how seats are ranked).

``engine.build`` makes one from composed rule data; the engine only ever receives a Ruleset that
passed every check, so it never re-checks a rule.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rulecraft.dsl import CompiledExpr
from rulecraft.engine.effects import Effect
from rulecraft.engine.equipment import Equipment
from rulecraft.engine.phases.base import Phase


@dataclass(frozen=True, slots=True)
class MatchSpec:
    start: tuple[Effect, ...]
    after_hand: tuple[Effect, ...]
    end_when: CompiledExpr
    max_hands: int
    score: CompiledExpr  # per seat (name `seat`): the match result


@dataclass(frozen=True, slots=True)
class Repeat:
    """Where a hand's flow goes back: after the phase that ends a repeat, to phase ``start`` (an index
    in ``Ruleset.phases``), as long as ``until`` does not hold."""

    until: CompiledExpr
    start: int


@dataclass(slots=True)
class Ruleset(Equipment):
    """A ruleset ready to play. Treat as immutable: the engine and agents share one instance."""

    phases: tuple[Phase, ...] = ()
    on_void: tuple[Effect, ...] = ()
    match: MatchSpec | None = None
    repeats: dict[int, Repeat] = field(default_factory=dict)  # by the index of the phase that ends the repeat
    # What ``engine.state`` works out once per ruleset for every new hand and hand end (see its
    # ``_Fresh``): made at first use, never part of what the ruleset is.
    fresh: Any = field(default=None, compare=False, repr=False)

    @property
    def counts_rounds(self) -> bool:
        """Whether a phase counts the rounds each seat wins: only then do views show those counts."""
        return any(p.counts_rounds for p in self.phases)
