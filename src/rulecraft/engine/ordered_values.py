"""An ordered set of values given by the rule file: each value a combination of named fields, with a
name a move writes and a place in an order.

A claim of "seven 4s" is the value with fields ``quantity`` 7 and ``face`` 4; a call of "three no
trump" would be the fields ``level`` 3 and ``strain`` NT. The rule file says which combinations are
values and how they are ordered, so "raise the claim" is "name a value later in the order", whatever
the game::

    values:
      fields: {quantity: "range(1, 31)", face: "range(1, 7)"}   # every combination, first field outermost
      when: "face != 1 or quantity <= 15"                        # optional: which combinations are values
      name: "text(quantity) + 'x' + text(face)"                  # optional: how a move writes one ('7x4');
                                                                 # default: the fields joined by '-' ('7-4')
      order: "quantity * 10 + face"                              # optional: a number, lower first (equal: a
                                                                 # tie); default: the order they are listed in

Every expression here sees the constants and the fields (not the game: the set is fixed when the rules
load, so it has a fixed vocabulary of moves). Rules read a value's fields with a function per field,
named after it: ``quantity(claim_value)``, ``face(value)``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rulecraft.dsl import Scope, T
from rulecraft.engine.board import Ctx
from rulecraft.engine.context import bound_scope
from rulecraft.errors import ExpressionRuntimeError, clip

if TYPE_CHECKING:
    from rulecraft.engine.builder import Builder

MAX_VALUES = 10_000  # values a set may hold: each is a move's value, and an action id of the research adapters


@dataclass(frozen=True, slots=True)
class OrderedValues:
    """The values in order (``names``), each value's fields, and each value's place (equal places: a tie)."""

    names: tuple[str, ...] = ()
    fields: tuple[str, ...] = ()
    table: dict[str, tuple[Any, ...]] = field(default_factory=dict)
    place: dict[str, float] = field(default_factory=dict)

    def field_of(self, value: Any, name: str) -> Any:
        """Field ``name`` of the value called ``value`` (None for no value, as before the first claim)."""
        entry = self.table.get(value) if isinstance(value, str) else None
        return None if entry is None else entry[self.fields.index(name)]

    def later(self, value: str | None) -> list[str]:
        """The values placed after ``value`` in the order (all of them after none)."""
        if value is None or value not in self.place:
            return list(self.names)
        here = self.place[value]
        return [v for v in self.names if self.place[v] > here]


def build_ordered_values(b: Builder, root: Scope, raw: dict[str, Any], what: str) -> OrderedValues:
    """The set ``raw`` describes (see the module docstring); problems go to ``b``, at their places."""
    fields_raw = raw.get("fields") or {}
    names = [str(k) for k in fields_raw]
    if not names:
        b.error(raw, f"{what}: an ordered set of values names its 'fields' (each a list of what the field may be)")
        return OrderedValues()
    ctx = Ctx(None)
    lists: list[list[Any]] = []
    for name, spec in fields_raw.items():
        found = _evaluate(b, ctx, b.expr(spec, root, T.LIST, f"{what} field '{name}'"), spec, f"field '{name}'")
        if not isinstance(found, (list, tuple, range)) or not found:
            b.error(spec, f"{what}: field '{name}' gives {clip(repr(found))}, not a list of values")
            return OrderedValues()
        lists.append(list(found))
    total = 1
    for items in lists:
        total *= len(items)
    if total > MAX_VALUES:
        b.error(raw, f"{what}: the fields make {total:,} combinations; a set holds at most {MAX_VALUES:,} values")
        return OrderedValues()
    scope = bound_scope(root, names, f"{what} values")
    when = b.expr(raw["when"], scope, T.BOOL, f"{what} when") if "when" in raw else None
    naming = b.expr(raw["name"], scope, T.STRING, f"{what} name") if "name" in raw else None
    order = b.expr(raw["order"], scope, T.NUMBER, f"{what} order") if "order" in raw else None
    combos: list[tuple[Any, ...]] = [()]
    for items in lists:
        combos = [(*c, x) for c in combos for x in items]
    table: dict[str, tuple[Any, ...]] = {}
    place: dict[str, float] = {}
    for i, combo in enumerate(combos):
        ctx.bind = dict(zip(names, combo, strict=True))
        if when is not None and not _evaluate(b, ctx, when, raw["when"], "when"):
            continue
        text = str(_evaluate(b, ctx, naming, raw["name"], "name")) if naming is not None else \
            "-".join(_word(x) for x in combo)
        if not text or any(c.isspace() or c in ":," for c in text):
            b.error(raw.get("name", raw), f"{what}: the value {dict(ctx.bind)} is named '{clip(text)}'; a value's "
                                          "name is a word (no spaces, ':' or ',') a move can write")
            return OrderedValues()
        if text in table:
            b.error(raw.get("name", raw), f"{what}: two values are named '{clip(text)}' ({dict(ctx.bind)} and "
                                          f"{dict(zip(names, table[text], strict=True))}); give each its own name")
            return OrderedValues()
        key = _evaluate(b, ctx, order, raw["order"], "order") if order is not None else i
        if isinstance(key, bool) or not isinstance(key, (int, float)):
            b.error(raw.get("order"), f"{what}: order gives {clip(repr(key))} for {dict(ctx.bind)}, not a number")
            return OrderedValues()
        table[text] = combo
        place[text] = float(key)
    ordered = sorted(table, key=lambda v: place[v])  # (a stable sort: ties keep the order they were made in)
    return OrderedValues(tuple(ordered), tuple(names), table, place)


def add_field_functions(b: Builder, scope: Scope, values: OrderedValues, where: Any) -> None:
    """A function per field in ``scope``: ``quantity(v)`` is the field of the value named v (none for none)."""
    for name in values.fields:
        if scope.lookup_function(name) is not None or scope.lookup_name(name) is not None:
            b.error(where, f"the field '{name}' would be read as '{name}(value)', but '{name}' already names "
                           "something the rules read; call the field something else")
            continue
        kinds = {type(entry[values.fields.index(name)]) for entry in values.table.values()}
        returns = T.NUMBER if kinds and kinds <= {int, float} else T.STRING if kinds == {str} else T.ANY
        scope.add_function(name, (T.STRING,), returns,
                           lambda _ctx, v, _n=name: values.field_of(v, _n),
                           doc=f"the field '{name}' of a value (of a claim: '{name}(claim_value)')",
                           param_names=("value",))


def _evaluate(b: Builder, ctx: Ctx, expr: Any, where: Any, what: str) -> Any:
    try:
        return expr(ctx)
    except ExpressionRuntimeError as exc:
        b.error(where, f"{what}: {exc.reason}")
        return None


def _word(x: Any) -> str:
    if isinstance(x, float) and x.is_integer():
        return str(int(x))
    return str(x)
