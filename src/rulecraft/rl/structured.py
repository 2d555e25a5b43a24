"""The observation as named arrays with shapes: piece planes per zone and seat, scalars, the record.

The flat vector (``rl.encoding``) is convenient for a multilayer perceptron; a convolutional or
attention model wants the pieces as planes. ``Structure`` cuts the same numbers into:

* ``pieces``: one plane per zone instance (a zone, or a zone of one seat) over the piece types, shape
  (zone instances, piece types): how many of each type the viewer sees there;
* ``counts``: how many pieces each zone instance holds (counts are public), shape (zone instances,);
* ``scalars``: the observing seat, the seat to act, the phase, the seats playing, tricks taken, the
  variables and the hand number, one after another (``describe`` says where each starts);
* ``recent``: the last moves of the hand, latest first, one row each, shape (2n, row width);
* ``selection``: the move being chosen;
* ``seen`` (information state only): the pieces every seat has seen face up this hand, by type.

Nothing is computed twice: the arrays are cut from the flat vector, so both say the same
(tests/rl/test_structured.py puts them back together).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rulecraft.rl.encoding import Encoding, Vector

SCALARS = ("seat", "to_act", "phase", "active", "tricks", "variables", "hand")


class Structure:
    """How ``enc``'s observation (with ``recall``: the information state) is cut into named arrays."""

    def __init__(self, enc: Encoding, recall: bool = False) -> None:
        self.enc = enc
        self.recall = recall
        sections = {s.name: s for s in (enc.recall_sections if recall else enc.sections)}
        self.sections = sections
        self.zones = enc.rs.zone_instance_count
        self.scalars = [sections[name] for name in SCALARS]
        self.shapes: dict[str, tuple[int, ...]] = {
            "pieces": (self.zones, enc.types),
            "counts": (self.zones,),
            "scalars": (sum(s.size for s in self.scalars),),
            "recent": (enc.recent, enc.row_width),
            "selection": (sections["selection"].size,),
        }
        if recall:
            self.shapes["seen"] = (enc.types,)
        # The scalar sections as positions in the flat vector, in order (cut with one fancy index).
        self._scalar_index = np.concatenate([np.arange(s.start, s.start + s.size) for s in self.scalars])

    def split(self, vec: Vector) -> dict[str, Vector]:
        """The named arrays of a flat observation (new arrays: changing them changes nothing else)."""
        enc, at = self.enc, self.sections
        width = enc.types + 1
        zones = vec[at["zones"].start:at["zones"].start + self.zones * width].reshape(self.zones, width)
        recent = at["recent"]
        selection = at["selection"]
        out = {
            "pieces": zones[:, :enc.types].copy(),
            "counts": zones[:, enc.types].copy(),
            "scalars": vec[self._scalar_index],
            "recent": vec[recent.start:recent.start + recent.size].reshape(self.shapes["recent"]).copy(),
            "selection": vec[selection.start:selection.start + selection.size].copy(),
        }
        if self.recall:
            seen = at["seen"]
            out["seen"] = vec[seen.start:seen.start + seen.size].copy()
        return out

    def describe(self) -> dict[str, Any]:
        """The layout as data: each array's shape and what its rows, columns or parts are."""
        enc, rs = self.enc, self.enc.rs
        planes = [{"zone": z.name, "seat": k if z.per == "seat" else None, "team": k if z.per == "team" else None}
                  for z in rs.zones for k in range(z.instances)]
        parts, start = [], 0
        for s in self.scalars:
            parts.append({"name": s.name, "start": start, "size": s.size, "what": s.what})
            start += s.size
        out: dict[str, Any] = {
            "pieces": {"shape": list(self.shapes["pieces"]), "rows": planes, "columns": list(enc.type_ids),
                       "what": "per zone instance, how many of each piece type the viewer sees there"},
            "counts": {"shape": list(self.shapes["counts"]), "rows": planes,
                       "what": "how many pieces each zone instance holds"},
            "scalars": {"shape": list(self.shapes["scalars"]), "parts": parts},
            "recent": {"shape": list(self.shapes["recent"]), "what": self.sections["recent"].what},
            "selection": {"shape": list(self.shapes["selection"]), "what": self.sections["selection"].what},
        }
        if self.recall:
            out["seen"] = {"shape": list(self.shapes["seen"]), "columns": list(enc.type_ids),
                           "what": self.sections["seen"].what}
        return out
