"""Under CTest, stk-tests runs its own build's stk and stk-harness, whatever the caller exported:
the mutation tool runs the tests of a scratch clone from a shell that may name the main build in
STK_HARNESS, and a mutant of the harness then survived on the unmutated binary (the ENVIRONMENT
property once carried only STK_ENGINE: catch_discover_tests split the second variable off).
Run directly, stk-tests honours STK_HARNESS (the planted side of the same check)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
BUILD = ROOT / "build" / "release"
TEST = "perft harness passes on golden counts and writes a valid report"

pytestmark = pytest.mark.skipif(
    not (BUILD / "harness" / "stk-tests").exists(), reason="needs build/release"
)


def test_ctest_runs_the_builds_own_binaries_whatever_the_caller_exported():
    env = dict(os.environ, STK_HARNESS="/bin/false", STK_ENGINE="/bin/false")
    regex = "^" + TEST + "$"
    r = subprocess.run(
        ["ctest", "--test-dir", str(BUILD), "-R", regex, "--output-on-failure"],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stdout[-3000:]
    assert "100% tests passed" in r.stdout, r.stdout[-3000:]
    direct = subprocess.run(
        [str(BUILD / "harness" / "stk-tests"), TEST], env=env, capture_output=True, timeout=300
    )
    assert direct.returncode != 0  # the poisoned path is used when CTest does not run it
