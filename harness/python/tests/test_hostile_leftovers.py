"""hostile.run_bounded's verdict on what outlives a run, both ways: a real leftover (a process
of the run's group, or one outside it holding the run's output open) is flagged; a child that
is still ending when the run exits (killed, 1.5 s late on a loaded machine) or has ended and waits
for init to reap it is not.

Planted: the old check (a 1 s join of the output readers, then kill(-pgid, 0)) flags the late
child and the unreaped one; it was seen as a flaky fault-matrix cell, perft/run/sigterm."""

from __future__ import annotations

import os
import re
import signal
import time
from pathlib import Path

import hostile
import pytest

GRACE = 3.0


@pytest.fixture(autouse=True)
def short_grace(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hostile, "LEFTOVER_GRACE", GRACE)


def run_sh(script: str, tmp_path: Path) -> hostile.Outcome:
    return hostile.run_bounded(["sh", "-c", script], cwd=tmp_path, timeout=30)


def kill_pid_in(path: Path) -> None:
    for _ in range(100):
        if path.exists() and path.read_text().strip():
            os.kill(int(path.read_text()), signal.SIGKILL)
            return
        time.sleep(0.05)


def test_a_clean_exit_leaves_nothing(tmp_path: Path) -> None:
    outcome = run_sh("echo done", tmp_path)
    assert outcome.returncode == 0
    assert not outcome.leftover_processes, outcome.leftover


def test_a_child_ending_after_its_parent_within_the_grace_is_not_a_leftover(tmp_path: Path) -> None:
    started = time.monotonic()
    outcome = run_sh("(sleep 1.5) & exit 0", tmp_path)
    assert outcome.returncode == 0
    assert not outcome.leftover_processes, outcome.leftover
    assert time.monotonic() - started < GRACE + 2


def test_a_child_that_ended_unreaped_is_not_a_leftover(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its zombie waits for init, which may reap seconds later: it has ended all the same.
    Planted: kill(-pgid, 0) as the test of the group; with a 1 s grace it flags this on a machine
    whose init reaps orphans every ~2 s (this one); where init reaps at once both pass."""
    monkeypatch.setattr(hostile, "LEFTOVER_GRACE", 1.0)
    outcome = run_sh("(sleep 0.2) & exit 0", tmp_path)
    assert not outcome.leftover_processes, outcome.leftover


def test_a_process_of_the_group_still_running_is_a_leftover(tmp_path: Path) -> None:
    started = time.monotonic()
    outcome = run_sh("sleep 30 & exit 0", tmp_path)
    assert outcome.returncode == 0
    assert re.fullmatch(
        rf"a process of its group \(sleep, pid \d+\), {GRACE:.0f} s after it ended",
        outcome.leftover,
    )
    assert GRACE <= time.monotonic() - started < 15  # the leftover was killed with its group


def test_a_process_outside_the_group_holding_the_output_is_a_leftover(tmp_path: Path) -> None:
    pid_file = tmp_path / "escaped.pid"
    script = f"setsid sh -c 'echo $$ > {pid_file}; exec sleep 30' & exit 0"
    try:
        outcome = run_sh(script, tmp_path)
    finally:
        kill_pid_in(pid_file)
    assert outcome.returncode == 0
    assert outcome.leftover == f"a process holding its output open, {GRACE:.0f} s after it ended"


def test_the_contract_names_the_leftover(tmp_path: Path) -> None:
    outcome = hostile.Outcome(argv=["x"], returncode=0, elapsed=0.1, timeout=1, leftover="what")
    sandbox = hostile.Sandbox(tmp_path / "box")
    found = sandbox.violations(outcome, {0}, Path("/nonexistent.xsd"))
    assert "a process of the run (an engine, a child) outlived it: what" in found


def test_the_time_scale_stretches_a_runs_limit(tmp_path: Path, monkeypatch) -> None:
    # A slower build (the mutation tool's -O0 coverage build) gets STK_TEST_TIME_SCALE times
    # every limit: a 0.5 s limit at scale 10 lets a 1 s run end; at scale 1 it is killed.
    monkeypatch.setattr(hostile, "TIME_SCALE", 10.0)
    slow = hostile.run_bounded(["sh", "-c", "sleep 1"], cwd=tmp_path, timeout=0.5)
    assert slow.returncode == 0 and slow.timeout == 5.0
    monkeypatch.setattr(hostile, "TIME_SCALE", 1.0)
    assert hostile.run_bounded(["sh", "-c", "sleep 1"], cwd=tmp_path, timeout=0.5).returncode != 0


@pytest.mark.parametrize("text", ["0.5", "0", "-3", "nan", "ten", ""])
def test_a_time_scale_below_one_or_not_a_number_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match="STK_TEST_TIME_SCALE"):
        hostile.time_scale(text)
