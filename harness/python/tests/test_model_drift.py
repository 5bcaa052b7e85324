"""Independent model of stkref.drift's statistics and gates, written from docs/harnesses/drift.md."""

from __future__ import annotations

import math
import random
from pathlib import Path

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


FENS = [
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "8/5k2/8/2p5/8/8/1PP5/4K3 w - - 0 1",
    "3q2k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8",
]


def board_dict(fen: str) -> tuple[dict[int, tuple[int, int]], int]:
    import chess

    b = chess.Board(fen)
    pos = {s: (0 if p.color else 1, p.piece_type - 1) for s, p in b.piece_map().items()}
    return pos, 0 if b.turn else 1


# MODEL drift-run-gates
# checks: harness/python/stkref/drift.py  (a drift run's |delta| figures and its gates, end to end)
# contract: docs/harnesses/drift.md#the-figures-and-gates-exactly
# planted: ci/mutants/model-drift-run-gates.patch  (delta taken against the float PSQT-free positional part)
def test_drift_run_figures_and_gates_both_ways(tmp_path: Path) -> None:
    import json

    import numpy as np
    from test_model_checkpoint import model_float_eval
    from test_model_features import model_eval, model_features

    from stkref.checkpoint import generate_checkpoint, save_checkpoint
    from stkref.cli import run_tool
    from stkref.quantize import quantize_model

    ck = generate_checkpoint(128, 1)
    ck_path = tmp_path / "c.npz"
    save_checkpoint(ck, ck_path)
    qm = quantize_model(ck)
    deltas = []
    for fen in FENS:
        pos, stm = board_dict(fen)
        deltas.append(model_eval(qm, pos, stm) - model_float_eval(ck, pos, stm))
    want = model_stats(deltas)
    # clipped values: scaled, rounded half to even, outside the integer type (SPEC-NNUE.md)
    spec = {"ft.weight": (127, 16), "ft.bias": (127, 16), "psqt.weight": (16, 32)}
    clipped = 0
    for key, arr in ck.items():
        scale, bits = spec.get(key, (64, 8) if "weight" in key else (8128, 32))
        rows = arr[1:] if key in ("ft.weight", "psqt.weight") else arr  # row 0: padding
        q = np.rint(rows.astype(np.float64) * scale)
        clipped += int(np.count_nonzero((q < -(2 ** (bits - 1))) | (q > 2 ** (bits - 1) - 1)))
    assert clipped >= 1  # the generator plants one l1 weight beyond int8
    # int16 overflows: accumulator lanes whose true sum leaves int16, both perspectives
    overflows = 0
    for fen in FENS:
        pos, _ = board_dict(fen)
        for persp in (0, 1):
            rows64 = qm.ft_weight[model_features(pos, persp)].astype(np.int64)
            wide = qm.ft_bias.astype(np.int64) + rows64.sum(axis=0)
            overflows += int(np.count_nonzero((wide < -32768) | (wide > 32767)))
    epd = tmp_path / "p.epd"
    epd.write_text("\n".join(FENS) + "\n")

    def run(*gates: str) -> tuple[int, dict]:
        argv = ["--checkpoint", str(ck_path), "--epd", str(epd), "--random", "0", "--no-curated"]
        argv += ["--no-spec", "--reports-dir", str(tmp_path / "r"), *gates]
        rc = run_tool(lambda: drift.main(argv))
        return rc, json.loads((tmp_path / "r" / "drift" / "drift-default.json").read_text())

    p99 = round(want["p99"], 4)
    keep = ["--max-p99-cp", str(p99 + 1e-3), "--max-max-cp", str(want["max"] + 1e-3)]
    keep += ["--max-clipped", str(clipped), "--max-overflows", str(overflows)]
    rc, doc = run(*keep)
    assert rc == 0
    assert sum(doc["clipped"].values()) == clipped and doc["int16_overflow_lanes"] == overflows
    for k in ("mean", "median", "p95", "p99", "max"):
        assert doc["abs_delta_cp"][k] == pytest.approx(want[k], abs=1e-6), k
    buckets = {}
    for fen, dlt in zip(FENS, deltas, strict=True):
        buckets.setdefault(str(min((len(board_dict(fen)[0]) - 1) // 4, 7)), []).append(dlt)
    assert sorted(doc["per_bucket"]) == sorted(buckets)
    for b, ds in buckets.items():
        assert doc["per_bucket"][b]["max"] == pytest.approx(max(abs(x) for x in ds), abs=1e-6)
    brk = ["--max-p99-cp", str(p99 - 1e-3), "--max-clipped", str(clipped - 1)]
    brk += ["--max-overflows", str(max(overflows - 1, 0))]
    rc, doc = run(*brk)
    assert rc == 1
    want_failed = ["p99-abs-delta-cp", "clipped-values"]
    want_failed += ["int16-overflow-lanes"] if overflows else []
    failed = [c["name"] for c in doc["testcases"] if c["outcome"] == "failed"]
    assert sorted(failed) == sorted(want_failed)
    assert np.isfinite(doc["abs_delta_cp"]["signed_mean"])
