"""The Python and C++ net loaders agree on accept/reject for the same malformed files.
Runs when STK_HARNESS names the stk-harness binary (ci/test.sh sets it)."""

from __future__ import annotations

import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest

HARNESS = os.environ.get("STK_HARNESS", "")
pytestmark = pytest.mark.skipif(not HARNESS, reason="set STK_HARNESS=/path/to/stk-harness to run")


def _u32(data: bytes, offset: int, value: int) -> bytes:
    return data[:offset] + struct.pack("<I", value) + data[offset + 4 :]


def _cases(good: bytes) -> dict[str, tuple[bytes, list[str]]]:
    """name -> (file bytes, extra loader flags)"""
    return {
        "good": (good, []),
        "size-1": (good[:-1], []),
        "size+1": (good + b"\0", []),
        "size+1-allowed": (good + b"\0", ["--allow-trailing"]),
        "empty": (b"", []),
        "header-only": (good[:25], []),
        "magic": (b"STKHALFKB" + good[9:], []),
        "version": (_u32(good, 9, 2), []),
        "features": (_u32(good, 13, 22527), []),
        "hidden-256": (_u32(good, 17, 256), []),
        "hidden-1024-on-128-body": (_u32(good, 17, 1024), []),
        "buckets": (_u32(good, 21, 7), []),
    }


def test_python_and_cpp_loaders_agree(tmp_path: Path, net128: Path) -> None:
    good = net128.read_bytes()
    disagreements = []
    for name, (data, flags) in _cases(good).items():
        f = tmp_path / f"{name}.nnue"
        f.write_bytes(data)
        cpp = subprocess.run([HARNESS, "checknet", str(f), *flags], capture_output=True, text=True)
        py = subprocess.run(
            [sys.executable, "-m", "stkref.checknet", str(f), *flags],
            capture_output=True,
            text=True,
        )
        expect_ok = name in ("good", "size+1-allowed")
        if (cpp.returncode == 0) != expect_ok or (py.returncode == 0) != expect_ok:
            disagreements.append(
                f"{name}: C++ exit {cpp.returncode} ({cpp.stderr.strip()[:120]}), "
                f"Python exit {py.returncode} ({py.stderr.strip()[:120]})"
            )
        if not expect_ok:
            assert cpp.returncode == 2 and py.returncode == 2, name
    assert not disagreements, "\n".join(disagreements)
