from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import validate_junit

from stkref.junit import (
    Outcome,
    TestCase,
    TestSuite,
    add_build_properties,
    duplicate_testcase,
    format_time,
    to_xml,
    unnamed_entry,
    write_report,
    xml_safe,
)


def test_all_outcomes_validate(tmp_path: Path, junit_xsd: Path) -> None:
    s = TestSuite("features.unit", time_s=0.5)
    s.property("engine", "/bin/stk")
    add_build_properties(s)
    s.add(TestCase("features.spec", "ok", time_s=0.25, system_out="positions 1\n"))
    s.add(
        TestCase(
            "features.curated",
            'bad <&> "quoted"',
            Outcome.FAILED,
            "short",
            "details\x01 with a control char",
        )
    )
    s.add(TestCase("features.random", "err", Outcome.ERROR, "engine failed", "exit 3"))
    s.add(TestCase("features.epd", "skip", Outcome.SKIPPED, "no file given"))
    s.system_out = "suite log"
    path = write_report(tmp_path / "junit" / "x.xml", [s, TestSuite("empty.suite")])
    validate_junit(junit_xsd, path)
    root = ET.parse(path).getroot()
    assert root.tag == "testsuites" and root.get("tests") == "4"
    suite = root.find("testsuite")
    assert suite is not None
    assert (
        suite.get("tests"),
        suite.get("failures"),
        suite.get("errors"),
        suite.get("skipped"),
    ) == ("4", "1", "1", "1")
    cases = suite.findall("testcase")
    assert cases[1].find("failure") is not None and cases[1].get("name") == 'bad <&> "quoted"'
    assert cases[2].find("error") is not None and cases[3].find("skipped") is not None
    assert all(c.find("properties") is None for c in cases)
    assert not s.all_passed()


def test_time_format() -> None:
    assert format_time(1e-7) == "0.000" and format_time(12.3456) == "12.346"
    assert format_time(-1) == "0.000"


# Strings the writer must survive: random code points, surrogates (lone, and the
# surrogateescape form of undecodable bytes), U+FFFE/U+FFFF, controls, markup characters.
_TRICKY = [
    "\ud800",
    "\udcff",
    "\udc80",
    "\ufffe",
    "\uffff",
    "\x00",
    "\x1b[31m",
    "\r\n",
    "]]>",
    "&",
    "<",
    '"',
    "'",
    "\U0001d11e",
    "é",
    "\t",
]


def _random_text(rng: random.Random) -> str:
    parts = []
    for _ in range(rng.randrange(0, 12)):
        kind = rng.randrange(3)
        if kind == 0:
            parts.append(rng.choice(_TRICKY))
        elif kind == 1:
            parts.append(chr(rng.randrange(0, 0x110000)))
        else:
            parts.append(bytes([rng.randrange(256)]).decode("utf-8", errors="surrogateescape"))
    return "".join(parts)


def _random_suites(rng: random.Random, text: Callable[[], str]) -> list[TestSuite]:
    suites, serial = [], 0
    for _ in range(rng.randrange(1, 4)):
        # Names are never empty (the writer refuses one): a fixed first letter, then any text.
        s = TestSuite("s" + text(), system_out=text(), time_s=rng.randrange(100000) / 1000)
        for _ in range(rng.randrange(4)):
            s.property("p" + text(), text())
        for _ in range(rng.randrange(12)):
            s.add(
                TestCase(
                    "c" + text(),
                    f"{serial}:{text()}",
                    rng.choice(list(Outcome)),
                    text(),
                    text(),
                    system_out=text(),
                )
            )
            serial += 1
        suites.append(s)
    return suites


def test_random_text_in_every_field_parses_and_validates(tmp_path: Path, junit_xsd: Path) -> None:
    rng = random.Random(20261130)  # fixed seed: the same 200 reports every run
    for i in range(200):
        suites = _random_suites(rng, lambda: _random_text(rng))
        path = write_report(tmp_path / f"r{i}.xml", suites)
        ET.parse(path)  # well-formed (expat is strict about characters)
        if i % 10 == 0:
            validate_junit(junit_xsd, path, measured=False)  # random times


