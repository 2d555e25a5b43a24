"""An ordered set of values a rule file gives: what a bid or a claim may be, each written as one word.

A bid or a claim rises through a set fixed by the rules. A rule file writes it in one of four forms::

    {min: 70, max: 120, step: 5}                       # numbers in steps
    {values: [18, 20, 22, 23, 24, 27]}                 # a table in order (or a constant's name)
    {product: {level: [1, 2, 3, 4, 5, 6, 7], strain: [C, D, H, S, NT]}, text: "{level}{strain}"}
    {fields: {quantity: "range(1, 31)", face: "range(1, 7)"},     # every combination of named components
     when: "face != 1 or quantity <= 15",              # optional: which combinations are values
     name: "text(quantity) + 'x' + text(face)",        # optional: how a move writes one
     order: "quantity * 10 + face"}                    # optional: a number, lower first (equal: a tie)

``product`` and ``fields`` are one idea, every combination of named components, the first varying
slowest: a product is fields whose lists are given as data (or a constant's name) rather than as
expressions, and its ``text`` is a ``name`` written as a template. A combination's default name is
its components joined by ``-`` ('7-4'). Expressions see the constants and the components, not the
game: the set is fixed when the rules load, so moves have a fixed vocabulary.

What rules read: a number or text as itself; a combination as the list of its components
(``contract[0]``), or, where the caller adds them, through a function per component named after it
(``quantity(claim_value)``, reading the value by its name). Texts are what moves and logs write.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rulecraft.dsl import Scope, T
from rulecraft.engine.board import Ctx
from rulecraft.engine.context import bound_scope
from rulecraft.errors import ExpressionRuntimeError, clip

if TYPE_CHECKING:
    from rulecraft.engine.builder import Builder

MAX_VALUES = 10_000  # values a set may hold: each is a move's value, and an action id of the research adapters
FORMS = ("min", "values", "product", "fields")
_TEMPLATE_FIELD = re.compile(r"\{([^{}]*)\}")


@dataclass(frozen=True, slots=True)
class OrderedValues:
    """The values' texts in order (``names``), the values themselves, and each one's place (equal: a tie)."""

    names: tuple[str, ...] = ()
    values: tuple[Any, ...] = ()  # a number, a text, or (with components) a tuple of them
    fields: tuple[str, ...] = ()  # the components' names, in order (none for numbers or a table)
    place: dict[str, float] = field(default_factory=dict, compare=False)  # text -> place in the order
    where: dict[str, int] = field(default_factory=dict, compare=False)  # text -> position in ``names``
    steps: tuple[int, int, int] | None = None  # (min, max, step) when written as numbers in steps

    def __len__(self) -> int:
        return len(self.names)

    def value(self, i: int) -> Any:
        """The value at position ``i`` as rules read it (a combination as the list of its components)."""
        v = self.values[i]
        return list(v) if isinstance(v, tuple) else v

    def position(self, text: str) -> int | None:
        return self.where.get(text)

    def field_of(self, value: Any, name: str) -> Any:
        """Component ``name`` of the value written ``value`` (None for no value, as before the first claim)."""
        at = self.where.get(value) if isinstance(value, str) else None
        return None if at is None else self.values[at][self.fields.index(name)]

    def later(self, value: str | None) -> list[str]:
        """The values placed after ``value`` in the order (all of them after none)."""
        if value is None or value not in self.place:
            return list(self.names)
        here = self.place[value]
        return [v for v in self.names if self.place[v] > here]

    @property
    def item_type(self) -> T:
        """What each value is, for the variables that receive one: a number, a text or a list."""
        if self.fields:
            return T.LIST
        kinds = {T.NUMBER if isinstance(v, (int, float)) else T.STRING for v in self.values}
        return kinds.pop() if len(kinds) == 1 else T.ANY


def build_ordered_values(b: Builder, root: Scope, raw: Any, constants: dict[str, Any],
                         what: str) -> OrderedValues | None:
    """The set ``raw`` describes (one of the forms above), or None after reporting why not, at its place."""
    forms = [k for k in FORMS if k in raw] if isinstance(raw, dict) else []
    if len(forms) != 1 or ("max" in raw) != ("min" in raw):
        b.error(raw, f"{what}: give exactly one of 'min' with 'max' (numbers in steps), 'values' (a list in "
                     f"order), 'product' or 'fields' (every combination of named components)")
        return None
    if "min" in raw:
        lo, hi, step = int(raw["min"]), int(raw["max"]), int(raw.get("step", 1))
        if lo > hi:
            b.error(raw, f"{what}: the lowest value {lo} is above the highest {hi}")
            return None
        if step < 1 or (hi - lo) // step + 1 > MAX_VALUES:
            b.error(raw.get("step", raw), f"{what}: a set holds at most {MAX_VALUES:,} values, rising by a step "
                                          "of at least 1")
            return None
        nums = tuple(range(lo, hi + 1, step))
        return _made(b, raw, nums, tuple(str(v) for v in nums), (), None, what, (lo, hi, step))
    if "values" in raw:
        items = _listed(b, raw["values"], constants, what)
        if items is None:
            return None
        return _made(b, raw["values"], tuple(items), tuple(_word(v) for v in items), (), None, what)
    return _combinations(b, root, raw, constants, what)


def _combinations(b: Builder, root: Scope, raw: dict[str, Any], constants: dict[str, Any],
                  what: str) -> OrderedValues | None:
    """``product`` or ``fields``: every combination of named components, named, filtered and ordered."""
    given = raw["product"] if "product" in raw else raw["fields"]
    if not isinstance(given, dict) or not given:
        b.error(given, f"{what}: '{'product' if 'product' in raw else 'fields'}' maps each component's name to "
                       "its values in order")
        return None
    names = [str(k) for k in given]
    ctx = Ctx(None)
    lists: list[list[Any]] = []
    for name, spec in given.items():
        items = (_listed(b, spec, constants, f"{what} component '{name}'") if "product" in raw
                 else _expression_list(b, ctx, root, spec, what, name))
        if items is None:
            return None
        lists.append(items)
    total = 1
    for items in lists:
        total *= len(items)
    if total > MAX_VALUES:
        b.error(given, f"{what}: the components make {total:,} combinations; a set holds at most "
                       f"{MAX_VALUES:,} values")
        return None
    scope = bound_scope(root, names, f"{what} values")
    when = b.expr(raw["when"], scope, T.BOOL, f"{what} when") if "when" in raw else None
    order = b.expr(raw["order"], scope, T.NUMBER, f"{what} order") if "order" in raw else None
    naming = _naming(b, scope, raw, names, what)
    if naming is None:
        return None
    combos: list[tuple[Any, ...]] = [()]
    for items in lists:  # the first component varying slowest
        combos = [(*c, x) for c in combos for x in items]
    kept: list[tuple[Any, ...]] = []
    texts: list[str] = []
    places: list[float] = []
    for i, combo in enumerate(combos):
        ctx.bind = dict(zip(names, combo, strict=True))
        if when is not None and not _evaluate(b, ctx, when, raw["when"], "when"):
            continue
        key = _evaluate(b, ctx, order, raw["order"], "order") if order is not None else i
        if isinstance(key, bool) or not isinstance(key, (int, float)):
            b.error(raw.get("order"), f"{what}: order gives {clip(repr(key))} for {dict(ctx.bind)}, not a number")
            return None
        kept.append(combo)
        texts.append(naming(ctx))
        places.append(float(key))
    if not kept:  # (reported, but still returned: the components' functions are checked all the same)
        b.error(raw.get("when", given), f"{what}: no combination is a value ('when' holds for none)")
    ranked = sorted(range(len(kept)), key=lambda j: places[j])  # a stable sort: ties keep the order made in
    return _made(b, raw.get("name", raw.get("text", raw)), tuple(kept[j] for j in ranked),
                 tuple(texts[j] for j in ranked), tuple(names), tuple(places[j] for j in ranked), what)


def _naming(b: Builder, scope: Scope, raw: dict[str, Any], names: list[str],
            what: str) -> Callable[[Ctx], str] | None:
    """How a combination is written: a ``name`` expression, or a ``text`` template of the components."""
    if "name" in raw and "text" in raw:
        b.error(raw["text"], f"{what}: give 'name' (an expression) or 'text' (a template), not both")
        return None
    if "name" in raw:
        expr = b.expr(raw["name"], scope, T.STRING, f"{what} name")
        return lambda ctx: str(_evaluate(b, ctx, expr, raw["name"], "name"))
    template = str(raw.get("text", "-".join("{" + n + "}" for n in names)))
    for m in _TEMPLATE_FIELD.finditer(template):
        if m.group(1) not in names:
            b.ref(m.group(1), names, "component")
            return None
    return lambda ctx: _TEMPLATE_FIELD.sub(lambda m: _word(ctx.bind[m.group(1)]), template)


def _listed(b: Builder, raw: Any, constants: dict[str, Any], what: str) -> list[Any] | None:
    """A list of numbers or texts given as data: written out, or the name of a constant holding one."""
    items = raw
    if isinstance(raw, str):
        if not b.ref(raw, constants, "constant"):
            return None
        items = constants[str(raw)]
    if not isinstance(items, list) or not items:
        b.error(raw, f"{what}: a list of at least one value (numbers or texts), in order")
        return None
    bad = next((v for v in items if isinstance(v, bool) or not isinstance(v, (int, float, str))), None)
    if bad is not None:
        b.error(raw, f"{what}: each value is a number or a text, not {bad!r}")
        return None
    return [str(v) if isinstance(v, str) else v for v in items]


def _expression_list(b: Builder, ctx: Ctx, root: Scope, spec: Any, what: str, name: str) -> list[Any] | None:
    """A field's list given by an expression of constants (``range(1, 7)``)."""
    found = _evaluate(b, ctx, b.expr(spec, root, T.LIST, f"{what} field '{name}'"), spec, f"field '{name}'")
    if not isinstance(found, (list, tuple, range)) or not found:
        b.error(spec, f"{what}: field '{name}' gives {clip(repr(found))}, not a list of values")
        return None
    return list(found)


