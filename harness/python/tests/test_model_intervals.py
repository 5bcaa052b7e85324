"""Independent model of stkref.intervals: the Wilson interval as the set of rates the score test
does not reject (Wilson 1927), found by bisection, not by the closed form the code uses."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from stkref.intervals import Z95, wilson


def rejected(p: float, rate: float, n: float, z: float) -> bool:
    """The score test of p: |rate - p| > z * sqrt(p (1 - p) / n)."""
    return abs(rate - p) > z * math.sqrt(p * (1 - p) / n)


def edge(rate: float, n: float, z: float, inside: float, outside: float) -> float:
    """The boundary between a rate the test keeps (inside) and one it rejects (outside)."""
    for _ in range(200):
        mid = (inside + outside) / 2
        inside, outside = (inside, mid) if rejected(mid, rate, n, z) else (mid, outside)
    return (inside + outside) / 2


def model(rate: float, n: float, z: float) -> tuple[float, float]:
    lo = 0.0 if not rejected(0.0, rate, n, z) or rate == 0 else edge(rate, n, z, rate, 0.0)
    hi = 1.0 if not rejected(1.0, rate, n, z) or rate == 1 else edge(rate, n, z, rate, 1.0)
    return lo, hi


# MODEL intervals-wilson
# checks: harness/python/stkref/intervals.py  (the 95% Wilson interval of a rate over n trials)
# contract: docs/fail-high-calibration.md#figures
# planted: ci/mutants/model-intervals-wilson.patch  (the centre without its z²/2n shift)
@given(
    n=st.integers(1, 5000),
    data=st.data(),
    z=st.sampled_from([Z95, 1.0, 2.576]),
)
def test_wilson_is_the_set_of_rates_the_score_test_keeps(n: int, data: st.DataObject, z: float):
    k = data.draw(st.integers(0, n))
    lo, hi = wilson(k / n, n, z)
    mlo, mhi = model(k / n, n, z)
    assert math.isclose(lo, mlo, abs_tol=1e-9), (lo, mlo)
    assert math.isclose(hi, mhi, abs_tol=1e-9), (hi, mhi)
    # the observed rate is inside; mirroring the counts mirrors the interval
    assert lo <= k / n <= hi
    rlo, rhi = wilson((n - k) / n, n, z)
    assert math.isclose(rlo, 1 - hi, abs_tol=1e-12) and math.isclose(rhi, 1 - lo, abs_tol=1e-12)


def test_nothing_observed_says_nothing():
    assert wilson(0.3, 0) == (0.0, 1.0)
