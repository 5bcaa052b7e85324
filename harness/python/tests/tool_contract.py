"""Helpers of the Python tools' fault contract tests (docs/faults.md "Python tools"): run an entry
point as `python -m MODULE` in a child process (optionally under the fault injector) and check
what it left: exit status, stderr, its JUnit reports and leftover temporaries."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
PACKAGES = REPO / "harness" / "python"
BUILD = REPO / "build" / "release"
# Absolute: the rows run in their own folders, where a relative path (a planted-defect check's
# STK_HARNESS=./build/...) would name nothing and LD_PRELOAD would silently load no injector.
HARNESS = Path(os.environ.get("STK_HARNESS") or BUILD / "harness" / "stk-harness").absolute()
ENGINE = Path(os.environ.get("STK_ENGINE") or BUILD / "engine" / "stk").absolute()
FAULT_LIB = Path(
    os.environ.get("STK_FAULT_LIB") or HARNESS.parent / "libstk-fault-inject.so"
).absolute()
SEEDED_NET = REPO / "golden" / "nets" / "stk-h128-seed1.nnue"
SEEDED_CKPT = REPO / "golden" / "nets" / "stk-h128-seed1.npz"


@dataclass
class Ran:
    returncode: int
    stdout: str
    stderr: str
    timed_out: bool = False

    def says(self) -> str:
        return (
            f"exit {self.returncode}\nstdout:\n{self.stdout[-3000:]}\n"
            f"stderr:\n{self.stderr[-3000:]}"
        )


def tool_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """This checkout's packages first (the sources under test shadow any installed copy)."""
    path = os.environ.get("PYTHONPATH", "")
    env = dict(os.environ, PYTHONPATH=str(PACKAGES) + (os.pathsep + path if path else ""))
    env.pop("LD_PRELOAD", None)
    return {**env, **(extra or {})}


def fault_env(folder: Path, n: int, sticky: bool, report: Path, errno: str = "ENOSPC") -> dict:
    """The injector's variables: the n-th write/fsync/rename/close under `folder` fails."""
    return {
        "LD_PRELOAD": str(FAULT_LIB),
        "STK_FAULT_DIR": str(folder),
        "STK_FAULT_OP": "any",
        "STK_FAULT_N": str(n),
        "STK_FAULT_ERRNO": errno,
        "STK_FAULT_STICKY": "1" if sticky else "0",
        "STK_FAULT_REPORT": str(report),
    }


def injected_calls(report: Path) -> int:
    fields = dict(kv.split("=") for kv in report.read_text().split()) if report.exists() else {}
    report.unlink(missing_ok=True)
    return int(fields.get("calls", 0))


def run_module(
    module: str,
    argv: list[str],
    cwd: Path,
    env: dict[str, str] | None = None,
    timeout: float = 180,
    stdout: int | None = None,
    max_memory: int | None = None,
) -> Ran:
    """`python -m module argv` in cwd; stdout captured unless a descriptor is given. With
    `max_memory` (bytes of address space) a run that reads without end fails with a MemoryError
    instead of taking the machine's memory."""
    try:
        p = subprocess.run(
            [sys.executable, "-m", module, *argv],
            cwd=cwd,
            env=tool_env(env),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE if stdout is None else stdout,
            stderr=subprocess.PIPE,
            timeout=timeout,
            preexec_fn=None if max_memory is None else lambda: _limit_memory(max_memory),
        )
    except subprocess.TimeoutExpired as e:
        err = e.stderr.decode(errors="replace") if isinstance(e.stderr, bytes) else ""
        return Ran(-1, "", err, timed_out=True)
    out = p.stdout.decode(errors="replace") if isinstance(p.stdout, bytes) else ""
    return Ran(p.returncode, out, p.stderr.decode(errors="replace"))


def _limit_memory(size: int) -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (size, size))


def closed_stdout() -> int:
    """The write end of a pipe whose reader is already closed (a `tool | head` that ended)."""
    r, w = os.pipe()
    os.close(r)
    return w


def leftover_temporaries(*folders: Path) -> list[str]:
    return [
        str(p)
        for d in folders
        if d.exists()
        for p in d.rglob("*")
        if ".tmp" in p.name and not p.is_symlink()
    ]


def junit_state(path: Path) -> str:
    """'absent', 'error' (a report whose run failed), 'pass' or 'fail' (a gate failed), or
    'not a file' (a FIFO or a device the test planted there: never opened here either)."""
    if not os.path.lexists(path):
        return "absent"
    if not stat.S_ISREG(os.stat(path).st_mode if os.path.exists(path) else 0):
        return "not a file"
    root = ET.parse(path).getroot()
    if root.find(".//error") is not None:
        return "error"
    return "fail" if root.find(".//failure") is not None else "pass"


def assert_failed_cleanly(ran: Ran, reports: list[Path], xsd: Path | None, *folders: Path) -> None:
    """The contract of a failed run: exit 2 (never a signal, never a hang), no traceback, every
    declared report an <error> report valid against the schema or absent, no temporary left."""
    from conftest import validate_junit

    assert not ran.timed_out, ran.says()
    assert ran.returncode == 2, ran.says()
    assert "Traceback" not in ran.stderr, ran.says()
    for report in reports:
        state = junit_state(report)
        assert state in ("absent", "error"), f"{report}: {state}\n{ran.says()}"
        if state == "error" and xsd is not None:
            validate_junit(xsd, report, measured=False)
    assert not leftover_temporaries(*folders), leftover_temporaries(*folders)
