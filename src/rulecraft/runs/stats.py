"""Small, dependency-free statistics for simulation results: proportions with intervals, distributions.

Wilson's interval is used for win rates because simulations often measure rates near 0 or 1 over a
few hundred games, where the normal approximation leaves [0, 1]. Quantiles interpolate linearly
between order statistics (the usual "type 7" definition), so they match numpy's default.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

Z95 = 1.959963984540054


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (successes may be fractional: shared wins count in part)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def quantile(sorted_values: Sequence[float], q: float) -> float:
    if not sorted_values:
        return math.nan
    pos = (len(sorted_values) - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)


def describe(values: Sequence[float], digits: int = 4) -> dict[str, Any]:
    """Mean, sample standard deviation, min, max and the QUANTILES of ``values``."""
    n = len(values)
    if n == 0:
        return {"n": 0}
    mean = math.fsum(values) / n
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    s = sorted(values)
    out: dict[str, Any] = {"n": n, "mean": round(mean, digits), "stdev": round(math.sqrt(var), digits),
                           "min": s[0], "max": s[-1]}
    for q in QUANTILES:
        out[f"q{round(q * 100):02d}"] = round(quantile(s, q), digits)
    return out
