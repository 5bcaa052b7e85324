from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from conftest import validate_junit

from stkref.checkpoint import Checkpoint, generate_checkpoint, save_checkpoint
from stkref.cli import run_tool
from stkref.drift import abs_delta_stats
from stkref.drift import main as drift_main
from stkref.netfile import write as write_net
from stkref.quantize import quantize_model


@pytest.fixture(scope="module")
def ckpt_path(tmp_path_factory: pytest.TempPathFactory, ckpt128: Checkpoint) -> Path:
    path = tmp_path_factory.mktemp("drift") / "c.npz"
    save_checkpoint(ckpt128, path)
    return path


def drift(argv: list[str], monkeypatch: pytest.MonkeyPatch, defect: str = "") -> int:
    monkeypatch.setenv("FAKE_STK_DEFECT", defect)
    return run_tool(lambda: drift_main(argv))


def test_stats() -> None:
    s = abs_delta_stats([1.0, -3.0, 2.0, 0.0])
    assert s["count"] == 4 and s["mean"] == 1.5 and s["max"] == 3.0 and s["signed_mean"] == 0.0
    assert s["median"] == 1.5


def test_drift_report(
    tmp_path: Path, ckpt_path: Path, net128: Path, junit_xsd: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    args = [
        "--checkpoint",
        str(ckpt_path),
        "--net",
        str(net128),
        "--random",
        "40",
        "--seed",
        "9",
        "--reports-dir",
        str(tmp_path),
        "--max-p99-cp",
        "30",
        "--max-mean-cp",
        "10",
        "--max-overflows",
        "0",
    ]
    assert drift(args, monkeypatch) == 0
    summary = json.loads((tmp_path / "drift" / "drift-default.json").read_text())
    assert summary["seed"] == 9 and summary["positions"] == 1 + 31 + 40
    assert summary["clipped"]["l1.weight"] == 1
    assert summary["int16_overflow_lanes"] == 0
    assert set(summary["abs_delta_cp"]) >= {"mean", "median", "p95", "p99", "max"}
    assert summary["per_bucket"]
    assert (tmp_path / "drift" / "drift-default.png").stat().st_size > 1000
    assert "| bucket 7 |" in (tmp_path / "drift" / "drift-default.md").read_text()
    report = tmp_path / "junit" / "drift-default.xml"
    validate_junit(junit_xsd, report)
    names = {c.get("name") for c in ET.parse(report).getroot().iter("testcase")}
    assert {
        "net-matches-checkpoint",
        "statistics",
        "p99-abs-delta-cp",
        "mean-abs-delta-cp",
        "int16-overflow-lanes",
        "oracle-mirror-symmetry",
    } <= names
    # The report names the run (a reader reproduces it from them): what was given, "none" where
    # nothing was.
    props = {p.get("name"): p.get("value") for p in ET.parse(report).getroot().iter("property")}
    assert props["engine"] == "none" and props["engine_args"] == "none"
    assert props["net"] == str(net128.resolve()) and props["hidden"] == "128"
    assert props["max_p99_cp"] == "30.0" and props["max_overflows"] == "0"
    assert props["max_clipped"] == "none"
    # A threshold below the measured drift is a failed gate.
    assert drift(args + ["--max-max-cp", "0.01"], monkeypatch) == 1


def test_drift_detects_foreign_net(
    tmp_path: Path, ckpt_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    other = tmp_path / "other.nnue"
    write_net(quantize_model(generate_checkpoint(128, 2)), other)
    assert (
        drift(
            [
                "--checkpoint",
                str(ckpt_path),
                "--net",
                str(other),
                "--random",
                "5",
                "--no-curated",
                "--reports-dir",
                str(tmp_path),
            ],
            monkeypatch,
        )
        == 1
    )
    report = ET.parse(tmp_path / "junit" / "drift-default.xml").getroot()
    case = next(c for c in report.iter("testcase") if c.get("name") == "net-matches-checkpoint")
    assert case.find("failure") is not None


def test_drift_with_engine(
    tmp_path: Path, ckpt_path: Path, fake_engine: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    base = [
        "--checkpoint",
        str(ckpt_path),
        "--engine",
        str(fake_engine),
        "--random",
        "8",
        "--no-curated",
        "--reports-dir",
        str(tmp_path),
    ]
    assert drift(base, monkeypatch) == 0
    assert drift(base, monkeypatch, "eval-black-plus-one") == 1
    report = ET.parse(tmp_path / "junit" / "drift-default.xml").getroot()
    failed = {c.get("name") for c in report.iter("testcase") if c.find("failure") is not None}
    assert "engine-mirror-symmetry" in failed
    assert failed & {"engine-vs-oracle", "engine-vs-oracle-mirror"}


def test_drift_bad_checkpoint_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.npz"
    np.savez(bad, x=np.zeros(1))
    assert drift(["--checkpoint", str(bad), "--reports-dir", str(tmp_path)], monkeypatch) == 2
    assert "bad.npz" in capsys.readouterr().err
