"""Exit 2 (usage or input error) must not leave a previous run's passing report in place: every
tool that writes JUnit replaces its report by one whose testcase is an <error>."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import validate_junit

from stkref import drift, golden, parity
from stkref.cli import run_tool
from stktrain import calibration, netlint, netquality

STALE_PASS = (
    '<?xml version="1.0"?>\n<testsuites tests="1" failures="0" errors="0"><testsuite '
    'name="stale" tests="1" failures="0" errors="0"><testcase classname="stale.x" '
    'name="passed long ago"/></testsuite></testsuites>\n'
)


def _cases(tmp: Path) -> dict[str, tuple[Callable[[list[str]], int], list[str], Path]]:
    missing = str(tmp / "missing")
    reports = ["--config", "t", "--reports-dir", str(tmp)]
    return {
        "features": (
            parity.main,
            ["features", "--engine", missing, *reports],
            tmp / "junit/features-t.xml",
        ),
        "eval": (
            parity.main,
            ["eval", "--engine", missing, "--net", missing, *reports],
            tmp / "junit/eval-t.xml",
        ),
        "eval-negative-tolerance": (
            parity.main,
            ["eval", "--engine", "/bin/true", "--net", missing, "--tolerance-cp", "-1", *reports],
            tmp / "junit/eval-t.xml",
        ),
        "drift": (drift.main, ["--checkpoint", missing, *reports], tmp / "junit/drift-t.xml"),
        "netlint": (netlint.main, ["--net", missing, *reports], tmp / "junit/netlint-t.xml"),
        "netquality": (
            netquality.main,
            ["--net", missing, "--data", missing, "--engine", missing, *reports],
            tmp / "junit/netquality-t.xml",
        ),
        "golden": (
            golden.main,
            ["--check", missing, "--junit", str(tmp / "junit/golden-t.xml")],
            tmp / "junit/golden-t.xml",
        ),
        "calibration": (
            calibration.main,
            ["--records", missing, "--model", missing, "--out-dir", str(tmp / "calibration")],
            tmp / "junit/calibration-quick.xml",
        ),
    }


@pytest.mark.parametrize(
    "tool",
    [
        "features",
        "eval",
        "eval-negative-tolerance",
        "drift",
        "netlint",
        "netquality",
        "golden",
        "calibration",
    ],
)
def test_input_error_replaces_a_stale_report(tool: str, tmp_path: Path, junit_xsd: Path) -> None:
    main, argv, report = _cases(tmp_path)[tool]
    report.parent.mkdir(parents=True, exist_ok=True)
    report.write_text(STALE_PASS)
    assert run_tool(lambda: main(argv)) == 2
    xml = report.read_text()
    assert "passed long ago" not in xml
    assert "<error message=" in xml
    validate_junit(junit_xsd, report)


@pytest.mark.internal_error
def test_an_unexpected_exception_is_exit_2_with_an_error_report(tmp_path: Path) -> None:
    from stkref.junit import declare_report

    report = tmp_path / "junit" / "x-t.xml"
    report.parent.mkdir(parents=True)
    report.write_text(STALE_PASS)

    def crashes() -> int:
        declare_report(report, "x.t")
        raise RuntimeError("a bug in the tool")

    assert run_tool(crashes) == 2
    assert "a bug in the tool" in report.read_text()


def test_a_reader_that_stops_reading_is_a_failed_run(tmp_path: Path) -> None:
    # `python -m stkref.<tool> ... | head`: the output was not all read, so the run did not do
    # what it was asked (docs/faults.md "Python tools": exit 2 and an <error> report, never a
    # pass). Until the faults audit this was exit 1 with the report the run had written, which
    # a gate could read as a failed check of the tool's subject rather than a run that failed.
    from stkref.junit import TestSuite, declare_report, write_report

    report = tmp_path / "junit" / "x-t.xml"

    def piped() -> int:
        declare_report(report, "x.t")
        write_report(report, [TestSuite("x.t")])  # a pass, written before the pipe broke
        raise BrokenPipeError

    assert run_tool(piped) == 2
    assert "<error" in report.read_text()
