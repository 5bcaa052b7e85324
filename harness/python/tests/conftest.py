"""Shared fixtures: one H=128 seeded checkpoint/net per session, the fake engine, the XSD."""

from __future__ import annotations

import itertools
import os
import random
import shutil
import stat
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import chess
import numpy as np
import pytest
import rule_choice
from hypothesis import HealthCheck, settings
from report_contract import (
    HarnessRun,
    internal_error_said,
    is_harness_run,
    non_finite_figure,
    suite_property_problems,
)

import stkref.cli
import stkref.junit
from stkmutation.tool import PY_PACKAGES
from stkref.checkpoint import Checkpoint, generate_checkpoint
from stkref.golden import write_golden
from stkref.model import QuantizedModel
from stkref.netfile import write as write_net
from stkref.positions import shared_dir
from stkref.quantize import checkpoint_shapes, quantize_model

HERE = Path(__file__).resolve().parent

# The property tests' examples (docs/models-howto.md): derandomized, so one tree draws the same
# examples on every run and machine (a failure prints its reproduction blob); no example database
# in the tree, no wall-clock deadline (2 shared cores are slow, not wrong).
settings.register_profile(
    "stk",
    derandomize=True,
    database=None,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("stk")


@pytest.fixture(autouse=True)
def every_rule_drawn() -> Iterator[None]:
    """A property drawing its rule with rule_choice.every_rule must draw each (rule_choice.py)."""
    rule_choice.start()
    yield
    if missed := rule_choice.never_drawn():
        pytest.fail(
            f"rules never drawn by this property: {', '.join(missed)} (more examples, or one"
            " parametrize case a rule: rule_choice.py)",
            pytrace=False,
        )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # The H=1024 net and the fault matrices' full tiers cost real time: STK_FULL=1 or -m slow.
    if os.environ.get("STK_FULL") == "1" or "slow" in (config.getoption("-m") or ""):
        return
    skip = pytest.mark.skip(reason="slow: set STK_FULL=1 or select -m slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def report_contract_of_every_harness_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every `stk-harness` command a test starts with subprocess.run is held to the report
    contract (report_contract.py, docs/reports.md): an exit status that disagrees with the
    reports it wrote fails the test that ran it, whatever that test asserts itself. Runs under
    the fault injector (LD_PRELOAD in env) are left to the fault tests."""
    real_run = subprocess.run

    def checked(args, *a, **kw):  # type: ignore[no-untyped-def]
        env = kw.get("env") or {}
        if not is_harness_run(args) or env.get("LD_PRELOAD"):
            return real_run(args, *a, **kw)
        cwd = kw.get("cwd")
        contract = HarnessRun([str(x) for x in args], Path(cwd) if cwd else None)
        result = real_run(args, *a, **kw)
        broken = contract.violations(result.returncode)
        if broken:
            pytest.fail(f"report contract (docs/reports.md) of {args}: {broken}", pytrace=False)
        return result

    monkeypatch.setattr(subprocess, "run", checked)


@pytest.fixture(autouse=True)
def suite_times_of_every_python_report(monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    """Every JUnit report a Python writer serializes in a test, whoever calls it, keeps the order
    of docs/report-schema.md#times: no suite shorter than its longest testcase (a suite time left
    at 0 is a writer's defect). Compared as written, to the millisecond. And, as the C++ report
    contract holds every stk-harness run (harness/tests/report_contract.cpp): no figure printed
    as nan or inf (docs/report-schema.md#figures)."""
    real = stkref.junit.to_xml
    broken: list[str] = []

    def checked(suites):  # type: ignore[no-untyped-def]
        for s in suites:
            longest = max((c.time_s for c in s.cases), default=0.0)
            if float(stkref.junit.format_time(s.time_s)) < float(stkref.junit.format_time(longest)):
                broken.append(
                    f"suite {s.name!r} took {s.time_s} s, its longest testcase {longest} s"
                )
        xml = real(suites)
        if near := non_finite_figure(xml):
            broken.append(f"a figure printed as nan or inf: ...{near}...")
        return xml

    monkeypatch.setattr(stkref.junit, "to_xml", checked)
    yield
    if broken:
        pytest.fail(
            f"report contract (docs/report-schema.md#times, #figures): {broken}", pytrace=False
        )


@pytest.fixture(autouse=True)
def suite_properties_of_in_process_tool_runs(monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    """A tool a test runs in its own process (run_tool(lambda: main(argv))) is held to the suite
    property rows too (docs/report-schema.md#suite-properties-by-harness): every report it
    declared and wrote, except an error run's (exit_status), is judged when the test ends."""
    declared: list[Path] = []
    real = stkref.cli.declare_report

    def recording(path, suite_name):  # type: ignore[no-untyped-def]
        declared.append(Path(path))
        return real(path, suite_name)

    monkeypatch.setattr(stkref.cli, "declare_report", recording)
    yield
    broken = []
    for report in dict.fromkeys(declared):
        try:
            names = {p.get("name") for p in ET.parse(report).iter("property")}
        except (OSError, ET.ParseError):
            continue  # not written, or torn: the tests of that run judge it
        if "exit_status" not in names:
            broken += suite_property_problems(report, tool=True)
    if broken:
        pytest.fail(f"suite properties (docs/report-schema.md): {broken}", pytrace=False)


@pytest.fixture(autouse=True)
def no_tool_run_ends_in_an_internal_error(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
):  # type: ignore[no-untyped-def]
    """A Python tool's refusal and its crash both end in exit 2 with an <error> report, so a test
    that asserts only the status passes on a bug (checks_junit's `or` made `and` let a bad
    outcome through to a KeyError, and the model's bad-line case still read 2). Every tool run a
    test makes, in its process (run_tool) or as `python -m stk...` with its stderr captured,
    fails the test when it ended in an internal error, unless the test is marked
    `internal_error` (the tests of that path itself)."""
    if request.node.get_closest_marker("internal_error"):
        yield
        return
    seen: list[str] = []
    real_failed, real_run = stkref.cli.failed, subprocess.run

    def failed(why: str, said: bool = False) -> int:
        if bug := internal_error_said(why):
            seen.append(bug)
        return real_failed(why, said)

    def run(args, *a, **kw):  # type: ignore[no-untyped-def]
        result = real_run(args, *a, **kw)
        err = (
            result.stderr
            if isinstance(result.stderr, str)
            else (result.stderr or b"").decode(errors="replace")
        )
        if is_python_tool_run(args) and (bug := internal_error_said(err)):
            seen.append(f"{' '.join(map(str, args))}: {bug}")
        return result

    monkeypatch.setattr(stkref.cli, "failed", failed)
    monkeypatch.setattr(subprocess, "run", run)
    yield
    if seen:
        pytest.fail(f"a tool ended in an internal error, not a refusal: {seen}", pytrace=False)


def is_python_tool_run(args: object) -> bool:
    """`python -m stkref|stktrain|stkmutation|stkdev|stkdist...`, as a list of words."""
    words = [str(a) for a in args] if isinstance(args, (list, tuple)) else []
    return any(
        w == "-m" and nxt.split(".")[0] in PY_PACKAGES for w, nxt in itertools.pairwise(words)
    )


@pytest.fixture(scope="session")
def ckpt128() -> Checkpoint:
    return generate_checkpoint(128, 1)


@pytest.fixture(scope="session")
def model128(ckpt128: Checkpoint) -> QuantizedModel:
    return quantize_model(ckpt128)


@pytest.fixture(scope="session")
def net128(tmp_path_factory: pytest.TempPathFactory, model128: QuantizedModel) -> Path:
    path = tmp_path_factory.mktemp("net") / "h128.nnue"
    write_net(model128, path)
    return path


@pytest.fixture(scope="session")
def golden_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("golden")
    assert write_golden(d, update=False) == 0
    return d


@pytest.fixture(scope="session")
def fake_engine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An executable that behaves like `stk` for the features/eval batch commands."""
    path = tmp_path_factory.mktemp("engine") / "fake-stk"
    path.write_text(f'#!/bin/sh\nexec {sys.executable} {HERE / "fake_stk.py"} "$@"\n')
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


@pytest.fixture(scope="session")
def junit_xsd() -> Path:
    xsd = shared_dir() / "schemas" / "junit.xsd"
    if not xsd.exists():
        pytest.skip(f"JUnit schema not found at {xsd} (set STK_SHARED)")
    if shutil.which("xmllint") is None:
        pytest.skip("xmllint not installed")
    return xsd


# Every report a test reads was written during this session, so no time in it can be longer.
SESSION_STARTED = time.monotonic()


def validate_junit(xsd: Path, report: Path, measured: bool = True) -> None:
    """Valid against the schema, and (for a report a tool wrote: `measured`) every suite's and
    case's time within [0, the session's age]: a duration computed from the wrong clock or with
    the wrong sign is caught here (the mutation campaign's `monotonic() + t0` in drift)."""
    proc = subprocess.run(
        ["xmllint", "--schema", str(xsd), "--noout", str(report)], capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr
    age = time.monotonic() - SESSION_STARTED + 1.0
    for el in [] if not measured else ET.parse(report).getroot().iter():
        if el.tag in ("testsuite", "testcase") and "time" in el.attrib:
            t = float(el.attrib["time"])
            assert 0.0 <= t <= age, f"{report}: {el.tag} {el.get('name')!r} time {t} s"


def zero_checkpoint(hidden: int = 128) -> Checkpoint:
    return {k: np.zeros(s, np.float32) for k, s in checkpoint_shapes(hidden).items()}


VALUES = {chess.PAWN: 100, chess.KNIGHT: 300, chess.BISHOP: 300, chess.ROOK: 500, chess.QUEEN: 900}


def material(board: chess.Board) -> int:
    """White's view, centipawns."""
    return sum(
        v * (len(board.pieces(t, chess.WHITE)) - len(board.pieces(t, chess.BLACK)))
        for t, v in VALUES.items()
    )


def board_after(choices: list[int]) -> chess.Board:
    """The position after playing, from the start, the legal move that each generated number
    picks (its index modulo the legal moves); stops where the game is over."""
    b = chess.Board()
    for k in choices:
        legal = list(b.legal_moves)
        if not legal or b.is_game_over():
            break
        b.push(legal[k % len(legal)])
    return b


def material_games(path: Path, games: int, seed: int, plies: tuple[int, int] = (20, 60)) -> None:
    """Random games in the datagen format labelled by material (White's view): a target a net
    learns in a few epochs; longer games hold decided positions."""
    rng = random.Random(seed)
    lines = []
    for _ in range(games):
        board = chess.Board()
        rows = []
        for _ in range(rng.randint(*plies)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
            rows.append((board.fen(), material(board), board.ply(), int(not board.is_check())))
        m = material(board)
        res = "1.0" if m > 150 else "0.0" if m < -150 else "0.5"
        lines += [f"{f} | {s} | {res} | {p} | {q}" for f, s, p, q in rows]
    path.write_text("\n".join(lines) + "\n")
