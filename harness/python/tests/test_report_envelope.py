"""The Python harnesses' summaries carry the same "report" envelope as the C++ writer
(docs/report-schema.md): counts equal to the JUnit file's, paths relative to the summary."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from stkref.junit import Outcome, TestCase, TestSuite, write_report
from stkref.report import SCHEMA, write_summary


def _suite() -> TestSuite:
    s = TestSuite("drift.quick")
    s.add(TestCase("drift.stats", "p99"))
    s.add(TestCase("drift.stats", "max", outcome=Outcome.FAILED, message="max 16 > 15"))
    s.add(TestCase("drift.engine", "engine", outcome=Outcome.SKIPPED, message="no engine"))
    return s


def test_envelope_counts_equal_the_junit_file(tmp_path: Path):
    suite = _suite()
    junit = write_report(tmp_path / "junit/drift-quick.xml", [suite])
    summary = tmp_path / "drift/drift-quick.json"
    write_summary(
        summary,
        {"positions": 10},
        harness="drift",
        config="quick",
        suites=[suite],
        junit=junit,
        plots=[tmp_path / "drift/drift-quick.png"],
    )
    doc = json.loads(summary.read_text())
    assert list(doc) == ["report", "positions"]
    env = doc["report"]
    ts = ET.parse(junit).getroot().find("testsuite")
    assert ts is not None
    for key in ("tests", "failures", "errors", "skipped"):
        assert env[key] == int(ts.get(key) or 0), key
    assert env == {
        "schema": SCHEMA,
        "harness": "drift",
        "config": "quick",
        "junit": "../junit/drift-quick.xml",
        "tests": 3,
        "failures": 1,
        "errors": 0,
        "skipped": 1,
        "passed": False,
        "plots": ["drift-quick.png"],
    }
    assert (summary.parent / env["junit"]).resolve() == junit.resolve()


def test_report_is_a_reserved_figure_name(tmp_path: Path):
    with pytest.raises(ValueError, match="reserved"):
        write_summary(
            tmp_path / "x.json",
            {"report": 1},
            harness="x",
            config="q",
            suites=[_suite()],
            junit=tmp_path / "x.xml",
        )
