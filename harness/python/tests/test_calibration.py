from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from conftest import validate_junit

from stkref.cli import run_tool
from stkref.fhmodel import FEATURE_NAMES, Model, SideParams, write_model
from stkref.fhrecords import LABEL, WHOLE_NODE, make_records, write_records
from stkref.fhsynth import quantized_model, synthesize
from stktrain.calibration import (
    deciles,
    effective_n,
    weighted_auc,
    wilson,
)
from stktrain.calibration import (
    main as calibration_main,
)
from stktrain.fhfit import main as fhfit_main

# The synthetic sets were built for these thresholds (the engine defaults are lower).
SYNTH_THRESHOLDS = ["--lmr-tier1", "200", "--lmr-tier2", "50"]


def calibrate(argv: list[str]) -> int:
    return run_tool(lambda: calibration_main(argv))


def cases(junit: Path) -> dict[str, ET.Element]:
    root = ET.parse(junit).getroot()
    return {f"{c.get('classname')}/{c.get('name')}": c for c in root.iter("testcase")}


def outcome(case: ET.Element) -> str:
    for tag in ("failure", "error", "skipped"):
        if case.find(tag) is not None:
            return tag
    return "passed"


# ---- statistics --------------------------------------------------------------------------------


def test_wilson_and_effective_n() -> None:
    lo, hi = wilson(0.5, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    lo, hi = wilson(0.0, 200)
    assert lo == 0.0 and hi == pytest.approx(1.96**2 / (200 + 1.96**2), rel=1e-9)
    assert wilson(0.3, 0) == (0.0, 1.0)
    assert effective_n(np.array([1.0, 1.0, 1.0, 1.0])) == 4
    assert effective_n(np.array([4.0, 2.0, 1.0])) == pytest.approx(49 / 21)


def test_weighted_auc_by_hand() -> None:
    score = np.array([0.1, 0.4, 0.4, 0.8])
    y = np.array([0.0, 1.0, 0.0, 1.0])
    w = np.array([1.0, 2.0, 3.0, 1.0])
    # positives: 0.4 (w 2) beats 0.1 (w 1) and ties 0.4 (w 3); 0.8 (w 1) beats both negatives
    assert weighted_auc(score, y, w) == pytest.approx((2 * (1 + 1.5) + 1 * 4) / (3 * 4))
    assert weighted_auc(score, np.zeros(4), w) is None


def test_deciles_split_by_weight() -> None:
    p = np.linspace(0.01, 0.99, 100)
    w = np.where(np.arange(100) < 50, 1.0, 3.0)  # the upper half carries 3/4 of the weight
    y = (np.arange(100) % 2).astype(float)
    dec = deciles(p, y, w)
    assert [d["bin"] for d in dec] == list(range(10))
    assert sum(d["records"] for d in dec) == 100
    assert all(abs(d["weight"] - 20) <= 3 for d in dec)
    assert dec[0]["records"] > dec[9]["records"]


# ---- the planted defect ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def fitted(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("calibration")
    train, held = d / "train.fhr", d / "held.fhr"
    write_records(train, synthesize(np.random.default_rng(10), 40_000), seed=10)
    write_records(
        held, synthesize(np.random.default_rng(11), 40_000, stored_model=quantized_model()), seed=11
    )
    out = {
        "dir": d,
        "train": train,
        "held": held,
        "model": d / "m.txt",
        "shifted": d / "shifted.txt",
    }
    assert run_tool(lambda: fhfit_main(["--records", str(train), "--out", str(out["model"])])) == 0
    assert (
        run_tool(
            lambda: fhfit_main(
                ["--records", str(train), "--out", str(out["shifted"]), "--shift-intercept", "1.0"]
            )
        )
        == 0
    )
    return out


def test_fitted_model_passes_and_shifted_intercept_fails(
    fitted: dict[str, Path], tmp_path: Path
) -> None:
    good, bad = tmp_path / "good", tmp_path / "bad"
    base = SYNTH_THRESHOLDS + ["--records", str(fitted["held"]), "--tier", "quick"]
    assert calibrate(base + ["--model", str(fitted["model"]), "--out-dir", str(good)]) == 0
    summary = json.loads((good / "calibration.json").read_text())
    assert summary["passed"] and summary["tolerance"] == 0.5
    assert summary["slices"]["alpha"]["ece"] < 0.02
    got = cases(tmp_path / "junit" / "calibration-quick.xml")
    assert {
        "calibration.slice/alpha",
        "calibration.slice/beta/d7+",
        "calibration.threshold/alpha/lmr-tier1",
        "calibration.threshold/beta/static-null",
    } <= set(got)
    assert outcome(got["calibration.slice/alpha"]) == "passed"
    assert outcome(got["calibration.threshold/alpha/lmr-tier1"]) == "passed"
    assert (good / "reliability.png").stat().st_size > 10_000
    assert "quick tolerance 0.5 log-odds" in (good / "calibration.md").read_text()

    assert (
        calibrate(
            base
            + [
                "--model",
                str(fitted["shifted"]),
                "--out-dir",
                str(bad),
                "--junit",
                str(tmp_path / "bad.xml"),
            ]
        )
        == 1
    )
    got = cases(tmp_path / "bad.xml")
    for name in ("slice/alpha", "slice/beta", "slice/alpha/d5-6", "slice/beta/d7+"):
        assert outcome(got[f"calibration.{name}"]) == "failure", name
    assert "log-odds" in got["calibration.slice/alpha"].find("failure").get("message")
    summary = json.loads((bad / "calibration.json").read_text())
    alpha = summary["slices"]["alpha"]
    assert not summary["passed"] and alpha["mean_prediction"] > alpha["wilson_hi"] + 0.05


def test_full_tier_and_junit_schema(
    fitted: dict[str, Path], tmp_path: Path, junit_xsd: Path
) -> None:
    junit = tmp_path / "full.xml"
    rc = calibrate(
        SYNTH_THRESHOLDS
        + [
            "--records",
            str(fitted["held"]),
            "--model",
            str(fitted["model"]),
            "--tier",
            "full",
            "--out-dir",
            str(tmp_path),
            "--junit",
            str(junit),
        ]
    )
    validate_junit(junit_xsd, junit)
    got = cases(junit)
    assert rc == (1 if any(outcome(c) == "failure" for c in got.values()) else 0)
    skipped = [c.find("skipped").get("message") for c in got.values() if outcome(c) == "skipped"]
    assert all("< 500" in m for m in skipped)  # the full tier's minimum, stated
    assert outcome(got["calibration.slice/alpha"]) == "passed"


def test_check_recorded(fitted: dict[str, Path], tmp_path: Path) -> None:
    true_model, shifted = tmp_path / "true.txt", tmp_path / "shifted.txt"
    write_model(true_model, quantized_model())
    write_model(shifted, quantized_model(intercept_shift=0.01))
    base = [
        "--records",
        str(fitted["held"]),
        "--check-recorded",
        "--out-dir",
        str(tmp_path / "cal"),
    ]
    assert calibrate(base + ["--model", str(true_model)]) == 0
    junit = tmp_path / "junit" / "calibration-quick.xml"
    assert outcome(cases(junit)["calibration.records/recorded-predictions"]) == "passed"
    assert calibrate(base + ["--model", str(shifted)]) == 1
    case = cases(junit)["calibration.records/recorded-predictions"]
    assert outcome(case) == "failure" and "recorded predictions differ" in case.find("failure").get(
        "message"
    )
    rec = json.loads((tmp_path / "cal" / "calibration.json").read_text())["recorded_predictions"]
    assert rec["mismatches"] > 0 and len(rec["first"]) == 20


# ---- a hand-built flagged population -----------------------------------------------------------


def _stairs_model() -> Model:
    """z = lg(gap + 1): gap 0 -> idx 1024, 1 -> 1280, 3 -> 1536, 7 -> 1792; the LUT is a
    staircase so every gap maps to one known prediction."""
    w = tuple(256 if n == "gap_lg" else 0 for n in FEATURE_NAMES)
    lut = [200] * 1280 + [1000] * 256 + [30000] * 256 + [65500] * 256
    return Model(8, SideParams(0, w), SideParams(0, w), tuple(lut))


HAND = [  # side, whole, depth, ordinal, gap, weight, label
    (0, 0, 3, 2, 0, 4, 1),  # A: p 200/65536 < 0.5%: tier 1 and tier 2
    (0, 0, 9, 5, 0, 2, 0),  # B: same prediction
    (0, 0, 4, 3, 1, 1, 0),  # C: p 1000/65536: tier 1 only
    (0, 0, 3, 2, 3, 3, 1),  # D: p 30000/65536: eligible, not flagged
    (0, 0, 2, 2, 0, 5, 1),  # E: depth 2: not eligible
    (0, 0, 6, 1, 0, 7, 1),  # F: ordinal 1: not eligible
    (0, 1, 5, 0, 0, 9, 1),  # G: alpha whole node: not eligible
    (1, 1, 7, 0, 7, 2, 1),  # H: p 65500/65536 >= 99%: static null
    (1, 1, 5, 0, 7, 1, 1),  # I: same
    (1, 1, 8, 0, 7, 3, 0),  # J: depth 8: not eligible
    (1, 1, 3, 0, 3, 4, 1),  # K: eligible, not flagged
]


def test_flagged_population_by_hand(tmp_path: Path) -> None:
    r = make_records(len(HAND))
    for i, (side, whole, depth, ordinal, gap, weight, label) in enumerate(HAND):
        r[i]["side"], r[i]["depth"], r[i]["ordinal"], r[i]["gap"] = side, depth, ordinal, gap
        r[i]["weight"], r[i]["legal"], r[i]["tier"] = weight, 30, 0 if whole else 3
        r[i]["flags"] = (WHOLE_NODE if whole else 0) | (LABEL if label else 0)
    path, model = tmp_path / "hand.fhr", tmp_path / "stairs.txt"
    write_records(path, r)
    write_model(model, _stairs_model())
    out = tmp_path / "out"
    assert (
        calibrate(
            SYNTH_THRESHOLDS
            + ["--records", str(path), "--model", str(model), "--out-dir", str(out)]
        )
        == 0
    )
    d = json.loads((out / "calibration.json").read_text())["decisions"]
    t1, t2, sn = d["alpha/lmr-tier1"], d["alpha/lmr-tier2"], d["beta/static-null"]
    assert t1["eligible_weight"] == 10 and t1["firing_rate"] == pytest.approx(0.7)
    f = t1["flagged"]
    assert f["records"] == 3 and f["weight"] == 7
    assert f["realized_rate"] == pytest.approx(4 / 7)
    assert f["mean_prediction"] == pytest.approx((4 * 200 + 2 * 200 + 1000) / 7 / 65536)
    assert f["n_eff"] == pytest.approx(49 / 21)
    assert (f["wilson_lo"], f["wilson_hi"]) == pytest.approx(wilson(4 / 7, 49 / 21))
    assert t2["firing_rate"] == pytest.approx(0.6)
    assert t2["flagged"]["realized_rate"] == pytest.approx(4 / 6)
    assert t2["flagged"]["mean_prediction"] == pytest.approx(200 / 65536)
    assert sn["eligible_weight"] == 7 and sn["firing_rate"] == pytest.approx(3 / 7)
    assert sn["flagged"]["realized_rate"] == 1.0
    assert sn["flagged"]["mean_prediction"] == pytest.approx(65500 / 65536)
    # Too few records for the quick tier: every gate is skipped with its reason, not dropped.
    got = cases(tmp_path / "junit" / "calibration-quick.xml")
    assert len(got) == 10 + 3 and all(outcome(c) == "skipped" for c in got.values())
    assert "effective n 2.3 < 200" in got["calibration.threshold/alpha/lmr-tier1"].find(
        "skipped"
    ).get("message")
    assert got["calibration.slice/beta/d1-2"].find("skipped").get("message") == "no records"
    # With the minimum lifted, tier 1 fails: 57% realized against a 0.5% mean prediction,
    # while the static null passes (mean 99.9% inside the Wilson interval of 3/3, n_eff 1.8).
    junit = tmp_path / "lifted.xml"
    assert (
        calibrate(
            SYNTH_THRESHOLDS
            + [
                "--records",
                str(path),
                "--model",
                str(model),
                "--out-dir",
                str(out),
                "--min-neff",
                "1",
                "--junit",
                str(junit),
            ]
        )
        == 1
    )
    got = cases(junit)
    assert outcome(got["calibration.threshold/alpha/lmr-tier1"]) == "failure"
    assert outcome(got["calibration.threshold/beta/static-null"]) == "passed"


def test_thresholds_move_the_flagged_population(tmp_path: Path) -> None:
    r = make_records(1)
    r["depth"], r["ordinal"], r["tier"], r["weight"], r["legal"] = 3, 2, 3, 1, 30
    path, model = tmp_path / "one.fhr", tmp_path / "stairs.txt"
    write_records(path, r)
    write_model(model, _stairs_model())
    firing = []
    for t1 in ("0", "30", "31", "10000"):  # p = 200/65536 = 0.00305...: flagged from T1 = 31
        out = tmp_path / t1
        calibrate(
            [
                "--records",
                str(path),
                "--model",
                str(model),
                "--out-dir",
                str(out),
                "--lmr-tier1",
                t1,
            ]
        )
        firing.append(
            json.loads((out / "calibration.json").read_text())["decisions"]["alpha/lmr-tier1"][
                "firing_rate"
            ]
        )
    assert firing == [0.0, 0.0, 1.0, 1.0]


def test_bad_inputs_exit_2(
    fitted: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad_model = tmp_path / "bad.txt"
    bad_model.write_text(fitted["model"].read_text().replace("shift 18", "shift 3"))
    assert (
        calibrate(
            SYNTH_THRESHOLDS
            + [
                "--records",
                str(fitted["held"]),
                "--model",
                str(bad_model),
                "--out-dir",
                str(tmp_path / "o"),
            ]
        )
        == 2
    )
    err = capsys.readouterr().err
    assert f"{bad_model}:" in err and "shift" in err
    bad_records = tmp_path / "bad.fhr"
    bad_records.write_bytes(fitted["held"].read_bytes()[:1000])
    assert (
        calibrate(
            [
                "--records",
                str(bad_records),
                "--model",
                str(fitted["model"]),
                "--out-dir",
                str(tmp_path / "o"),
            ]
        )
        == 2
    )
    assert "bad.fhr" in capsys.readouterr().err
    # A usage error is an exception run_tool ends with exit 2 (and an error report).
    argv = ["--records", str(fitted["held"]), "--model", str(fitted["model"])]
    argv += ["--out-dir", str(tmp_path / "usage")]
    assert run_tool(lambda: calibration_main([*argv, "--lmr-tier1", "10001"])) == 2
    assert "--lmr-tier1: 10001 is outside [0, 10000]" in capsys.readouterr().err
    assert "<error" in (tmp_path / "junit" / "calibration-quick.xml").read_text()


def test_each_record_file_is_named_with_its_own_digest(
    fitted: dict[str, Path], tmp_path: Path
) -> None:
    """docs/reports.md: `records_sha256.I` is the digest of the I-th `--records` file (from 1), so
    a reader can tell which shard of the data a run judged (two files here, in a drawn order)."""
    from report_contract import digest_problems

    junit = tmp_path / "two.xml"
    files = [fitted["held"], fitted["train"]]
    calibrate(
        SYNTH_THRESHOLDS
        + ["--records", *map(str, files), "--model", str(fitted["model"])]
        + ["--tier", "quick", "--out-dir", str(tmp_path), "--junit", str(junit)]
    )
    props = {p.get("name"): p.get("value") for p in ET.parse(junit).getroot().iter("property")}
    assert [k for k in props if k.startswith("records_sha256")] == [
        "records_sha256.1",
        "records_sha256.2",
    ]
    assert digest_problems(junit) == []
