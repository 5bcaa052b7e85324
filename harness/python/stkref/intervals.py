"""Confidence intervals of a rate: the Wilson score interval (Wilson 1927), which stays inside
[0, 1] and keeps its coverage at the small counts of a calibration bucket or a mutation sample,
where the normal (Wald) interval collapses to a point at 0 or 100%."""

from __future__ import annotations

import math

Z95 = 1.96  # two-sided 95%


def wilson(rate: float, n: float, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a rate observed over n (possibly effective, fractional) trials:
    (p + z²/2n ± z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n); (0, 1) when nothing was observed."""
    if n <= 0:
        return 0.0, 1.0
    den = 1 + z * z / n
    centre = (rate + z * z / (2 * n)) / den
    half = z * math.sqrt(max(rate * (1 - rate), 0.0) / n + z * z / (4 * n * n)) / den
    # The interval holds the observed rate: at 0 or n successes rounding could leave a bound a
    # few ulps past it (1.4e-17 above 0 at 0 of 23, found by tests/test_model_intervals.py).
    return max(0.0, min(rate, centre - half)), min(1.0, max(rate, centre + half))
