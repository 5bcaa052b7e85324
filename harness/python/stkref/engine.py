"""Drives the C++ engine's batch commands (the CLI contract in the stkref README).

  stk features --batch FILE           -> {"line", "fen", "white", "black"} per input line
  stk eval --net NET --batch FILE     -> {"line", "fen", "eval", "bucket", "psqt", "positional"}

The engine is a separate process fed a file of normalized FENs; its output is checked line
by line (count, line numbers and the echoed FEN), so a dropped or reordered line is caught
instead of silently shifting every comparison after it.
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .errors import InputError
from .positions import Position


class EngineError(InputError):
    """The engine ran but did not produce a usable answer (a check that could not run: exit 2
    where a tool cannot go on without it)."""


def check_engine(path: str) -> str:
    if not os.path.isfile(path):
        raise InputError(f"{path}: engine binary not found")
    if not os.access(path, os.X_OK):
        raise InputError(f"{path}: engine binary is not executable")
    return os.path.abspath(path)


def run_batch(
    engine: str,
    command: Sequence[str],
    positions: Sequence[Position],
    required: Sequence[str],
    timeout_s: float = 600.0,
) -> list[dict[str, Any]]:
    """Runs `engine *command --batch FILE` over positions; one validated JSON object each."""
    with tempfile.TemporaryDirectory(prefix="stkref-batch-") as tmp:
        batch = Path(tmp) / "positions.fen"
        batch.write_text("".join(p.fen + "\n" for p in positions), encoding="utf-8")
        argv = [engine, *command, "--batch", str(batch)]
        try:
            proc = subprocess.run(argv, capture_output=True, text=True, timeout=timeout_s)
        except subprocess.TimeoutExpired as e:
            raise EngineError(f"`{' '.join(argv)}` timed out after {timeout_s} s") from e
        except OSError as e:
            raise EngineError(f"`{' '.join(argv)}` could not start: {e}") from e
    if proc.returncode != 0:
        raise EngineError(
            f"`{' '.join(command)} --batch` exited with status {proc.returncode}; "
            f"stderr: {proc.stderr.strip()[-2000:]}"
        )
    lines = [ln for ln in proc.stdout.splitlines() if ln.strip()]
    if len(lines) != len(positions):
        raise EngineError(
            f"`{' '.join(command)} --batch` printed {len(lines)} result lines for "
            f"{len(positions)} positions"
        )
    results: list[dict[str, Any]] = []
    for i, (text, pos) in enumerate(zip(lines, positions, strict=True), start=1):
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as e:
            raise EngineError(f"output line {i} is not JSON ({e}): {text[:200]!r}") from e
        if not isinstance(obj, dict):
            raise EngineError(f"output line {i} is not a JSON object: {text[:200]!r}")
        missing = [k for k in ("line", "fen", *required) if k not in obj]
        if missing:
            raise EngineError(f"output line {i} lacks {missing}: {text[:200]!r}")
        if obj["line"] != i:
            raise EngineError(f"output line {i} reports line {obj['line']}: output out of step")
        if str(obj["fen"]).strip() != pos.fen:
            raise EngineError(f"output line {i} echoes fen {obj['fen']!r}, sent {pos.fen!r}")
        results.append(obj)
    return results


def engine_features(
    engine: str, positions: Sequence[Position], timeout_s: float = 600.0
) -> list[tuple[list[int], list[int]]]:
    """(white, black) index lists per position, exactly as the engine printed them."""
    out = []
    for i, obj in enumerate(
        run_batch(engine, ["features"], positions, ("white", "black"), timeout_s), start=1
    ):
        pair = []
        for key in ("white", "black"):
            v = obj[key]
            if not isinstance(v, list) or not all(isinstance(x, int) for x in v):
                raise EngineError(f"output line {i}: '{key}' is not a list of integers")
            pair.append(v)
        out.append((pair[0], pair[1]))
    return out


EVAL_KEYS = ("eval", "bucket", "psqt", "positional")


def engine_evals(
    engine: str,
    net: str,
    positions: Sequence[Position],
    timeout_s: float = 600.0,
    extra: Sequence[str] = (),
) -> list[dict[str, int]]:
    """`extra` goes between `--net NET` and `--batch` (e.g. `--impl scalar`)."""
    out = []
    for i, obj in enumerate(
        # An absolute path: a net named "-x.nnue" is never read as an option of `stk eval`.
        run_batch(
            engine, ["eval", "--net", os.path.abspath(net), *extra], positions, EVAL_KEYS, timeout_s
        ),
        start=1,
    ):
        if not all(isinstance(obj[k], int) for k in EVAL_KEYS):
            raise EngineError(f"output line {i}: {list(EVAL_KEYS)} must be integers")
        out.append({k: int(obj[k]) for k in EVAL_KEYS})
    return out


def engine_classical_evals(
    engine: str, positions: Sequence[Position], timeout_s: float = 600.0
) -> list[int]:
    """The classical evaluation (side to move, cp) of each position: `stk eval --classical`."""
    out = []
    for i, obj in enumerate(
        run_batch(engine, ["eval", "--classical"], positions, ("eval",), timeout_s), start=1
    ):
        if not isinstance(obj["eval"], int):
            raise EngineError(f"output line {i}: 'eval' must be an integer")
        out.append(int(obj["eval"]))
    return out
