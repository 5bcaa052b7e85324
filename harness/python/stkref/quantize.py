"""The one quantization of a float checkpoint (SPEC-NNUE.md "Float checkpoint and quantization").

Both the exporter and the integer oracle call quantize_model, so a net on disk and the oracle's
model can never come from two different rounding rules. Clipping is counted per tensor and
reported, never silent.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from .errors import InputError
from .model import QuantizedModel
from .spec import (
    ALLOWED_HIDDEN,
    DENSE_BIAS_SCALE,
    DENSE_WEIGHT_SCALE,
    FT_SCALE,
    L1_OUT,
    L2_OUT,
    NUM_FEATURES,
    NUM_OUTPUT_BUCKETS,
    PSQT_SCALE,
)

# checkpoint key -> (model field, scale, integer dtype)
QUANT_TABLE: tuple[tuple[str, str, int, str], ...] = (
    ("ft.weight", "ft_weight", FT_SCALE, "int16"),
    ("ft.bias", "ft_bias", FT_SCALE, "int16"),
    ("psqt.weight", "psqt_weight", PSQT_SCALE, "int32"),
    ("l1.weight", "l1_weight", DENSE_WEIGHT_SCALE, "int8"),
    ("l1.bias", "l1_bias", DENSE_BIAS_SCALE, "int32"),
    ("l2.weight", "l2_weight", DENSE_WEIGHT_SCALE, "int8"),
    ("l2.bias", "l2_bias", DENSE_BIAS_SCALE, "int32"),
    ("out.weight", "out_weight", DENSE_WEIGHT_SCALE, "int8"),
    ("out.bias", "out_bias", DENSE_BIAS_SCALE, "int32"),
)
PADDED_KEYS: tuple[str, ...] = ("ft.weight", "psqt.weight")


def checkpoint_shapes(hidden: int) -> dict[str, tuple[int, ...]]:
    b = NUM_OUTPUT_BUCKETS
    return {
        "ft.weight": (NUM_FEATURES + 1, hidden),
        "ft.bias": (hidden,),
        "psqt.weight": (NUM_FEATURES + 1, b),
        "l1.weight": (b, L1_OUT, hidden),
        "l1.bias": (b, L1_OUT),
        "l2.weight": (b, L2_OUT, L1_OUT),
        "l2.bias": (b, L2_OUT),
        "out.weight": (b, L2_OUT),
        "out.bias": (b,),
    }


def infer_hidden(checkpoint: Mapping[str, np.ndarray]) -> int:
    if "ft.weight" not in checkpoint:
        raise InputError("checkpoint: missing tensor 'ft.weight'")
    shape = np.shape(checkpoint["ft.weight"])
    if len(shape) != 2 or shape[1] not in ALLOWED_HIDDEN:
        raise InputError(
            f"checkpoint: tensor 'ft.weight' has shape {list(shape)}; expected "
            f"[{NUM_FEATURES + 1}, H] with H = 128 or 1024"
        )
    return int(shape[1])


def validate_checkpoint(checkpoint: Mapping[str, np.ndarray]) -> int:
    """Checks keys, shapes, finiteness and the zero padding rows; returns H."""
    hidden = infer_hidden(checkpoint)
    shapes = checkpoint_shapes(hidden)
    missing = sorted(set(shapes) - set(checkpoint))
    unknown = sorted(set(checkpoint) - set(shapes))
    if missing or unknown:
        raise InputError(
            f"checkpoint: keys differ from the spec: missing {missing}, unknown {unknown}"
        )
    for key, shape in shapes.items():
        arr = np.asarray(checkpoint[key])
        if arr.shape != shape:
            raise InputError(
                f"checkpoint: tensor '{key}' has shape {list(arr.shape)}, "
                f"expected {list(shape)} (H={hidden})"
            )
        if not np.issubdtype(arr.dtype, np.floating):
            raise InputError(f"checkpoint: tensor '{key}' has dtype {arr.dtype}, expected float")
        bad = ~np.isfinite(arr)
        if bad.any():
            first = tuple(int(i) for i in np.argwhere(bad)[0])
            raise InputError(
                f"checkpoint: tensor '{key}' holds {int(bad.sum())} NaN/inf "
                f"values (first at index {list(first)}: {arr[first]})"
            )
    for key in PADDED_KEYS:
        # A nonzero row 0 means the trainer put feature f at row f, not f+1: an off-by-one
        # that would shift every feature after export.
        row0 = np.asarray(checkpoint[key])[0]
        if np.any(row0 != 0):
            raise InputError(
                f"checkpoint: tensor '{key}' row 0 (the padding row) is not all "
                f"zero ({int(np.count_nonzero(row0))} nonzero values)"
            )
    return hidden


def _round(x: np.ndarray) -> np.ndarray:
    """Round half to even (np.rint): the spec's rounding rule."""
    rounded: np.ndarray = np.rint(x)
    return rounded


def _drop_padding_row(w: np.ndarray) -> np.ndarray:
    """Feature f lives in checkpoint row f+1; row 0 is padding and is not exported."""
    return w[1:]


def quantize_tensor(values: np.ndarray, scale: int, dtype: str) -> tuple[np.ndarray, int]:
    """float -> scaled, rounded half to even, clipped to dtype; returns (array, clipped count)."""
    info = np.iinfo(dtype)
    scaled = _round(np.asarray(values, dtype=np.float64) * scale)
    clipped = int(np.count_nonzero((scaled < info.min) | (scaled > info.max)))
    return np.clip(scaled, info.min, info.max).astype(dtype), clipped


def quantize_model(checkpoint: Mapping[str, np.ndarray]) -> QuantizedModel:
    hidden = validate_checkpoint(checkpoint)
    fields: dict[str, np.ndarray] = {}
    clipped: dict[str, int] = {}
    for key, name, scale, dtype in QUANT_TABLE:
        values = np.asarray(checkpoint[key])
        if key in PADDED_KEYS:
            values = _drop_padding_row(values)
        fields[name], clipped[key] = quantize_tensor(values, scale, dtype)
    return QuantizedModel(hidden=hidden, clipped=clipped, **fields)
