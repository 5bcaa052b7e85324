"""Independent models of stkref.quantize (rounding, scaling, clipping) and stkref.netfile (the
byte layout of a .nnue file), written from ../shared/SPEC-NNUE.md."""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np
import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from stkref import netfile, quantize
from stkref.errors import InputError, NetFormatError
from stkref.model import TENSOR_LAYOUT, QuantizedModel, tensor_shapes

RANGES = {"int8": (-128, 127), "int16": (-32768, 32767), "int32": (-(2**31), 2**31 - 1)}
# SPEC-NNUE.md "Float checkpoint and quantization": key -> (scale, integer type)
SPEC_SCALES = {
    "ft.weight": (127, "int16"),
    "ft.bias": (127, "int16"),
    "psqt.weight": (16, "int32"),
    "l1.weight": (64, "int8"),
    "l2.weight": (64, "int8"),
    "out.weight": (64, "int8"),
    "l1.bias": (8128, "int32"),
    "l2.bias": (8128, "int32"),
    "out.bias": (8128, "int32"),
}

NO_SHRINK = (Phase.explicit, Phase.generate)


def model_quantize(x: float, scale: int, dtype: str) -> tuple[int, bool]:
    """Round half to even (Python's round on a float), then clip: (value, was clipped)."""
    v = round(x * scale)
    lo, hi = RANGES[dtype]
    return min(max(v, lo), hi), not lo <= v <= hi


floats = st.floats(-600.0, 600.0, allow_nan=False, width=64)
halves = st.integers(-70000, 70000).map(lambda n: n + 0.5)  # exact ties after scaling by 1


# MODEL quantize-round-clip
# checks: harness/python/stkref/quantize.py  (one tensor: scale, round half to even, clip, count clipped)
# contract: ../shared/SPEC-NNUE.md#float-checkpoint-and-quantization
# planted: ci/mutants/model-quantize-round-clip.patch  (round half away from zero instead of to even)
@given(
    st.lists(st.one_of(floats, halves), min_size=1, max_size=40),
    st.sampled_from([1, 16, 64, 127, 8128]),
    st.sampled_from(sorted(RANGES)),
)
def test_quantize_tensor_equals_model(values: list[float], scale: int, dtype: str) -> None:
    got, clipped = quantize.quantize_tensor(np.array(values), scale, dtype)
    want = [model_quantize(v, scale, dtype) for v in values]
    assert got.dtype == np.dtype(dtype)
    assert [int(v) for v in got] == [v for v, _ in want]
    assert clipped == sum(c for _, c in want)


@pytest.mark.parametrize(
    ("x", "dtype", "value", "clipped"),
    [
        (0.5, "int8", 0, 0),  # ties go to even
        (1.5, "int8", 2, 0),
        (-2.5, "int8", -2, 0),
        (127.0, "int8", 127, 0),  # keeps: the largest value that fits
        (127.5, "int8", 127, 1),  # breaks by a half: the tie goes to 128 (even), clipped
        (-128.0, "int8", -128, 0),
        (-128.5, "int8", -128, 0),  # ties to even: -128, fits
        (-129.0, "int8", -128, 1),  # breaks by one
    ],
)
def test_quantize_ties_and_range_edges(x: float, dtype: str, value: int, clipped: int) -> None:
    want_v, want_c = model_quantize(x, 1, dtype)
    got, n = quantize.quantize_tensor(np.array([x]), 1, dtype)
    assert (want_v, int(want_c)) == (value, clipped)
    assert (int(got[0]), n) == (value, clipped)


HIDDEN = 128


def zero_ckpt() -> dict[str, np.ndarray]:
    return {k: np.zeros(s, np.float32) for k, s in quantize.checkpoint_shapes(HIDDEN).items()}


