"""The charts the review page shows are drawn by one plotting path (matplotlib, in the harness that
owns the figures) and read as a person reads them: every axes has its axis titles, a legend where
there is more than one series, and the gate drawn where the chart has one (docs/review.md#charts)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from stkref import drift, shadowplot
from stktrain import calibration


def _deciles(centre: float) -> list[dict]:
    return [
        {"mean_prediction": centre * (i + 1) / 10, "realized_rate": centre * (i + 1) / 10,
         "wilson_lo": centre * i / 10, "wilson_hi": centre * (i + 2) / 10, "records": 10}
        for i in range(10)
    ]  # fmt: skip


def test_reliability_has_the_prediction_histogram_beneath(tmp_path: Path) -> None:
    by_slice = {
        side: {"records": 100, "n_eff": 90.0, "ece": 0.01, "deciles": _deciles(c)}
        for side, c in (("alpha", 0.05), ("beta", 0.9))
    }
    rng = np.random.default_rng(1)
    preds = {side: (rng.uniform(0.001, 0.999, 500), np.ones(500)) for side in ("alpha", "beta")}
    fig = calibration.plot(tmp_path / "r.png", by_slice, "t", preds)
    assert (tmp_path / "r.png").stat().st_size > 1000
    top, bottom = fig.axes[:2], fig.axes[2:]
    assert len(fig.axes) == 4
    for ax in top:
        assert "realized" in ax.get_ylabel() and ax.get_legend() is not None
    for ax in bottom:
        assert "predicted" in ax.get_xlabel() and "records" in ax.get_ylabel()
        assert sum(p.get_height() for p in ax.patches) == 500  # every prediction is counted


def test_drift_chart_draws_its_gates(tmp_path: Path) -> None:
    rng = np.random.default_rng(2)
    deltas, buckets = rng.normal(0, 5, 400), rng.integers(0, 8, 400)
    fig = drift._plot(tmp_path / "d.png", deltas, buckets, "t", {"p99": 40.0, "max": 80.0})
    hist, boxes = fig.axes
    for ax in (hist, boxes):
        assert ax.get_xlabel() and ax.get_ylabel()
    gates = sorted(line.get_ydata()[0] for line in boxes.get_lines() if "gate" in line.get_label())
    assert gates == [40.0, 80.0]
    assert boxes.get_legend() is not None


def test_shadow_chart_draws_the_control_gate(tmp_path: Path) -> None:
    summary = {
        "config": "t", "positions": 2, "budget": "sd7", "max_control": 0.01,
        "cells": [
            {"mechanism": m, "depth": d, "rate": 0.02, "audited": 200, "wilson_lo": 0.01,
             "wilson_hi": 0.03, "control": m, "control_audited": 100, "control_rate": 0.0}
            for m in ("lmr", "lmp") for d in (1, 2)
        ],
    }  # fmt: skip
    ax = shadowplot.plot(summary, tmp_path / "s.png").axes[0]
    gate = [line for line in ax.get_lines() if "gate" in line.get_label()]
    assert len(gate) == 1 and gate[0].get_ydata()[0] == 0.01
    assert ax.get_xlabel() and ax.get_ylabel() and ax.get_legend() is not None
