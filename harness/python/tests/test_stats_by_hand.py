"""Statistics helpers of the reference on hand-computed examples and random data: drift's |delta|
percentiles are ordered, calibration's equal-weight deciles put each record where its weight
falls, and the Wilson interval matches published values (the same ones as the C++ stats_test)."""

from __future__ import annotations

import numpy as np
import pytest

from stkref.drift import abs_delta_stats
from stktrain.calibration import deciles, wilson

SEED = 20261201


def test_abs_delta_percentiles_are_ordered_on_random_data() -> None:
    rng = np.random.default_rng(SEED)
    for trial in range(300):
        n = int(rng.integers(1, 2000))
        kind = trial % 4
        if kind == 0:
            d = rng.normal(rng.normal(0, 5), rng.uniform(0.1, 30), n)
        elif kind == 1:
            d = rng.integers(-3, 4, n).astype(float)  # many ties and zeros
        elif kind == 2:
            d = -rng.exponential(10, n)  # all negative: |delta| is what is ranked
        else:
            d = np.where(
                rng.random(n) < 0.02, rng.normal(0, 500, n), rng.normal(0, 1, n)
            )  # outliers
        s = abs_delta_stats(d)
        assert 0 <= s["median"] <= s["p95"] <= s["p99"] <= s["max"], (SEED, trial, s)
        assert s["max"] == pytest.approx(np.abs(d).max())
        assert 0 <= s["mean"] <= s["max"] and s["count"] == n


def test_abs_delta_percentiles_by_hand() -> None:
    s = abs_delta_stats([-10.0] + [1.0] * 19)  # |d|: nineteen 1s and one 10
    assert s["median"] == 1.0 and s["max"] == 10.0
    assert s["p95"] == pytest.approx(1.0 + 0.05 * 9)  # rank 18.05 of 0..19: 1 + 0.05 * (10 - 1)
    assert s["p99"] == pytest.approx(1.0 + 0.81 * 9)  # rank 18.81
    assert s["signed_mean"] == pytest.approx((19 - 10) / 20)


def test_deciles_by_hand() -> None:
    p = np.array([0.4, 0.1, 0.3, 0.2])
    y = np.array([1.0, 1.0, 0.0, 0.0])
    # Equal weights, two bins: the lower two predictions, then the upper two.
    two = deciles(p, y, np.ones(4), bins=2)
    assert [d["records"] for d in two] == [2, 2]
    assert two[0]["mean_prediction"] == pytest.approx(0.15) and two[0]["realized_rate"] == 0.5
    assert two[1]["mean_prediction"] == pytest.approx(0.35) and two[1]["realized_rate"] == 0.5
    # Weight 3 on p = 0.1: cumulative midpoints 1.5, 3.5, 4.5, 5.5 of 6, so the heavy record fills
    # the first bin alone (equal volume, not equal count).
    w = np.array([1.0, 3.0, 1.0, 1.0])
    heavy = deciles(p, y, w, bins=2)
    assert [d["records"] for d in heavy] == [1, 3]
    assert [d["weight"] for d in heavy] == [3.0, 3.0]
    assert heavy[0]["realized_rate"] == 1.0
    assert heavy[1]["mean_prediction"] == pytest.approx(0.3)
    assert heavy[1]["realized_rate"] == pytest.approx(1 / 3)
    assert (heavy[1]["wilson_lo"], heavy[1]["wilson_hi"]) == pytest.approx(wilson(1 / 3, 3.0))
    # Twenty equal records in ten bins: two per bin, in order of prediction.
    p20 = np.arange(20)[::-1] / 20
    ten = deciles(p20, np.zeros(20), np.ones(20))
    assert [d["records"] for d in ten] == [2] * 10
    assert [d["mean_prediction"] for d in ten] == pytest.approx(
        [(2 * k + 0.5) / 20 for k in range(10)]
    )


def test_wilson_published_values() -> None:
    # Newcombe (1998), Statistics in Medicine 17:857-872, Wilson score method (as stats_test.cpp).
    for k, n, lo, hi in (
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
    ):
        got = wilson(k / n, n)
        assert got == pytest.approx((lo, hi), abs=5e-5), (k, n)
