"""The engine batch contract (stkref.engine.run_batch): every way an engine process can fail to
answer is an EngineError naming it, never a silently short or shifted comparison. Fake engines
stand for the real one; each case is a defect of the engine or of the pipe."""

from __future__ import annotations

import sys
from pathlib import Path

import chess
import pytest

from stkref.engine import EngineError, check_engine, engine_classical_evals
from stkref.errors import InputError
from stkref.positions import Position

# A fake `stk eval --classical --batch FILE`: answers every position correctly, then does TAIL.
ANSWER = (
    "import json, os, signal, sys, time\n"
    "fens = [l.strip() for l in open(sys.argv[-1]) if l.strip()]\n"
    "out = [json.dumps({'line': n, 'fen': f, 'eval': 7}) for n, f in enumerate(fens, 1)]\n"
)


def _engine(tmp_path: Path, tail: str) -> str:
    path = tmp_path / "stk"
    path.write_text(f"#!{sys.executable}\n{ANSWER}{tail}\n")
    path.chmod(0o755)
    return str(path)


POSITIONS = [Position("t", str(i), chess.STARTING_FEN) for i in range(3)]


@pytest.mark.parametrize(
    ("tail", "match"),
    [
        # killed by a signal after a full answer (planted: `returncode > 0` lets -11 through)
        ("print('\\n'.join(out), flush=True); os.kill(os.getpid(), signal.SIGSEGV)", "status -11"),
        ("print('\\n'.join(out)); sys.exit(3)", "status 3"),
        ("print('\\n'.join(out[:-1]))", "printed 2 result lines for 3 positions"),
        ("print('\\n'.join([out[1], out[0], out[2]]))", "output line 1 reports line 2"),
        ("time.sleep(30)", "timed out after 1.0 s"),
    ],
)
def test_every_failure_of_the_engine_is_named(tmp_path: Path, tail: str, match: str):
    engine = _engine(tmp_path, tail)
    with pytest.raises(EngineError, match=match):
        engine_classical_evals(engine, POSITIONS, timeout_s=1.0)


def test_a_full_answer_is_read_in_order(tmp_path: Path):
    engine = _engine(tmp_path, "print('\\n'.join(out))")
    assert engine_classical_evals(engine, POSITIONS) == [7, 7, 7]


def test_a_missing_or_unrunnable_engine_is_an_input_error(tmp_path: Path):
    with pytest.raises(InputError, match="not found"):
        check_engine(str(tmp_path / "none"))
    (tmp_path / "plain").write_text("")
    with pytest.raises(InputError, match="not executable"):
        check_engine(str(tmp_path / "plain"))
