"""Independent model of stkref.junit (counts and escaping), written from docs/reports.md."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given
from hypothesis import strategies as st

from stkref import junit
from stkref.junit import Outcome, TestCase, TestSuite

TAG = {Outcome.FAILED: "failure", Outcome.ERROR: "error", Outcome.SKIPPED: "skipped"}


@st.composite
def suites(draw: st.DrawFn) -> list[TestSuite]:
    out = []
    for si in range(draw(st.integers(1, 4))):
        s = TestSuite(f"h{si}.c")
        for ci, outcome in enumerate(draw(st.lists(st.sampled_from(list(Outcome)), max_size=12))):
            s.add(TestCase(f"h{si}.x", f"case{ci}", outcome, message=f"m{ci}"))
        out.append(s)
    return out


def model_counts(ss: list[TestSuite]) -> list[dict[str, int]]:
    return [
        {
            "tests": len(s.cases),
            "failures": sum(c.outcome is Outcome.FAILED for c in s.cases),
            "errors": sum(c.outcome is Outcome.ERROR for c in s.cases),
            "skipped": sum(c.outcome is Outcome.SKIPPED for c in s.cases),
        }
        for s in ss
    ]


def parsed_counts(xml: str) -> tuple[dict[str, int], list[dict[str, int]], list[dict[str, int]]]:
    """(root attributes, suite attributes, suite counts from the children)."""
    root = ET.fromstring(xml.encode())
    attrs = [{k: int(el.get(k)) for k in ("tests", "failures", "errors", "skipped")} for el in root]
    kids = []
    for el in root:
        cases = el.findall("testcase")
        kids.append(
            {
                "tests": len(cases),
                "failures": sum(c.find("failure") is not None for c in cases),
                "errors": sum(c.find("error") is not None for c in cases),
                "skipped": sum(c.find("skipped") is not None for c in cases),
            }
        )
    return {k: int(root.get(k)) for k in ("tests", "failures", "errors")}, attrs, kids


# MODEL junit-status-counts
# checks: harness/python/stkref/junit.py  (suite and root counts of tests, failures, errors, skipped)
# contract: docs/reports.md#exit-status-and-report-files
# planted: ci/mutants/model-junit-status-counts.patch  (the root's failures also count errors)
@given(suites())
def test_junit_counts_equal_model(ss: list[TestSuite]) -> None:
    root, attrs, kids = parsed_counts(junit.to_xml(ss))
    want = model_counts(ss)
    assert attrs == want
    assert kids == want
    assert root == {k: sum(w[k] for w in want) for k in ("tests", "failures", "errors")}
    for s, w in zip(ss, want, strict=True):
        assert s.all_passed() == (w["failures"] == 0 and w["errors"] == 0)


@given(suites(), st.randoms(use_true_random=False))
def test_junit_reordering_cases_changes_only_order(ss: list[TestSuite], rnd: random.Random) -> None:
    before = parsed_counts(junit.to_xml(ss))
    for s in ss:
        rnd.shuffle(s.cases)
    assert parsed_counts(junit.to_xml(ss)) == before


def model_escape(text: str) -> str:
    out = []
    for ch in text:
        cp = ord(ch)
        if cp in (9, 10, 13) or 0x20 <= cp <= 0xD7FF or 0xE000 <= cp <= 0xFFFD or cp >= 0x10000:
            out.append(ch)
        elif cp < 0x100:
            out.append("\\x%02X" % cp)  # noqa: UP031
        elif 0xDC80 <= cp <= 0xDCFF:
            out.append("\\x%02X" % (cp - 0xDC00))
        else:
            out.append("\\u%04X" % cp)  # noqa: UP031
    return "".join(out)


special = st.sampled_from(
    [chr(c) for c in (0, 1, 8, 11, 12, 0x1F, 0x7F, 0xD800, 0xDC80, 0xDCFF, 0xDFFF, 0xFFFE, 0xFFFF)]
)


# MODEL junit-xml-escaping
# checks: harness/python/stkref/junit.py  (any text made XML 1.0-safe, and the report still parses)
# contract: docs/reports.md#exit-status-and-report-files
# planted: ci/mutants/model-junit-xml-escaping.patch  (U+FFFE and U+FFFF let through)
@given(st.lists(st.one_of(st.characters(codec=None), special), max_size=30).map("".join))
def test_junit_escaping_equals_model(text: str) -> None:
    assert junit.xml_safe(text) == model_escape(text)
    s = TestSuite(text or "s")
    s.property(text, text)
    s.system_out = text
    s.add(TestCase("c", text or "n", Outcome.FAILED, message=text, detail=text, system_out=text))
    root = ET.fromstring(junit.to_xml([s]).encode())
    case = root.find("testsuite/testcase")
    assert case is not None
    assert case.find("failure").get("message") == model_escape(text)
    # A case's and a suite's output: written (escaped) when there is any, no element when none.
    for holder in (case, root.find("testsuite")):
        out = holder.findall("system-out")
        assert [o.text or "" for o in out] == ([model_escape(text)] if text else [])


# MODEL junit-unique-names
# checks: harness/python/stkref/junit.py  (a report is written only when every testcase name is unique in its class)
# contract: docs/reports.md#exit-status-and-report-files
# planted: ci/mutants/model-junit-unique-names.patch  (names compared without their class)
@given(
    st.lists(
        st.tuples(st.sampled_from(["a.x", "a.y", "b.x"]), st.sampled_from(["n1", "n2", "n3"])),
        min_size=1,
        max_size=6,
    ),
    st.integers(1, 3),
)
def test_report_refuses_exactly_the_repeated_names(
    tmp_path_factory: pytest.TempPathFactory, pairs: list[tuple[str, str]], split: int
) -> None:
    path = tmp_path_factory.mktemp("u") / "r.xml"
    # the cases spread over two suites: a repeat across suites is a repeat too
    s1 = TestSuite("h.c1", cases=[TestCase(c, n) for c, n in pairs[:split]])
    s2 = TestSuite("h.c2", cases=[TestCase(c, n) for c, n in pairs[split:]])
    repeated = len(set(pairs)) != len(pairs)
    if repeated:
        with pytest.raises(ValueError, match="appears twice"):
            junit.write_report(path, [s1, s2])
        assert not path.exists()
    else:
        junit.write_report(path, [s1, s2])
        assert parsed_counts(path.read_text())[0]["tests"] == len(pairs)