def _made(b: Builder, where: Any, values: tuple[Any, ...], texts: tuple[str, ...], fields: tuple[str, ...],
          places: tuple[float, ...] | None, what: str, steps: tuple[int, int, int] | None = None,
          ) -> OrderedValues | None:
    """The set, once every value is written as its own word (moves and logs must tell them apart)."""
    at: dict[str, int] = {}
    for i, text in enumerate(texts):
        if not text or any(c.isspace() or c in ":," for c in text):
            b.error(where, f"{what}: the value {_shown(values[i], fields)} is named '{clip(text)}'; a value's name "
                           "is a word (no spaces, ':' or ',') a move can write")
            return None
        if text in at:
            b.error(where, f"{what}: two values are named '{clip(text)}' ({_shown(values[at[text]], fields)} and "
                           f"{_shown(values[i], fields)}); give each its own name")
            return None
        at[text] = i
    order = places if places is not None else tuple(float(i) for i in range(len(texts)))
    return OrderedValues(texts, values, fields, dict(zip(texts, order, strict=True)), at, steps)


def _word(x: Any) -> str:
    """A component as a move writes it: a whole number without '.0', spaces as '_' (as choices write values)."""
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, float) and x.is_integer():
        return str(int(x))
    return str(x).replace(" ", "_")


def _shown(value: Any, fields: tuple[str, ...]) -> str:
    return str(dict(zip(fields, value, strict=True))) if fields else repr(value)


def add_field_functions(b: Builder, scope: Scope, values: OrderedValues, where: Any) -> None:
    """A function per component in ``scope``: ``quantity(v)`` is the component of the value written v."""
    for i, name in enumerate(values.fields):
        if scope.lookup_function(name) is not None or scope.lookup_name(name) is not None:
            b.error(where, f"the field '{name}' would be read as '{name}(value)', but '{name}' already names "
                           "something the rules read; call the field something else")
            continue
        kinds = {type(v[i]) for v in values.values}
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


__all__ = ["MAX_VALUES", "OrderedValues", "add_field_functions", "build_ordered_values"]
