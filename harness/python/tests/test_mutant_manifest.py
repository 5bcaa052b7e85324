"""The planted-defect manifest can only prove what its checks run: a check that runs no test is hollow."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


def _check_mutants():
    return importlib.import_module("stkmutation.planted")


def test_an_unescaped_comma_in_a_catch2_filter_is_refused(tmp_path: Path):
    cm = _check_mutants()
    # Planted: the line that ran no test for months (Catch2 split the name at the comma).
    hollow = './build/release/harness/stk-tests "search: being mated scores mate -N, both colours"'
    assert "unescaped ','" in cm.hollow_catch2_filter(hollow)
    assert cm.hollow_catch2_filter(hollow.replace("-N,", "-N\\,")) == ""
    assert cm.hollow_catch2_filter('pytest -k "a, b"') == ""
    (tmp_path / "x.patch").write_text("")
    (tmp_path / "MANIFEST").write_text("x.patch | " + hollow + "\n")
    with pytest.raises(SystemExit, match=r"MANIFEST:1: .*unescaped ','"):
        cm.read_manifest(tmp_path / "MANIFEST")


def test_the_manifest_reads_and_names_only_existing_patches():
    mutants = _check_mutants().read_manifest(ROOT / "ci" / "mutants" / "MANIFEST")
    assert len(mutants) >= 58
    assert all(m.checks for m in mutants)


def test_every_catch2_filter_in_the_manifest_names_a_test():
    """A filter that matches no test (a renamed test, a typo) runs nothing, exits 0: the defect it
    is listed for would pass as 'caught' never again. Each must list at least one test name."""
    import re
    import subprocess

    binaries = {
        "stk-tests": ROOT / "build" / "release" / "harness" / "stk-tests",
        "stk-engine-tests": ROOT / "build" / "release" / "engine" / "tests" / "stk-engine-tests",
    }
    for exe in binaries.values():
        if not exe.exists():
            pytest.skip(f"{exe.relative_to(ROOT)} not built")
    hollow = []
    for m in _check_mutants().read_manifest(ROOT / "ci" / "mutants" / "MANIFEST"):
        for check in m.checks:
            for exe_name, name in re.findall(r'(stk-(?:engine-)?tests)\s+"([^"]*)"', check):
                out = subprocess.run(
                    [str(binaries[exe_name]), name, "--list-test-names-only"],
                    capture_output=True,
                    text=True,
                    check=False,
                ).stdout
                if not out.strip():
                    hollow.append(f"{m.patch}: {name!r}")
    assert not hollow, "filters that run no test:\n" + "\n".join(hollow)


def test_every_planted_defect_applies_to_this_tree():
    """A patch that no longer applies plants nothing: check-mutants reports it as a setup error only
    when someone runs it. Caught here on every commit instead."""
    import subprocess

    stale = []
    for m in _check_mutants().read_manifest(ROOT / "ci" / "mutants" / "MANIFEST"):
        r = subprocess.run(
            ["git", "apply", "--check", str(ROOT / "ci" / "mutants" / m.patch)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        )
        if r.returncode != 0:
            stale.append(
                f"{m.patch}: {r.stderr.strip().splitlines()[0] if r.stderr.strip() else 'does not apply'}"
            )
    assert not stale, (
        "patches that do not apply (regenerate them against this tree):\n" + "\n".join(stale)
    )


def test_a_check_that_fails_without_its_defect_catches_nothing(tmp_path: Path, monkeypatch):
    """The null control: every check runs once on HEAD without a defect. One that fails there
    would "catch" every defect (planted: the control skipped, so d1 counts as caught); one that
    is slow gets a limit from its own time, so its slowness is not counted as a hang."""
    cm = _check_mutants()
    mutants = [
        cm.Mutant("d1.patch", ["always-fails", "fine"], "x"),
        cm.Mutant("d2.patch", ["fine"], "x"),
    ]
    limits_seen: list[dict] = []

    class FakeJob:
        def __init__(self, *args, **kwargs):
            pass

        def control(self, check, timeout, env):
            return cm.CheckResult(
                check,
                1 if check == "always-fails" else 0,
                20.0,
                check == "always-fails",
                log="boom",
            )

        def check(self, m, timeout, env, limits=None):
            limits_seen.append(limits)
            m.results = [cm.CheckResult(c, 1, 0.0, True) for c in m.checks]

    monkeypatch.setattr(cm, "Job", FakeJob)
    monkeypatch.setattr(cm, "read_manifest", lambda path: mutants)
    monkeypatch.setattr(sys, "argv", ["check-mutants", "--out-dir", str(tmp_path), "--config", "t"])
    assert cm.main() == 2  # d1 cannot be judged: a setup error, not a catch
    doc = __import__("json").loads((tmp_path / "mutants" / "t.json").read_text())
    by_id = {r["id"]: r for r in doc["mutants"]}
    assert by_id["d1.patch"]["outcome"] == "error"
    assert (
        "null control" in by_id["d1.patch"]["message"]
        and "always-fails" in by_id["d1.patch"]["message"]
    )
    assert by_id["d2.patch"]["outcome"] == "killed"
    assert limits_seen == [{"fine": 120.0}]  # 3 x 20 s + 60 s, under --timeout 900
    assert {c["command"]: c["exit_code"] for c in doc["control"]} == {"always-fails": 1, "fine": 0}


def test_every_check_gets_the_binaries_it_runs() -> None:
    """A planted defect's scratch tree builds only the targets its check needs: a pytest check
    that reaches the fault matrix needs the fake engine and the fault injector too (the check
    errored in its null control without them: "1 error" before any test ran)."""
    from stkmutation.planted import targets_for

    matrix = (
        "PYTHONPATH=harness/python $STK_PYTHON -m pytest harness/python/tests/test_fault_matrix.py"
    )
    assert {"stk", "stk-harness", "stk-fake-uci", "stk-fault-inject"} <= set(targets_for([matrix]))
    assert targets_for(["ctest -R x"]) is None
    assert "stk-tests" in targets_for(['./build/release/harness/stk-tests "x"'])


def test_a_long_pattern_names_a_report_a_file_system_can_hold(tmp_path: Path):
    """Planted by accident: a pattern of nine patch names made mutants-<pattern>.xml's temporary
    longer than 255 bytes, and a 25-minute run lost its report ('File name too long')."""
    cm = _check_mutants()
    assert cm.pattern_name("^(a|b)\\.patch") == "__a_b__.patch"
    long_pattern = "^(" + "|".join(f"match-planted-defect-{i}" for i in range(9)) + ")\\.patch"
    name = cm.pattern_name(long_pattern)
    assert len(name) == 73 and name.startswith("__match-planted-defect-0_")
    assert name != cm.pattern_name(long_pattern.replace("-8", "-9"))  # the hash tells them apart
    # The report and its temporary fit in a real folder.
    (tmp_path / f"mutants-{name}.xml.abcdefgh.tmp").write_text("")
