"""The fault matrix of `stk-harness`: every command (one row each in fault_matrix_cpp.py; a command
`stk-harness --help` lists without a row fails test_every_command_has_a_row) under every hostile
condition that applies to it (hostile.py: FIFOs, devices, folders and symlinks at its paths,
read-only folders, hostile file names, a full disk, a closed stdout, SIGTERM, hostile engines,
held journals), each cell checked against one contract (hostile.py's docstring; the expected
status of each kind of cell: fault_matrix_cpp.py's docstring).

Tiers: the default run takes every cell but those marked `slow` (the hostile-engine cells of the
commands whose documented engine deadline is 60 s), within about 3 minutes on 2 cores; STK_FULL=1
or `-m slow` runs those too. Cells failing on today's code are xfail(strict=True), listed in
fault_matrix_cpp.KNOWN_FAILURES. One cell:
`pytest tests/test_fault_matrix.py -k 'perft/--junit/fifo'`.

Runs when the binaries exist (STK_HARNESS, else build/release)."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import fault_matrix_cpp as fm
import hostile as h
import pytest
import report_contract

pytestmark = pytest.mark.skipif(
    not all(Path(p).exists() for p in (fm.HARNESS, fm.FAKE, fm.FAULT_LIB, fm.ENGINE)),
    reason=f"stk-harness, stk, stk-fake-uci or the fault injector not built ({fm.HARNESS})",
)

CELLS = fm.all_cells()


def help_commands() -> list[str]:
    """The commands `stk-harness --help` lists ('  NAME<TAB>what it does')."""
    proc = subprocess.run([fm.HARNESS, "--help"], capture_output=True, text=True, timeout=30)
    return re.findall(r"^  (\S+)\t", proc.stdout + proc.stderr, flags=re.MULTILINE)


def test_every_command_has_a_row() -> None:
    commands = help_commands()
    assert len(commands) > 20, f"could not read the command list of {fm.HARNESS} --help"
    missing = sorted(set(commands) - {r.command for r in fm.ROWS})
    assert not missing, (
        f"commands without a row in fault_matrix_cpp.ROWS: {missing} (add each with its smallest "
        "valid invocation and its output, input and engine paths)"
    )
    stale = sorted({r.command for r in fm.ROWS} - set(commands))
    assert not stale, f"rows of commands stk-harness no longer has: {stale}"


def test_known_failures_name_cells() -> None:
    ids = {c.id for c in CELLS}
    assert not sorted(set(fm.KNOWN_FAILURES) - ids), "KNOWN_FAILURES names cells that do not exist"


def test_every_row_can_be_stopped_mid_run_or_says_why() -> None:
    for row in fm.ROWS:
        assert (row.long is None) != (not row.no_long), f"{row.id}: give `long` or `no_long`"


def test_every_row_can_fail_or_says_why() -> None:
    for row in fm.ROWS:
        assert (row.failing is None) != (not row.no_failing), (
            f"{row.id}: give `failing` or `no_failing`"
        )


def _param(cell: fm.Cell) -> object:
    marks: list[pytest.MarkDecorator] = []
    if cell.slow:
        marks.append(pytest.mark.slow)
    if cell.id in fm.KNOWN_FAILURES:
        marks.append(pytest.mark.xfail(strict=True, reason=fm.KNOWN_FAILURES[cell.id]))
    return pytest.param(cell, id=cell.id, marks=marks)


@pytest.fixture(scope="session")
def matrix_inputs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("matrix-inputs")
    fm.prepare_inputs(d)
    return d


@pytest.fixture(scope="session")
def reference(
    tmp_path_factory: pytest.TempPathFactory, matrix_inputs: Path
) -> Callable[[str], fm.Reference]:
    cache: dict[str, fm.Reference] = {}

    def get(row_id: str) -> fm.Reference:
        if row_id not in cache:
            root = tmp_path_factory.mktemp(f"reference-{row_id}")
            cache[row_id] = fm.reference_run(fm.ROW_BY_ID[row_id], matrix_inputs, root / "r")
            shutil.rmtree(root, ignore_errors=True)
        return cache[row_id]

    return get


@pytest.mark.parametrize("cell", [_param(c) for c in CELLS])
def test_fault_matrix(
    cell: fm.Cell,
    tmp_path: Path,
    matrix_inputs: Path,
    reference: Callable[[str], fm.Reference],
    junit_xsd: Path,
) -> None:
    if cell.na:
        pytest.skip(f"not applicable: {cell.na}")
    run = fm.CellRun(cell, reference(cell.row), matrix_inputs, tmp_path / "root", junit_xsd)
    outcome, violations = run.run()
    assert not violations, "\n".join(
        [
            f"cell {cell.id}: {shlex.join(outcome.argv)}",
            f"expected exit {sorted(run.expect.statuses)} ({run.expect.why}); "
            f"got {outcome.summary()}",
            *run.notes,
            *(f"  - {v}" for v in violations),
            outcome.tail(),
        ]
    )
    shutil.rmtree(tmp_path / "root", ignore_errors=True)


@pytest.mark.parametrize("row_id", [r.id for r in fm.ROWS if r.failing])
def test_a_failing_run_is_judged_by_the_reports_it_wrote(
    row_id: str, tmp_path: Path, matrix_inputs: Path
) -> None:
    """Every command with a gate, run where the gate fails (a golden count off by one, a bar out
    of reach, an engine that plays an illegal move): exit 1, and the reports it wrote say so under
    the clean run's contract (report_contract.violations: a failed testcase in a report, counts,
    envelope and inputs agreeing). An exit status that ignores a part's failure, or a report that
    records it as passed, fails here for any command, not only the one a test was written for."""
    row = fm.ROW_BY_ID[row_id]
    failing = row.failing
    assert failing is not None
    root = tmp_path / "root"
    fm.layout(root, matrix_inputs, row)
    failing.spoil(root)
    args = {**fm.default_args(root, row), **failing.args}
    argv = [*(failing.argv or row.argv)(args), *failing.extra]
    out = h.run_bounded(
        [fm.HARNESS, *argv], cwd=root / "cwd", env={**fm.base_env(), **row.env}, timeout=120
    )
    assert out.returncode == 1, f"{shlex.join(argv)}: {out.summary()}\n{out.tail()}"
    reports = [Path(p) for p in row.reports(args)]
    broken = report_contract.violations(1, reports, argv=argv)
    assert not broken, f"{shlex.join(argv)}: report contract: {broken}\n{out.tail()}"
    shutil.rmtree(root, ignore_errors=True)


SIGTERM_ROWS = [r.id for r in fm.ROWS if fm.writes_files(r)]


@pytest.mark.parametrize("row_id", SIGTERM_ROWS)
def test_sigterm_at_every_call_point(
    row_id: str,
    tmp_path: Path,
    matrix_inputs: Path,
    reference: Callable[[str], fm.Reference],
    junit_xsd: Path,
) -> None:
    """A stop may land anywhere: SIGTERM before each counted call of the row's clean run (every
    write, fsync, rename and close under its out dir; fm.sigterm_points), each in a fresh sandbox,
    under the matrix's contract (fm.expected: exit 2 with <error> reports or the run's own status;
    no 0-byte, torn, temporary or lock file; earlier outputs intact)."""
    ref = reference(row_id)
    failures = []
    for n in fm.sigterm_points(ref):
        cell = fm.Cell(row_id, "run", f"sigterm-any-{n}")
        root = tmp_path / str(n) / "root"
        run = fm.CellRun(cell, ref, matrix_inputs, root, junit_xsd)
        outcome, violations = run.run()
        if violations:
            failures.append(
                "\n".join(
                    [
                        f"SIGTERM before call {n} of {ref.calls['any']}: {outcome.summary()}",
                        f"  {shlex.join(outcome.argv)}",
                        *(f"  - {v}" for v in violations),
                    ]
                )
            )
        shutil.rmtree(tmp_path / str(n), ignore_errors=True)
    assert not failures, f"{row_id}:\n" + "\n".join(failures)
