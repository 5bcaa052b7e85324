"""An independent model of what the trainer optimizes (docs/training.md "What it trains"): the
net it fits, with its factor rows, is the net the checkpoint holds once they are folded in, as the
spec's float reference (stkref.floatmodel, SPEC-NNUE.md "Float reference") evaluates it; and the
loss is the squared error in win-probability space between sigmoid(eval / K) and
lambda * sigmoid(score / K) + (1 - lambda) * result, written here in plain numpy. A trainer
that optimizes another function than the one the engine runs (a factor row folded into one
tensor only, a PSQT of the wrong perspective, another bucket) trains a net nobody plays.
"""

from __future__ import annotations

import functools
import os
import tempfile
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

os.environ.setdefault(
    "JAX_COMPILATION_CACHE_DIR", os.path.join(tempfile.gettempdir(), "stk-jax-cache")
)
pytest.importorskip("jax")

from conftest import board_after

from stkref.floatmodel import FloatModel
from stktrain import train

HIDDEN = 128


def _params(seed: int, factor_scale: float) -> dict[str, np.ndarray]:
    """The trainer's initial parameters with factor rows and output weights drawn too (the
    initial factor rows are 0, which would hide any error in them)."""
    rng = np.random.default_rng(seed)
    p = train.initial_params(HIDDEN, seed % 1000 + 1)
    for name in ("ft.factor", "psqt.factor"):
        scale = factor_scale * (100.0 if name.startswith("psqt") else 1.0)
        p[name] = (rng.standard_normal(p[name].shape) * scale).astype(np.float32)
    p["out.weight"] = (rng.standard_normal(p["out.weight"].shape) * 0.5).astype(np.float32)
    p["out.bias"] = (rng.standard_normal(p["out.bias"].shape) * 0.1).astype(np.float32)
    return p


@functools.cache
def _functions(lam: float, scale: float) -> tuple[Any, Any]:
    return train.make_functions(HIDDEN, lam, scale)  # one compilation per pair


def _sigmoid(x: np.ndarray) -> np.ndarray:
    out: np.ndarray = 1.0 / (1.0 + np.exp(-x))
    return out


# MODEL train-forward-is-the-spec-net
# checks: harness/python/stktrain/train.py  (the trainer's eval, factor rows included, and its loss)
# contract: docs/training.md#what-it-trains
# planted: ci/mutants/model-train-forward-is-the-spec-net.patch  (the PSQT factor rows not folded into the checkpoint)
@given(
    seed=st.integers(0, 2**31 - 1),
    factor_scale=st.sampled_from([0.0, 0.01, 0.05]),
    games=st.lists(st.lists(st.integers(0, 10**6), max_size=40), min_size=1, max_size=6),
    lam=st.sampled_from([0.0, 0.3, 1.0]),
    scale=st.sampled_from([150.0, 400.0]),
)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_model_train_forward_is_the_spec_net(
    seed: int, factor_scale: float, games: list[list[int]], lam: float, scale: float
) -> None:
    boards = [board_after(g) for g in games]
    p = _params(seed, factor_scale)
    rng = np.random.default_rng(seed)
    score = rng.integers(-1500, 1500, len(boards)).astype(np.float32)
    result = rng.choice([0.0, 0.5, 1.0], len(boards)).astype(np.float32)
    stm = np.stack([train._rows(b, b.turn) for b in boards])
    opp = np.stack([train._rows(b, not b.turn) for b in boards])
    bucket = np.asarray([train.output_bucket(b) for b in boards], np.int32)

    evaluate, errors = _functions(lam, scale)
    jp: dict[str, Any] = {k: train._jax().numpy.asarray(v) for k, v in p.items()}
    got = np.asarray(evaluate(jp, stm, opp, bucket), np.float64)
    reference = FloatModel(train.fold(p))
    want = np.asarray([reference.evaluate(b).eval for b in boards])
    # float32 sums of ~30 rows against float64: a few hundredths of a centipawn
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=0.05)

    err = np.asarray(errors(jp, stm, opp, bucket, score, result), np.float64)
    target = lam * _sigmoid(score / scale) + (1.0 - lam) * result
    np.testing.assert_allclose(err, (_sigmoid(want / scale) - target) ** 2, rtol=1e-3, atol=1e-6)
