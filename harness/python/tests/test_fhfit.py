from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from stkref.cli import run_tool
from stkref.fhmodel import BETA_FEATURES, FEATURE_NAMES, features, read_model, sigmoid
from stkref.fhrecords import read_records, write_records
from stkref.fhsynth import TRUE_ALPHA, TRUE_BETA, synthesize
from stktrain.fhfit import fit_logistic
from stktrain.fhfit import main as fhfit_main


def _logistic_data(
    seed: int, n: int, coef: np.ndarray, intercept: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, len(coef))) * np.array([1.0, 2.0, 0.5, 1.0][: len(coef)])
    y = (rng.random(n) < sigmoid(intercept + x @ coef)).astype(np.float64)
    w = rng.integers(1, 5, n).astype(np.float64)
    return x, y, w


def test_fit_logistic_recovers_known_coefficients() -> None:
    coef = np.array([0.8, -0.4, 1.5, 0.0])
    x, y, w = _logistic_data(1, 40_000, coef, -1.0)
    fit = fit_logistic(x, y, w, l2=1e-6)
    assert fit.converged and fit.iterations < 20
    assert abs(fit.intercept + 1.0) < 0.05
    assert np.max(np.abs(fit.coef - coef)) < 0.05, fit.coef


def test_weights_equal_replication() -> None:
    x, y, w = _logistic_data(2, 3000, np.array([1.0, -0.5]), 0.3)
    weighted = fit_logistic(x, y, w, l2=1e-3)
    k = w.astype(np.int64)
    replicated = fit_logistic(np.repeat(x, k, axis=0), np.repeat(y, k), np.ones(k.sum()), l2=1e-3)
    assert abs(weighted.intercept - replicated.intercept) < 1e-8
    assert np.allclose(weighted.coef, replicated.coef, atol=1e-8)


def test_ridge_shrinks() -> None:
    x, y, w = _logistic_data(3, 2000, np.array([1.0, -0.5]), 0.0)
    small, large = fit_logistic(x, y, w, l2=1e-6), fit_logistic(x, y, w, l2=1.0)
    assert np.linalg.norm(large.coef) < 0.5 * np.linalg.norm(small.coef)


