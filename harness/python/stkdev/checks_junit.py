"""Writes the JUnit report of a shell script's checks (ci/nnue-build.sh).

    python -m stkdev.checks_junit --suite NAME --out FILE RESULTS

RESULTS holds one line per check, three fields separated by tabs: the outcome (`pass`, `fail` or
`error`), the check's name and a message (the figures it compared). The report has one testsuite
NAME with one testcase per line, in order, class `NAME`: a `fail` line is a <failure>, an `error`
line an <error> (the check could not run), both carrying the message; a passed testcase carries
it as system-out. An empty file is an error too: a script that checked nothing did not pass.

Exit 0 when the report is written, whatever the checks' outcomes (the script has its own status);
exit 2 naming the file and line for a line of any other form or a name given twice (the report is
then an <error> report saying so, like every tool's: stkref.cli.run_tool), or when the report
cannot be written.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from stkref import inputs
from stkref.cli import ToolParser, run_tool
from stkref.errors import InputError
from stkref.inputs import read_input_text
from stkref.junit import Outcome, TestCase, TestSuite, write_report

OUTCOMES = {"pass": Outcome.PASSED, "fail": Outcome.FAILED, "error": Outcome.ERROR}


def parse_checks(path: str, text: str) -> list[tuple[Outcome, str, str]]:
    """The checks of RESULTS; InputError naming `path:line` for a malformed or repeated one."""
    checks: list[tuple[Outcome, str, str]] = []
    seen: set[str] = set()
    for number, line in enumerate(text.splitlines(), 1):
        fields = line.split("\t")
        if len(fields) != 3 or fields[0] not in OUTCOMES or not fields[1].strip():
            raise InputError(
                f"{path}:{number}: expected 'pass|fail|error<TAB>name<TAB>message', got {line!r}"
            )
        if fields[1] in seen:
            raise InputError(f"{path}:{number}: check {fields[1]!r} given twice")
        seen.add(fields[1])
        checks.append((OUTCOMES[fields[0]], fields[1], fields[2]))
    if not checks:
        raise InputError(f"{path}: no checks: a script that checked nothing did not pass")
    return checks


def suite_of(name: str, checks: Sequence[tuple[Outcome, str, str]]) -> TestSuite:
    suite = TestSuite(name=name)
    for outcome, check, message in checks:
        passed = outcome is Outcome.PASSED
        suite.add(
            TestCase(
                classname=name,
                name=check,
                outcome=outcome,
                message="" if passed else message,
                system_out=message if passed else "",
            )
        )
    return suite


def main(argv: Sequence[str] | None = None) -> int:
    ap = ToolParser(
        prog="python -m stkdev.checks_junit",
        description=__doc__.split("\n")[0],
        reports=lambda a: [(a.out, a.suite)],
    )
    ap.add_argument("--suite", required=True, help="the testsuite's name (and every case's class)")
    ap.add_argument("--out", type=Path, required=True, help="the JUnit file to write")
    ap.add_argument(
        "results",
        type=inputs.input_file(),
        help="one check a line: pass|fail|error<TAB>name<TAB>message",
    )
    a = ap.parse_args(argv)
    checks = parse_checks(str(a.results), read_input_text(a.results))
    suite = suite_of(a.suite, checks)
    write_report(a.out, [suite])
    failed, errors = suite.count(Outcome.FAILED), suite.count(Outcome.ERROR)
    print(f"wrote {a.out}: {len(checks)} checks, {failed} failed, {errors} errors")
    return 0


if __name__ == "__main__":
    sys.exit(run_tool(main))
