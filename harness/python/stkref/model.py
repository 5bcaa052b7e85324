"""The integer network as numpy arrays, in the shapes and dtypes of the .nnue file."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from .spec import L1_OUT, L2_OUT, NUM_FEATURES, NUM_OUTPUT_BUCKETS

I8 = npt.NDArray[np.int8]
I16 = npt.NDArray[np.int16]
I32 = npt.NDArray[np.int32]

# Name, dtype and shape (as a function of H) of every tensor, in file order.
# The dense layers are stored per bucket in the file; here they are stacked on axis 0.
TENSOR_LAYOUT: tuple[tuple[str, str], ...] = (
    ("ft_weight", "int16"),
    ("ft_bias", "int16"),
    ("psqt_weight", "int32"),
    ("l1_weight", "int8"),
    ("l1_bias", "int32"),
    ("l2_weight", "int8"),
    ("l2_bias", "int32"),
    ("out_weight", "int8"),
    ("out_bias", "int32"),
)


def tensor_shapes(hidden: int) -> dict[str, tuple[int, ...]]:
    b = NUM_OUTPUT_BUCKETS
    return {
        "ft_weight": (NUM_FEATURES, hidden),
        "ft_bias": (hidden,),
        "psqt_weight": (NUM_FEATURES, b),
        "l1_weight": (b, L1_OUT, hidden),
        "l1_bias": (b, L1_OUT),
        "l2_weight": (b, L2_OUT, L1_OUT),
        "l2_bias": (b, L2_OUT),
        "out_weight": (b, L2_OUT),
        "out_bias": (b,),
    }


@dataclass
class QuantizedModel:
    """Integer parameters of one STKHALFKA net. `clipped` counts values clipped per tensor
    when the model came from quantize_model (empty when read from a file)."""

    hidden: int
    ft_weight: I16
    ft_bias: I16
    psqt_weight: I32
    l1_weight: I8
    l1_bias: I32
    l2_weight: I8
    l2_bias: I32
    out_weight: I8
    out_bias: I32
    clipped: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        shapes = tensor_shapes(self.hidden)
        for name, dtype in TENSOR_LAYOUT:
            arr = getattr(self, name)
            if arr.dtype != np.dtype(dtype) or arr.shape != shapes[name]:
                raise ValueError(
                    f"tensor {name}: expected {dtype}{list(shapes[name])}, "
                    f"got {arr.dtype}{list(arr.shape)}"
                )

    def tensors(self) -> dict[str, np.ndarray]:
        return {name: getattr(self, name) for name, _ in TENSOR_LAYOUT}

    def digest(self) -> str:
        """SHA-256 over every tensor in TENSOR_LAYOUT order, each whole (the dense layers stacked
        over the buckets, not the file's per-bucket interleaving), little-endian on any host:
        equal digests mean equal parameters."""
        h = hashlib.sha256()
        for name, dtype in TENSOR_LAYOUT:
            le = np.dtype(dtype).newbyteorder("<")
            h.update(np.ascontiguousarray(getattr(self, name), dtype=le).tobytes())
        return h.hexdigest()

    def equals(self, other: QuantizedModel) -> bool:
        return self.hidden == other.hidden and all(
            np.array_equal(getattr(self, n), getattr(other, n)) for n, _ in TENSOR_LAYOUT
        )