# MODEL quantize-checkpoint-tensors
# checks: harness/python/stkref/quantize.py  (a whole checkpoint: each tensor's scale and type, padding row dropped)
# contract: ../shared/SPEC-NNUE.md#float-checkpoint-and-quantization
# planted: ci/mutants/model-quantize-checkpoint-tensors.patch  (PSQT scaled like the FT, x127)
@pytest.mark.parametrize("key", sorted(SPEC_SCALES))
@settings(max_examples=6)
@given(data=st.data())
def test_quantize_model_places_each_value(key: str, data: st.DataObject) -> None:
    ckpt = zero_ckpt()
    shape = ckpt[key].shape
    lo = 1 if key in ("ft.weight", "psqt.weight") else 0  # row 0 is padding
    index = tuple(
        data.draw(st.integers(lo if axis == 0 else 0, n - 1)) for axis, n in enumerate(shape)
    )
    x = data.draw(st.floats(0.03125, 3.0, width=32)) * data.draw(st.sampled_from([1, -1]))
    ckpt[key][index] = x
    m = quantize.quantize_model(ckpt)
    scale, dtype = SPEC_SCALES[key]
    want, clipped = model_quantize(float(np.float32(x)), scale, dtype)
    field = key.replace(".", "_")
    arr = getattr(m, field)
    mindex = (index[0] - 1, *index[1:]) if lo else index  # feature f is row f+1
    assert arr.dtype == np.dtype(dtype)
    assert int(arr[mindex]) == want
    assert int(np.count_nonzero(arr)) == int(want != 0)
    assert sum(m.clipped.values()) == int(clipped)


def test_quantize_rejects_nan_and_padding() -> None:
    ck = zero_ckpt()
    ck["l2.bias"][3, 4] = np.nan
    with pytest.raises(InputError, match=r"l2\.bias"):
        quantize.quantize_model(ck)
    ck = zero_ckpt()
    ck["psqt.weight"][0, 7] = 1.0
    with pytest.raises(InputError, match=r"psqt\.weight"):
        quantize.quantize_model(ck)


# ------------------------------------------------------------------------------------ netfile


def random_model(seed: int) -> QuantizedModel:
    rng = np.random.default_rng(seed)
    t = {}
    for name, shape in tensor_shapes(HIDDEN).items():
        dtype = (
            "int16"
            if name.startswith("ft")
            else "int32"
            if name.startswith("psqt") or name.endswith("bias")
            else "int8"
        )
        lo, hi = RANGES[dtype]
        t[name] = rng.integers(lo, hi, size=shape, endpoint=True).astype(dtype)
    return QuantizedModel(hidden=HIDDEN, **t)


def layout(h: int) -> list[tuple[str, int | None, str, tuple[int, ...]]]:
    """The spec's table as (field, bucket, struct code, shape), in file order."""
    out: list[tuple[str, int | None, str, tuple[int, ...]]] = [
        ("ft_weight", None, "h", (22528, h)),
        ("ft_bias", None, "h", (h,)),
        ("psqt_weight", None, "i", (22528, 8)),
    ]
    for b in range(8):
        out += [
            ("l1_weight", b, "b", (16, h)),
            ("l1_bias", b, "i", (16,)),
            ("l2_weight", b, "b", (32, 16)),
            ("l2_bias", b, "i", (32,)),
            ("out_weight", b, "b", (32,)),
            ("out_bias", b, "i", ()),
        ]
    return out


SIZES = {"h": 2, "i": 4, "b": 1}


def first_difference(a: bytes, b: bytes) -> int | None:
    """None when equal, else the first differing offset (a short message for 6.5 MB values)."""
    if a == b:
        return None
    n = min(len(a), len(b))
    diff = np.flatnonzero(np.frombuffer(a[:n], np.uint8) != np.frombuffer(b[:n], np.uint8))
    return int(diff[0]) if diff.size else n


MODEL = random_model(3)
DATA = netfile.encode(MODEL)


def test_net_sizes_and_header_are_the_spec_ones() -> None:
    assert len(DATA) == 6_510_649
    assert struct.unpack_from("<9sIIII", DATA, 0) == (b"STKHALFKA", 1, 22528, 128, 8)
    total = 25 + sum(SIZES[c] * int(np.prod(s)) for _, _, c, s in layout(1024))
    assert total == 46_997_305


