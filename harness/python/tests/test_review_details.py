"""The review page shows a failing testcase's details whole (faults.md, "Reading"): a JUnit
<failure> may hold plain text and CDATA sections side by side (the C++ writer emits CDATA, other
tools text); the page once showed only the first part (tinyxml2's GetText). No browser needed:
the page's HTML is read as text. Runs when stk-harness is built (STK_HARNESS, else build/release)."""

from __future__ import annotations

import html
import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
HARNESS = os.environ.get("STK_HARNESS") or str(REPO / "build/release/harness/stk-harness")
pytestmark = pytest.mark.skipif(not Path(HARNESS).exists(), reason=f"{HARNESS} not built")

JUNIT = """<?xml version="1.0" encoding="UTF-8"?>
<testsuites>
  <testsuite name="demo.mixed" tests="1" failures="1" errors="0" skipped="0">
    <testcase classname="demo.mixed" name="mixed-detail" time="0.1">
      <failure message="mixed">first plain part &lt;a&gt; <![CDATA[then the CDATA part <b>]]> and a tail</failure>
    </testcase>
  </testsuite>
</testsuites>
"""


def test_failure_text_and_cdata_shown_whole(tmp_path: Path) -> None:
    reports = tmp_path / "reports"
    (reports / "junit").mkdir(parents=True)
    (reports / "junit" / "demo-mixed.xml").write_text(JUNIT)
    r = subprocess.run(
        [HARNESS, "review", "--reports", str(reports)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert r.returncode in (0, 1), r.stdout + r.stderr
    page = html.unescape((reports / "index.html").read_text())
    for part in ("first plain part <a>", "then the CDATA part <b>", "and a tail"):
        assert part in page, f"{part!r} missing from the page's failure details"
