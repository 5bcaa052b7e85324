"""Independent model of stkref.engine's batch protocol (harness/python/README.md "CLI contract",
docs/faults.md "Engines that misbehave"): one JSON object per position, in order, its line
number and FEN echoed; any other answer is an EngineError, never a shifted comparison."""

from __future__ import annotations

import sys
from pathlib import Path

import chess
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stkref import engine
from stkref.positions import Position

FAKE = r"""
import json, sys
fault = sys.argv[2]
lines = [l.strip() for l in open(sys.argv[-1]) if l.strip()]
out = [{"line": i, "fen": f, "white": [i], "black": [i, i]} for i, f in enumerate(lines, 1)]
if fault == "drop" and out: out.pop()
if fault == "extra": out.append(dict(out[-1]) if out else {"line": 1, "fen": "x"})
if fault == "swap" and len(out) > 1: out[0], out[1] = out[1], out[0]
if fault == "line" and out: out[-1]["line"] += 1
if fault == "fen" and out: out[-1]["fen"] = out[-1]["fen"][0].swapcase() + out[-1]["fen"][1:]
if fault == "missing" and out: del out[-1]["black"]
text = [json.dumps(o) for o in out]
if fault == "garbage" and text: text[-1] = text[-1][:-1]
if fault == "blank": text = [t + "\n" for t in text]
print("\n".join(text))
sys.exit(3 if fault == "status" else 0)
"""

FAULTS = ["none", "blank", "drop", "extra", "swap", "line", "fen", "missing", "garbage", "status"]


def model_accepts(fault: str, n: int) -> bool:
    """Blank lines are no answers; anything else that is not one exact answer per position, in
    order, is refused."""
    if fault in ("none", "blank"):
        return True
    if fault == "swap":
        return n < 2
    if fault == "extra":
        return False
    return n == 0 and fault != "status"


def fens(n: int) -> list[Position]:
    board, out = chess.Board(), []
    for i in range(n):
        move = list(board.legal_moves)[i % 7]
        board.push(move)
        out.append(Position("t", f"p{i}", board.fen(en_passant="fen")))
    return out


# MODEL engine-batch-protocol
# checks: harness/python/stkref/engine.py  (an engine's batch answer accepted only when it is exact)
# contract: docs/faults.md#engines-that-misbehave-uciprocess
# planted: ci/mutants/model-engine-batch-protocol.patch  (the echoed line number checked on the first line only)
@pytest.mark.parametrize("fault", FAULTS)  # each fault, not a derandomized draw (rule_choice.py)
@settings(max_examples=4)
@given(n=st.integers(1, 4))
def test_run_batch_equals_model(
    tmp_path_factory: pytest.TempPathFactory, fault: str, n: int
) -> None:
    d = tmp_path_factory.mktemp("eng")
    script = d / "fake.py"
    script.write_text(FAKE)
    exe = d / "stk"
    exe.write_text(f'#!/bin/sh\nexec {sys.executable} {script} "$@"\n')
    exe.chmod(0o755)
    pos = fens(n)
    if model_accepts(fault, n):
        got = engine.run_batch(str(exe), ["features", fault], pos, ("white", "black"))
        assert [(o["line"], o["fen"], o["white"]) for o in got] == [
            (i, p.fen, [i]) for i, p in enumerate(pos, 1)
        ]
    else:
        with pytest.raises(engine.EngineError):
            engine.run_batch(str(exe), ["features", fault], pos, ("white", "black"))


def test_check_engine_verdicts(tmp_path: Path) -> None:
    exe = tmp_path / "stk"
    with pytest.raises(engine.InputError, match="not found"):
        engine.check_engine(str(exe))
    exe.write_text("#!/bin/sh\n")
    exe.chmod(0o644)
    with pytest.raises(engine.InputError, match="not executable"):
        engine.check_engine(str(exe))
    exe.chmod(0o755)
    assert engine.check_engine(str(exe)) == str(exe)
