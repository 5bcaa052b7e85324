"""Independent model of the review page's verdict and *Steps* table (docs/review.md#verdict) for a
reports directory of JUnit files without JSON summaries, on generated outcomes: each file is one
step line, named `<harness>.<config>` from its first testsuite, its outcome by the documented
precedence, its figure "P of T testcases passed" counted from the testcases' children (as a CI
system counts them), a link to its JUnit file; failures first, then errors, then the rest in file
order; the first heading counts the steps that did not pass. The page is read as a file (it has no
script), so this runs without a browser."""

from __future__ import annotations

import html
import os
import re
import subprocess
import tempfile
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[3]
HARNESS = os.environ.get("STK_HARNESS") or str(ROOT / "build/release/harness/stk-harness")
pytestmark = pytest.mark.skipif(not Path(HARNESS).exists(), reason="stk-harness not built")

# Names of no harness (a harness's JUnit file without its summary is an input problem): the tests'
# own files and the like, whose figure is the testcase count.
HARNESSES = ["gen", "unit", "checks"]
OUTCOMES = ["passed", "failure", "error", "skipped"]
RANK = {"failure": 0, "error": 1}


@dataclass(frozen=True)
class StepFile:
    harness: str
    config: str
    outcomes: tuple[str, ...]

    def counts(self) -> dict[str, int]:
        return {o: self.outcomes.count(o) for o in OUTCOMES}

    def outcome(self) -> str:
        c = self.counts()
        if c["error"]:
            return "error"
        if c["failure"]:
            return "failure"
        if self.outcomes and c["skipped"] == len(self.outcomes):
            return "skipped"
        return "passed"

    def figure(self) -> str:
        return f"{self.counts()['passed']} of {len(self.outcomes)} testcases passed"


def write_junit(path: Path, f: StepFile) -> None:
    root = ET.Element("testsuites")
    suite = ET.SubElement(
        root, "testsuite", name=f"{f.harness}.{f.config}", tests=str(len(f.outcomes))
    )
    for i, outcome in enumerate(f.outcomes):
        tc = ET.SubElement(suite, "testcase", classname=f.harness, name=f"case {i}", time="0")
        if outcome != "passed":
            ET.SubElement(tc, outcome, message=f"case {i} {outcome}")
    path.parent.mkdir(parents=True, exist_ok=True)
    ET.ElementTree(root).write(path, encoding="utf-8", xml_declaration=True)


def step_rows(page: str) -> list[dict[str, str]]:
    rows = []
    for row in re.findall(r'<tr class="step [^"]*"[^>]*>(.*?)</tr>', page):
        cells = re.findall(r'<td class="([^"]*)">(.*?)</td>', row)
        by_class = {
            cls.split()[-1] if "outcome" not in cls else "outcome": text for cls, text in cells
        }
        rows.append(
            {
                "outcome": html.unescape(by_class["outcome"]),
                "name": html.unescape(cells[1][1]),
                "figure": html.unescape(by_class["decisive"]),
                "links": by_class["links"],
            }
        )
    return rows


def model_rows(files: list[tuple[str, StepFile]]) -> list[dict[str, str]]:
    ordered = sorted(files, key=lambda nf: nf[0])  # the directory's files by name
    ordered.sort(key=lambda nf: RANK.get(nf[1].outcome(), 3))  # stable: file order kept
    return [
        {"outcome": f.outcome(), "name": f"{f.harness}.{f.config}", "figure": f.figure(), "rel": n}
        for n, f in ordered
    ]


def model_headline(files: list[StepFile]) -> str:
    outcomes = [f.outcome() for f in files]
    n, skipped = len(outcomes), outcomes.count("skipped")
    if "failure" in outcomes or "error" in outcomes:
        word = "Failed" if "failure" in outcomes else "Error"
        return f"{word}: {n - outcomes.count('passed') - skipped} of {n} steps did not pass"
    return f"Passed: all {n - skipped} steps passed"


step_files = st.lists(
    st.builds(
        StepFile,
        harness=st.sampled_from(HARNESSES),
        config=st.sampled_from(["quick", "sd7", "x"]),
        outcomes=st.lists(st.sampled_from(OUTCOMES), max_size=6).map(tuple),
    ),
    min_size=1,
    max_size=4,
)


# MODEL review-step-lines
# checks: harness/src/commands/review/review_verdict.cpp  (each step line's outcome, figure and order; the verdict heading)
# contract: docs/review.md#verdict
# planted: ci/mutants/review-passed-adds-errors.patch  (errors added to the passed count)
@settings(max_examples=25, deadline=None)
@given(files=step_files)
def test_step_lines_and_verdict_follow_the_documented_rule(files: list[StepFile]) -> None:
    with tempfile.TemporaryDirectory() as d:
        reports = Path(d) / "reports"
        named = [(f"junit/gen-{i}.xml", f) for i, f in enumerate(files)]
        for rel, f in named:
            write_junit(reports / rel, f)
        page = reports / "index.html"
        r = subprocess.run(
            [HARNESS, "review", "--reports", str(reports), "--out", str(page)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert r.returncode == 0, r.stdout + r.stderr
        text = page.read_text()
    got = step_rows(text)
    want = model_rows(named)
    assert [{k: g[k] for k in ("outcome", "name", "figure")} for g in got] == [
        {k: w[k] for k in ("outcome", "name", "figure")} for w in want
    ]
    for g, w in zip(got, want, strict=True):
        assert f'href="{w["rel"]}"' in g["links"], (w["rel"], g["links"])
    heading = re.search(r'<h1 id="verdict"[^>]*>(.*?)</h1>', text)
    assert heading and html.unescape(heading[1]) == model_headline(files)
