"""Compiles every member of every unity batch alone (ci/test.sh runs it after the release build).

    python -m stkdev.standalone [--build build/release] [--jobs N] [--junit FILE]

A unity batch (harness/cmake/BuildSpeed.cmake, stk_unity) compiles several sources as one
translation unit, so a file can lean on what an earlier file of its batch brought in: a
`using namespace`, a namespace alias, an #include, a helper. The build then passes and the file is
broken alone: under STK_UNITY=OFF, in another batch after a file is added or moved, or in the
mutation tool's coverage build (docs/build.md). Two such files reached main before this check.

Reads the build's compile_commands.json with stkref.compile_commands: each entry whose file is a
batch is expanded into its members; each member is compiled with the batch's own command (flags,
definitions, the precompiled header) less its outputs, the batch's path replaced by the member's,
-fsyntax-only instead of an object. One JUnit testcase per member and
target (`<target>/<file>`: a file in the batches of two targets is checked with each one's flags).

Exit 0 when every member compiles alone, 1 naming each that does not (with the compiler's first
lines), 2 when the build folder has no compile_commands.json, a batch names a member that does not
exist, or no batch is found at all (a check that checked nothing did not pass).
"""

from __future__ import annotations

import concurrent.futures
import os
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from stkref import compile_commands, inputs, options
from stkref.cli import ToolParser, run_tool
from stkref.errors import InputError
from stkref.junit import Outcome, TestCase, TestSuite, write_report

SUITE = "standalone.compile"
ROOT = Path(__file__).resolve().parents[3]
ERROR_LINES = 12  # of the compiler's output, per failing member
COMPILE_TIMEOUT = 600  # seconds: one file's syntax check takes a few (a hang fails, not waits)


@dataclass(frozen=True)
class Member:
    """One source of a batch and the command that compiles it alone."""

    source: Path
    batch: Path
    command: list[str]
    directory: Path


def member_command(entry: compile_commands.Entry, member: Path) -> list[str]:
    """The batch's command made to check `member` alone: no object, no dependency file, every
    argument naming the batch replaced by the member's path, then -fsyntax-only."""
    arguments = compile_commands.without_outputs(entry.arguments)
    if not any(entry.names_source(a) for a in arguments):
        raise InputError(f"the command of {entry.file} does not name it: cannot check {member}")
    return [str(member) if entry.names_source(a) else a for a in arguments] + ["-fsyntax-only"]


def batch_members(database: Path) -> list[Member]:
    """Every member of every batch the build compiles, in the order of the file."""
    members: list[Member] = []
    for entry in compile_commands.load(database):
        if compile_commands.is_batch(entry.file):
            for source in map(Path.resolve, compile_commands.batch_members(entry.file)):
                command = member_command(entry, source)
                members.append(Member(source, entry.file, command, entry.directory))
    return members


def check_member(member: Member) -> TestCase:
    t0 = time.monotonic()
    try:
        r = subprocess.run(
            member.command,
            cwd=member.directory,
            capture_output=True,
            text=True,
            errors="replace",
            timeout=COMPILE_TIMEOUT,
        )
        code, output = r.returncode, r.stderr or r.stdout
    except subprocess.TimeoutExpired:
        code, output = -1, f"the compiler ran past {COMPILE_TIMEOUT} s (killed)"
    source = member.source
    source = source.relative_to(ROOT) if source.is_relative_to(ROOT) else source
    # A file can belong to batches of two targets (their flags differ): the target names the case.
    name = f"{member.batch.parent.name}/{source}"
    case = TestCase(classname=SUITE, name=name, time_s=time.monotonic() - t0)
    if code:
        lines = output.splitlines()
        case.outcome = Outcome.FAILED
        case.message = f"does not compile alone (it compiles in {member.batch.name} only)"
        case.detail = "\n".join(lines[:ERROR_LINES])
    return case


def main(argv: Sequence[str] | None = None) -> int:
    ap = ToolParser(
        prog="python -m stkdev.standalone",
        description=__doc__.split("\n")[0],
        reports=lambda a: [(a.junit, SUITE)] if a.junit else [],
    )
    ap.add_argument("--build", type=inputs.folder, default="build/release", help="a build folder")
    jobs = min(os.cpu_count() or 1, 1024)
    ap.add_argument("--jobs", type=options.jobs, default=jobs, help="compilers side by side")
    ap.add_argument("--junit", type=Path, help="the JUnit report to write")
    a = ap.parse_args(argv)
    compile_commands = a.build / "compile_commands.json"
    if not os.path.lexists(compile_commands):
        raise InputError(f"{compile_commands}: missing (configure the build first: ci/build.sh)")
    members = batch_members(compile_commands)
    if not members:
        raise InputError(f"{compile_commands}: no unity batch (STK_UNITY=OFF?): nothing checked")
    t0 = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
        cases = list(ex.map(check_member, members))
    suite = TestSuite(name=SUITE, cases=cases, time_s=time.monotonic() - t0)
    suite.property("build", a.build)
    failed = [c for c in cases if c.outcome is Outcome.FAILED]
    for c in failed:
        print(f"{c.name}: {c.message}\n{c.detail}\n")
    if a.junit:
        write_report(a.junit, [suite])
    print(
        f"standalone: {len(cases) - len(failed)} of {len(cases)} batched sources compile alone "
        f"({time.monotonic() - t0:.0f} s, {a.jobs} jobs)"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(run_tool(main))
