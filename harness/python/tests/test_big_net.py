"""The H=1024 ("big") net: built only with STK_FULL=1 or -m slow (about 0.4 GB of memory)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from stkref.checkpoint import generate_checkpoint
from stkref.floatmodel import FloatModel
from stkref.netfile import read, write
from stkref.oracle import evaluate
from stkref.positions import curated_positions, random_positions
from stkref.quantize import quantize_model


@pytest.mark.slow
def test_h1024_round_trip_and_drift(tmp_path: Path) -> None:
    ckpt = generate_checkpoint(1024, 1)
    model = quantize_model(ckpt)
    path = tmp_path / "big.nnue"
    write(model, path)
    assert path.stat().st_size == 46_997_305
    back = read(path)
    assert back.equals(model)
    floats = FloatModel(ckpt)
    deltas = []
    for pos in curated_positions() + random_positions(30, seed=1):
        board = pos.board()
        e = evaluate(back, board)
        assert e.eval == evaluate(back, board.mirror()).eval
        deltas.append(abs(e.eval - floats.evaluate(board).eval))
    assert np.mean(deltas) < 10 and max(deltas) < 40, (np.mean(deltas), max(deltas))
