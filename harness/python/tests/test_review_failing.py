"""The review page's failing testcases at the limits docs/review.md#failing-testcases states: the
first 20 of a JUnit file, then a count of the rest; an output cut after 4,000 characters, with a
pointer to the JUnit file. Each limit is met and broken by one (a case, a character)."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from test_review_page import run_review

CASES, CHARS = 20, 4000
MORE = "... (see the JUnit file)"


def junit_with_failures(outputs: list[str]) -> str:
    cases = "".join(
        f'<testcase classname="pytest.c" name="t{i}"><failure message="m{i}">{out}</failure>'
        "</testcase>"
        for i, out in enumerate(outputs)
    )
    n = len(outputs)
    return (
        f'<testsuites tests="{n}" failures="{n}"><testsuite name="pytest" tests="{n}" '
        f'failures="{n}">{cases}</testsuite></testsuites>'
    )


def shown_outputs(page: str) -> dict[str, str]:
    """Testcase name -> the output the page shows under it."""
    found = {}
    for name, block in re.findall(
        r"<h4>failure: pytest\.c / (t\d+) .*?</h4>(.*?)</div>", page, re.S
    ):
        pre = re.search(r"<pre>(.*?)</pre>", block, re.S)
        found[name] = html.unescape(pre.group(1)) if pre else ""
    return found


# MODEL review-failing-limits
# checks: harness/src/commands/review/review_page.cpp  (the failing testcases shown and their output)
# contract: docs/review.md#failing-testcases
# planted: ci/mutants/review-output-cut-one-late.patch  (an output cut after 4,001 characters)
@pytest.mark.parametrize("cases", [CASES, CASES + 1])
def test_outputs_and_cases_at_their_limits(tmp_path: Path, cases: int) -> None:
    # Outputs of exactly the limit, one past it, one under it: digits so no escaping intervenes.
    lengths = [CHARS, CHARS + 1, CHARS - 1] + [5] * (cases - 3)
    outputs = [(str(i % 10) * n) for i, n in enumerate(lengths)]
    reports = tmp_path / "reports"
    (reports / "junit").mkdir(parents=True)
    (reports / "junit/pytest.xml").write_text(junit_with_failures(outputs))
    assert run_review(reports).returncode == 0  # failing tests are shown, not an input problem
    page = (reports / "index.html").read_text()
    shown = shown_outputs(page)
    assert sorted(shown, key=lambda n: int(n[1:])) == [f"t{i}" for i in range(min(cases, CASES))]
    for i in range(min(cases, CASES)):
        full = outputs[i]
        want = full if len(full) <= CHARS else full[:CHARS] + "\n" + MORE
        assert shown[f"t{i}"] == want, (i, len(full), len(shown[f"t{i}"]))
    more = re.findall(r"\.\.\. and (\d+) more failing testcases in", page)
    assert more == ([str(cases - CASES)] if cases > CASES else []), more