# MODEL netfile-byte-layout
# checks: harness/python/stkref/netfile.py  (each parameter at the spec's offset, little-endian, no padding)
# contract: ../shared/SPEC-NNUE.md#network-file-nnue-magic-stkhalfka-version-1
# planted: ci/mutants/model-netfile-byte-layout.patch  (per bucket, the l2 biases written before the l2 weights)
@given(st.data())
def test_net_bytes_follow_spec_layout(data: st.DataObject) -> None:
    lay = layout(HIDDEN)
    i = data.draw(st.integers(0, len(lay) - 1))
    offset = 25 + sum(SIZES[c] * int(np.prod(s)) for _, _, c, s in lay[:i])
    field, bucket, code, shape = lay[i]
    index = tuple(data.draw(st.integers(0, n - 1)) for n in shape)
    flat = int(np.ravel_multi_index(index, shape)) if shape else 0
    (value,) = struct.unpack_from("<" + code, DATA, offset + SIZES[code] * flat)
    arr = getattr(MODEL, field)
    want = arr[bucket] if bucket is not None else arr
    assert value == int(want[index] if shape else want)


# MODEL netfile-round-trip
# checks: harness/python/stkref/netfile.py  (bytes -> model -> bytes is the identity; model -> bytes -> model too)
# contract: ../shared/SPEC-NNUE.md#network-file-nnue-magic-stkhalfka-version-1
# planted: ci/mutants/model-netfile-round-trip.patch  (the reader takes the output biases big-endian)
@settings(max_examples=10, phases=NO_SHRINK)  # 6.5 MB per example: no shrinking
@given(st.integers(0, 2**32 - 1))
def test_net_write_read_write_is_identity(seed: int) -> None:
    rng = np.random.default_rng(seed)
    body = rng.integers(0, 256, size=len(DATA) - 25, dtype=np.uint8).tobytes()
    raw = DATA[:25] + body
    model = netfile.decode(raw)
    assert first_difference(netfile.encode(model), raw) is None
    assert netfile.decode(netfile.encode(model)).equals(model)


HEADER_FIELDS = [("magic", 0, None), ("version", 9, 1), ("features", 13, 22528)]
HEADER_FIELDS += [("hidden", 17, 128), ("buckets", 21, 8)]


# MODEL netfile-header-fields
# checks: harness/python/stkref/netfile.py  (each header field refused by name and offset when it is not the spec's)
# contract: ../shared/SPEC-NNUE.md#network-file-nnue-magic-stkhalfka-version-1
# planted: ci/mutants/model-netfile-header-fields.patch  (the buckets field, the last one, never checked)
@given(st.sampled_from(HEADER_FIELDS), st.integers(0, 2**32 - 1))
def test_net_header_field_rejected_naming_field(field: tuple, value: int) -> None:
    name, offset, good = field
    raw = bytearray(DATA)
    if good is None:
        raw[0:9] = value.to_bytes(4, "little") + b"HALFK"
        if bytes(raw[0:9]) == b"STKHALFKA":
            return
    else:
        if value == good or (name == "hidden" and value == 1024):
            return
        struct.pack_into("<I", raw, offset, value)
    with pytest.raises(NetFormatError) as e:
        netfile.decode(bytes(raw), "n.nnue")
    assert name in str(e.value) and str(offset) in str(e.value)