@pytest.fixture(scope="module")
def train_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("fhfit") / "train.fhr"
    recs = synthesize(np.random.default_rng(0), 60_000, full_depth=1)
    write_records(path, recs[: len(recs) // 2], seed=0)
    write_records(path, recs[len(recs) // 2 :], append=True, seed=0, shard_index=1)
    return path


@pytest.fixture(scope="module")
def small_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("fhfit") / "small.fhr"
    write_records(path, synthesize(np.random.default_rng(1), 12_000), seed=1)
    return path


def fhfit(argv: list[str]) -> int:
    return run_tool(lambda: fhfit_main(argv))


def _float_side(model_path: Path, side: str) -> tuple[float, np.ndarray]:
    m = read_model(model_path)
    p = m.side(side == "beta")
    return p.bias / 2.0 ** (m.shift + 6), np.asarray(p.weights) / 2.0 ** (m.shift - 2)


def test_cli_recovers_the_true_model(
    train_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, rep = tmp_path / "m.txt", tmp_path / "rep"
    assert (
        fhfit(
            [
                "--records",
                str(train_file),
                "--out",
                str(out),
                "--report-dir",
                str(rep),
                "--seed",
                "7",
            ]
        )
        == 0
    )
    stdout = capsys.readouterr().out
    assert "seed 7" in stdout and "lambda 0.0001" in stdout
    # The cross-term features are collinear with their factors, so individual weights are not
    # identifiable; the fitted model must reproduce the true probabilities instead.
    recs, _ = read_records(train_file)
    feats = features(recs).astype(np.float64)
    beta_rows = recs["side"] == 1
    for side, truth, rows in (("alpha", TRUE_ALPHA, ~beta_rows), ("beta", TRUE_BETA, beta_rows)):
        bias, weights = _float_side(out, side)
        fitted = sigmoid(bias + feats[rows] @ weights / 256)
        true = sigmoid(truth.bias + feats[rows] @ np.asarray(truth.weights) / 256)
        assert np.mean(np.abs(fitted - true)) < 0.01, side
        assert np.max(np.abs(fitted - true)) < 0.1, side
    _, beta = _float_side(out, "beta")
    unused = [i for i, n in enumerate(FEATURE_NAMES) if n not in BETA_FEATURES]
    assert np.all(beta[unused] == 0) and beta[FEATURE_NAMES.index("legal_lg")] == 0
    text = out.read_text()
    assert "# seed 7" in text and "# lambda 0.0001" in text and f"source {train_file}" in text
    report = json.loads((rep / "fhfit.json").read_text())
    assert report["lambda"] == 1e-4 and report["seed"] == 7
    alpha = {f["feature"]: f for f in report["sides"]["alpha"]["features"]}
    assert alpha["tier_tt"]["auc"] > 0.5 > alpha["gap_lg"]["auc"]
    assert alpha["gap_lg"]["standardized"] < -0.5
    assert report["sides"]["alpha"]["train_log_loss"] < report["sides"]["alpha"]["null_log_loss"]
    beta_rows = {f["feature"]: f for f in report["sides"]["beta"]["features"]}
    assert beta_rows["legal_lg"]["excluded"] == "not available on the beta side"
    assert "| fh_rate |" in (rep / "fhfit.md").read_text()


def test_deterministic_and_intercept_shift(small_file: Path, tmp_path: Path) -> None:
    a, b, shifted = tmp_path / "a.txt", tmp_path / "b.txt", tmp_path / "s.txt"
    base = ["--records", str(small_file), "--seed", "3"]
    assert fhfit(base + ["--out", str(a)]) == 0
    assert fhfit(base + ["--out", str(b)]) == 0
    assert a.read_bytes() == b.read_bytes()
    assert fhfit(base + ["--out", str(shifted), "--shift-intercept", "1.0"]) == 0
    ma, ms = read_model(a), read_model(shifted)
    for side in ("alpha", "beta"):
        pa, ps = getattr(ma, side), getattr(ms, side)
        assert ps.bias - pa.bias == 1 << (ma.shift + 6) and ps.weights == pa.weights


def test_holdout_uses_the_seed(small_file: Path, tmp_path: Path) -> None:
    reports = []
    for seed in (1, 2):
        rep = tmp_path / f"rep{seed}"
        assert (
            fhfit(
                [
                    "--records",
                    str(small_file),
                    "--out",
                    str(tmp_path / f"m{seed}.txt"),
                    "--holdout-fraction",
                    "0.2",
                    "--seed",
                    str(seed),
                    "--report-dir",
                    str(rep),
                ]
            )
            == 0
        )
        reports.append(json.loads((rep / "fhfit.json").read_text()))
    h1, h2 = (r["sides"]["alpha"]["holdout"] for r in reports)
    assert h1["records"] != h2["records"] and 0.5 < h1["auc"] < 1


def test_bad_inputs_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.fhr"
    bad.write_bytes(b"STKFHREC" + bytes(24))
    assert fhfit(["--records", str(bad), "--out", str(tmp_path / "m.txt")]) == 2
    assert "bad.fhr" in capsys.readouterr().err
    alpha_only = tmp_path / "alpha.fhr"
    recs = synthesize(np.random.default_rng(1), 2000, beta_fraction=0.0)
    write_records(alpha_only, recs)
    assert fhfit(["--records", str(alpha_only), "--out", str(tmp_path / "m.txt")]) == 2
    assert "no beta-side records" in capsys.readouterr().err
    assert not (tmp_path / "m.txt").exists()


def test_shift_range_is_inclusive(
    small_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The lowest shift is a model the engine reads; one past either end is refused as outside
    # the range (planted by the mutation campaign: `8 < shift` refused the lowest shift). The
    # highest cannot hold this model's bias in int32: refused for that, not for the range.
    from stkref.fhmodel import SHIFT_RANGE

    lo, hi = SHIFT_RANGE
    out = tmp_path / "lo.txt"
    assert fhfit(["--records", str(small_file), "--shift", str(lo), "--out", str(out)]) == 0
    assert read_model(out).shift == lo
    for shift, why in ((lo - 1, "outside"), (hi + 1, "outside"), (hi, "cannot be quantized")):
        capsys.readouterr()
        argv = ["--records", str(small_file), "--shift", str(shift), "--out", str(tmp_path / "x")]
        assert fhfit(argv) == 2
        assert why in capsys.readouterr().err, shift
