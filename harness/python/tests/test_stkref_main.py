"""`python -m stkref` and `python -m stktrain` list their package's tools: every module that runs as a command, each of
which answers --help (planted: the list hand-kept and missing train/netlint/netquality, or the
listing never printed)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

PYTHON = Path(__file__).resolve().parents[1]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    env = os.environ | {"PYTHONPATH": str(PYTHON)}
    return subprocess.run(
        [sys.executable, "-m", *args], capture_output=True, text=True, env=env, check=False
    )


@pytest.mark.parametrize(
    "package,some",
    [("stkref", {"parity", "drift"}), ("stktrain", {"train", "netlint", "netquality"})],
)
def test_the_listing_names_every_command_module(package: str, some: set[str]):
    r = _run(package)
    assert r.returncode == 0, r.stderr
    listed = [line.strip() for line in r.stdout.splitlines()[1:]]
    commands = sorted(
        p.stem
        for p in (PYTHON / package).glob("*.py")
        if p.stem != "__main__" and "__main__" in p.read_text()
    )
    assert listed == commands
    assert some <= set(listed)


@pytest.mark.parametrize("package", ["stkref", "stktrain"])
def test_every_listed_tool_answers_help(package: str):
    r = _run(package)
    for tool in [line.strip() for line in r.stdout.splitlines()[1:]]:
        h = _run(f"{package}.{tool}", "--help")
        assert h.returncode == 0, (tool, h.stderr[-500:])
        assert h.stdout.strip(), tool  # some help text
