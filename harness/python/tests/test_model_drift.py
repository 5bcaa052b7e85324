"""Independent model of stkref.drift's statistics and gates, written from docs/harnesses/drift.md."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from stkref import drift
from stkref.junit import Outcome, TestSuite

deltas = st.lists(
    st.one_of(st.integers(-3000, 3000).map(float), st.floats(-500, 500, allow_nan=False)),
    min_size=1,
    max_size=60,
)


def model_percentile(values: list[float], p: float) -> float:
    a = sorted(abs(v) for v in values)
    r = p / 100 * (len(a) - 1)
    lo, hi = math.floor(r), math.ceil(r)
    return a[lo] + (r - lo) * (a[hi] - a[lo])


def model_stats(values: list[float]) -> dict[str, float]:
    a = [abs(v) for v in values]
    return {
        "count": len(values),
        "mean": sum(a) / len(a),
        "median": model_percentile(values, 50),
        "p95": model_percentile(values, 95),
        "p99": model_percentile(values, 99),
        "max": max(a),
        "signed_mean": sum(values) / len(values),
    }


# MODEL drift-abs-delta-percentiles
# checks: harness/python/stkref/drift.py  (mean/median/p95/p99/max of |delta cp| and the bias)
# contract: docs/harnesses/drift.md#the-figures-and-gates-exactly
# planted: ci/mutants/model-drift-abs-delta-percentiles.patch  (p99 by the nearest rank, not interpolated)
@given(deltas)
def test_drift_stats_equal_model(values: list[float]) -> None:
    got = drift.abs_delta_stats(values)
    want = model_stats(values)
    assert set(got) == set(want)
    assert got["count"] == want["count"]
    for k in ("mean", "median", "p95", "p99", "max", "signed_mean"):
        assert got[k] == pytest.approx(want[k], rel=1e-9, abs=1e-9), k


# MODEL drift-stats-order-and-sign
# checks: harness/python/stkref/drift.py  (reordering or negating the deltas: same |delta| figures)
# contract: docs/harnesses/drift.md#the-figures-and-gates-exactly
# planted: ci/mutants/model-drift-stats-order-and-sign.patch  (max taken over signed deltas)
@given(deltas, st.randoms(use_true_random=False))
def test_drift_stats_order_and_sign(values: list[float], rnd: random.Random) -> None:
    base = drift.abs_delta_stats(values)
    shuffled = list(values)
    rnd.shuffle(shuffled)
    neg = [-v for v in values]
    for other in (drift.abs_delta_stats(shuffled), drift.abs_delta_stats(neg)):
        for k in ("count", "mean", "median", "p95", "p99", "max"):
            assert other[k] == pytest.approx(base[k], rel=1e-12, abs=1e-12), k
    assert drift.abs_delta_stats(neg)["signed_mean"] == pytest.approx(-base["signed_mean"])


def test_drift_empty_is_count_zero() -> None:
    assert drift.abs_delta_stats([]) == {"count": 0}


# MODEL drift-gate-verdicts
# checks: harness/python/stkref/drift.py  (a gate fails above its limit and passes at it)
# contract: docs/harnesses/drift.md#the-figures-and-gates-exactly
# planted: ci/mutants/model-drift-gate-verdicts.patch  (a figure equal to its limit fails)
@given(st.integers(0, 10_000), st.sampled_from([0.0, 0.001, 0.5, 1.0]))
def test_drift_gate_both_ways(limit_cp: int, frac: float) -> None:
    limit = limit_cp / 10
    suite = TestSuite("drift.t")
    drift._gate(suite, "keep", limit, limit)  # equal: keeps
    drift._gate(suite, "break", limit + max(frac, 1e-6), limit)  # just above: breaks
    keep, brk = suite.cases
    assert keep.outcome == Outcome.PASSED
    assert brk.outcome == Outcome.FAILED
    assert str(limit) in brk.message
