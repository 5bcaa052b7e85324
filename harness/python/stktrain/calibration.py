"""python -m stktrain.calibration --records HELDOUT.fhr [...] --model MODEL.txt [options]

Calibration of the fail-high predictor on held-out records (docs/fail-high-predictor.md):
the integer model's predictions are recomputed (and with --check-recorded compared bit for bit
with the records' prediction field). Every statistic is volume-weighted by the record `weight`
(the inverse of the depth-aware sampling probability); Wilson intervals use the effective
sample size n_eff = (sum w)^2 / sum w^2.

Reported per slice (all; alpha, beta; each side by remaining depth 1-2, 3-4, 5-6, 7+):
equal-weight deciles of predicted probability (mean prediction, realized rate, Wilson 95%),
ECE, the part of the ECE that sampling noise cannot explain, maximum calibration error, Brier,
log-loss and AUC. Per search decision (LMR tier 1/2 on alpha moves with depth >= 3 and
ordinal > 1; static null on beta nodes with depth <= 7): the flagged population's realized
rate against its own mean prediction (never against the threshold) and the firing rate.
Outputs: <out-dir>/calibration.{md,json}, reliability.png and JUnit (default
<out-dir>/../junit/calibration-<tier>.xml). Exit 0 pass, 1 a gate failed, 2 bad input.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import numpy as np

from stkref import inputs, options
from stkref.cli import ToolParser, run_tool
from stkref.errors import InputError
from stkref.fhmodel import predict, read_model
from stkref.fhrecords import labels, read_many, whole_node
from stkref.intervals import wilson
from stkref.junit import (
    Outcome,
    TestCase,
    TestSuite,
    add_build_properties,
    write_report,
)
from stkref.netfile import sha256_file
from stkref.outputs import Output, report_tree, write_figure
from stkref.report import write_summary, write_text_atomic

P_EPS = 0.5 / 65536  # log-loss clamps p into [P_EPS, 1 - P_EPS] (the LUT can hold 0)
DEPTH_BANDS: tuple[tuple[str, int, int], ...] = (
    ("d1-2", 1, 2),
    ("d3-4", 3, 4),
    ("d5-6", 5, 6),
    ("d7+", 7, 255),
)


@dataclass(frozen=True)
class Tier:
    # In log-odds: the search's decisions live at p ~ 1e-4..1e-2 and p ~ 0.99, where an absolute
    # probability tolerance means nothing (0.02 would pass a model 10x off at p = 0.002). A
    # logit tolerance t allows a factor e^t on the odds: 0.25 ~ 28%, 0.5 ~ 65%.
    tolerance: float  # logit units: allowed distance from the realized rate's Wilson interval
    min_neff: float  # slices / flagged populations with a smaller n_eff are skipped


TIERS = {"quick": Tier(0.5, 200.0), "full": Tier(0.35, 500.0)}
LOGIT_EPS = 1e-7  # Wilson bounds are clamped into [eps, 1 - eps] before the logit


# ---- weighted statistics ---------------------------------------------------------------------


def effective_n(w: np.ndarray) -> float:
    s2 = float(np.square(w, dtype=np.float64).sum())
    return float(w.sum(dtype=np.float64)) ** 2 / s2 if s2 > 0 else 0.0


def weighted_mean(x: np.ndarray, w: np.ndarray) -> float:
    return float((x * w).sum() / w.sum())


def log_loss(p: np.ndarray, y: np.ndarray, w: np.ndarray) -> float:
    q = np.clip(p, P_EPS, 1 - P_EPS)
    return weighted_mean(-(y * np.log(q) + (1 - y) * np.log1p(-q)), w)


def weighted_auc(score: np.ndarray, y: np.ndarray, w: np.ndarray) -> float | None:
    """P(score of a positive > score of a negative) by weight, ties counted half; None when a
    class is absent."""
    order = np.argsort(score, kind="stable")
    s, pos_w = score[order], (w * y)[order].astype(np.float64)
    neg_w = (w * (1 - y))[order].astype(np.float64)
    total_pos, total_neg = pos_w.sum(), neg_w.sum()
    if total_pos <= 0 or total_neg <= 0:
        return None
    starts = np.flatnonzero(np.r_[True, s[1:] != s[:-1]])
    pos_g, neg_g = np.add.reduceat(pos_w, starts), np.add.reduceat(neg_w, starts)
    neg_below = np.cumsum(neg_g) - neg_g
    return float((pos_g * (neg_below + 0.5 * neg_g)).sum() / (total_pos * total_neg))


def _cell(p: np.ndarray, y: np.ndarray, w: np.ndarray) -> dict[str, float | int]:
    n_eff = effective_n(w)
    realized, mean_pred = weighted_mean(y, w), weighted_mean(p, w)
    lo, hi = wilson(realized, n_eff)
    return {
        "records": len(p),
        "weight": float(w.sum()),
        "n_eff": n_eff,
        "mean_prediction": mean_pred,
        "realized_rate": realized,
        "wilson_lo": lo,
        "wilson_hi": hi,
        "positives_weight": float((w * y).sum()),
    }


def deciles(p: np.ndarray, y: np.ndarray, w: np.ndarray, bins: int = 10) -> list[dict[str, Any]]:
    """Equal-weight bins of predicted probability: sorted by p (stable), a record goes to the
    bin holding the midpoint of its weight on the cumulative axis; empty bins are omitted."""
    order = np.argsort(p, kind="stable")
    cum = np.cumsum(w[order], dtype=np.float64)
    mid = cum - w[order] / 2
    b = np.minimum((bins * mid / cum[-1]).astype(np.int64), bins - 1)
    out = []
    for k in range(bins):
        idx = order[b == k]
        if len(idx):
            out.append({"bin": k, **_cell(p[idx], y[idx], w[idx])})
    return out


def interval_distance(value: float, lo: float, hi: float) -> float:
    return max(lo - value, value - hi, 0.0)


def _logit(p: float) -> float:
    p = min(max(p, LOGIT_EPS), 1 - LOGIT_EPS)
    return math.log(p / (1 - p))


def logit_distance(value: float, lo: float, hi: float) -> float:
    """How far `value` lies outside [lo, hi], in log-odds (0 inside)."""
    return interval_distance(_logit(value), _logit(lo), _logit(hi))


def slice_stats(p: np.ndarray, y: np.ndarray, w: np.ndarray) -> dict[str, object]:
    if len(p) == 0:
        return {"records": 0, "weight": 0.0, "n_eff": 0.0}
    stats: dict[str, object] = dict(_cell(p, y, w))
    dec = deciles(p, y, w)
    total = float(w.sum())
    gaps = [abs(d["realized_rate"] - d["mean_prediction"]) for d in dec]
    stats["ece"] = sum(d["weight"] / total * g for d, g in zip(dec, gaps, strict=True))
    stats["ece_beyond_noise"] = sum(
        d["weight"]
        / total
        * interval_distance(d["mean_prediction"], d["wilson_lo"], d["wilson_hi"])
        for d in dec
    )
    # The gated quantity: the weight-averaged log-odds distance of each decile's mean
    # prediction from its realized rate's Wilson interval (sampling noise is not an error).
    for d in dec:
        d["logit_error"] = logit_distance(d["mean_prediction"], d["wilson_lo"], d["wilson_hi"])
    stats["logit_ece_beyond_noise"] = sum(d["weight"] / total * d["logit_error"] for d in dec)
    stats["mce"] = max(gaps)
    stats["brier"] = weighted_mean(np.square(p - y), w)
    stats["log_loss"] = log_loss(p, y, w)
    stats["auc"] = weighted_auc(p, y, w)
    stats["deciles"] = dec
    return stats


# ---- populations -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Thresholds:
    """In 1/10000 of probability, as the UCI options."""

    lmr_tier1: int = 20
    lmr_tier2: int = 5
    static_null: int = 9900


def below(pred: np.ndarray, t: int) -> np.ndarray:
    """p < t/10000 with p = pred/65536, exactly (integers)."""
    return pred.astype(np.int64) * 10000 < t * 65536


def slices(records: np.ndarray) -> dict[str, np.ndarray]:
    side, depth = records["side"], records["depth"]
    out = {"all": np.ones(len(records), bool)}
    for s, name in ((0, "alpha"), (1, "beta")):
        out[name] = side == s
        for band, lo, hi in DEPTH_BANDS:
            out[f"{name}/{band}"] = (side == s) & (depth >= lo) & (depth <= hi)
    return out


def decisions(
    records: np.ndarray, pred: np.ndarray, t: Thresholds
) -> dict[str, tuple[str, np.ndarray, np.ndarray]]:
    """name -> (rule, eligible mask, flagged mask)."""
    alpha_lmr = (
        (records["side"] == 0)
        & ~whole_node(records)
        & (records["depth"] >= 3)
        & (records["ordinal"] > 1)
    )
    beta_node = (records["side"] == 1) & (records["depth"] <= 7)
    return {
        "alpha/lmr-tier1": (
            f"p < {t.lmr_tier1 / 10000:g} (alpha moves, depth >= 3, ordinal > 1)",
            alpha_lmr,
            alpha_lmr & below(pred, t.lmr_tier1),
        ),
        "alpha/lmr-tier2": (
            f"p < {t.lmr_tier2 / 10000:g} (alpha moves, depth >= 3, ordinal > 1)",
            alpha_lmr,
            alpha_lmr & below(pred, t.lmr_tier2),
        ),
        "beta/static-null": (
            f"p >= {t.static_null / 10000:g} (beta nodes, depth <= 7)",
            beta_node,
            beta_node & ~below(pred, t.static_null),
        ),
    }


def decision_stats(
    p: np.ndarray,
    y: np.ndarray,
    w: np.ndarray,
    rule: str,
    eligible: np.ndarray,
    flagged: np.ndarray,
) -> dict[str, object]:
    ew, fw = float(w[eligible].sum()), float(w[flagged].sum())
    out: dict[str, object] = {
        "rule": rule,
        "eligible_records": int(eligible.sum()),
        "eligible_weight": ew,
        "firing_rate": fw / ew if ew > 0 else None,
    }
    out["flagged"] = (
        _cell(p[flagged], y[flagged], w[flagged])
        if flagged.any()
        else {"records": 0, "weight": 0.0, "n_eff": 0.0}
    )
    return out


# ---- gates -----------------------------------------------------------------------------------


def _skip_reason(cell: dict[str, Any], tier: Tier) -> str:
    if cell["records"] == 0:
        return "no records"
    if cell["n_eff"] < tier.min_neff:
        return f"effective n {cell['n_eff']:.1f} < {tier.min_neff:g} (minimum for this tier)"
    return ""


def _mean_check(cell: dict[str, Any], tier: Tier) -> tuple[bool, str]:
    m, lo, hi = cell["mean_prediction"], cell["wilson_lo"], cell["wilson_hi"]
    dist = logit_distance(m, lo, hi)
    cell["logit_error"] = dist
    text = (
        f"mean prediction {m:.5f} vs realized {cell['realized_rate']:.5f} (Wilson 95% "
        f"[{lo:.5f}, {hi:.5f}]; log-odds distance {dist:.3f}, limit {tier.tolerance}; "
        f"n_eff {cell['n_eff']:.1f}, records {cell['records']})"
    )
    return dist <= tier.tolerance, text


def slice_case(name: str, cell: dict[str, Any], tier: Tier) -> TestCase:
    case = TestCase("calibration.slice", name)
    reason = _skip_reason(cell, tier)
    if reason:
        case.outcome, case.message = Outcome.SKIPPED, reason
        return case
    inside, text = _mean_check(cell, tier)
    ece = (
        f"ECE {cell['ece']:.5f} (beyond noise {cell['ece_beyond_noise']:.5f}), MCE "
        f"{cell['mce']:.5f}; log-odds ECE beyond noise {cell['logit_ece_beyond_noise']:.3f} "
        f"(limit {tier.tolerance})"
    )
    case.system_out = f"{ece}\n{text}\n"
    failures = []
    if cell["logit_ece_beyond_noise"] > tier.tolerance:
        failures.append(
            f"log-odds ECE beyond noise {cell['logit_ece_beyond_noise']:.3f} > {tier.tolerance}"
        )
    if not inside:
        failures.append(
            f"mean prediction {cell['mean_prediction']:.4f} outside realized "
            f"[{cell['wilson_lo']:.4f}, {cell['wilson_hi']:.4f}] by "
            f"{cell['logit_error']:.3f} log-odds > {tier.tolerance}"
        )
    if failures:
        case.outcome, case.message = Outcome.FAILED, "; ".join(failures)
        case.detail = case.system_out + "\n".join(
            f"decile {d['bin']}: predicted {d['mean_prediction']:.4f} realized "
            f"{d['realized_rate']:.4f} [{d['wilson_lo']:.4f}, {d['wilson_hi']:.4f}] n_eff "
            f"{d['n_eff']:.1f} log-odds error {d['logit_error']:.3f}"
            for d in cell["deciles"]
        )
    return case


def decision_case(name: str, d: dict[str, Any], tier: Tier) -> TestCase:
    case = TestCase("calibration.threshold", name)
    cell = d["flagged"]
    reason = _skip_reason(cell, tier)
    if reason:
        case.outcome, case.message = Outcome.SKIPPED, f"flagged population: {reason}"
        return case
    inside, text = _mean_check(cell, tier)
    case.system_out = f"{d['rule']}\n{text}\nfiring rate {d['firing_rate']:.5f}\n"
    if not inside:
        case.outcome = Outcome.FAILED
        case.message = (
            f"flagged: realized {cell['realized_rate']:.5f} vs mean prediction "
            f"{cell['mean_prediction']:.5f} ({cell['logit_error']:.3f} log-odds "
            f"beyond the Wilson interval > {tier.tolerance})"
        )
        case.detail = case.system_out
    return case


def recorded_case(records: np.ndarray, pred: np.ndarray) -> tuple[TestCase, dict[str, object]]:
    case = TestCase("calibration.records", "recorded-predictions")
    bad = np.flatnonzero(records["prediction"] != pred)
    first = [
        {
            "index": int(i),
            "position_id": int(records["position_id"][i]),
            "node_id": int(records["node_id"][i]),
            "recorded": int(records["prediction"][i]),
            "recomputed": int(pred[i]),
        }
        for i in bad[:20]
    ]
    if len(bad):
        case.outcome = Outcome.FAILED
        case.message = f"{len(bad)} of {len(records)} recorded predictions differ from the model"
        case.detail = "\n".join(str(x) for x in first)
    return case, {"checked": True, "mismatches": len(bad), "first": first}


# ---- reports ---------------------------------------------------------------------------------


def _fmt(v: object, spec: str = ".4f") -> str:
    return "n/a" if v is None else format(v, spec)


def plot(
    path: Path,
    by_slice: dict[str, dict[str, Any]],
    title: str,
    predictions: dict[str, tuple[np.ndarray, np.ndarray]] | None = None,
) -> Any:
    """Reliability diagram in log-odds (the decisions live at p ~ 1e-4..1e-2 and ~0.99, which a
    linear axis squeezes into its corners): each side's deciles with Wilson bars, and each depth
    band's deciles as a lighter line; ticks are labelled in probability. Beneath each, the
    histogram of that side's predictions (weighted records per log-odds bin), as scikit-learn's
    calibration display draws it: where the predictions are is where the diagram means something.
    Returns the (closed) figure, whose axes a test can read."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    lim = (-10.0, 8.0)
    ticks = [1e-4, 1e-3, 1e-2, 0.1, 0.5, 0.9, 0.99, 0.999]
    fig, grid = plt.subplots(
        2, 2, figsize=(12, 7.5), gridspec_kw={"height_ratios": [3, 1]}, sharex="col"
    )
    for ax, hist, side in zip(grid[0], grid[1], ("alpha", "beta"), strict=True):
        ax.plot(lim, lim, color="grey", lw=1, ls="--", label="perfect calibration")
        for band, _, _ in DEPTH_BANDS:
            dec = by_slice.get(f"{side}/{band}", {}).get("deciles", [])
            if dec:
                ax.plot(
                    [_logit(d["mean_prediction"]) for d in dec],
                    [_logit(d["realized_rate"]) for d in dec],
                    "-",
                    lw=1,
                    alpha=0.5,
                    label=f"{band}",
                )
        cell = by_slice[side]
        dec = cell.get("deciles", [])
        if dec:
            x = [_logit(d["mean_prediction"]) for d in dec]
            y = [_logit(d["realized_rate"]) for d in dec]
            err = [
                [max(yy - _logit(d["wilson_lo"]), 0) for yy, d in zip(y, dec, strict=True)],
                [max(_logit(d["wilson_hi"]) - yy, 0) for yy, d in zip(y, dec, strict=True)],
            ]
            ax.errorbar(
                x,
                y,
                yerr=err,
                fmt="o",
                color="black",
                capsize=3,
                label=f"{side} deciles (Wilson 95%)",
            )
        ax.set_xlim(*lim)
        ax.set_ylim(*lim)
        ax.set_yticks([_logit(t) for t in ticks], [f"{t:g}" for t in ticks], fontsize=7)
        ax.set_ylabel("realized fail-high rate (log-odds axis)")
        ax.set_title(
            f"{side}: {cell['records']} records, n_eff {cell.get('n_eff', 0):.0f}, "
            f"ECE {cell.get('ece', 0):.4f}"
        )
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7, loc="upper left")
        p, w = (predictions or {}).get(side, (np.zeros(0), np.zeros(0)))
        edges = np.linspace(*lim, 73)
        q = np.clip(np.asarray(p, float), LOGIT_EPS, 1 - LOGIT_EPS)
        clipped = np.clip(np.log(q / (1 - q)), lim[0], lim[1] - 1e-9)
        hist.hist(clipped, bins=edges, weights=w, color="#4a7ab5", label=f"{side} predictions")
        hist.set_yscale("log")
        hist.set_xlim(*lim)
        hist.set_xticks([_logit(t) for t in ticks], [f"{t:g}" for t in ticks], fontsize=7)
        hist.set_xlabel("predicted P(fail high) (log-odds axis)")
        hist.set_ylabel("records (weighted, log)")
        hist.grid(alpha=0.3)
        hist.legend(fontsize=7, loc="upper left")
    fig.suptitle(title)
    fig.tight_layout()
    write_figure(fig, path)
    plt.close(fig)
    return fig


