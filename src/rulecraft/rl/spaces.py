"""The gymnasium spaces of an encoding, shared by the PettingZoo and gymnasium adapters."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from rulecraft.engine.board import MAX_HELD_NUMBER
from rulecraft.rl.encoding import Encoding
from rulecraft.rl.structured import Structure

OBSERVATIONS = ("flat", "structured")


def check_observation(observation: str) -> None:
    if observation not in OBSERVATIONS:
        raise ValueError(f"observation must be one of {', '.join(OBSERVATIONS)}, not {observation!r}")


def observation_space(enc: Encoding, structure: Structure | None = None) -> spaces.Space[Any]:
    """The space of an observation: one vector, or the named arrays of ``structure``."""
    bound = float(MAX_HELD_NUMBER)  # every number the engine holds is below 10^18 in size
    if structure is None:
        return spaces.Box(-bound, bound, shape=(enc.size,), dtype=np.float32)
    return spaces.Dict({name: spaces.Box(-bound, bound, shape=shape, dtype=np.float32)
                        for name, shape in structure.shapes.items()})


def mask_space(enc: Encoding) -> spaces.Box:
    """The action mask: 1 for each legal action id."""
    return spaces.Box(0, 1, shape=(enc.num_actions,), dtype=np.int8)