# MODEL netfile-header-verdicts
# checks: harness/python/stkref/netfile.py  (the loader's size verdicts: short, exact, trailing)
# contract: ../shared/SPEC-NNUE.md#network-file-nnue-magic-stkhalfka-version-1
# planted: ci/mutants/model-netfile-header-verdicts.patch  (one trailing byte accepted without --allow-trailing)
def test_net_size_verdicts_both_ways() -> None:
    assert netfile.decode(DATA).equals(MODEL)  # exact size: keeps
    with pytest.raises(NetFormatError, match=r"short file.*6510649.*6510648"):
        netfile.decode(DATA[:-1])  # one byte short: breaks
    with pytest.raises(NetFormatError, match="trailing"):
        netfile.decode(DATA + b"\0")  # one byte over: breaks
    assert netfile.decode(DATA + b"\0", allow_trailing=True).equals(MODEL)


def test_net_slot_is_transactional(tmp_path: Path) -> None:
    good, bad = tmp_path / "a.nnue", tmp_path / "b.nnue"
    good.write_bytes(DATA)
    bad.write_bytes(DATA[:-3])
    slot = netfile.NetSlot()
    slot.load(good)
    before = slot.model
    with pytest.raises(NetFormatError):
        slot.load(bad)
    assert slot.model is before and slot.path == str(good)
    assert first_difference(netfile.encode(slot.model), DATA) is None


# MODEL spec-net-file-size
# checks: harness/python/stkref/spec.py  (the constants and the exact file size of the spec)
# contract: ../shared/SPEC-NNUE.md#network-file-nnue-magic-stkhalfka-version-1
# planted: ci/mutants/model-spec-net-file-size.patch  (each bucket's output bias counted as 2 bytes)
@given(st.integers(1, 4096))
def test_spec_file_size_equals_formula(h: int) -> None:
    from stkref import spec

    per_bucket = 16 * h + 64 + 512 + 128 + 32 + 4
    assert spec.net_file_size(h) == 25 + 2 * 22528 * h + 2 * h + 4 * 22528 * 8 + 8 * per_bucket
    assert spec.net_file_size(h) == 25 + sum(SIZES[c] * int(np.prod(s)) for _, _, c, s in layout(h))
    assert (spec.net_file_size(1024), spec.net_file_size(128)) == (46_997_305, 6_510_649)
    assert (spec.FT_SCALE, spec.DENSE_WEIGHT_SCALE, spec.DENSE_BIAS_SCALE, spec.PSQT_SCALE) == (
        127,
        64,
        8128,
        16,
    )
    assert (spec.NUM_FEATURES, spec.HEADER_SIZE, spec.MAGIC) == (22528, 25, b"STKHALFKA")


# MODEL model-digest-and-equality
# checks: harness/python/stkref/model.py  (equal parameters: equal digests; any one value changed: not)
# contract: ../shared/SPEC-NNUE.md#network-file-nnue-magic-stkhalfka-version-1
# planted: ci/mutants/model-model-digest-and-equality.patch  (the digest leaves out the output biases)
@settings(max_examples=30)
@given(st.sampled_from([n for n, _ in TENSOR_LAYOUT]), st.data())
def test_model_digest_sees_every_value(name: str, data: st.DataObject) -> None:
    import hashlib

    changed = netfile.decode(DATA)
    arr = getattr(changed, name)
    index = tuple(data.draw(st.integers(0, n - 1)) for n in arr.shape)
    arr[index] = arr[index] + 1 if arr[index] < np.iinfo(arr.dtype).max else arr[index] - 1
    assert not changed.equals(MODEL) and changed.digest() != MODEL.digest()
    # SHA-256 over each whole tensor's little-endian bytes, in the model's field order
    h = hashlib.sha256()
    for field, code in (("ft_weight", "<i2"), ("ft_bias", "<i2"), ("psqt_weight", "<i4")):
        h.update(getattr(MODEL, field).astype(code).tobytes())
    for field in ("l1_weight", "l1_bias", "l2_weight", "l2_bias", "out_weight", "out_bias"):
        h.update(getattr(MODEL, field).astype("i1" if "weight" in field else "<i4").tobytes())
    assert MODEL.digest() == h.hexdigest()
    with pytest.raises(ValueError, match=name):
        QuantizedModel(hidden=HIDDEN, **{**MODEL.tensors(), name: arr.astype(np.float32)})
