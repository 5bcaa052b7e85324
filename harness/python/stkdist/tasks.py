"""What a worker runs: one chunk, an argument vector of the project's own commands, in a scratch
folder of its own; the result file it wrote comes back as text."""

from __future__ import annotations

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
    result_text: str  # the chunk's match result file ("" when it wrote none)
    output_tail: str  # the last lines of its stdout and stderr
    host: str


def run_chunk(
    chunk: int,
    argv: list[str],
    result_name: str,
    expected: dict[str, str],
    timeout_s: float,
) -> ChunkOutcome:
    """Runs `argv` + `--out-dir <scratch>` and returns <scratch>/match/<result_name>."""
    artifacts.verify(expected)
    with tempfile.TemporaryDirectory(prefix=f"stkdist-chunk{chunk}-") as scratch:
        proc = subprocess.run(
            [*argv, f"--out-dir={scratch}"],
            capture_output=True,
            text=True,
            timeout=timeout_s,
            check=False,
        )
        result = Path(scratch) / "match" / result_name
        text = result.read_text() if result.exists() else ""
    tail = "\n".join((proc.stdout + proc.stderr).splitlines()[-20:])
    return ChunkOutcome(chunk, proc.returncode, text, tail, socket.gethostname())
