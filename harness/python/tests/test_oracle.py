from __future__ import annotations

from pathlib import Path

import chess
import numpy as np
import pytest
from conftest import zero_checkpoint

from stkref.checkpoint import Checkpoint
from stkref.features import active_features
from stkref.floatmodel import FloatModel
from stkref.model import QuantizedModel
from stkref.oracle import accumulate, clipped_relu, evaluate, output_bucket, transform, wrap
from stkref.positions import curated_positions, random_positions
from stkref.quantize import quantize_model


@pytest.fixture()
def zero_model() -> QuantizedModel:
    return quantize_model(zero_checkpoint())


def test_shift_is_floor_on_negatives() -> None:
    assert (np.array([-1, -64, -65, -127, 63, 64]) >> 6).tolist() == [-1, -1, -2, -2, 0, 1]
    assert clipped_relu(np.array([-1, -6400, 63, 64, 127 * 64 + 63, 128 * 64])).tolist() == [
        0,
        0,
        0,
        1,
        127,
        127,
    ]


@pytest.mark.parametrize("out_bias,expected", [(-1, -1), (-16, -1), (-17, -2), (15, 0), (16, 1)])
def test_positional_shift_floors(zero_model: QuantizedModel, out_bias: int, expected: int) -> None:
    board = chess.Board()
    zero_model.out_bias[output_bucket(board)] = out_bias
    e = evaluate(zero_model, board)
    assert e.positional == expected and e.psqt == 0 and e.eval == expected


def test_psqt_shift_floors(zero_model: QuantizedModel) -> None:
    board = chess.Board("4k3/8/8/8/8/8/8/4K2R w - - 0 1")
    b = output_bucket(board)
    rook_white = active_features(board, chess.WHITE)
    rook_black = active_features(board, chess.BLACK)
    zero_model.psqt_weight[rook_white, b] = 0
    zero_model.psqt_weight[rook_black, b] = 0
    # white perspective sum 0, black perspective sum +1: (0 - 1) >> 4 = -1, not 0
    zero_model.psqt_weight[[i for i in rook_black if i not in rook_white][0], b] = 1
    assert evaluate(zero_model, board).psqt == -1
    board.turn = chess.BLACK
    assert evaluate(zero_model, board).psqt == 0  # (1 - 0) >> 4


def test_accumulator_wraps_and_counts_overflow(zero_model: QuantizedModel) -> None:
    board = chess.Board("4k3/8/8/8/8/8/8/4K3 w - - 0 1")
    feats = active_features(board, chess.WHITE)
    zero_model.ft_bias[:] = 32767
    zero_model.ft_weight[feats[0], :4] = [1, 2, -1, 0]
    acc, _psqt, overflows = accumulate(zero_model, feats)
    assert acc[:4].tolist() == [-32768, -32767, 32766, 32767]
    assert overflows == 2  # lanes 0 and 1 left int16
    black_overflows = accumulate(zero_model, active_features(board, chess.BLACK))[2]
    assert evaluate(zero_model, board).overflows == 2 + black_overflows


def test_wrap_helper() -> None:
    assert wrap(np.array([32768, -32769, 65535, 2**31]), 16).tolist() == [-32768, 32767, -1, 0]
    assert wrap(np.array([2**31, -(2**31) - 1]), 32).tolist() == [-(2**31), 2**31 - 1]


def test_transform() -> None:
    acc = np.array([127, 200, -5, 64, 127, 127, 127, 64])
    assert transform(acc).tolist() == [126, 126, 0, 32]  # 200 clamps to 127; -5 to 0


