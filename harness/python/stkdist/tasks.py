"""What a worker runs: one chunk, an argument vector of the project's own commands (never a shell
string), in a scratch folder of its own; the files it wrote there come back as text."""

from __future__ import annotations

import signal
import socket
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from stkdist import artifacts


@dataclass(frozen=True)
class ChunkOutcome:
    chunk: int
    exit_code: int
    files: dict[str, str]  # each file asked for that the chunk wrote, by its name in the scratch
    output_tail: str  # the last lines of its stdout and stderr
    host: str


def run_chunk(
    chunk: int,
    argv: list[str],
    scratch_options: list[tuple[str, str]],
    outputs: list[str],
    expected: dict[str, str],
    timeout_s: float,
    shipped: dict[str, bytes] | None = None,
) -> ChunkOutcome:
    """Runs `argv` + `OPTION=<scratch>/NAME` for each (OPTION, NAME) of `scratch_options` and
    returns the files `outputs` (names under the scratch folder) it wrote. `shipped`: files
    (path -> bytes) installed on this worker first."""
    artifacts.install(shipped or {}, expected)
    artifacts.verify(expected)
    with tempfile.TemporaryDirectory(prefix=f"stkdist-chunk{chunk}-") as scratch:
        placed = [f"{option}={Path(scratch) / name}" for option, name in scratch_options]
        proc = subprocess.run(
            [*argv, *placed], capture_output=True, text=True, timeout=timeout_s, check=False
        )
        files = {}
        for name in outputs:
            path = Path(scratch) / name
            if path.exists():
                files[name] = path.read_text()
    tail = "\n".join((proc.stdout + proc.stderr).splitlines()[-20:])
    if proc.returncode == -signal.SIGILL:  # built for instructions this machine lacks
        tail = f"this worker's CPU cannot run {argv[0]} (illegal instruction)\n{tail}"
    return ChunkOutcome(chunk, proc.returncode, files, tail, socket.gethostname())
