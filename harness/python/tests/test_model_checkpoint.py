"""Independent models of stkref.checkpoint (reading, validating, digest, the seeded generator's
stated properties) and stkref.floatmodel (the float reference of the drift baseline), written
from ../shared/SPEC-NNUE.md "Float checkpoint and quantization"."""

from __future__ import annotations

import io
import math
from functools import cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_model_features import BLACK, WHITE, colour_mirror, model_features, positions, to_board

from stkref import checkpoint, floatmodel, quantize
from stkref.errors import InputError

H = 128


@cache
def ckpt(seed: int) -> dict[str, np.ndarray]:
    return checkpoint.generate_checkpoint(H, seed)


def model_float_eval(c: dict[str, np.ndarray], pos: dict[int, tuple[int, int]], stm: int) -> float:
    """SPEC-NNUE.md "Float reference", one scalar at a time in Python floats."""

    def acc(persp: int) -> tuple[list[float], list[float]]:
        rows = [f + 1 for f in model_features(pos, persp)]  # feature f is row f+1
        a = [
            float(c["ft.bias"][j]) + math.fsum(float(c["ft.weight"][r, j]) for r in rows)
            for j in range(H)
        ]
        p = [math.fsum(float(c["psqt.weight"][r, b]) for r in rows) for b in range(8)]
        return a, p

    def clamp01(x: float) -> float:
        return min(max(x, 0.0), 1.0)

    (a_s, p_s), (a_o, p_o) = acc(stm), acc(1 - stm)
    b = min((len(pos) - 1) // 4, 7)
    t = [
        clamp01(a[j]) * clamp01(a[j + H // 2]) * 127 / 128
        for a in (a_s, a_o)
        for j in range(H // 2)
    ]
    w1, b1 = c["l1.weight"][b].astype(float), c["l1.bias"][b].astype(float)
    h1 = [clamp01(math.fsum(w1[i, j] * t[j] for j in range(H)) + b1[i]) for i in range(16)]
    w2, b2 = c["l2.weight"][b].astype(float), c["l2.bias"][b].astype(float)
    h2 = [clamp01(math.fsum(w2[k, i] * h1[i] for i in range(16)) + b2[k]) for k in range(32)]
    o = math.fsum(float(c["out.weight"][b, k]) * h2[k] for k in range(32)) + float(c["out.bias"][b])
    return 508 * o + (p_s[b] - p_o[b])


# MODEL floatmodel-eval
# checks: harness/python/stkref/floatmodel.py  (the float reference eval of one position)
# contract: ../shared/SPEC-NNUE.md#float-checkpoint-and-quantization
# planted: ci/mutants/model-floatmodel-eval.patch  (the transform without the 127/128 factor)
@settings(max_examples=25)
@given(positions(), st.booleans(), st.sampled_from([1, 2]))
def test_float_eval_equals_model(pos: dict[int, tuple[int, int]], white: bool, seed: int) -> None:
    c = ckpt(seed)
    got = floatmodel.FloatModel(c).evaluate(to_board(pos, white))
    want = model_float_eval(c, pos, WHITE if white else BLACK)
    assert got.eval == pytest.approx(want, rel=1e-9, abs=1e-6)
    mirrored = floatmodel.FloatModel(c).evaluate(to_board(colour_mirror(pos), not white))
    assert mirrored.eval == pytest.approx(got.eval, rel=1e-9, abs=1e-6)


def npz(c: dict[str, np.ndarray]) -> bytes:
    buf = io.BytesIO()
    np.savez(buf, **c)
    return buf.getvalue()


# MODEL checkpoint-load-verdicts
# checks: harness/python/stkref/checkpoint.py  (a checkpoint read back equals what was saved; bad ones refused)
# contract: ../shared/SPEC-NNUE.md#float-checkpoint-and-quantization
# planted: ci/mutants/model-checkpoint-load-verdicts.patch  (the loaded checkpoint is not validated)
# Every tensor under every change (rule_choice.py: 15 draws of the 35 left three tensors unbroken).
@pytest.mark.parametrize("key", sorted(quantize.checkpoint_shapes(H)))
@pytest.mark.parametrize("change", ["keep", "nan", "inf", "padding", "shape"])
@settings(max_examples=2)
@given(data=st.data())
def test_load_checkpoint_verdicts(
    tmp_path_factory: pytest.TempPathFactory, key: str, change: str, data: st.DataObject
) -> None:
    c = {k: v.copy() for k, v in ckpt(1).items()}
    path = tmp_path_factory.mktemp("ck") / "c.npz"
    arr = c[key]
    if change == "padding" and key not in ("ft.weight", "psqt.weight"):
        change = "keep"
    if change in ("nan", "inf"):
        idx = tuple(data.draw(st.integers(0, n - 1)) for n in arr.shape)
        arr[idx] = np.nan if change == "nan" else -np.inf
    elif change == "padding":
        arr[0, data.draw(st.integers(0, arr.shape[1] - 1))] = 1e-30  # smallest nonzero: breaks
    elif change == "shape":
        c[key] = arr[..., :-1]
    path.write_bytes(npz(c))
    if change == "keep":
        back = checkpoint.load_checkpoint(path)
        assert sorted(back) == sorted(c)
        assert all(np.array_equal(back[k], c[k]) for k in c)
        assert checkpoint.checkpoint_digest(back) == checkpoint.checkpoint_digest(c)
    else:
        with pytest.raises(InputError, match=str(path)) as e:
            checkpoint.load_checkpoint(path)
        assert key in str(e.value)


def test_digest_ignores_key_order_only() -> None:
    c = ckpt(1)
    rev = dict(reversed(list(c.items())))
    assert checkpoint.checkpoint_digest(rev) == checkpoint.checkpoint_digest(c)
    d = {k: v.copy() for k, v in c.items()}
    d["out.bias"][7] = np.nextafter(d["out.bias"][7], np.float32(1))
    assert checkpoint.checkpoint_digest(d) != checkpoint.checkpoint_digest(c)


# MODEL checkpoint-generator-properties
# checks: harness/python/stkref/checkpoint.py  (the seeded generator: shapes, padding, ties, one clip)
# contract: ../shared/SPEC-NNUE.md#float-checkpoint-and-quantization
# planted: ci/mutants/model-checkpoint-generator-properties.patch  (ties planted at a quarter step)
@settings(max_examples=4)
@given(st.integers(0, 2**31))
def test_generator_properties(seed: int) -> None:
    c = checkpoint.generate_checkpoint(H, seed)
    again = checkpoint.generate_checkpoint(H, seed)
    assert checkpoint.checkpoint_digest(c) == checkpoint.checkpoint_digest(again)
    assert all(v.dtype == np.float32 for v in c.values())
    assert not c["ft.weight"][0].any() and not c["psqt.weight"][0].any()
    for key, scale in (
        ("l1.weight", 64),
        ("l2.weight", 64),
        ("out.weight", 64),
        ("psqt.weight", 16),
    ):
        x = c[key].astype(np.float64) * scale
        ties = np.count_nonzero(x - np.floor(x) == 0.5) / x.size
        assert 0.04 < ties < 0.09, (key, ties)  # about 1 in 16
    assert np.count_nonzero(np.abs(np.rint(c["l1.weight"].astype(np.float64) * 64)) > 127) >= 1


def test_generator_refuses_other_hidden() -> None:
    with pytest.raises(InputError):
        checkpoint.generate_checkpoint(256, 1)


# MODEL checkpoint-tool-output
# checks: harness/python/stkref/checkpoint.py  (the tool's .npz and metadata: the seeded checkpoint, read back equal)
# contract: ../shared/HARNESS.md#common-contract-for-every-harness
# planted: ci/mutants/model-checkpoint-tool-output.patch  (the digest over the keys in the order saved, not sorted)
@settings(max_examples=3)
@given(seed=st.integers(0, 2**64 - 1))
def test_checkpoint_tool_equals_model(tmp_path_factory: pytest.TempPathFactory, seed: int) -> None:
    import hashlib
    import json

    from stkref.cli import run_tool

    d = tmp_path_factory.mktemp("ck")
    out = d / "c.npz"
    assert run_tool(lambda: checkpoint.main([str(out), "--seed", str(seed)])) == 0
    back = checkpoint.load_checkpoint(out)
    want = checkpoint.generate_checkpoint(H, seed)  # seeded: the same values again
    assert sorted(back) == sorted(want) and all(np.array_equal(back[k], want[k]) for k in want)
    # the metadata digest: SHA-256 over the keys in sorted order, each name then its bytes
    h = hashlib.sha256()
    for k in sorted(back):
        h.update(k.encode())
        h.update(np.ascontiguousarray(back[k]).tobytes())
    meta = json.loads(out.with_suffix(".json").read_text())
    assert meta == {
        "generator": "stkref.checkpoint",
        "seed": seed,
        "hidden": H,
        "digest": h.hexdigest(),
    }
    assert run_tool(lambda: checkpoint.main([str(d / "c.json")])) == 2  # OUT must not be .json
    assert run_tool(lambda: checkpoint.main([str(d / "x.npz"), "--hidden", "256"])) == 2
