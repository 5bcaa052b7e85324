"""docs/measurements.md's rows (stkdev.measurements, its contract in the module's docstring and
docs/build.md "Developer tools"), against a model on generated report folders: which files make
rows, each row's outcome, commit and date, the order of sections and rows, and the commits and
dates line. The figures themselves have their own model (test_model_stkdev.py)."""

from __future__ import annotations

import datetime as dt
import json
import os
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stkdev import measurements

DAY0 = 1796083200  # 2026-12-01 00:00 UTC


@st.composite
def summaries(draw: st.DrawFn) -> dict[str, Any]:
    kind = draw(st.sampled_from(["envelope", "envelope", "match", "bare"]))
    return {
        "kind": kind,
        "harness": draw(st.sampled_from(["bench", "epd", "newthing"])),
        "config": draw(st.sampled_from(["a", "b", "q-1", "z"])),
        "passed": draw(st.booleans()),
        "counts": draw(st.tuples(st.integers(0, 9), st.integers(0, 9), st.integers(0, 9))),
        # The JUnit file: absent, without git_revision, or with one.
        "junit_rev": draw(st.sampled_from([None, "", "abcdef0123456789", "1234567"])),
        "git_revision": draw(st.sampled_from([None, "feedbeef00112233"])),
        "revision": draw(st.sampled_from([None, "0badcafe"])),
        "seconds": draw(st.integers(0, 40 * 86400)),
    }


def write(reports: Path, i: int, s: dict[str, Any]) -> str:
    folder = reports / (s["harness"] if s["kind"] != "match" else "match")
    folder.mkdir(parents=True, exist_ok=True)
    name = f"f{i * 7 % 10}-{s['config']}"  # the file order is not the configs'
    doc: dict[str, Any] = {}
    if s["kind"] == "envelope":
        tests, failures, errors = s["counts"]
        doc["report"] = {
            "schema": "stk-report/1",
            "harness": s["harness"],
            "config": s["config"],
            "junit": f"../junit/{s['harness']}-{name}.xml",
            "tests": tests,
            "failures": failures,
            "errors": errors,
            "passed": s["passed"],
        }
        junit = reports / "junit" / f"{s['harness']}-{name}.xml"
    elif s["kind"] == "match":
        doc = {"kind": "stk-match-result", "definition": {"config": s["config"]}}
        junit = reports / "junit" / f"match-{name}.xml"
    else:
        doc = {"positions": [], "harness": s["harness"]}  # a baseline: no row
        junit = None
    if junit is not None and s["junit_rev"] is not None:
        junit.parent.mkdir(parents=True, exist_ok=True)
        prop = f'<property name="git_revision" value="{s["junit_rev"]}"/>'
        junit.write_text(
            f"<testsuites><testsuite><properties>{prop}</properties></testsuite></testsuites>"
        )
    for key in ("git_revision", "revision"):
        if s[key] is not None:
            doc[key] = s[key]
    path = folder / f"{name}.json"
    path.write_text(json.dumps(doc))
    os.utime(path, (DAY0 + s["seconds"], DAY0 + s["seconds"]))
    return path.relative_to(reports).as_posix()


def model_row(s: dict[str, Any], rel: str) -> dict[str, str] | None:
    if s["kind"] == "bare":
        return None
    if s["kind"] == "envelope":
        tests, failures, errors = s["counts"]
        outcome = f"{'passed' if s['passed'] else 'FAILED'} ({tests} tests, {failures} failures, {errors} errors)"
        harness = s["harness"]
    else:
        outcome, harness = "match result file", "match"
    revision = s["junit_rev"] or s["git_revision"] or s["revision"] or "?"
    date = dt.datetime.fromtimestamp(DAY0 + s["seconds"], dt.timezone.utc).strftime("%Y-%m-%d")
    return {
        "harness": harness,
        "config": s["config"],
        "file": rel,
        "outcome": outcome,
        "revision": revision[:12],
        "date": date,
    }


def page_rows(text: str) -> list[dict[str, str]]:
    """The rows of the page in its order: (harness of the section, config, outcome, commit,
    date, file)."""
    rows, harness = [], ""
    for line in text.splitlines():
        if line.startswith("## "):
            harness = line[3:]
        elif line.startswith("| ") and not line.startswith("| config"):
            cells = [c.strip() for c in line.strip("|").split(" | ")]
            rows.append(
                {
                    "harness": harness,
                    "config": cells[0],
                    "outcome": cells[1],
                    "revision": cells[3].strip("`"),
                    "date": cells[4],
                    "file": cells[5].strip("`"),
                }
            )
    return rows


# MODEL measurements-page-rows
# checks: harness/python/stkdev/measurements.py  (which files make rows; each row's outcome, commit, date; their order)
# contract: docs/build.md#developer-tools-stkdev-what-they-compute
# planted: ci/mutants/model-measurements-page-rows.patch  (the summary's own revision before the JUnit file's)
@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(summaries(), min_size=1, max_size=8))
def test_model_measurements_page_rows(tmp_path_factory, given_summaries) -> None:
    reports = tmp_path_factory.mktemp("reports")
    want = [r for i, s in enumerate(given_summaries) if (r := model_row(s, write(reports, i, s)))]
    out = reports.parent / f"{reports.name}.md"
    status = measurements.main(["--reports", str(reports), "--out", str(out)])
    if not want:
        assert status == 2 and not out.exists()
        return
    assert status == 0
    text = out.read_text()
    want.sort(key=lambda r: (r["harness"], r["config"], r["file"]))
    got = page_rows(text)
    assert [{k: r[k] for k in got[0]} for r in want] == got
    revs = sorted({r["revision"] for r in want})
    dates = sorted({r["date"] for r in want})
    line = f"Commits: {', '.join(f'`{r}`' for r in revs)}; dates: {dates[0]} to {dates[-1]}."
    assert line in text.splitlines()
    assert measurements.main(["--reports", str(reports), "--out", str(out), "--check"]) == 0
