from __future__ import annotations

import chess
import pytest

from stkref.features import active_features, decode, feature_index, orientation
from stkref.positions import SPEC_VECTORS, curated_positions, random_positions
from stkref.spec import NUM_FEATURES

PIECE_LETTERS = "PNBRQK"


def brute_force(board: chess.Board, perspective: chess.Color) -> list[int]:
    """The spec's formula restated with ranks and files instead of xor masks."""
    ksq = board.king(perspective)
    assert ksq is not None
    krank, kfile = divmod(ksq, 8)
    if perspective == chess.BLACK:
        krank = 7 - krank
    flip_files = kfile >= 4
    if flip_files:
        kfile = 7 - kfile
    bucket = krank * 4 + kfile
    out = []
    for sq in range(64):
        piece = board.piece_at(sq)
        if piece is None or sq == ksq:
            continue
        rank, file = divmod(sq, 8)
        if perspective == chess.BLACK:
            rank = 7 - rank
        if flip_files:
            file = 7 - file
        kind = PIECE_LETTERS.index(piece.symbol().upper()) + (
            0 if piece.color == perspective else 5
        )
        out.append(bucket * 704 + kind * 64 + rank * 8 + file)
    return sorted(out)


@pytest.mark.parametrize("vid,fen,color,bucket,required,count", SPEC_VECTORS)
def test_spec_vectors(
    vid: str, fen: str, color: chess.Color, bucket: int, required: tuple[int, ...], count: int
) -> None:
    feats = active_features(chess.Board(fen), color)
    assert len(feats) == count
    for r in required:
        assert r in feats
    assert {decode(i).bucket for i in feats} == {bucket}


def test_spec_vector_decoding() -> None:
    assert tuple(decode(2127)) == (3, 0, 15)  # own pawn a2 seen mirrored on h2
    assert tuple(decode(2120)) == (3, 0, 8)
    assert tuple(decode(2811)) == (3, 10, 59)  # enemy king e8 -> d8
    start = chess.Board()
    assert active_features(start, chess.WHITE) == active_features(start, chess.BLACK)


def test_matches_brute_force() -> None:
    positions = curated_positions() + random_positions(150, seed=7)
    for pos in positions:
        board = pos.board()
        for color in chess.COLORS:
            assert active_features(board, color) == brute_force(board, color), (pos.fen, color)


def test_count_is_pieces_minus_one_and_sorted_unique() -> None:
    for pos in random_positions(60, seed=3):
        board = pos.board()
        n = chess.popcount(board.occupied)
        for color in chess.COLORS:
            f = active_features(board, color)
            assert len(f) == n - 1
            assert f == sorted(set(f))
            assert all(0 <= i < NUM_FEATURES for i in f)


def test_colour_mirror_swaps_perspectives() -> None:
    for pos in curated_positions() + random_positions(40, seed=5):
        board = pos.board()
        mirrored = board.mirror()
        assert active_features(board, chess.WHITE) == active_features(mirrored, chess.BLACK)
        assert active_features(board, chess.BLACK) == active_features(mirrored, chess.WHITE)


def test_orientation_keeps_king_on_files_a_to_d() -> None:
    for color in chess.COLORS:
        seen = set()
        for ksq in range(64):
            o = orientation(ksq, color)
            assert 0 <= o.bucket < 32
            assert chess.square_file(ksq ^ o.xor) < 4
            seen.add(o.bucket)
        assert seen == set(range(32))


def test_decode_inverts_index() -> None:
    for idx in range(0, NUM_FEATURES, 7):
        b, k, s = decode(idx)
        assert feature_index(b, k, s) == idx
    with pytest.raises(ValueError):
        decode(NUM_FEATURES)
