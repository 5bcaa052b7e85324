"""Inputs that are not regular files (faults.md, "Reading"): a device such as /dev/zero, a FIFO or a
directory given where the harness reads a suite, a result file or a summary is refused with exit 2
and a message naming the path and why, at once. Before io/input_file, /dev/zero was read until
memory ran out (std::getline on a stream without newlines), then reported as a bare "read error".

Runs when the binary exists (STK_HARNESS, else build/release)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
HARNESS = os.environ.get("STK_HARNESS") or str(ROOT / "build/release/harness/stk-harness")
pytestmark = pytest.mark.skipif(not Path(HARNESS).exists(), reason=f"{HARNESS} not built")


def run(*args: str, out: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [HARNESS, *args, *(["--out-dir", str(out)] if args[0] != "match-merge" else [])],
        capture_output=True,
        text=True,
        timeout=30,  # the old reader never returned on /dev/zero
        check=False,
    )


def commands(path: str, out: Path) -> list[list[str]]:
    return [
        ["epd", "--epd", path, "--depth", "1", "--config", "in"],
        ["perft", "--epd", path, "--depth", "1", "--config", "in"],
        ["merge", "in", path],
        ["match-merge", "in", path, "--out-dir", str(out)],
    ]


@pytest.mark.parametrize("index", range(4))
def test_a_device_is_refused_at_once(tmp_path: Path, index: int) -> None:
    argv = commands("/dev/zero", tmp_path)[index]
    r = run(*argv, out=tmp_path)
    text = r.stdout + r.stderr
    assert r.returncode == 2, text
    assert "/dev/zero" in text and "character device" in text, text


@pytest.mark.parametrize("index", range(4))
def test_a_directory_is_refused_naming_it(tmp_path: Path, index: int) -> None:
    folder = tmp_path / "a-folder"
    folder.mkdir()
    r = run(*commands(str(folder), tmp_path)[index], out=tmp_path)
    text = r.stdout + r.stderr
    assert r.returncode == 2, text
    assert str(folder) in text and "is a directory" in text, text


def test_a_missing_file_says_why(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.epd"
    r = run("epd", "--epd", str(missing), "--depth", "1", "--config", "in", out=tmp_path)
    assert r.returncode == 2
    assert f"{missing}: cannot open file: No such file or directory" in r.stdout + r.stderr
