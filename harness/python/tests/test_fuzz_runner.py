"""ci/fuzz.py against fake libFuzzer binaries: a crashing target must fail its JUnit testcase with the
crash file's path and leave a regression copy; a clean target must pass with its execution count."""

from __future__ import annotations

import argparse
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from conftest import validate_junit

ROOT = Path(__file__).resolve().parents[3]

# Prints what libFuzzer prints; with CRASH set, writes an artifact and reports an ASan error.
FAKE = """#!/usr/bin/env bash
prefix=""
for a in "$@"; do case "$a" in -artifact_prefix=*) prefix="${a#-artifact_prefix=}";; esac; done
echo "#2 INITED cov: 100 ft: 120 corp: 7/300b exec/s: 0 rss: 30Mb"
if [ -n "${CRASH:-}" ]; then
  printf 'bad' > "${prefix}crash-0123abcd"
  echo "==42==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x1"
  echo "artifact_prefix='$prefix'; Test unit written to ${prefix}crash-0123abcd"
  exit 1
fi
echo "#5000 DONE cov: 150 ft: 200 corp: 9/400b exec/s: 5000 rss: 31Mb"
echo "Done 5000 runs in 1 second(s)"
echo "stat::number_of_executed_units: 5000"
"""


def run_fuzz(tmp: Path, crash: bool) -> tuple[int, Path]:
    bins = tmp / "bin"
    bins.mkdir(exist_ok=True)
    for t in ("fen", "epd"):
        f = bins / f"fuzz_{t}"
        f.write_text(FAKE.replace("${CRASH:-}", "1" if crash and t == "fen" else ""))
        f.chmod(0o755)
    p = subprocess.run(
        [
            sys.executable,
            str(ROOT / "ci" / "fuzz.py"),
            "1",
            "--targets",
            "fen,epd",
            "--no-ecm",
            "--bin-dir",
            str(bins),
            "--work-dir",
            str(tmp / "run"),
            "--regressions",
            str(tmp / "reg"),
            "--out-dir",
            str(tmp / "reports"),
            "--config",
            "test",
        ],
        capture_output=True,
        text=True,
    )
    return p.returncode, tmp / "reports" / "junit" / "fuzz-test.xml"


def test_crash_fails_its_target_and_becomes_a_regression_input(
    tmp_path: Path, junit_xsd: Path
) -> None:
    code, report = run_fuzz(tmp_path, crash=True)
    assert code == 1
    validate_junit(junit_xsd, report)
    cases = {c.get("name"): c for c in ET.parse(report).getroot().iter("testcase")}
    failure = cases["fen"].find("failure")
    assert failure is not None and "heap-buffer-overflow" in failure.get("message", "")
    assert f"crash file: {tmp_path}/run/fen/artifacts/crash-0123abcd" in (failure.text or "")
    assert (tmp_path / "reg" / "fen" / "crash-0123abcd").read_text() == "bad"
    assert cases["epd"].find("failure") is None and "executions 5000" in cases["epd"].findtext(
        "system-out", ""
    )


def test_clean_run_passes(tmp_path: Path, junit_xsd: Path) -> None:
    code, report = run_fuzz(tmp_path, crash=False)
    assert code == 0
    validate_junit(junit_xsd, report)
    root = ET.parse(report).getroot()
    assert root.get("tests") == "2" and root.get("failures") == "0"
    assert not (tmp_path / "reg").exists()


def _fake_binary(tmp: Path) -> Path:
    bins = tmp / "bin"
    bins.mkdir(exist_ok=True)
    (bins / "fuzz_fen").write_text(FAKE)
    (bins / "fuzz_fen").chmod(0o755)
    return bins


@pytest.mark.parametrize("seconds", [1, 60, 300])
def test_a_target_past_twice_its_seconds_plus_120_is_an_error(tmp_path, monkeypatch, seconds):
    """docs/fuzzing.md#verdict: no answer within twice SECONDS plus 120 s is an error, the limit
    named; the fuzzer is given exactly that limit (a target is never cut short before it)."""
    from stkdev import fuzz_runner

    limits = []

    def hangs(cmd, **kw):
        limits.append(kw["timeout"])
        raise subprocess.TimeoutExpired(cmd, kw["timeout"], output="#2 INITED cov: 1")

    monkeypatch.setattr(fuzz_runner.subprocess, "run", hangs)
    a = argparse.Namespace(
        bin_dir=str(_fake_binary(tmp_path)),
        work_dir=str(tmp_path / "run"),
        regressions=str(tmp_path / "reg"),
        seed=1,
        seconds=seconds,
    )
    r = fuzz_runner.run_target("fen", a, None)
    assert limits == [2 * seconds + 120]
    assert r.error == f"no answer after {2 * seconds + 120} s (libFuzzer ignored -max_total_time)"


def test_the_ecm_seeds_of_a_target_are_given_to_it(tmp_path: Path):
    """docs/fuzzing.md: a target's seeds are its corpus folder, the ECM lines written for it at
    run time and its regressions; an empty or missing folder is left out."""
    from stkdev import fuzz_runner

    ecm, reg = tmp_path / "ecm", tmp_path / "reg"
    (ecm / "fen").mkdir(parents=True)
    (ecm / "fen" / "line-1").write_text("8/8/8/8/8/8/8/K1k5 w - -\n")
    (ecm / "epd").mkdir()
    (reg / "fen").mkdir(parents=True)
    got = fuzz_runner.seed_dirs("fen", reg, ecm)
    assert ecm / "fen" in got and reg / "fen" not in got
    assert ecm / "epd" not in fuzz_runner.seed_dirs("epd", reg, ecm)
    assert all(d.name == "fen" for d in got)
