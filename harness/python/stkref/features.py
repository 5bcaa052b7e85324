"""HalfKA feature encoder (SPEC-NNUE.md "Features"), written on python-chess's board.

Independent of the C++ encoder on purpose: parity between the two is only evidence when the
two sides do not share code.
"""

from __future__ import annotations

from typing import NamedTuple

import chess

from .spec import NUM_FEATURES, NUM_KINDS

KIND_NAMES: tuple[str, ...] = (
    "own-pawn",
    "own-knight",
    "own-bishop",
    "own-rook",
    "own-queen",
    "opp-pawn",
    "opp-knight",
    "opp-bishop",
    "opp-rook",
    "opp-queen",
    "opp-king",
)


class Orientation(NamedTuple):
    """How one perspective sees the board: square xor mask and king bucket."""

    xor: int  # applied to every square: 56 flips ranks (black), 7 flips files (king on e-h)
    bucket: int  # 0..31 = rank * 4 + file of the oriented own king (file always a-d)


def orientation(king_square: chess.Square, perspective: chess.Color) -> Orientation:
    flip = 0 if perspective == chess.WHITE else 56
    k = king_square ^ flip
    if chess.square_file(k) >= 4:  # keep the own king on files a-d
        flip ^= 7
        k ^= 7
    return Orientation(flip, chess.square_rank(k) * 4 + chess.square_file(k))


def piece_kind(piece: chess.Piece, perspective: chess.Color) -> int:
    """0..4 own P..Q, 5..10 opponent P..K (python-chess piece types are 1-based)."""
    t = piece.piece_type - 1
    return t if piece.color == perspective else 5 + t


def feature_index(bucket: int, kind: int, oriented_square: int) -> int:
    return (bucket * NUM_KINDS + kind) * 64 + oriented_square


def active_features(board: chess.Board, perspective: chess.Color) -> list[int]:
    """Sorted active feature indices of `perspective` (pieces on board - 1 of them)."""
    king = board.king(perspective)
    if king is None:
        raise ValueError(f"no {chess.COLOR_NAMES[perspective]} king on board: {board.fen()}")
    orient = orientation(king, perspective)
    out: list[int] = []
    for square, piece in board.piece_map().items():
        if square == king:
            continue  # the own king is encoded by the bucket, not as a feature
        out.append(
            feature_index(orient.bucket, piece_kind(piece, perspective), square ^ orient.xor)
        )
    out.sort()
    return out


class DecodedFeature(NamedTuple):
    bucket: int
    kind: int
    square: int  # oriented square, 0..63

    def describe(self) -> str:
        return (
            f"(bucket {self.bucket}, kind {self.kind} {KIND_NAMES[self.kind]}, "
            f"square {self.square} {chess.SQUARE_NAMES[self.square]})"
        )


def decode(index: int) -> DecodedFeature:
    """Inverse of feature_index: (bucket, kind, oriented square)."""
    if not 0 <= index < NUM_FEATURES:
        raise ValueError(f"feature index {index} outside 0..{NUM_FEATURES - 1}")
    square = index % 64
    kind = (index // 64) % NUM_KINDS
    bucket = index // (64 * NUM_KINDS)
    return DecodedFeature(bucket, kind, square)
