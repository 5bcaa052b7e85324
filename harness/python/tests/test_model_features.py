"""Independent models of stkref.features (HalfKA indices) and stkref.oracle (integer inference),
written from ../shared/SPEC-NNUE.md, compared on generated positions."""

from __future__ import annotations

import chess
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stkref import features as feat
from stkref import oracle
from stkref.model import QuantizedModel, tensor_shapes

WHITE, BLACK = 0, 1


@st.composite
def positions(draw: st.DrawFn, max_pieces: int = 30) -> dict[int, tuple[int, int]]:
    """{square: (colour 0 white / 1 black, type P..K = 0..5)}: two kings plus up to 30 others."""
    squares = draw(st.lists(st.integers(0, 63), min_size=2, max_size=2 + max_pieces, unique=True))
    pos = {squares[0]: (WHITE, 5), squares[1]: (BLACK, 5)}
    for sq in squares[2:]:
        pos[sq] = (draw(st.integers(0, 1)), draw(st.integers(0, 4)))
    return pos


def to_board(pos: dict[int, tuple[int, int]], white_to_move: bool = True) -> chess.Board:
    board = chess.Board(None)
    for sq, (colour, ptype) in pos.items():
        board.set_piece_at(sq, chess.Piece(ptype + 1, colour == WHITE))
    board.turn = white_to_move
    return board


