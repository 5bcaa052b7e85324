"""--slots above the cores (docs/mutation.md, What it costs): a kill seen beside more tests than
the baseline ran side by side is held back, reported as not run, and run again once every slot
is done at the baseline's load (schema_run.SchemaRun.hold_if_oversubscribed and
confirm_held_kills). Planted: the hold skipped (a load failure kept as a kill), a stopped run's
held kills counted, the confirmation run with the whole selection instead of the killers."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from stkmutation import schema_run, tool


class _Job:
    def __init__(self, code: int, tree: Path) -> None:
        self.code, self.tree, self.calls, self.envs = code, tree, [], []

    def ctest(self, names, timeout, env=None, **_):  # noqa: ANN001, ANN003, ANN202
        self.calls.append(list(names))
        self.envs.append(env)
        return tool.Ran(self.code, "", 0.0)


class _Runner:
    fails_again = tool.Runner.fails_again  # the tool's own confirmation, on the stub job

    @staticmethod
    def baseline_parallelism() -> int:
        return 2

    @staticmethod
    def py_env(job: object) -> dict[str, str]:
        return {}


def _run(code: int, oversubscribed: bool, tmp: Path) -> schema_run.SchemaRun:
    run = schema_run.SchemaRun.__new__(schema_run.SchemaRun)
    run.job = _Job(code, tmp)  # type: ignore[assignment]
    run.runner = _Runner()  # type: ignore[assignment]
    run.oversubscribed, run.pending = oversubscribed, []
    run.env = lambda m, slot: {"SLOT": str(slot)}  # type: ignore[method-assign]
    return run


def _mutant(outcome: str, killers: list[str], tests: list[str]) -> tool.Mutant:
    m = tool.Mutant("a.cpp", 1, "rule", "x;", "y;", "cpp")
    m.outcome, m.killers, m.tests, m.limit_s, m.log = outcome, killers, tests, 30.0, "ran"
    return m


@pytest.mark.parametrize("again", [True, False])
def test_an_oversubscribed_kill_is_held_then_stands_only_if_it_fails_again(
    tmp_path: Path, again: bool
) -> None:
    run = _run(1 if again else 0, True, tmp_path)
    m = _mutant("killed", ["t2"], ["t1", "t2", "t3"])
    run.hold_if_oversubscribed(m)
    assert (m.outcome, m.log) == ("skipped", schema_run.UNCONFIRMED)  # a report now: not run
    assert run.job.calls == []  # nothing runs while the slots are busy
    run.confirm_held_kills(threading.Event())
    assert run.job.calls == [["t2"]]  # the killer, not the selection
    assert m.outcome == ("killed" if again else "error")
    assert m.log == "ran" if again else "not again at the baseline's load" in m.log


def test_a_held_timeout_naming_no_test_reruns_its_selection_and_survivors_are_not_held(
    tmp_path: Path,
) -> None:
    run = _run(0, True, tmp_path)
    m = _mutant("timeout", [], ["t1", "t2"])
    run.hold_if_oversubscribed(m)
    for outcome in ("survived", "not-covered", "equivalent", "uncompilable"):
        other = _mutant(outcome, ["t1"], ["t1"])
        run.hold_if_oversubscribed(other)
        assert other.outcome == outcome
    run.confirm_held_kills(threading.Event())
    assert run.job.calls == [["t1", "t2"]] and m.outcome == "error"


def test_a_stopped_run_leaves_its_held_kills_not_run(tmp_path: Path) -> None:
    run = _run(1, True, tmp_path)
    m = _mutant("killed", ["t1"], ["t1"])
    run.hold_if_oversubscribed(m)
    stop = threading.Event()
    stop.set()
    run.confirm_held_kills(stop)
    assert run.job.calls == [] and (m.outcome, m.log) == ("skipped", tool.STOPPED)


def test_with_no_more_slots_than_cores_a_kill_is_kept_as_seen(tmp_path: Path) -> None:
    run = _run(0, False, tmp_path)
    m = _mutant("killed", ["t1"], ["t1"])
    run.hold_if_oversubscribed(m)
    run.confirm_held_kills(threading.Event())
    assert run.job.calls == [] and m.outcome == "killed"


def test_run_all_holds_kills_only_above_the_baselines_parallelism(tmp_path: Path) -> None:
    for slots, held in ((2, False), (3, True)):
        run = _run(1, False, tmp_path)
        run.run_one = lambda m, slot: None  # type: ignore[method-assign]
        run.run_all([], slots, lambda m: None, threading.Event())
        assert run.oversubscribed is held


def test_held_kills_confirmed_side_by_side_never_share_a_scratch_folder(tmp_path: Path) -> None:
    """Confirmations run as many side by side as the baseline did (2 here), each with a slot's
    scratch folder of its own (planted: every confirmation given slot 0's)."""
    run = _run(1, True, tmp_path)
    inside: list[str] = []
    lock = threading.Lock()
    clash: list[str] = []

    def ctest(names, timeout, env=None, **_):  # noqa: ANN001, ANN003, ANN202
        with lock:
            if env["SLOT"] in inside:
                clash.append(env["SLOT"])
            inside.append(env["SLOT"])
        threading.Event().wait(0.05)
        with lock:
            inside.remove(env["SLOT"])
        return tool.Ran(1, "", 0.0)

    run.job.ctest = ctest  # type: ignore[method-assign]
    held = [_mutant("killed", [f"t{i}"], [f"t{i}"]) for i in range(6)]
    for m in held:
        run.hold_if_oversubscribed(m)
    run.confirm_held_kills(threading.Event())
    assert clash == [] and [m.outcome for m in held] == ["killed"] * 6
