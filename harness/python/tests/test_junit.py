from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from conftest import validate_junit
from stkref.junit import Outcome, TestCase, TestSuite, add_build_properties, format_time, write_report


def test_all_outcomes_validate(tmp_path: Path, junit_xsd: Path) -> None:
    s = TestSuite("features.unit")
    s.property("engine", "/bin/stk")
    add_build_properties(s)
    s.add(TestCase("features.spec", "ok", time_s=0.25, system_out="positions 1\n"))
    s.add(TestCase("features.curated", "bad <&> \"quoted\"", Outcome.FAILED, "short",
                   "details\x01 with a control char"))
    s.add(TestCase("features.random", "err", Outcome.ERROR, "engine failed", "exit 3"))
    s.add(TestCase("features.epd", "skip", Outcome.SKIPPED, "no file given"))
    s.system_out = "suite log"
    path = write_report(tmp_path / "junit" / "x.xml", [s, TestSuite("empty.suite")])
    validate_junit(junit_xsd, path)
    root = ET.parse(path).getroot()
    assert root.tag == "testsuites" and root.get("tests") == "4"
    suite = root.find("testsuite")
    assert suite is not None
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors"),
            suite.get("skipped")) == ("4", "1", "1", "1")
    cases = suite.findall("testcase")
    assert cases[1].find("failure") is not None and cases[1].get("name") == 'bad <&> "quoted"'
    assert cases[2].find("error") is not None and cases[3].find("skipped") is not None
    assert all(c.find("properties") is None for c in cases)
    assert not s.all_passed()


def test_time_format() -> None:
    assert format_time(1e-7) == "0.000" and format_time(12.3456) == "12.346"
    assert format_time(-1) == "0.000"
