"""Reader and writer of STKHALFKA version-1 `.nnue` files (SPEC-NNUE.md "Network file").

Every number is decoded with an explicit little-endian dtype ('<i2', '<i4', 'i1'), so the
result never depends on host byte order. Loading is all-or-nothing: nothing is returned, and
no caller state is touched, unless the whole file passed every check.
"""

from __future__ import annotations

import os
import struct
from dataclasses import dataclass

import numpy as np

from .errors import NetFormatError
from .inputs import UnreadableInputError, read_input_bytes
from .inputs import sha256_file as sha256_file  # the one digest reader, kept importable here
from .model import QuantizedModel
from .outputs import write_bytes_atomic
from .spec import (
    ALLOWED_HIDDEN,
    HEADER_SIZE,
    L1_OUT,
    L2_OUT,
    MAGIC,
    NUM_FEATURES,
    NUM_OUTPUT_BUCKETS,
    VERSION,
    net_file_size,
)


@dataclass(frozen=True)
class Header:
    magic: bytes
    version: int
    features: int
    hidden: int
    buckets: int


# (field, byte offset) of the u32 header fields after the 9-byte magic.
_U32_FIELDS: tuple[tuple[str, int], ...] = (
    ("version", 9),
    ("features", 13),
    ("hidden", 17),
    ("buckets", 21),
)


def parse_header(data: bytes, name: str) -> Header:
    """Checks magic, version, features, hidden and buckets, naming field, offset and value."""
    if len(data) < HEADER_SIZE:
        raise NetFormatError(
            f"{name}: short file: expected at least {HEADER_SIZE} header bytes, "
            f"actual size {len(data)} bytes"
        )
    magic = data[: len(MAGIC)]
    if magic != MAGIC:
        raise NetFormatError(
            f"{name}: field 'magic' at byte offset 0: expected {MAGIC!r}, found {magic!r}"
        )
    values = {f: struct.unpack_from("<I", data, off)[0] for f, off in _U32_FIELDS}
    expected = {
        "version": (VERSION,),
        "features": (NUM_FEATURES,),
        "hidden": ALLOWED_HIDDEN,
        "buckets": (NUM_OUTPUT_BUCKETS,),
    }
    for f, off in _U32_FIELDS:
        if values[f] not in expected[f]:
            allowed = " or ".join(str(v) for v in expected[f])
            raise NetFormatError(
                f"{name}: field '{f}' at byte offset {off}: expected {allowed}, found {values[f]}"
            )
    return Header(magic, values["version"], values["features"], values["hidden"], values["buckets"])


class _Cursor:
    """Sequential little-endian array decoder over an immutable byte string."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.offset = HEADER_SIZE

    def take(self, dtype: str, shape: tuple[int, ...], native: str) -> np.ndarray:
        count = int(np.prod(shape))
        arr = np.frombuffer(self.data, dtype=np.dtype(dtype), count=count, offset=self.offset)
        self.offset += arr.nbytes
        return arr.astype(native).reshape(shape)  # astype copies: the result owns its memory


def decode(data: bytes, name: str = "<bytes>", allow_trailing: bool = False) -> QuantizedModel:
    header = parse_header(data, name)
    h = header.hidden
    expected = net_file_size(h)
    if len(data) < expected:
        raise NetFormatError(
            f"{name}: short file: expected size {expected} bytes for hidden={h}, "
            f"actual size {len(data)} bytes"
        )
    if len(data) > expected and not allow_trailing:
        raise NetFormatError(
            f"{name}: {len(data) - expected} trailing bytes after offset "
            f"{expected}: expected size {expected} bytes for hidden={h}, actual "
            f"size {len(data)} bytes (use --allow-trailing to accept)"
        )
    cur = _Cursor(data)
    ft_weight = cur.take("<i2", (NUM_FEATURES, h), "int16")
    ft_bias = cur.take("<i2", (h,), "int16")
    psqt_weight = cur.take("<i4", (NUM_FEATURES, NUM_OUTPUT_BUCKETS), "int32")
    nb = NUM_OUTPUT_BUCKETS
    l1w = np.empty((nb, L1_OUT, h), np.int8)
    l1b = np.empty((nb, L1_OUT), np.int32)
    l2w = np.empty((nb, L2_OUT, L1_OUT), np.int8)
    l2b = np.empty((nb, L2_OUT), np.int32)
    ow = np.empty((nb, L2_OUT), np.int8)
    ob = np.empty((nb,), np.int32)
    for b in range(nb):
        l1w[b] = cur.take("i1", (L1_OUT, h), "int8")
        l1b[b] = cur.take("<i4", (L1_OUT,), "int32")
        l2w[b] = cur.take("i1", (L2_OUT, L1_OUT), "int8")
        l2b[b] = cur.take("<i4", (L2_OUT,), "int32")
        ow[b] = cur.take("i1", (L2_OUT,), "int8")
        ob[b] = cur.take("<i4", (1,), "int32")[0]
    assert cur.offset == expected, (cur.offset, expected)
    return QuantizedModel(h, ft_weight, ft_bias, psqt_weight, l1w, l1b, l2w, l2b, ow, ob)


def read(path: str | os.PathLike[str], allow_trailing: bool = False) -> QuantizedModel:
    name = os.fspath(path)
    try:
        data = read_input_bytes(path)
    except UnreadableInputError as e:
        raise NetFormatError(f"{name}: cannot read: {e.why}") from e
    return decode(data, name, allow_trailing)


def encode(model: QuantizedModel) -> bytes:
    nb = NUM_OUTPUT_BUCKETS
    parts: list[bytes] = [MAGIC, struct.pack("<IIII", VERSION, NUM_FEATURES, model.hidden, nb)]
    parts.append(model.ft_weight.astype("<i2").tobytes())
    parts.append(model.ft_bias.astype("<i2").tobytes())
    parts.append(model.psqt_weight.astype("<i4").tobytes())
    for b in range(nb):
        parts.append(model.l1_weight[b].astype("i1").tobytes())
        parts.append(model.l1_bias[b].astype("<i4").tobytes())
        parts.append(model.l2_weight[b].astype("i1").tobytes())
        parts.append(model.l2_bias[b].astype("<i4").tobytes())
        parts.append(model.out_weight[b].astype("i1").tobytes())
        parts.append(model.out_bias[b : b + 1].astype("<i4").tobytes())
    data = b"".join(parts)
    assert len(data) == net_file_size(model.hidden)
    return data


def write(model: QuantizedModel, path: str | os.PathLike[str]) -> None:
    """Writes atomically (outputs.write_bytes_atomic) so a reader never sees half a net."""
    write_bytes_atomic(path, encode(model), mode=0o666 & ~_umask())


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


class NetSlot:
    """Holds the active net; load() replaces it only when the new file loaded completely."""

    def __init__(self, model: QuantizedModel | None = None) -> None:
        self.model = model
        self.path: str | None = None

    def load(self, path: str | os.PathLike[str], allow_trailing: bool = False) -> QuantizedModel:
        model = read(path, allow_trailing)  # raises before anything below runs
        self.model, self.path = model, os.fspath(path)
        return model
