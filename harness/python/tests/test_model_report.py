"""Independent model of stkref.report's JSON envelope (docs/report-schema.md "The JSON
envelope"): key order, counts equal to the JUnit file's own, paths relative to the summary."""

from __future__ import annotations

import json
import os
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_model_junit import suites

from stkref import report
from stkref.junit import TestSuite, write_report

KEYS = ["schema", "harness", "config", "junit", "tests", "failures", "errors", "skipped"]
KEYS += ["passed", "plots"]


def junit_counts(path: Path) -> dict[str, int]:
    root = ET.parse(path).getroot()
    cases = list(root.iter("testcase"))
    return {
        "tests": len(cases),
        "failures": sum(c.find("failure") is not None for c in cases),
        "errors": sum(c.find("error") is not None for c in cases),
        "skipped": sum(c.find("skipped") is not None for c in cases),
    }


# MODEL report-envelope
# checks: harness/python/stkref/report.py  (the summary's "report" envelope: keys, counts, paths)
# contract: docs/report-schema.md#the-json-envelope-schema-stk-report1
# planted: ci/mutants/model-report-envelope.patch  (paths made relative to the summary file, not its folder)
@settings(max_examples=30)
@given(
    ss=suites(),
    layout=st.sampled_from(
        [("junit/h-c.xml", "h/c.json"), ("a/b/j.xml", "a/s.json"), ("j.xml", "x/y/z.json")]
    ),
    plots=st.lists(st.sampled_from(["h/c.png", "p/q.svg", "c.png"]), max_size=2, unique=True),
)
def test_envelope_equals_model(
    tmp_path_factory: pytest.TempPathFactory,
    ss: list[TestSuite],
    layout: tuple[str, str],
    plots: list[str],
) -> None:
    d = tmp_path_factory.mktemp("rep")
    junit, summary = d / layout[0], d / layout[1]
    names = {(s.name) for s in ss}
    if len(names) != len(ss):
        return
    write_report(junit, ss)
    report.write_summary(
        summary,
        {"figure": 1, "other": [1, 2]},
        harness="h",
        config="c",
        suites=ss,
        junit=junit,
        plots=[d / p for p in plots],
    )
    doc = json.loads(summary.read_text())
    assert list(doc) == ["report", "figure", "other"]
    env = doc["report"]
    assert list(env) == KEYS
    counts = junit_counts(junit)
    assert {k: env[k] for k in counts} == counts
    assert env["passed"] == (counts["failures"] == 0 and counts["errors"] == 0)
    assert (env["schema"], env["harness"], env["config"]) == ("stk-report/1", "h", "c")
    assert (summary.parent / env["junit"]).resolve() == junit.resolve()
    assert [(summary.parent / p).resolve() for p in env["plots"]] == [
        (d / p).resolve() for p in plots
    ]
    assert not os.path.isabs(env["junit"])


def test_report_key_is_reserved(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="reserved"):
        report.write_summary(
            tmp_path / "s.json",
            {"report": 1},
            harness="h",
            config="c",
            suites=[],
            junit=tmp_path / "j.xml",
        )


# MODEL report-gated-exit-status
# checks: harness/python/stkref/report.py  (a gated tool's exit status and files from its gates)
# contract: docs/reports.md#exit-status-and-report-files
# planted: ci/mutants/model-report-gated-exit-status.patch  (a failed gate keeps its case passed when it has a message)
@settings(max_examples=30)
@given(gates=st.lists(st.tuples(st.booleans(), st.text("ab ", max_size=5)), max_size=5))
def test_gated_reports_equal_model(
    tmp_path_factory: pytest.TempPathFactory, gates: list[tuple[bool, str]]
) -> None:
    import argparse

    d = tmp_path_factory.mktemp("g")
    checks = [(f"gate{i}", ok, why) for i, (ok, why) in enumerate(gates)]
    suite = TestSuite("t.c", cases=report.gate_testcases("t.gates", checks))
    args = argparse.Namespace(config="c", reports_dir=str(d), junit=None)
    rc = report.write_gated_reports(args, "t", suite, {"n": len(gates)}, "# t\n")
    failed = sum(1 for ok, _ in gates if not ok)
    assert rc == (0 if failed == 0 else 1)
    counts = junit_counts(d / "junit" / "t-c.xml")
    assert counts == {"tests": len(gates), "failures": failed, "errors": 0, "skipped": 0}
    doc = json.loads((d / "t" / "c.json").read_text())
    assert doc["report"]["passed"] == (failed == 0) and doc["n"] == len(gates)
    assert (d / "t" / "c.md").read_text() == "# t\n"
