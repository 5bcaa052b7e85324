"""JUnit XML writer shared by every Python tool (HARNESS.md "JUnit conventions").

Output validates against the strict schema in shared/schemas/junit.xsd: a testsuite carries
name/tests/failures/errors; a testcase holds only skipped/error/failure/system-out/system-err,
so case-level facts go to system-out lines (no properties on a testcase).
"""

from __future__ import annotations

import contextlib
import os
import platform
import subprocess
import sys
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

from . import __version__
from .errors import InputError
from .inputs import read_input_bytes
from .outputs import write_bytes_atomic as write_bytes_atomic  # the one checked writer
from .outputs import write_text_atomic as write_text_atomic


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


def _xml_char(cp: int) -> bool:
    """XML 1.0's Char production."""
    return (
        cp in (0x9, 0xA, 0xD)
        or 0x20 <= cp <= 0xD7FF
        or 0xE000 <= cp <= 0xFFFD
        or 0x10000 <= cp <= 0x10FFFF
    )


def xml_safe(text: str) -> str:
    """Text as XML 1.0 can carry it (engine output may contain anything), like the C++ writer.

    Characters XML allows pass unchanged; a control character becomes "\\xNN", an undecodable
    byte kept by errors="surrogateescape" (U+DC80..U+DCFF) "\\xNN" of that byte, and any other
    surrogate or U+FFFE/U+FFFF "\\uXXXX".
    """
    if all(_xml_char(ord(ch)) for ch in text):
        return text
    out = []
    for ch in text:
        cp = ord(ch)
        if _xml_char(cp):
            out.append(ch)
        elif cp < 0x100:
            out.append(f"\\x{cp:02X}")
        elif 0xDC80 <= cp <= 0xDCFF:
            out.append(f"\\x{cp - 0xDC00:02X}")
        else:
            out.append(f"\\u{cp:04X}")
    return "".join(out)


def duplicate_testcase(suites: list[TestSuite]) -> str | None:
    """None when every testcase name is unique within its classname, else which repeats."""
    seen: set[tuple[str, str]] = set()
    for s in suites:
        for c in s.cases:
            if (c.classname, c.name) in seen:
                return f"testcase '{c.name}' appears twice in class '{c.classname}'"
            seen.add((c.classname, c.name))
    return None


def unnamed_entry(suites: list[TestSuite]) -> str | None:
    """None when every suite, testcase (class and name) and property has a name, else which has
    none (a writer's slip: a property that lost its key, a case with no name)."""
    for s in suites:
        if not s.name:
            return "a testsuite has no name"
        if any(not k for k, _ in s.properties):
            return f"testsuite '{s.name}' has a property with no name"
        if any(not c.classname or not c.name for c in s.cases):
            return f"testsuite '{s.name}' has a testcase with no class or no name"
    return None


def to_element(suites: list[TestSuite]) -> ET.Element:
    root = ET.Element("testsuites")
    totals = {"tests": 0, "failures": 0, "errors": 0}
    total_time = 0.0
    for s in suites:
        el = ET.SubElement(
            root,
            "testsuite",
            {
                "name": xml_safe(s.name),
                "tests": str(len(s.cases)),
                "failures": str(s.count(Outcome.FAILED)),
                "errors": str(s.count(Outcome.ERROR)),
                "skipped": str(s.count(Outcome.SKIPPED)),
                "time": format_time(s.time_s),
            },
        )
        totals["tests"] += len(s.cases)
        totals["failures"] += s.count(Outcome.FAILED)
        totals["errors"] += s.count(Outcome.ERROR)
        total_time += s.time_s
        props = ET.SubElement(el, "properties")
        for k, v in s.properties:
            ET.SubElement(props, "property", {"name": xml_safe(k), "value": xml_safe(v)})
        for c in s.cases:
            ce = ET.SubElement(
                el,
                "testcase",
                {
                    "classname": xml_safe(c.classname),
                    "name": xml_safe(c.name),
                    "time": format_time(c.time_s),
                },
            )
            if c.outcome != Outcome.PASSED:
                tag = {
                    Outcome.FAILED: "failure",
                    Outcome.ERROR: "error",
                    Outcome.SKIPPED: "skipped",
                }[c.outcome]
                oe = ET.SubElement(ce, tag, {"message": xml_safe(c.message)})
                oe.text = xml_safe(c.detail) or None
            if c.system_out:
                ET.SubElement(ce, "system-out").text = xml_safe(c.system_out)
        if s.system_out:
            ET.SubElement(el, "system-out").text = xml_safe(s.system_out)
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
    """Writes atomically (temporary file + rename); parent directories are created.

    Raises ValueError (naming the path) for a testcase name repeated in its class, or an entry
    with no name (unnamed_entry).
    """
    target = Path(path)
    for why in (duplicate_testcase(suites), unnamed_entry(suites)):
        if why is not None:
            raise ValueError(f"{target}: {why}")
    write_text_atomic(target, to_xml(suites))
    return target


