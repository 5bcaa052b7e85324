"""Integer forward pass of SPEC-NNUE.md "Integer inference", in numpy.

Sums are taken wide (int64) and then wrapped to the spec's lane width, which is what modular
int16/int32 lanes compute in any order; a wide sum outside int16 is counted as an overflow for
the drift harness (a quantization-quality warning, not an error).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import chess
import numpy as np

from .features import active_features
from .model import QuantizedModel
from .spec import NUM_OUTPUT_BUCKETS


@dataclass(frozen=True)
class EvalParts:
    eval: int  # centipawns, side-to-move relative: positional + psqt
    bucket: int
    psqt: int
    positional: int
    overflows: int = 0  # int16 accumulator lanes whose true sum left int16 (both perspectives)


def wrap(values: np.ndarray, bits: int) -> np.ndarray:
    """Two's-complement wrap of wide integers to `bits` bits (still returned as int64)."""
    half = 1 << (bits - 1)
    return ((values.astype(np.int64) + half) % (1 << bits)) - half


def output_bucket(board: chess.Board) -> int:
    pieces = chess.popcount(board.occupied)
    return min(max((pieces - 1) // 4, 0), NUM_OUTPUT_BUCKETS - 1)


def accumulate(model: QuantizedModel, features: list[int]) -> tuple[np.ndarray, np.ndarray, int]:
    """(int16 accumulator as int64, int32 PSQT sums as int64, overflowed lanes)."""
    idx = np.asarray(features, dtype=np.int64)
    wide = model.ft_bias.astype(np.int64) + model.ft_weight[idx].astype(np.int64).sum(axis=0)
    overflows = int(np.count_nonzero((wide < -32768) | (wide > 32767)))
    psqt = wrap(model.psqt_weight[idx].astype(np.int64).sum(axis=0), 32)
    return wrap(wide, 16), psqt, overflows


def transform(acc: np.ndarray) -> np.ndarray:
    """Pairwise product of the clamped halves: (clamp(a,0,127) * clamp(b,0,127)) >> 7."""
    half = acc.shape[0] // 2
    x = np.clip(acc[:half], 0, 127)
    y = np.clip(acc[half:], 0, 127)
    product: np.ndarray = (x * y) >> 7
    return product


def dense(weight: np.ndarray, bias: np.ndarray, inputs: np.ndarray) -> np.ndarray:
    """int32 affine sum: computed wide, wrapped like an int32 lane would be."""
    return wrap(bias.astype(np.int64) + weight.astype(np.int64) @ inputs, 32)


def clipped_relu(sums: np.ndarray) -> np.ndarray:
    out: np.ndarray = np.clip(sums >> 6, 0, 127)  # numpy >> on signed ints: arithmetic shift
    return out


def load_model(path: str | os.PathLike[str]) -> QuantizedModel:
    """A net file as is, or a float checkpoint through the one quantizer (same as export)."""
    from .checkpoint import load_checkpoint
    from .netfile import read
    from .quantize import quantize_model

    if os.fspath(path).endswith(".nnue"):
        return read(path)
    return quantize_model(load_checkpoint(path))


def shift(value: int, bits: int) -> int:
    """Arithmetic right shift = floor division by 2**bits (C++20 defines >> this way too);
    truncation toward zero would be wrong by 1 cp on most negative values."""
    return value >> bits


def evaluate(model: QuantizedModel, board: chess.Board) -> EvalParts:
    stm, opp = board.turn, not board.turn
    acc_s, psqt_s, ov_s = accumulate(model, active_features(board, stm))
    acc_o, psqt_o, ov_o = accumulate(model, active_features(board, opp))
    b = output_bucket(board)
    inputs = np.concatenate([transform(acc_s), transform(acc_o)])
    h1 = clipped_relu(dense(model.l1_weight[b], model.l1_bias[b], inputs))
    h2 = clipped_relu(dense(model.l2_weight[b], model.l2_bias[b], h1))
    out = int(model.out_bias[b]) + int(model.out_weight[b].astype(np.int64) @ h2)
    out = int(wrap(np.array([out]), 32)[0])
    positional = shift(out, 4)
    psqt = shift(int(psqt_s[b]) - int(psqt_o[b]), 4)
    return EvalParts(positional + psqt, b, psqt, positional, ov_s + ov_o)
