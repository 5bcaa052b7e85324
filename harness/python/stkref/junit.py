"""JUnit XML writer shared by every Python tool (HARNESS.md "JUnit conventions").

Output validates against the strict schema in shared/schemas/junit.xsd: a testsuite carries
name/tests/failures/errors; a testcase holds only skipped/error/failure/system-out/system-err,
so case-level facts go to system-out lines (no properties on a testcase).
"""

from __future__ import annotations

import os
import platform
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

from . import __version__


class Outcome(Enum):
    PASSED = "passed"
    FAILED = "failed"
    ERROR = "error"
    SKIPPED = "skipped"


@dataclass
class TestCase:
    classname: str  # "<harness>.<suite>"
    name: str  # position id or check name
    outcome: Outcome = Outcome.PASSED
    message: str = ""  # short reason (failure/error/skipped)
    detail: str = ""  # element text: expected vs actual, decoded indices, ...
    time_s: float = 0.0
    system_out: str = ""

    __test__ = False  # not a pytest test class


@dataclass
class TestSuite:
    name: str  # "<harness>.<config>"
    properties: list[tuple[str, str]] = field(default_factory=list)
    cases: list[TestCase] = field(default_factory=list)
    system_out: str = ""
    time_s: float = 0.0

    __test__ = False

    def property(self, key: str, value: object) -> None:
        self.properties.append((key, str(value)))

    def add(self, case: TestCase) -> TestCase:
        self.cases.append(case)
        return case

    def count(self, outcome: Outcome) -> int:
        return sum(1 for c in self.cases if c.outcome == outcome)

    def all_passed(self) -> bool:
        return self.count(Outcome.FAILED) == 0 and self.count(Outcome.ERROR) == 0


def format_time(seconds: float) -> str:
    """SUREFIRE_TIME: plain decimal, never an exponent."""
    return f"{max(seconds, 0.0):.3f}"


def _clean(text: str) -> str:
    """Drops characters XML 1.0 cannot carry (engine output may contain anything)."""
    return "".join(ch for ch in text if ch in "\t\n\r" or ord(ch) >= 0x20)


def to_element(suites: list[TestSuite]) -> ET.Element:
    root = ET.Element("testsuites")
    totals = {"tests": 0, "failures": 0, "errors": 0}
    total_time = 0.0
    for s in suites:
        el = ET.SubElement(root, "testsuite", {
            "name": s.name, "tests": str(len(s.cases)),
            "failures": str(s.count(Outcome.FAILED)), "errors": str(s.count(Outcome.ERROR)),
            "skipped": str(s.count(Outcome.SKIPPED)), "time": format_time(s.time_s)})
        totals["tests"] += len(s.cases)
        totals["failures"] += s.count(Outcome.FAILED)
        totals["errors"] += s.count(Outcome.ERROR)
        total_time += s.time_s
        props = ET.SubElement(el, "properties")
        for k, v in s.properties:
            ET.SubElement(props, "property", {"name": _clean(k), "value": _clean(v)})
        for c in s.cases:
            ce = ET.SubElement(el, "testcase", {"classname": c.classname, "name": _clean(c.name),
                                                "time": format_time(c.time_s)})
            if c.outcome != Outcome.PASSED:
                tag = {Outcome.FAILED: "failure", Outcome.ERROR: "error",
                       Outcome.SKIPPED: "skipped"}[c.outcome]
                oe = ET.SubElement(ce, tag, {"message": _clean(c.message)})
                oe.text = _clean(c.detail) or None
            if c.system_out:
                ET.SubElement(ce, "system-out").text = _clean(c.system_out)
        if s.system_out:
            ET.SubElement(el, "system-out").text = _clean(s.system_out)
    root.set("tests", str(totals["tests"]))
    root.set("failures", str(totals["failures"]))
    root.set("errors", str(totals["errors"]))
    root.set("time", format_time(total_time))
    return root


def to_xml(suites: list[TestSuite]) -> str:
    root = to_element(suites)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def write_report(path: str | os.PathLike[str], suites: list[TestSuite]) -> Path:
    """Writes atomically (temporary file + rename); parent directories are created."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=target.name + ".", suffix=".tmp", dir=target.parent)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(to_xml(suites))
    os.chmod(tmp, 0o644)  # mkstemp creates 0600; reports are meant to be read
    os.replace(tmp, target)
    return target


def git_revision() -> str:
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=Path(__file__).parent,
                             capture_output=True, text=True, timeout=10)
        rev = out.stdout.strip()
        if out.returncode != 0 or not rev:
            return "unknown"
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                               cwd=Path(__file__).parent, capture_output=True, text=True,
                               timeout=10).stdout.strip()
        return rev + ("-dirty" if dirty else "")
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def add_build_properties(suite: TestSuite) -> None:
    """Git revision, harness version and the reference's own environment, in that order."""
    import chess
    import numpy

    suite.property("git_revision", git_revision())
    suite.property("harness_version", f"stkref {__version__}")
    suite.property("python", platform.python_version())
    suite.property("python_chess", chess.__version__)
    suite.property("numpy", numpy.__version__)
    suite.property("platform", f"{platform.system()} {platform.machine()}")
    suite.property("command", " ".join([Path(sys.argv[0]).name, *sys.argv[1:]]))
