"""ci/make-measurements.py: docs/measurements.md from a synthetic reports directory."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
SCRIPT = REPO / "ci" / "make-measurements.py"


def summary(
    reports: Path, harness: str, config: str, figures: dict, revision: str, passed: bool = True
) -> None:
    d = reports / harness
    d.mkdir(parents=True, exist_ok=True)
    (reports / "junit").mkdir(exist_ok=True)
    (reports / "junit" / f"{harness}-{config}.xml").write_text(
        f'<testsuites><testsuite name="{harness}.{config}" tests="1"><properties>'
        f'<property name="git_revision" value="{revision}"/></properties>'
        f'<testcase classname="{harness}" name="x"/></testsuite></testsuites>'
    )
    envelope = {
        "schema": "stk-report/1",
        "harness": harness,
        "config": config,
        "junit": f"../junit/{harness}-{config}.xml",
        "tests": 1,
        "failures": 0 if passed else 1,
        "errors": 0,
        "skipped": 0,
        "passed": passed,
        "plots": [],
    }
    (d / f"{config}.json").write_text(json.dumps({"report": envelope, **figures}))
    os.utime(d / f"{config}.json", (1796083200, 1796083200))  # 2026-12-01 UTC


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True)


def test_table_per_harness_with_commit_and_date(tmp_path: Path):
    reports = tmp_path / "reports"
    summary(
        reports,
        "bench",
        "quick",
        {
            "depth": 13,
            "expected_nodes": 1595000,
            "nodes": 1595000,
            "passed": True,
            "nodes_per_second": 2100000,
        },
        "abc1234def",
    )
    summary(
        reports,
        "perft-speed",
        "default",
        {"nps_ratio": {"median": 1.5, "min": 1.25, "max": 1.87}},
        "abc1234def",
    )
    summary(
        reports,
        "drift",
        "h128-quick",
        {
            "abs_delta_cp": {"p99": 12.5, "max": 30.0},
            "int16_overflow_lanes": 0,
            "per_bucket": {"0": {"p99": 11.0}},
        },
        "abc1234def",
        passed=False,
    )
    summary(reports, "newthing", "q", {"widgets": 7, "label": "not a number"}, "fff0000")
    (reports / "epd").mkdir()
    (reports / "epd" / "positions.json").write_text('{"no": "envelope"}')  # ignored
    out = tmp_path / "measurements.md"
    r = run("--reports", str(reports), "--out", str(out))
    assert r.returncode == 0, r.stderr
    text = out.read_text()
    assert (
        "## bench" in text
        and "bench signature (nodes) 1,595,000" in text
        and "`abc1234def`" in text
    )
    assert "2026-12-01" in text
    assert "nodes/s ratio stk/reference (median) 1.5" in text and "lowest run 1.25" in text
    assert "\\|delta cp\\| p99 12.5" in text
    assert "bucket 0 p99 11" in text and "FAILED (1 tests, 1 failures, 0 errors)" in text
    assert "## newthing" in text and "widgets 7" in text and "not a number" not in text
    assert "positions.json" not in text
    assert run("--reports", str(reports), "--out", str(out), "--check").returncode == 0
    out.write_text(text.replace("1,595,000", "1,607,110"))
    r = run("--reports", str(reports), "--out", str(out), "--check")
    assert r.returncode == 1 and "+| quick" in r.stdout


def test_match_result_file_and_errors(tmp_path: Path):
    reports = tmp_path / "reports"
    (reports / "match").mkdir(parents=True)
    (reports / "match" / "premerge.json").write_text(
        json.dumps(
            {
                "kind": "stk-match-result",
                "version": 1,
                "definition": {"config": "premerge"},
                "counts": {"pairs": 300},
                "summary": {
                    "pentanomial_estimate": {"elo": -0.6, "elo_error": 22.0},
                    "sprt": {"llr": 0.01, "verdict": "continue"},
                },
                "pairs": [],
            }
        )
    )
    out = tmp_path / "m.md"
    r = run("--reports", str(reports), "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert (
        "## match" in out.read_text()
        and "Elo -0.6" in out.read_text()
        and "SPRT verdict continue" in out.read_text()
    )
    assert run("--reports", str(tmp_path / "empty-missing"), "--out", str(out)).returncode == 2
    (tmp_path / "none").mkdir()
    assert run("--reports", str(tmp_path / "none"), "--out", str(out)).returncode == 2
    (reports / "bench").mkdir()
    (reports / "bench" / "bad.json").write_text("{")
    r = run("--reports", str(reports), "--out", str(out))
    assert r.returncode != 0 and "bad.json" in r.stderr
