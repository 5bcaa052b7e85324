"""Constants of the STKHALFKA contract (SPEC-NNUE.md), in one place."""

from typing import Final

NUM_FEATURES: Final = 22528  # 32 king buckets * 11 piece kinds * 64 squares
NUM_KINDS: Final = 11
NUM_KING_BUCKETS: Final = 32
NUM_OUTPUT_BUCKETS: Final = 8
ALLOWED_HIDDEN: Final = (128, 1024)
L1_OUT: Final = 16
L2_OUT: Final = 32

MAGIC: Final = b"STKHALFKA"
VERSION: Final = 1
HEADER_SIZE: Final = 25

# Quantization scales (float value * scale, round half to even, clip).
FT_SCALE: Final = 127
DENSE_WEIGHT_SCALE: Final = 64
DENSE_BIAS_SCALE: Final = 127 * 64  # 8128: activations (x127) times weights (x64)
PSQT_SCALE: Final = 16
FLOAT_OUTPUT_CP: Final = 508  # 8128 / 16: float output unit in centipawns


def net_file_size(hidden: int) -> int:
    """Exact byte size of a version-1 net file with `hidden` accumulator lanes."""
    per_bucket = L1_OUT * hidden + 4 * L1_OUT + L2_OUT * L1_OUT + 4 * L2_OUT + L2_OUT + 4
    return (
        HEADER_SIZE
        + 2 * NUM_FEATURES * hidden
        + 2 * hidden
        + 4 * NUM_FEATURES * NUM_OUTPUT_BUCKETS
        + NUM_OUTPUT_BUCKETS * per_bucket
    )
