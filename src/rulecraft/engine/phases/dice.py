"""Rolling dice: a chance event whose faces go into a variable, and are seen only by who may see it.

Rule-file keys of a ``dice`` phase::

    dice: 2                  how many dice: a number, or an expression (``dice_left[s]``: a seat that lost
                             a die rolls fewer); a roll of none sets the variable to [] and draws nothing
    sides: 6                 sides of each die (a number)
    set: roll                where the faces go, as a list: a variable, or one entry of a per-seat or
                             per-team one (``cup[s]``)
    for: s in active()       optional: one roll per item (each seat's own cup), with ``s`` bound in
                             ``dice`` and ``set``

Dice are equipment like any other: the faces follow the visibility of the variable they land in.
A roll into a variable every seat may see is public, as before; a roll into a hidden one (``visibility:
owner`` per seat, or ``nobody``) is logged with the seats that may see it (``seen_by``), so every other
seat's view, copy of the log, replay and adapter observation shows that it happened, how many dice,
and where, never the faces (``views.redact_event``). A ``show`` (or a claims phase's ``reveal``) makes
them public later, for everyone at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulecraft.dsl import CompiledExpr, Scope, T
from rulecraft.dsl.types import accepts, describe
from rulecraft.engine.context import bound_scope
from rulecraft.engine.effects import _FOR, _substr
from rulecraft.engine.phases.base import Phase, rule_failed
from rulecraft.engine.phases.values import Target, build_target
from rulecraft.engine.views import variable_viewers
from rulecraft.errors import clip
from rulecraft.rules.located import pos_of

if TYPE_CHECKING:
    from rulecraft.engine.board import Board
    from rulecraft.engine.builder import Builder
    from rulecraft.engine.equipment import Equipment

class Dice(Phase):
    """Roll ``dice`` dice of ``sides`` sides into a variable (an entry of one), once or once per loop item."""

    kind = "dice"

    def __init__(self, pid: str, pos: Any, count: CompiledExpr | int, sides: int, target: Target | None,
                 loop: tuple[str, CompiledExpr] | None = None) -> None:
        super().__init__(pid, pos)
        self.count = count
        self.sides = sides
        self.target = target
        self.loop = loop

    @property
    def dice(self) -> int | None:
        """How many dice, when the rule file gives a number (None: an expression decides each roll)."""
        return self.count if isinstance(self.count, int) else None

    @classmethod
    def build(cls, b: Builder, rs: Equipment, raw: dict[str, Any], scope: Scope) -> Phase:
        pid = str(raw.get("id", "dice"))
        what = f"dice phase '{pid}'"
        loop = None
        if "for" in raw:
            m = _FOR.match(str(raw["for"]))
            if not m:
                b.error(raw["for"], "a 'for' loop is written 'NAME in EXPRESSION', e.g. 's in active()'")
            else:
                loop = (m.group(1), b.expr(_substr(raw["for"], m.group(2), m.start(2)), scope, T.LIST, what))
                scope = bound_scope(scope, [m.group(1)], what)
        sides = raw.get("sides", 6)
        if not isinstance(sides, int) or isinstance(sides, bool) or sides < 2:
            b.error(raw.get("sides", raw), f"a die has a whole number of sides, at least 2 (not {clip(repr(sides))})")
            sides = 6
        count_raw = raw.get("dice", 2)
        count: CompiledExpr | int
        if isinstance(count_raw, int) and not isinstance(count_raw, bool):
            count = int(count_raw)
            if count < 1:
                b.error(count_raw, f"roll at least one die (not {count}); an expression may give 0 for a seat "
                                   "with no dice left")
        else:
            count = b.expr(count_raw, scope, T.NUMBER, f"{what} dice")
        target = build_target(b, rs, raw.get("set"), scope, f"{what} set")
        if target is not None and target.type is not T.ANY and not accepts(target.type, T.LIST):
            name = rs.variables[target.var].name
            b.error(raw.get("set"), f"the dice rolled are a list, but '{name}'"
                                    f"{' (each entry)' if target.index is not None else ''} holds "
                                    f"{describe(target.type)}: declare it with type: list")
        return cls(pid, pos_of(raw), count, sides, target, loop)

    def step(self, st: Board) -> bool:
        if self.loop is None:
            self._roll(st)
            return False
        name, items = self.loop
        bind = st.ctx.bind
        try:
            for item in list(items(st.ctx)):
                bind[name] = item
                self._roll(st)
        finally:
            bind.pop(name, None)
        return False

    def _roll(self, st: Board) -> None:
        target = self.target
        assert target is not None
        entry = int(target.index(st.ctx)) if target.index is not None else None
        n = self.count if isinstance(self.count, int) else self._count(st)
        var = st.rs.variables[target.var]
        if entry is not None and not 0 <= entry < len(st.vars[target.var]):
            assert target.index is not None
            raise rule_failed(target.index.pos, f"dice phase '{self.id}' set: {var.name}[{entry}] does not exist "
                                                f"('{clip(target.index.text, 100)}' gave {entry})")
        if n == 0:  # no dice to roll (a seat that has lost them all): nothing is drawn
            values: list[int] = []
        else:
            where: dict[str, Any] | None = None
            if var.visibility != "all":  # where they went, and who may see them (none: everyone, by a show)
                where = {"set": var.name if entry is None else f"{var.name}[{entry}]"}
                viewers = variable_viewers(st, target.var, entry)
                if viewers is not None:
                    where["seen_by"] = viewers
            values = st.chance_roll(n, self.sides, where)
        if entry is None:
            st.vars[target.var] = values
        else:
            st.vars[target.var][entry] = values

    def _count(self, st: Board) -> int:
        assert not isinstance(self.count, int)
        value = self.count(st.ctx)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value != int(value) or value < 0:
            raise rule_failed(self.count.pos, f"dice phase '{self.id}' dice: '{clip(self.count.text, 100)}' gave "
                                              f"{clip(repr(value), 100)}, which is no number of dice (a whole "
                                              "number, 0 or more)")
        return int(value)


def dice_targets(rs: Any) -> list[tuple[int, int]]:
    """(variable index, sides) of every variable a ``dice`` phase rolls into (most sides where several do)."""
    sides: dict[int, int] = {}
    for phase in rs.phases:
        if isinstance(phase, Dice) and phase.target is not None:
            sides[phase.target.var] = max(sides.get(phase.target.var, 0), phase.sides)
    return sorted(sides.items())
