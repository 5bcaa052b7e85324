"""The engine binary's command line outside its commands (engine/src/main.cpp): `stk --help`
prints the usage on stdout and exits 0; an unknown command is named on stderr with the usage and
exits 2. Found unasserted by the fresh mutation sample close-52b09a4-cpp (`return 2` to `return -1`
in usage() not covered by any test). Runs when STK_ENGINE names the stk binary."""

from __future__ import annotations

import os
import subprocess

import pytest

ENGINE = os.environ.get("STK_ENGINE", "")
pytestmark = pytest.mark.skipif(not ENGINE, reason="set STK_ENGINE=/path/to/stk to run")
COMMANDS = ("perft", "bench", "features", "eval", "game")


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([ENGINE, *args], capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("flag", ["--help", "-h", "help"])
def test_help_prints_every_command_on_stdout_and_exits_0(flag: str):
    p = run(flag)
    assert p.returncode == 0
    assert p.stdout.startswith("usage: stk ")
    assert all(f"stk {c} " in p.stdout for c in COMMANDS)


def test_an_unknown_command_is_named_with_the_usage_and_exits_2():
    p = run("perftt")
    assert p.returncode == 2
    assert p.stderr.startswith("stk: unknown command 'perftt'\nusage: stk ")
    assert all(f"stk {c} " in p.stderr for c in COMMANDS)
    assert p.stdout == ""