def model_features(pos: dict[int, tuple[int, int]], persp: int) -> list[int]:
    """SPEC-NNUE.md "Features", steps 1-5, literally."""
    ksq = next(s for s, (c, t) in pos.items() if c == persp and t == 5)
    o = 56 if persp == BLACK else 0
    k = ksq ^ o
    if k % 8 >= 4:
        o ^= 7
        k ^= 7
    bucket = (k // 8) * 4 + (k % 8)
    out = []
    for s, (c, t) in pos.items():
        if s == ksq:
            continue
        kind = t if c == persp else 5 + t
        out.append((bucket * 11 + kind) * 64 + (s ^ o))
    return sorted(out)


def persp_colour(persp: int) -> chess.Color:
    return chess.WHITE if persp == WHITE else chess.BLACK


# MODEL features-halfka-indices
# checks: harness/python/stkref/features.py  (HalfKA feature indices of one perspective)
# contract: ../shared/SPEC-NNUE.md#features-halfka-with-32-king-buckets-and-11-piece-kinds-22528-per-perspective
# planted: ci/mutants/model-features-halfka-indices.patch  (the file mirror only for kings on f-h)
@given(positions(), st.integers(0, 1))
def test_features_equal_spec_model(pos: dict[int, tuple[int, int]], persp: int) -> None:
    got = feat.active_features(to_board(pos), persp_colour(persp))
    want = model_features(pos, persp)
    assert got == want
    assert len(got) == len(pos) - 1
    assert all(0 <= i < 22528 for i in got)


def test_features_spec_test_vectors() -> None:
    board = chess.Board()
    w = feat.active_features(board, chess.WHITE)
    assert len(w) == 31
    assert {2127, 2120, 2811} <= set(w)
    assert feat.active_features(board, chess.BLACK) == w
    d = feat.decode(2811)
    assert (d.bucket, d.kind, d.square) == (3, 10, 59)


def colour_mirror(pos: dict[int, tuple[int, int]]) -> dict[int, tuple[int, int]]:
    return {s ^ 56: (1 - c, t) for s, (c, t) in pos.items()}


def file_mirror(pos: dict[int, tuple[int, int]]) -> dict[int, tuple[int, int]]:
    return {s ^ 7: (c, t) for s, (c, t) in pos.items()}


# MODEL features-colour-mirror
# checks: harness/python/stkref/features.py  (the black perspective of a position = the white one of its colour mirror)
# contract: ../shared/SPEC-NNUE.md#features-halfka-with-32-king-buckets-and-11-piece-kinds-22528-per-perspective
# planted: ci/mutants/model-features-colour-mirror.patch  (kinds own/opponent by white, not by the perspective)
@given(positions())
def test_features_colour_and_file_mirror(pos: dict[int, tuple[int, int]]) -> None:
    board = to_board(pos)
    mirrored = to_board(colour_mirror(pos))
    assert feat.active_features(board, chess.WHITE) == feat.active_features(mirrored, chess.BLACK)
    assert feat.active_features(board, chess.BLACK) == feat.active_features(mirrored, chess.WHITE)
    flipped = to_board(file_mirror(pos))
    for c in (chess.WHITE, chess.BLACK):
        assert feat.active_features(board, c) == feat.active_features(flipped, c)


@given(st.integers(0, 22527))
def test_decode_inverts_index(index: int) -> None:
    d = feat.decode(index)
    assert 0 <= d.bucket < 32 and 0 <= d.kind < 11 and 0 <= d.square < 64
    assert (d.bucket * 11 + d.kind) * 64 + d.square == index


@pytest.mark.parametrize("index", [-1, 22528])
def test_decode_refuses_outside(index: int) -> None:
    with pytest.raises(ValueError):
        feat.decode(index)


# ---------------------------------------------------------------- integer inference (oracle)


def random_model(seed: int, hidden: int = 128, wide: bool = False) -> QuantizedModel:
    """Random parameters over each type's full range when `wide` (wrap-around, saturation and
    negative shifts all happen), else small ones (the activations stay inside 0..127)."""
    rng = np.random.default_rng(seed)
    tensors = {}
    for name, shape in tensor_shapes(hidden).items():
        dtype = {"ft_weight": "int16", "ft_bias": "int16", "psqt_weight": "int32"}.get(
            name, "int8" if name.endswith("weight") else "int32"
        )
        info = np.iinfo(dtype)
        lo, hi = (info.min, info.max) if wide else (max(info.min, -200), min(info.max, 200))
        if dtype == "int32" and wide:
            lo, hi = -(2**31), 2**31 - 1
        tensors[name] = rng.integers(lo, hi, size=shape, endpoint=True, dtype=np.int64).astype(
            dtype
        )
    return QuantizedModel(hidden=hidden, **tensors)


MODELS = {"small": random_model(7), "wide": random_model(8, wide=True)}


def wrap_int(v: int, bits: int) -> int:
    m = 1 << bits
    v %= m
    return v - m if v >= m // 2 else v


def clamp(v: int, lo: int, hi: int) -> int:
    return lo if v < lo else hi if v > hi else v


def model_eval(m: QuantizedModel, pos: dict[int, tuple[int, int]], stm: int) -> int:
    """SPEC-NNUE.md "Integer inference" in plain Python integers."""
    hidden = m.hidden
    ft_w = m.ft_weight
    acc, psqt = {}, {}
    for c in (WHITE, BLACK):
        feats = model_features(pos, c)
        lanes = [int(x) for x in m.ft_bias]
        rows = ft_w[feats].astype(np.int64).sum(axis=0) if feats else np.zeros(hidden, np.int64)
        acc[c] = [wrap_int(lanes[j] + int(rows[j]), 16) for j in range(hidden)]
        psqt[c] = [wrap_int(sum(int(m.psqt_weight[f][b]) for f in feats), 32) for b in range(8)]
    b = clamp((len(pos) - 1) // 4, 0, 7)
    inp = []
    for c in (stm, 1 - stm):
        for j in range(hidden // 2):
            x = clamp(acc[c][j], 0, 127)
            y = clamp(acc[c][j + hidden // 2], 0, 127)
            inp.append((x * y) >> 7)
    h1 = []
    for i in range(16):
        s = int(m.l1_bias[b][i]) + sum(
            int(w) * v for w, v in zip(m.l1_weight[b][i], inp, strict=True)
        )
        h1.append(clamp(wrap_int(s, 32) >> 6, 0, 127))
    h2 = []
    for k in range(32):
        s = int(m.l2_bias[b][k]) + sum(
            int(w) * v for w, v in zip(m.l2_weight[b][k], h1, strict=True)
        )
        h2.append(clamp(wrap_int(s, 32) >> 6, 0, 127))
    s = wrap_int(
        int(m.out_bias[b]) + sum(int(w) * v for w, v in zip(m.out_weight[b], h2, strict=True)), 32
    )
    positional = s >> 4
    return positional + ((psqt[stm][b] - psqt[1 - stm][b]) >> 4)


# MODEL oracle-integer-eval
# checks: harness/python/stkref/oracle.py  (the integer forward pass of one position)
# contract: ../shared/SPEC-NNUE.md#integer-inference-the-engine-and-the-python-integer-oracle-compute-exactly-this
# planted: ci/mutants/model-oracle-integer-eval.patch  (the output bucket counts pieces without the -1)
@settings(max_examples=40)
@given(positions(), st.booleans(), st.sampled_from(sorted(MODELS)))
def test_oracle_equals_spec_model(
    pos: dict[int, tuple[int, int]], white_to_move: bool, which: str
) -> None:
    m = MODELS[which]
    parts = oracle.evaluate(m, to_board(pos, white_to_move))
    assert parts.bucket == min((len(pos) - 1) // 4, 7)
    assert parts.eval == model_eval(m, pos, WHITE if white_to_move else BLACK)


# MODEL oracle-mirror-symmetry
# checks: harness/python/stkref/oracle.py  (colour mirror and file mirror leave the evaluation unchanged)
# contract: ../shared/SPEC-NNUE.md#integer-inference-the-engine-and-the-python-integer-oracle-compute-exactly-this
# planted: ci/mutants/model-oracle-mirror-symmetry.patch  (the perspective order fixed to white first, not side to move)
@settings(max_examples=40)
@given(positions(), st.booleans(), st.sampled_from(sorted(MODELS)))
def test_oracle_mirror_symmetry(
    pos: dict[int, tuple[int, int]], white_to_move: bool, which: str
) -> None:
    m = MODELS[which]
    e = oracle.evaluate(m, to_board(pos, white_to_move)).eval
    assert oracle.evaluate(m, to_board(colour_mirror(pos), not white_to_move)).eval == e
    assert oracle.evaluate(m, to_board(file_mirror(pos), white_to_move)).eval == e


@given(st.integers(-(2**40), 2**40), st.integers(0, 8))
def test_oracle_shift_is_floor(value: int, bits: int) -> None:
    assert oracle.shift(value, bits) == value // (1 << bits)


def model_overflows(m: QuantizedModel, pos: dict[int, tuple[int, int]]) -> int:
    """Accumulator lanes whose true (wide) sum leaves int16, both perspectives."""
    n = 0
    for c in (WHITE, BLACK):
        wide = m.ft_bias.astype(np.int64) + m.ft_weight[model_features(pos, c)].astype(
            np.int64
        ).sum(axis=0)
        n += int(np.count_nonzero((wide < -32768) | (wide > 32767)))
    return n


# MODEL oracle-overflow-count
# checks: harness/python/stkref/oracle.py  (int16 accumulator lanes whose true sum left int16: the drift figure)
# contract: ../shared/SPEC-NNUE.md#integer-inference-the-engine-and-the-python-integer-oracle-compute-exactly-this
# planted: ci/mutants/model-oracle-overflow-count.patch  (a sum of exactly 32768 not counted)
@settings(max_examples=30)
@given(positions(), st.sampled_from(sorted(MODELS)), st.integers(0, 1))
def test_oracle_overflow_count_both_ways(
    pos: dict[int, tuple[int, int]], which: str, over: int
) -> None:
    m = MODELS[which]
    assert oracle.evaluate(m, to_board(pos)).overflows == model_overflows(m, pos)
    feats = model_features(pos, WHITE)
    if not feats:
        return
    # at the edge: lane 0 of one white feature's row is 1 on a bias of 32766 (+1): the white
    # sum is 32767 (keeps, no overflow) or 32768 (breaks by one: one lane overflowed)
    bias = np.zeros(m.hidden, np.int16)
    bias[0] = 32766 + over
    weights = np.zeros_like(m.ft_weight)
    weights[feats[0], 0] = 1
    edge = QuantizedModel(hidden=m.hidden, **{**m.tensors(), "ft_weight": weights, "ft_bias": bias})
    in_black = feats[0] in model_features(pos, BLACK)
    want = over * (1 + int(in_black))
    assert model_overflows(edge, pos) == want
    assert oracle.evaluate(edge, to_board(pos)).overflows == want
