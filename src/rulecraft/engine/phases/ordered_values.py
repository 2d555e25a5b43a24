"""An ordered set of values a rule file gives, each written as one word: what a bid or a claim may be.

Bids rise through a set fixed by the rules: numbers in steps (70 to 120 by 5), a table of values
(Skat's 18, 20, 22, 23, 24, 27 …), or tuples ordered component by component (Bridge's level, then
strain: 1C < 1D < 1H < 1S < 1NT < 2C … 7NT). A rule file writes one of three mappings::

    {min: 70, max: 120, step: 5}
    {values: [18, 20, 22, 23, 24, 27]}          # or the name of a constant that holds the list
    {product: {level: [1, 2, 3, 4, 5, 6, 7], strain: [C, D, H, S, NT]}, text: "{level}{strain}"}

A value's place in the set is its order. A product's value is a list of its components (``[4, 'S']``,
so rules read ``contract[0]``); its text is the template filled in (default: the components joined
by ``-``). Texts are what moves and logs write, so each is one word and no two are the same.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rulecraft.dsl import T
from rulecraft.engine.phases.values import value_text

if TYPE_CHECKING:
    from rulecraft.engine.builder import Builder

MOST = 10_000  # values in one set: a bid ladder or a claim table is far smaller
_FIELD = re.compile(r"\{([^{}]*)\}")


@dataclass(frozen=True, slots=True)
class OrderedValues:
    """Values in order, each with the one-word text moves write it with."""

    values: tuple[Any, ...]  # a number, a string, or (for a product) a tuple of components
    texts: tuple[str, ...]
    components: tuple[str, ...] = ()  # a product's component names, in order
    steps: tuple[int, int, int] | None = None  # (min, max, step) when written as numbers in steps
    where: dict[str, int] = field(default_factory=dict, compare=False)  # text -> position

    def __len__(self) -> int:
        return len(self.values)

    def value(self, i: int) -> Any:
        """The value at position ``i`` as rules read it (a product's as a list)."""
        v = self.values[i]
        return list(v) if isinstance(v, tuple) else v

    def position(self, text: str) -> int | None:
        return self.where.get(text)

    @property
    def item_type(self) -> T:
        """What each value is, for the variables that receive one: a number, a string or a list."""
        if self.components:
            return T.LIST
        kinds = {T.NUMBER if isinstance(v, (int, float)) else T.STRING for v in self.values}
        return kinds.pop() if len(kinds) == 1 else T.ANY


def ordered_values(b: Builder, raw: Any, constants: dict[str, Any], what: str) -> OrderedValues | None:
    """The set ``raw`` describes (one of the three forms above), or None after reporting why not."""
    if not isinstance(raw, dict):
        b.error(raw, f"{what}: give 'min' and 'max' (numbers in steps), 'values' (a list in order) or 'product'")
        return None
    forms = [k for k in ("min", "values", "product") if k in raw]
    if len(forms) != 1 or ("max" in raw) != ("min" in raw):
        b.error(raw, f"{what}: give exactly one of 'min' with 'max' (numbers in steps), 'values' (a list in "
                     f"order) or 'product' (tuples, ordered component by component)")
        return None
    if "min" in raw:
        lo, hi, step = int(raw["min"]), int(raw["max"]), int(raw.get("step", 1))
        if lo > hi:
            b.error(raw, f"{what}: the lowest value {lo} is above the highest {hi}")
            return None
        if step < 1 or (hi - lo) // step + 1 > MOST:
            b.error(raw.get("step", raw), f"{what}: at most {MOST:,} values, rising by a step of at least 1")
            return None
        nums = tuple(range(lo, hi + 1, step))
        return _made(b, raw, nums, tuple(str(v) for v in nums), (), (lo, hi, step), what)
    if "values" in raw:
        items = _listed(b, raw["values"], constants, what)
        if items is None:
            return None
        return _made(b, raw["values"], tuple(items), tuple(value_text(v, T.ANY, []) for v in items), (), None, what)
    product = raw["product"]
    if not isinstance(product, dict) or not product:
        b.error(product, f"{what}: 'product' maps each component's name to its values in order")
        return None
    names = tuple(str(k) for k in product)
    lists: list[list[Any]] = []
    size = 1
    for name in names:
        items = _listed(b, product[name], constants, f"{what} component '{name}'")
        if items is None:
            return None
        lists.append(items)
        size *= len(items)
    if size > MOST:
        b.error(product, f"{what}: the product has {size:,} values; at most {MOST:,}")
        return None
    template = str(raw.get("text", "-".join("{" + n + "}" for n in names)))
    for m in _FIELD.finditer(template):
        if m.group(1) not in names:
            b.ref(m.group(1), list(names), "component")
            return None
    tuples = tuple(_product(lists))
    texts = tuple(_FIELD.sub(lambda m, t=t: value_text(t[names.index(m.group(1))], T.ANY, []), template)  # type: ignore[misc]
                  for t in tuples)
    return _made(b, raw.get("text", product), tuples, texts, names, None, what)


def _listed(b: Builder, raw: Any, constants: dict[str, Any], what: str) -> list[Any] | None:
    """A list of numbers or strings: written out, or the name of a constant holding one."""
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


def _product(lists: list[list[Any]]) -> Iterable[tuple[Any, ...]]:
    """Every combination, the first component varying slowest (so the order is the first, then the next)."""
    out: list[tuple[Any, ...]] = [()]
    for items in lists:
        out = [(*t, v) for t in out for v in items]
    return out


def _made(b: Builder, where: Any, values: tuple[Any, ...], texts: tuple[str, ...], components: tuple[str, ...],
          steps: tuple[int, int, int] | None, what: str) -> OrderedValues | None:
    at: dict[str, int] = {}
    for i, text in enumerate(texts):
        if not text or any(c.isspace() for c in text):
            b.error(where, f"{what}: each value is written as one word in moves; '{text}' is not")
            return None
        if text in at:
            b.error(where, f"{what}: '{text}' is written twice (each value must be told apart in moves)")
            return None
        at[text] = i
    return OrderedValues(values, texts, components, steps, at)


__all__ = ["OrderedValues", "ordered_values"]