def test_xml_safe_keeps_valid_text_and_escapes_the_rest() -> None:
    valid = 'plain <&> "q" é \U0001d11e \ufffd\t\n'
    assert xml_safe(valid) == valid
    assert xml_safe("a\x01b") == "a\\x01b"
    assert xml_safe("\ufffe\uffff") == "\\uFFFE\\uFFFF"
    assert (
        xml_safe(b"\xff".decode("utf-8", errors="surrogateescape")) == "\\xFF"
    )  # an undecodable byte
    assert xml_safe("\ud800") == "\\uD800"


def test_totals_are_the_sums_of_the_testcases() -> None:
    rng = random.Random(7)
    for _ in range(200):
        root = ET.fromstring(to_xml(_random_suites(rng, lambda: "t")))
        sums = {"tests": 0, "failures": 0, "errors": 0}
        for s in root.findall("testsuite"):
            cases = s.findall("testcase")
            counts = {
                "tests": len(cases),
                "failures": sum(c.find("failure") is not None for c in cases),
                "errors": sum(c.find("error") is not None for c in cases),
                "skipped": sum(c.find("skipped") is not None for c in cases),
            }
            assert {k: int(s.get(k, -1)) for k in counts} == counts
            for k in sums:
                sums[k] += counts[k]
        # The schema allows no 'skipped' on <testsuites>: the suites carry it.
        assert {k: int(root.get(k, -1)) for k in sums} == sums
        # The root's time is its suites' together (each attribute rounds to the millisecond).
        suites = root.findall("testsuite")
        seconds = sum(float(s.get("time", "nan")) for s in suites)
        assert abs(float(root.get("time", "nan")) - seconds) <= 0.0005 * (len(suites) + 1)


def test_writer_refuses_a_name_repeated_in_its_class(tmp_path: Path) -> None:
    s = TestSuite("demo.dup")
    s.add(TestCase("demo.a", "line 3"))
    s.add(TestCase("demo.b", "line 3"))
    assert duplicate_testcase([s]) is None
    s.add(TestCase("demo.a", "line 3", Outcome.FAILED))
    assert duplicate_testcase([s]) == "testcase 'line 3' appears twice in class 'demo.a'"
    with pytest.raises(ValueError, match="appears twice"):
        write_report(tmp_path / "d.xml", [s])
    assert not (tmp_path / "d.xml").exists()


def test_writers_refuse_an_entry_with_no_name(tmp_path: Path) -> None:
    """Each kind of name emptied alone is refused naming the path; nothing is written. The
    summary's figures are held alike at any depth (a key lost as "": a writer's slip)."""
    from stkref.report import write_summary

    def good() -> TestSuite:
        s = TestSuite("demo.named")
        s.properties.append(("depth", "7"))
        s.add(TestCase("demo.a", "case 1"))
        return s

    assert unnamed_entry([good()]) is None
    write_report(tmp_path / "good.xml", [good()])
    emptied = []
    for why in ("a testsuite has no name", "property", "no class", "no name"):
        s = good()
        if why.startswith("a testsuite"):
            s.name = ""
        elif why == "property":
            s.properties[0] = ("", "7")
        elif why == "no class":
            s.cases[0].classname = ""
        else:
            s.cases[0].name = ""
        emptied.append((why, s))
    for why, s in emptied:
        with pytest.raises(ValueError, match=why) as e:
            write_report(tmp_path / "bad.xml", [s])
        assert str(tmp_path / "bad.xml") in str(e.value)
        assert not (tmp_path / "bad.xml").exists()

    kw = {"harness": "demo", "config": "named", "suites": [good()], "junit": tmp_path / "good.xml"}
    write_summary(tmp_path / "good.json", {"a": {"b": [1, {"c": 2}]}, "d": 3}, **kw)
    for figures in ({"": 1}, {"a": {"": 1}}, {"a": [0, {"": 1}]}):
        with pytest.raises(ValueError, match="a figure with no name under"):
            write_summary(tmp_path / "bad.json", figures, **kw)
        assert not (tmp_path / "bad.json").exists()
