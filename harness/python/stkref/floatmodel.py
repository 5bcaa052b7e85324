"""Float forward pass of the same graph (SPEC-NNUE.md "Float reference"): the drift baseline."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import chess
import numpy as np

from .features import active_features
from .oracle import output_bucket
from .spec import FLOAT_OUTPUT_CP


@dataclass(frozen=True)
class FloatEval:
    eval: float  # centipawns, side-to-move relative
    bucket: int
    psqt: float
    positional: float


class FloatModel:
    """Float checkpoint tensors as float64 (so the reference adds no rounding of its own)."""

    def __init__(self, checkpoint: Mapping[str, np.ndarray]) -> None:
        self.t = {k: np.asarray(v, dtype=np.float64) for k, v in checkpoint.items()}

    def _accumulate(self, features: list[int]) -> tuple[np.ndarray, np.ndarray]:
        rows = np.asarray(features, dtype=np.int64) + 1  # row 0 is padding
        acc = self.t["ft.bias"] + self.t["ft.weight"][rows].sum(axis=0)
        return acc, self.t["psqt.weight"][rows].sum(axis=0)

    @staticmethod
    def _transform(acc: np.ndarray) -> np.ndarray:
        half = acc.shape[0] // 2
        x = np.clip(acc[:half], 0.0, 1.0)
        y = np.clip(acc[half:], 0.0, 1.0)
        t: np.ndarray = x * y * 127.0 / 128.0
        return t

    def evaluate(self, board: chess.Board) -> FloatEval:
        acc_s, p_s = self._accumulate(active_features(board, board.turn))
        acc_o, p_o = self._accumulate(active_features(board, not board.turn))
        b = output_bucket(board)
        t = self.t
        inputs = np.concatenate([self._transform(acc_s), self._transform(acc_o)])
        h1 = np.clip(t["l1.weight"][b] @ inputs + t["l1.bias"][b], 0.0, 1.0)
        h2 = np.clip(t["l2.weight"][b] @ h1 + t["l2.bias"][b], 0.0, 1.0)
        o = float(t["out.weight"][b] @ h2 + t["out.bias"][b])
        positional = FLOAT_OUTPUT_CP * o
        psqt = float(p_s[b] - p_o[b])
        return FloatEval(positional + psqt, b, psqt, positional)


def evaluate_float(checkpoint: Mapping[str, np.ndarray], board: chess.Board) -> FloatEval:
    """One-off convenience; build a FloatModel once when evaluating many positions."""
    return FloatModel(checkpoint).evaluate(board)
