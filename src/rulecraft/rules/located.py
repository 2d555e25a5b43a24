"""YAML values that remember where they were written.

The loader returns plain Python containers subclassed to carry positions, so the rest of the
pipeline (jsonschema, composition, the model builder) can treat them as ordinary dicts, lists and
strings while any stage can still say *where* a value came from. Scalars that cannot be subclassed
(bool, None) are located through their parent's ``key_pos`` / ``item_pos``.
"""

from __future__ import annotations

from typing import Any

from rulecraft.errors import UNKNOWN_POS, SourcePos


class LStr(str):
    """A string with the position of its first character (for quoted/block scalars: of the content)."""

    pos: SourcePos
    # Where the scalar's text starts in the file, and its style ('' plain, "'" / '"' quoted, '|' '>' block).
    style: str

    def __new__(cls, value: str, pos: SourcePos = UNKNOWN_POS, style: str = "") -> LStr:
        obj = super().__new__(cls, value)
        obj.pos = pos
        obj.style = style
        return obj

    def __reduce__(self) -> tuple[Any, ...]:
        # Keep ``segments`` (set by the loader for multi-line and escaped scalars) through copy/pickle.
        segments = getattr(self, "segments", None)
        if segments:
            return (LStr, (str(self), self.pos, self.style), {"segments": segments})
        return (LStr, (str(self), self.pos, self.style))


class LInt(int):
    pos: SourcePos

    def __new__(cls, value: int, pos: SourcePos = UNKNOWN_POS) -> LInt:
        obj = super().__new__(cls, value)
        obj.pos = pos
        return obj

    def __reduce__(self) -> tuple[Any, ...]:
        return (LInt, (int(self), self.pos))


class LFloat(float):
    pos: SourcePos

    def __new__(cls, value: float, pos: SourcePos = UNKNOWN_POS) -> LFloat:
        obj = super().__new__(cls, value)
        obj.pos = pos
        return obj

    def __reduce__(self) -> tuple[Any, ...]:
        return (LFloat, (float(self), self.pos))


class LDict(dict[str, Any]):
    """A mapping with its own position and the position of each key."""

    pos: SourcePos
    key_pos: dict[str, SourcePos]

    def __init__(self, *args: Any, pos: SourcePos = UNKNOWN_POS, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.pos = pos
        self.key_pos = {}

    def pos_of(self, key: str) -> SourcePos:
        """Where ``key``'s value was written (falling back to the key, then the mapping)."""
        value = self.get(key)
        vpos = getattr(value, "pos", None)
        if isinstance(vpos, SourcePos) and vpos is not UNKNOWN_POS:
            return vpos
        return self.key_pos.get(key, self.pos)


class LList(list[Any]):
    pos: SourcePos
    item_pos: list[SourcePos]

    def __init__(self, *args: Any, pos: SourcePos = UNKNOWN_POS) -> None:
        super().__init__(*args)
        self.pos = pos
        self.item_pos = []

    def pos_of(self, index: int) -> SourcePos:
        value = self[index]
        vpos = getattr(value, "pos", None)
        if isinstance(vpos, SourcePos) and vpos is not UNKNOWN_POS:
            return vpos
        if index < len(self.item_pos):
            return self.item_pos[index]
        return self.pos


def pos_of(value: Any, default: SourcePos = UNKNOWN_POS) -> SourcePos:
    """The position a value carries, or ``default``."""
    p = getattr(value, "pos", None)
    return p if isinstance(p, SourcePos) else default


def _pos_at(self: LStr, index: int) -> SourcePos:
    """Where character ``index`` of the string's *value* stands in the file.

    The loader sets ``segments`` for scalars whose value does not map 1:1 onto one source line
    (quoted with escapes, block and multi-line scalars): a sorted tuple of (value_index, SourcePos)
    saying "value characters from value_index on start at SourcePos". Without segments the value is
    taken to sit on one line starting at ``pos``.
    """
    segments: tuple[tuple[int, SourcePos], ...] = getattr(self, "segments", ())
    base_index, base = 0, self.pos
    for seg_index, seg_pos in segments:
        if seg_index > index:
            break
        base_index, base = seg_index, seg_pos
    return SourcePos(base.file, base.line, base.col + (index - base_index))


LStr.pos_at = _pos_at  # type: ignore[attr-defined]


def same_located(a: Any, b: Any) -> bool:
    """Whether two pieces of rule data are the same values, of the same types, written at the same places.

    Everything a later stage can read of located data is compared: the values and their order, the
    classes (``LStr`` or ``str``, ``bool`` or ``int``), and what each carries (``pos``, ``key_pos``,
    ``item_pos``, a string's ``style`` and ``segments``, a mapping's ``end``). Parts that are the same
    object are not walked: composition shares what an option leaves alone.
    """
    if a is b:
        return True
    if type(a) is not type(b) or getattr(a, "__dict__", None) != getattr(b, "__dict__", None):
        return False
    if isinstance(a, dict):
        return len(a) == len(b) and all(
            same_located(ka, kb) and same_located(va, vb)
            for (ka, va), (kb, vb) in zip(a.items(), b.items(), strict=True))
    if isinstance(a, list):
        return len(a) == len(b) and all(same_located(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)
