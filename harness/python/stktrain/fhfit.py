"""python -m stktrain.fhfit --records FILE [FILE...] --out MODEL.txt [--report-dir DIR] [options]

Fits the fail-high predictor per side by weighted logistic regression (Newton / IRLS, weights =
the records' volume weight) on features / 256, with an L2 ridge on the coefficients (the
intercept is not penalized; the loss is the weight-averaged log-loss, so lambda does not scale
with the record count), and quantizes it to the integer model file of
docs/fail-high-predictor.md.

- alpha: every alpha-side record (moves and whole nodes), all 18 features;
- beta: beta-side records (whole nodes only) with depth_lg, gap_lg, improving, opp_improving,
  cut_node, phase; every other beta weight is 0 (legal_lg must be: the legal-move count is
  unknown at the decision).
Features that are constant in a side's data are also left at 0 (and reported).
--shift-intercept X adds X logits to both biases after fitting (a planted calibration defect).
Deterministic: the same inputs give a byte-identical model file. The seed only draws the
optional --holdout-fraction split (whole positions), whose log-loss and AUC are reported.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import numpy as np

from stkref import inputs, options
from stkref.cli import ToolParser, run_tool
from stkref.errors import InputError
from stkref.fhmodel import (
    BETA_FEATURES,
    DEFAULT_SHIFT,
    FEATURE_NAMES,
    LUT_CENTRE,
    NUM_FEATURES,
    SHIFT_RANGE,
    Z_SCALE,
    Model,
    SideParams,
    features,
    lut_index,
    make_lut,
    predict,
    quantize,
    sigmoid,
    write_model,
)
from stkref.fhrecords import labels, read_many
from stkref.netfile import sha256_file
from stkref.outputs import Output, report_tree
from stkref.report import write_json, write_text_atomic
from stktrain.calibration import log_loss, weighted_auc, weighted_mean

DEFAULT_L2 = 1e-4
SIDE_FEATURES: dict[str, tuple[str, ...]] = {"alpha": FEATURE_NAMES, "beta": BETA_FEATURES}


@dataclass
class LogisticFit:
    intercept: float
    coef: np.ndarray  # one per column of x
    iterations: int
    converged: bool
    loss: float  # penalized objective at the solution


def fit_logistic(
    x: np.ndarray, y: np.ndarray, w: np.ndarray, l2: float, max_iter: int = 100, tol: float = 1e-10
) -> LogisticFit:
    """Minimizes sum(w * logloss) / sum(w) + l2/2 * |coef|^2 by damped Newton steps."""
    n, k = x.shape
    a = np.hstack([np.ones((n, 1)), x])
    ws = w / w.sum()
    pen = np.r_[0.0, np.full(k, l2)]
    rate = min(max(weighted_mean(y, w), 1e-6), 1 - 1e-6)
    theta = np.r_[math.log(rate / (1 - rate)), np.zeros(k)]

    def objective(t: np.ndarray) -> float:
        z = a @ t
        return float(ws @ (np.logaddexp(0.0, z) - y * z) + 0.5 * pen @ (t * t))

    current = objective(theta)
    for it in range(1, max_iter + 1):
        p = sigmoid(a @ theta)
        grad = a.T @ (ws * (p - y)) + pen * theta
        hess = (a * (ws * p * (1 - p))[:, None]).T @ a + np.diag(pen)
        step = np.linalg.solve(hess + 1e-12 * np.eye(k + 1), grad)
        t = 1.0
        while True:  # Armijo backtracking keeps every step a descent
            cand = theta - t * step
            value = objective(cand)
            if value <= current - 1e-4 * t * float(grad @ step) or t < 1e-10:
                break
            t /= 2
        theta, current = cand, value
        if float(np.max(np.abs(t * step))) < tol:
            return LogisticFit(float(theta[0]), theta[1:], it, True, current)
    return LogisticFit(float(theta[0]), theta[1:], max_iter, False, current)


@dataclass
class SideFit:
    side: str
    bias: float
    weights: list[float]  # NUM_FEATURES, 0 where unused
    fit: LogisticFit
    used: list[str]
    excluded: dict[str, str]  # feature -> reason
    report: dict[str, object] = field(default_factory=dict)


def weighted_std(x: np.ndarray, w: np.ndarray) -> float:
    m = weighted_mean(x, w)
    return math.sqrt(max(weighted_mean((x - m) ** 2, w), 0.0))


def fit_side(side: str, feats: np.ndarray, y: np.ndarray, w: np.ndarray, l2: float) -> SideFit:
    if len(y) == 0:
        raise InputError(f"no {side}-side records to fit")
    pos = float((w * y).sum())
    if pos <= 0 or pos >= w.sum():
        raise InputError(
            f"{side}: every record has the same label (positive weight {pos:.0f} of "
            f"{w.sum():.0f}): the intercept is not identifiable"
        )
    x = feats.astype(np.float64) / 256.0
    excluded: dict[str, str] = {}
    used: list[str] = []
    for j, name in enumerate(FEATURE_NAMES):
        if name not in SIDE_FEATURES[side]:
            excluded[name] = f"not available on the {side} side"
        elif np.all(feats[:, j] == feats[0, j]):
            excluded[name] = f"constant in the data ({int(feats[0, j])})"
        else:
            used.append(name)
    cols = [FEATURE_NAMES.index(n) for n in used]
    fit = fit_logistic(x[:, cols], y, w, l2)
    weights = [0.0] * NUM_FEATURES
    for c, b in zip(cols, fit.coef, strict=True):
        weights[c] = float(b)
    return SideFit(side, fit.intercept, weights, fit, used, excluded)


def describe_side(
    sf: SideFit,
    feats: np.ndarray,
    y: np.ndarray,
    w: np.ndarray,
    params: SideParams,
    model: Model,
    side_records: np.ndarray,
) -> dict[str, object]:
    """Per-feature discrimination (univariate AUC, standardized coefficient) and the losses."""
    x = feats.astype(np.float64) / 256.0
    logit = sf.bias + x @ np.asarray(sf.weights)
    rate = weighted_mean(y, w)
    integer_p = predict(model, side_records, feats).astype(np.float64) / 65536.0
    rows = []
    for j, name in enumerate(FEATURE_NAMES):
        std = weighted_std(x[:, j], w)
        rows.append(
            {
                "feature": name,
                "used": name in sf.used,
                "excluded": sf.excluded.get(name, ""),
                "mean": weighted_mean(x[:, j], w),
                "std": std,
                "auc": weighted_auc(feats[:, j], y, w),
                "coefficient": sf.weights[j],
                "standardized": sf.weights[j] * std,
                "quantized_weight": params.weights[j],
            }
        )
    return {
        "records": len(y),
        "weight": float(w.sum()),
        "positive_weight": float((w * y).sum()),
        "base_rate": rate,
        "iterations": sf.fit.iterations,
        "converged": sf.fit.converged,
        "bias": sf.bias,
        "quantized_bias": params.bias,
        "train_log_loss": log_loss(sigmoid(logit), y, w),
        "train_log_loss_integer_model": log_loss(integer_p, y, w),
        "null_log_loss": log_loss(np.full(len(y), rate), y, w),
        "train_auc": weighted_auc(logit, y, w),
        "features": rows,
    }


def holdout_mask(src: np.ndarray, position: np.ndarray, fraction: float, seed: int) -> np.ndarray:
    """Whole positions (per source file) drawn into the holdout by a seeded permutation."""
    if fraction <= 0:
        return np.zeros(len(src), bool)
    keys = src.astype(np.int64) << 32 | position.astype(np.int64)
    uniq = np.unique(keys)
    chosen = np.random.default_rng(seed).permutation(uniq)[: round(fraction * len(uniq))]
    return np.isin(keys, chosen)


def markdown(s: dict[str, Any]) -> str:
    lines = [
        "# fail-high predictor fit",
        "",
        f"Model `{s['out']}`, lambda {s['lambda']:g} "
        f"(L2 on the features/256 coefficients, weight-averaged log-loss, intercept "
        f"unpenalized), shift {s['shift']}, intercept shift {s['shift_intercept']:g} logit, "
        f"seed {s['seed']}, holdout fraction {s['holdout_fraction']:g}.",
        "",
    ]
    for side, r in s["sides"].items():
        lines += [
            f"## {side}",
            "",
            f"{r['records']} records, weight {r['weight']:.0f}, base rate "
            f"{r['base_rate']:.4f}; Newton iterations {r['iterations']} (converged "
            f"{r['converged']}). Log-loss: null {r['null_log_loss']:.5f}, fit "
            f"{r['train_log_loss']:.5f}, integer model "
            f"{r['train_log_loss_integer_model']:.5f}"
            f"; train AUC {r['train_auc']:.4f}."
            + (
                f" Holdout ({r['holdout']['records']} records): log-loss "
                f"{r['holdout']['log_loss']:.5f}, AUC {r['holdout']['auc']}."
                if "holdout" in r
                else ""
            ),
            "",
            "| feature | univariate AUC | mean | std | coefficient | standardized | "
            "weight | note |",
            "|---|---|---|---|---|---|---|---|",
        ]
        for f in r["features"]:
            auc = "n/a" if f["auc"] is None else f"{f['auc']:.4f}"
            lines.append(
                f"| {f['feature']} | {auc} | {f['mean']:.4f} | {f['std']:.4f} | "
                f"{f['coefficient']:+.4f} | {f['standardized']:+.4f} | "
                f"{f['quantized_weight']} | {f['excluded']} |"
            )
        lines.append("")
    lines += ["## Sources", ""] + [f"- `{x['path']}` sha256 `{x['sha256']}`" for x in s["sources"]]
    return "\n".join(lines) + "\n"


SATURATION_GRID = (0.0, *np.geomspace(1e-6, 2e-2, 57).tolist())


def fit_saturation(
    model: Model, records: np.ndarray, feats: np.ndarray, y: np.ndarray, w: np.ndarray
) -> tuple[float, float]:
    """The LUT's floor (from the alpha records) and ceiling (from the beta records) that
    minimize the weighted log-loss of the integer model, over a fixed grid: the logistic tails
    are overconfident where realized rates level off (alpha ~1e-4, beta miss rate ~3e-3)."""
    side = records["side"].astype(bool)
    x = (lut_index(model, records, feats).astype(np.float64) - LUT_CENTRE + 0.5) / Z_SCALE
    s = sigmoid(x)
    best = []
    for rows, tail in ((~side, "floor"), (side, "ceiling")):
        losses = []
        for eps in SATURATION_GRID:
            lo, hi = (eps, 0.0) if tail == "floor" else (0.0, eps)
            p = np.clip(lo + (1 - lo - hi) * s[rows], 0.5 / 65536, 1 - 0.5 / 65536)
            losses.append(log_loss(p, y[rows], w[rows]) if rows.any() else 0.0)
        best.append(SATURATION_GRID[int(np.argmin(losses))])
    return best[0], best[1]


def run(args: argparse.Namespace) -> int:
    records, src = read_many(args.records)
    held = holdout_mask(src, records["position_id"], args.holdout_fraction, args.seed)
    feats_all, y_all = features(records), labels(records).astype(np.float64)
    w_all = records["weight"].astype(np.float64)
    print(f"seed {args.seed} (draws only the holdout split, fraction {args.holdout_fraction:g})")
    print(f"lambda {args.l2:g}")

    fits: dict[str, SideFit] = {}
    for s, side in ((0, "alpha"), (1, "beta")):
        m = (records["side"] == s) & ~held
        fits[side] = fit_side(side, feats_all[m], y_all[m], w_all[m], args.l2)
    try:
        params = {
            side: quantize(f.bias + args.shift_intercept, f.weights, args.shift)
            for side, f in fits.items()
        }
    except ValueError as e:
        raise InputError(f"the fitted model cannot be quantized at shift {args.shift}: {e}") from e
    if params["beta"].weights[FEATURE_NAMES.index("legal_lg")] != 0:
        raise AssertionError("beta legal_lg weight must be 0")
    # The saturation is fitted to the fitted model, before any --shift-intercept (a planted
    # miscalibration must not be absorbed by the tails).
    unshifted = {side: quantize(f.bias, f.weights, args.shift) for side, f in fits.items()}
    plain = Model(args.shift, unshifted["alpha"], unshifted["beta"], make_lut())
    floor, ceiling = (
        fit_saturation(plain, records[~held], feats_all[~held], y_all[~held], w_all[~held])
        if args.saturation
        else (0.0, 0.0)
    )
    print(f"lut floor {floor:g} ceiling {ceiling:g}")
    model = Model(args.shift, params["alpha"], params["beta"], make_lut(floor, ceiling))

    sides: dict[str, dict[str, object]] = {}
    for s, side in ((0, "alpha"), (1, "beta")):
        m = (records["side"] == s) & ~held
        r = describe_side(
            fits[side], feats_all[m], y_all[m], w_all[m], params[side], model, records[m]
        )
        h = (records["side"] == s) & held
        if h.any():
            hp = predict(model, records[h], feats_all[h]).astype(np.float64) / 65536.0
            r["holdout"] = {
                "records": int(h.sum()),
                "log_loss": log_loss(hp, y_all[h], w_all[h]),
                "auc": weighted_auc(hp, y_all[h], w_all[h]),
            }
        sides[side] = r
    sources = [
        {"path": os.fspath(p), "sha256": sha256_file(p, inputs.DATA_LIMIT)} for p in args.records
    ]
    comments = [
        "fitted by stktrain.fhfit (docs/fail-high-predictor.md)",
        f"seed {args.seed} holdout_fraction {args.holdout_fraction!r}",
        f"lambda {args.l2!r} (L2 on features/256 coefficients; weight-averaged log-loss)",
        f"shift {args.shift} shift_intercept {args.shift_intercept!r}",
        f"lut floor {floor!r} ceiling {ceiling!r} (tail saturation fitted by log-loss: "
        "alpha records for the floor, beta records for the ceiling)",
    ]
    for side, r in sides.items():
        comments.append(
            f"{side}: records {r['records']} weight {r['weight']:.0f} positive_weight "
            f"{r['positive_weight']:.0f} iterations {r['iterations']} "
            f"train_log_loss {r['train_log_loss']:.6f} features "
            f"{','.join(fits[side].used) or 'none'}"
        )
    comments += [f"source {x['path']} sha256 {x['sha256']}" for x in sources]
    write_model(args.out, model, comments)

    for side, r in sides.items():
        print(
            f"{side}: records {r['records']} weight {r['weight']:.0f} base rate "
            f"{r['base_rate']:.4f} log-loss null {r['null_log_loss']:.5f} fit "
            f"{r['train_log_loss']:.5f} integer {r['train_log_loss_integer_model']:.5f} "
            f"AUC {r['train_auc']:.4f} ({r['iterations']} iterations)"
        )
        feats = cast("list[dict[str, Any]]", r["features"])
        top = sorted(feats, key=lambda f: -abs(f["standardized"]))[:5]
        print(
            "  strongest (standardized): "
            + ", ".join(f"{f['feature']} {f['standardized']:+.3f}" for f in top if f["used"])
        )
    print(f"model {args.out}")
    if args.report_dir:
        summary = {
            "out": os.fspath(args.out),
            "lambda": args.l2,
            "shift": args.shift,
            "lut_floor": floor,
            "lut_ceiling": ceiling,
            "shift_intercept": args.shift_intercept,
            "seed": args.seed,
            "holdout_fraction": args.holdout_fraction,
            "sources": sources,
            "sides": sides,
        }
        out = Path(args.report_dir)
        write_json(out / "fhfit.json", summary)
        write_text_atomic(out / "fhfit.md", markdown(summary))
        print(f"report {out}")
    return 0


def outputs(a: argparse.Namespace) -> list[Output]:
    found = [Output("--out", Path(a.out))]
    if a.report_dir:
        found += report_tree("--report-dir", Path(a.report_dir), ("fhfit.json", "fhfit.md"))
    return found


def build_parser() -> argparse.ArgumentParser:
    ap = ToolParser(
        prog="python -m stktrain.fhfit",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        outputs=outputs,
    )
    ap.add_argument(
        "--records",
        nargs="+",
        type=inputs.input_file(inputs.DATA_LIMIT),
        required=True,
        metavar="FILE",
    )
    ap.add_argument("--out", required=True, metavar="MODEL.txt")
    ap.add_argument("--report-dir", help="write fhfit.json and fhfit.md here")
    ap.add_argument(
        "--shift-intercept",
        type=options.real(-50.0, 50.0),
        default=0.0,
        metavar="LOGIT",
        help="add LOGIT to both sides' bias after fitting (default 0)",
    )
    ap.add_argument(
        "--seed", type=options.seed, default=1, help="seed of the holdout split (default 1)"
    )
    ap.add_argument(
        "--holdout-fraction",
        type=options.real(0.0, 1.0, open_hi=True),
        default=0.0,
        help="fraction of positions left out of the fit and reported (default 0)",
    )
    ap.add_argument(
        "--l2",
        type=options.real(0.0, 1e6),
        default=DEFAULT_L2,
        help=f"ridge lambda ({DEFAULT_L2:g})",
    )
    ap.add_argument(
        "--shift",
        type=options.integer(*SHIFT_RANGE),
        default=DEFAULT_SHIFT,
        help=f"model shift ({DEFAULT_SHIFT})",
    )
    ap.add_argument(
        "--no-saturation",
        dest="saturation",
        action="store_false",
        help="a plain sigmoid LUT (no fitted floor/ceiling)",
    )
    return ap


def main(argv: Sequence[str] | None = None) -> int:
    return run(build_parser().parse_args(argv))


if __name__ == "__main__":
    sys.exit(run_tool(main))