def markdown(suite: TestSuite, s: dict[str, Any], tier_name: str, tier: Tier) -> str:
    lines = [
        f"# {suite.name}",
        "",
        f"Result: **{'PASS' if suite.all_passed() else 'FAIL'}**",
        "",
        f"Model `{s['model']['path']}`; {s['records']} held-out records, volume weight "
        f"{s['weight']:.0f}. Every statistic is weighted by the record weight (inverse "
        "sampling probability); Wilson 95% intervals use n_eff = (sum w)^2 / sum w^2.",
        "",
        f"## Gates (tier {tier_name})",
        "",
        "All gates are in log-odds: the search decides at p ~ 1e-4..1e-2 and p ~ 0.99, "
        "where an absolute probability tolerance would pass a model off by a factor of ten.",
        "",
        f"- Slice (side, and side x depth band): fails when the log-odds ECE beyond sampling "
        f"noise (weight-averaged log-odds distance from each decile's mean prediction to "
        f"that decile's Wilson interval) exceeds {tier.tolerance}, or when the slice's mean "
        f"prediction lies more than {tier.tolerance} log-odds outside its realized rate's "
        f"Wilson interval.",
        f"- Threshold: the flagged population's mean prediction must lie within "
        f"{tier.tolerance} log-odds of its realized rate's Wilson interval (never compared "
        "with the threshold).",
        f"- Skipped with the reason: slices and flagged populations with n_eff < "
        f"{tier.min_neff:g}. Tiers: quick tolerance 0.5 log-odds (odds within x1.65), min "
        "n_eff 200; full 0.35 (x1.42), min n_eff 500.",
        "",
        "## Slices",
        "",
        "| slice | records | weight | n_eff | mean pred | realized | Wilson 95% | ECE | "
        "ECE beyond noise | MCE | Brier | log-loss | AUC |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, c in s["slices"].items():
        if not c["records"]:
            lines.append(f"| {name} | 0 | | | | | | | | | | | |")
            continue
        lines.append(
            f"| {name} | {c['records']} | {c['weight']:.0f} | {c['n_eff']:.0f} | "
            f"{c['mean_prediction']:.4f} | {c['realized_rate']:.4f} | [{c['wilson_lo']:.4f}, "
            f"{c['wilson_hi']:.4f}] | {c['ece']:.4f} | {c['ece_beyond_noise']:.4f} | "
            f"{c['mce']:.4f} | {c['brier']:.4f} | {c['log_loss']:.4f} | {_fmt(c['auc'])} |"
        )
    for side in ("alpha", "beta"):
        lines += [
            "",
            f"### Deciles: {side}",
            "",
            "| decile | records | weight | n_eff | mean pred | realized | Wilson 95% |",
            "|---|---|---|---|---|---|---|",
        ]
        lines += [
            f"| {d['bin']} | {d['records']} | {d['weight']:.0f} | {d['n_eff']:.0f} | "
            f"{d['mean_prediction']:.4f} | {d['realized_rate']:.4f} | "
            f"[{d['wilson_lo']:.4f}, {d['wilson_hi']:.4f}] |"
            for d in s["slices"][side].get("deciles", [])
        ]
    lines += [
        "",
        "## Search decisions (flagged population vs its own mean prediction)",
        "",
        "| decision | rule | eligible weight | firing rate | flagged records | n_eff | "
        "mean pred | realized | Wilson 95% |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for name, d in s["decisions"].items():
        f = d["flagged"]
        cols = (
            f"{f['n_eff']:.0f} | {f['mean_prediction']:.5f} | {f['realized_rate']:.5f} | "
            f"[{f['wilson_lo']:.5f}, {f['wilson_hi']:.5f}]"
            if f["records"]
            else "0 | | |"
        )
        lines.append(
            f"| {name} | {d['rule']} | {d['eligible_weight']:.0f} | "
            f"{_fmt(d['firing_rate'], '.5f')} | {f['records']} | {cols} |"
        )
    rec = s["recorded_predictions"]
    lines += [
        "",
        "Recorded predictions: "
        + (
            f"{rec['mismatches']} mismatches"
            if rec["checked"]
            else "not checked (use --check-recorded)"
        ),
        "",
        "![reliability](reliability.png)",
        "",
        "## Testcases",
        "",
        "| check | outcome | message |",
        "|---|---|---|",
    ]
    lines += [
        f"| {c.classname} / {c.name} | {c.outcome.value} | {c.message} |" for c in suite.cases
    ]
    lines += ["", "## Inputs", ""] + [f"- {k}: `{v}`" for k, v in suite.properties]
    return "\n".join(lines) + "\n"


# ---- command line ----------------------------------------------------------------------------


_threshold = options.integer(0, 10000)  # 1/10000 units


def outputs(a: argparse.Namespace) -> list[Output]:
    files = ("reliability.png", "calibration.json", "calibration.md")
    return report_tree("--out-dir", Path(a.out_dir), files)


def build_parser() -> argparse.ArgumentParser:
    ap = ToolParser(
        prog="python -m stktrain.calibration",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        reports=lambda a: [(junit_path(a), f"calibration.{a.tier}")],
        outputs=outputs,
    )
    ap.add_argument(
        "--records",
        nargs="+",
        type=inputs.input_file(inputs.DATA_LIMIT),
        required=True,
        metavar="FILE",
        help="held-out .fhr files (concatenated)",
    )
    ap.add_argument("--model", type=inputs.input_file(), required=True, help="fhmodel text file")
    ap.add_argument("--out-dir", default="reports/calibration")
    ap.add_argument(
        "--junit", help="JUnit path (default <out-dir>/../junit/calibration-<tier>.xml)"
    )
    ap.add_argument("--tier", choices=sorted(TIERS), default="quick")
    # Defaults: the engine's UCI defaults (FHLmrTier1/2, FHStaticNull); a test holds them equal.
    ap.add_argument("--lmr-tier1", type=_threshold, default=20, help="1/10000 (default 20)")
    ap.add_argument("--lmr-tier2", type=_threshold, default=5, help="1/10000 (default 5)")
    ap.add_argument("--static-null", type=_threshold, default=9900, help="1/10000 (default 9900)")
    ap.add_argument(
        "--check-recorded",
        action="store_true",
        help="the records' prediction field must equal the model's, bit for bit",
    )
    ap.add_argument(
        "--tolerance",
        type=options.real(0.0, 100.0),
        help="override the tier's log-odds tolerance",
    )
    ap.add_argument(
        "--min-neff", type=options.real(0.0, 1e12), help="override the tier's minimum n_eff"
    )
    return ap


def run(args: argparse.Namespace) -> int:
    t0 = time.monotonic()
    tier = TIERS[args.tier]
    if args.tolerance is not None or args.min_neff is not None:
        tier = Tier(
            tier.tolerance if args.tolerance is None else args.tolerance,
            tier.min_neff if args.min_neff is None else args.min_neff,
        )
    model = read_model(args.model)
    records, _src = read_many(args.records)
    if len(records) == 0:
        raise InputError(f"{', '.join(map(str, args.records))}: no records")
    thresholds = Thresholds(args.lmr_tier1, args.lmr_tier2, args.static_null)
    pred = predict(model, records)
    p = pred.astype(np.float64) / 65536.0
    y = labels(records).astype(np.float64)
    w = records["weight"].astype(np.float64)

    suite = TestSuite(f"calibration.{args.tier}")
    suite.property("records", ";".join(os.path.abspath(f) for f in args.records))
    for i, f in enumerate(args.records, 1):
        suite.property(f"records_sha256.{i}", sha256_file(f, inputs.DATA_LIMIT))
    suite.property("model", os.path.abspath(args.model))
    suite.property("model_sha256", sha256_file(args.model))
    suite.property("tier", args.tier)
    suite.property("tolerance", tier.tolerance)
    suite.property("min_neff", tier.min_neff)
    for k in ("lmr_tier1", "lmr_tier2", "static_null"):
        suite.property(k, getattr(thresholds, k))
    suite.property("check_recorded", args.check_recorded)
    add_build_properties(suite)

    recorded: dict[str, object] = {"checked": False}
    if args.check_recorded:
        case, recorded = recorded_case(records, pred)
        suite.add(case)
    by_slice = {name: slice_stats(p[m], y[m], w[m]) for name, m in slices(records).items()}
    for name, cell in by_slice.items():
        if name != "all":
            suite.add(slice_case(name, cell, tier))
    by_decision = {
        name: decision_stats(p, y, w, rule, e, f)
        for name, (rule, e, f) in decisions(records, pred, thresholds).items()
    }
    for name, d in by_decision.items():
        suite.add(decision_case(name, d, tier))
    suite.time_s = time.monotonic() - t0

    out = Path(args.out_dir)
    summary = {
        "harness": "calibration",
        "tier": args.tier,
        "tolerance": tier.tolerance,
        "min_neff": tier.min_neff,
        "thresholds": vars(thresholds),
        "model": {"path": os.path.abspath(args.model), "sha256": sha256_file(args.model)},
        "record_files": [os.path.abspath(f) for f in args.records],
        "records": len(records),
        "weight": float(w.sum()),
        "recorded_predictions": recorded,
        "slices": by_slice,
        "decisions": by_decision,
        "passed": suite.all_passed(),
        "testcases": [
            {
                "classname": c.classname,
                "name": c.name,
                "outcome": c.outcome.value,
                "message": c.message,
            }
            for c in suite.cases
        ],
    }
    sides = slices(records)
    plot(
        out / "reliability.png",
        by_slice,
        f"{suite.name}: {len(records)} records",
        {side: (p[sides[side]], w[sides[side]]) for side in ("alpha", "beta")},
    )
    junit = junit_path(args)
    write_report(junit, [suite])
    write_summary(
        out / "calibration.json",
        summary,
        harness="calibration",
        config=args.tier,
        suites=[suite],
        junit=junit,
        plots=[out / "reliability.png"],
    )
    write_text_atomic(out / "calibration.md", markdown(suite, summary, args.tier, tier))

    print(
        f"records {len(records)} weight {w.sum():.0f} tier {args.tier} tolerance {tier.tolerance}"
    )
    for name in ("all", "alpha", "beta"):
        c = by_slice[name]
        if c["records"]:
            print(
                f"{name:<6} n {c['records']:>8} mean pred {c['mean_prediction']:.4f} realized "
                f"{c['realized_rate']:.4f} ECE {c['ece']:.4f} (beyond noise "
                f"{c['ece_beyond_noise']:.4f}) MCE {c['mce']:.4f} Brier {c['brier']:.4f} "
                f"log-loss {c['log_loss']:.4f} AUC {_fmt(c['auc'])}"
            )
    for name, d in by_decision.items():
        f = cast("dict[str, Any]", d["flagged"])
        rates = (
            f"mean pred {f['mean_prediction']:.5f} realized {f['realized_rate']:.5f}"
            if f["records"]
            else "nothing flagged"
        )
        print(
            f"{name}: firing rate {_fmt(d['firing_rate'], '.5f')}, flagged {f['records']}, {rates}"
        )
    if recorded["checked"]:
        print(f"recorded predictions: {recorded['mismatches']} mismatches")
    ok = suite.all_passed()
    print(
        "\n".join(
            [
                f"{c.classname}/{c.name}: {c.outcome.value}: {c.message}"
                for c in suite.cases
                if c.outcome != Outcome.PASSED
            ]
            + [f"junit {junit}", f"summary {out}", "PASS" if ok else "FAIL"]
        )
    )
    return 0 if ok else 1


def junit_path(args: argparse.Namespace) -> Path:
    return (
        Path(args.junit)
        if args.junit
        else Path(args.out_dir).parent / "junit" / f"calibration-{args.tier}.xml"
    )


def main(argv: Sequence[str] | None = None) -> int:
    return run(build_parser().parse_args(argv))


if __name__ == "__main__":
    sys.exit(run_tool(main))