# Reports this run owes (declare_report): written as an <error> report if the run fails.
_declared: list[tuple[Path, str]] = []


def junit_in(out_dir: str | os.PathLike[str], harness: str, config: str) -> tuple[Path, str]:
    """The JUnit report of `harness` and `config` under a reports folder, and its suite name."""
    return Path(out_dir) / "junit" / f"{harness}-{config}.xml", f"{harness}.{config}"


def declare_report(path: str | os.PathLike[str], suite_name: str) -> None:
    """Declares a report this run owes, as soon as its path is known (before inputs are checked).

    Any previous file there (or a link: never its target) is removed at once, and
    write_error_reports (called by cli.run_tool when the run fails: exit 2) replaces it by a
    report whose one testcase is an <error>, so a failed run never leaves an old passing report
    behind. `suite_name` is "<harness>.<config>". The C++ harnesses do the same
    (common/cli declare_report).
    """
    target = Path(path)
    try:
        target.unlink(missing_ok=True)
    except OSError as e:
        raise InputError(f"{target}: cannot remove the earlier report: {e.strerror}") from e
    _declared.append((target, suite_name))


def forget_declared_reports() -> None:
    """A run that ended well owes nothing (the next run in this process declares its own)."""
    _declared.clear()


def error_suite(suite_name: str, why: str) -> TestSuite:
    suite = TestSuite(suite_name)
    suite.property("exit_status", 2)
    with contextlib.suppress(Exception):  # the report matters more than its build properties
        add_build_properties(suite)
    suite.add(
        TestCase(
            suite_name.split(".")[0] + ".input",
            "inputs",
            Outcome.ERROR,
            "usage or input error: the tool did not run",
            why,
        )
    )
    return suite


def says_error(path: Path) -> bool:
    """A JUnit file with an <error> element: a report of a run that failed."""
    try:
        return ET.fromstring(read_input_bytes(path)).find(".//error") is not None
    except (InputError, ET.ParseError):
        return False


def write_error_reports(why: str, keep_errors: bool = False) -> list[tuple[Path, str]]:
    """Writes the <error> report to every declared path (and forgets them). Returns (path, "")
    for each report written and (path, reason) for each that could not be (a full disk): that
    path is left without a file, never with a report this run wrote before it failed. With
    `keep_errors`, a report the tool wrote that already holds an <error> stays as it is."""
    done = []
    while _declared:
        path, suite_name = _declared.pop(0)
        if keep_errors and says_error(path):
            continue
        try:
            write_report(path, [error_suite(suite_name, why)])
            done.append((path, ""))
        except (OSError, ValueError) as e:
            with contextlib.suppress(OSError):
                path.unlink(missing_ok=True)
            done.append((path, getattr(e, "strerror", None) or str(e)))
    return done


def git_revision() -> str:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"],
            cwd=Path(__file__).parent,
            capture_output=True,
            text=True,
            timeout=10,
        )
        rev = out.stdout.strip()
        if out.returncode != 0 or not rev:
            return "unknown"
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=Path(__file__).parent,
            capture_output=True,
            text=True,
            timeout=10,
        ).stdout.strip()
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