def test_output_bucket() -> None:
    assert output_bucket(chess.Board()) == 7
    assert output_bucket(chess.Board("4k3/8/8/8/8/8/8/4K3 w - - 0 1")) == 0
    assert output_bucket(chess.Board("4k3/8/8/8/8/8/P7/3PK3 w - - 0 1")) == 0  # 4 pieces
    assert output_bucket(chess.Board("4k3/8/8/8/8/8/PP6/3PK3 w - - 0 1")) == 1  # 5 pieces
    for pos in random_positions(40, seed=11):
        n = chess.popcount(pos.board().occupied)
        assert output_bucket(pos.board()) == min(max((n - 1) // 4, 0), 7)


def reference_eval(model: QuantizedModel, board: chess.Board) -> int:
    """The spec's integer inference with Python ints and loops (no numpy)."""

    def acc(color: chess.Color) -> tuple[list[int], list[int]]:
        a = [int(x) for x in model.ft_bias]
        p = [0] * 8
        for f in active_features(board, color):
            a = [x + int(w) for x, w in zip(a, model.ft_weight[f])]
            p = [x + int(w) for x, w in zip(p, model.psqt_weight[f])]
        return [((x + 32768) % 65536) - 32768 for x in a], p

    n = bin(board.occupied).count("1")
    b = min(max((n - 1) // 4, 0), 7)
    inputs: list[int] = []
    (acc_s, p_s), (acc_o, p_o) = acc(board.turn), acc(not board.turn)
    h = model.hidden // 2
    for a in (acc_s, acc_o):
        inputs += [(min(max(a[j], 0), 127) * min(max(a[j + h], 0), 127)) >> 7 for j in range(h)]
    h1 = [
        min(
            max(
                (
                    int(model.l1_bias[b][i])
                    + sum(int(w) * x for w, x in zip(model.l1_weight[b][i], inputs))
                )
                >> 6,
                0,
            ),
            127,
        )
        for i in range(16)
    ]
    h2 = [
        min(
            max(
                (
                    int(model.l2_bias[b][k])
                    + sum(int(w) * x for w, x in zip(model.l2_weight[b][k], h1))
                )
                >> 6,
                0,
            ),
            127,
        )
        for k in range(32)
    ]
    out = int(model.out_bias[b]) + sum(int(w) * x for w, x in zip(model.out_weight[b], h2))
    return (out >> 4) + ((p_s[b] - p_o[b]) >> 4)


def test_oracle_matches_plain_python(model128: QuantizedModel) -> None:
    for pos in curated_positions()[::4] + random_positions(4, seed=2):
        assert evaluate(model128, pos.board()).eval == reference_eval(model128, pos.board())


def float_oracle_gap(ckpt: Checkpoint, model: QuantizedModel) -> tuple[float, float]:
    """(mean, max) |oracle - float| cp over curated and random positions."""
    floats = FloatModel(ckpt)
    deltas = [
        abs(evaluate(model, p.board()).eval - floats.evaluate(p.board()).eval)
        for p in curated_positions() + random_positions(60, seed=13)
    ]
    return float(np.mean(deltas)), float(np.max(deltas))


FLOAT_GAP_MEAN_CP = 8.0
FLOAT_GAP_MAX_CP = 25.0


def test_float_and_oracle_close(ckpt128: Checkpoint, model128: QuantizedModel) -> None:
    mean, worst = float_oracle_gap(ckpt128, model128)
    assert mean <= FLOAT_GAP_MEAN_CP and worst <= FLOAT_GAP_MAX_CP, (mean, worst)


# Planted defect: exporting rows 0..22527 (feature f at row f) instead of dropping the padding
# row shifts every feature by one; the float-vs-oracle check must see it.
def test_planted_padding_row_kept_caught(
    monkeypatch: pytest.MonkeyPatch, ckpt128: Checkpoint
) -> None:
    import stkref.quantize as q

    monkeypatch.setattr(q, "_drop_padding_row", lambda w: w[:-1])
    mean, worst = float_oracle_gap(ckpt128, quantize_model(ckpt128))
    assert mean > FLOAT_GAP_MEAN_CP or worst > FLOAT_GAP_MAX_CP


def test_colour_mirror_symmetry_exact(model128: QuantizedModel) -> None:
    for pos in random_positions(120, seed=17) + curated_positions():
        board = pos.board()
        assert evaluate(model128, board).eval == evaluate(model128, board.mirror()).eval, pos.fen


def test_horizontal_mirror_symmetry_exact(model128: QuantizedModel) -> None:
    for pos in random_positions(60, seed=19):
        board = pos.board()
        board.castling_rights = chess.BB_EMPTY  # castling has no horizontal mirror
        board.ep_square = None
        flipped = board.transform(chess.flip_horizontal)
        assert evaluate(model128, board).eval == evaluate(model128, flipped).eval, pos.fen


def test_evals_are_realistic(model128: QuantizedModel) -> None:
    evals = [evaluate(model128, p.board()) for p in random_positions(80, seed=23)]
    positional = np.array([e.positional for e in evals])
    assert np.std(positional) > 10  # not all clamped to one value
    assert np.median(np.abs(positional)) < 500
    assert sum(e.overflows for e in evals) == 0


def test_load_model_from_checkpoint_equals_export(
    tmp_path: Path, net128: Path, ckpt128: Checkpoint
) -> None:
    from stkref.checkpoint import save_checkpoint
    from stkref.oracle import load_model

    path = tmp_path / "c.npz"
    save_checkpoint(ckpt128, path)
    assert load_model(str(path)).equals(load_model(str(net128)))
