from __future__ import annotations

import numpy as np
import pytest
from conftest import zero_checkpoint

from stkref.checkpoint import Checkpoint
from stkref.errors import InputError
from stkref.quantize import quantize_model, quantize_tensor

HALVES = np.array([0.5, 1.5, 2.5, 3.5, -0.5, -1.5, -2.5, 126.5, -127.5])
HALF_EVEN = np.array([0, 2, 2, 4, 0, -2, -2, 126, -128])


def assert_rounds_half_to_even() -> None:
    """Exact ties (scales 64 and 16 are powers of two) must land on the even neighbour."""
    q, clipped = quantize_tensor(HALVES / 64, 64, "int8")
    assert q.tolist() == HALF_EVEN.tolist() and clipped == 0
    q, _ = quantize_tensor(HALVES / 16, 16, "int32")
    assert q.tolist() == HALF_EVEN.tolist()
    ck = zero_checkpoint()
    ck["out.weight"][0, : HALVES.size] = HALVES / 64
    ck["psqt.weight"][1, :8] = HALVES[:8] / 16
    m = quantize_model(ck)
    assert m.out_weight[0, : HALVES.size].tolist() == HALF_EVEN.tolist()
    assert m.psqt_weight[0].tolist() == HALF_EVEN[:8].tolist()


def test_round_half_to_even() -> None:
    assert_rounds_half_to_even()


def test_scales_and_dtypes() -> None:
    ck = zero_checkpoint()
    ck["ft.weight"][1, 0] = 0.5  # 63.5 -> 64
    ck["ft.bias"][0] = 1.0
    ck["l1.weight"][0, 0, 0] = 1.0
    ck["l1.bias"][0, 0] = 1.0
    ck["psqt.weight"][1, 0] = 100.0
    m = quantize_model(ck)
    assert m.ft_weight[0, 0] == 64 and m.ft_weight.dtype == np.int16
    assert m.ft_bias[0] == 127
    assert m.l1_weight[0, 0, 0] == 64 and m.l1_weight.dtype == np.int8
    assert m.l1_bias[0, 0] == 8128 and m.l1_bias.dtype == np.int32
    assert m.psqt_weight[0, 0] == 1600 and m.psqt_weight.dtype == np.int32


def test_clipping_is_counted() -> None:
    ck = zero_checkpoint()
    ck["l1.weight"][0, 0, :3] = [2.5, -3.0, 1.98]  # 160 -> 127, -192 -> -128, 126.7 -> 127
    ck["ft.bias"][:2] = [300.0, -300.0]  # +-38100 beyond int16
    m = quantize_model(ck)
    assert m.l1_weight[0, 0, :3].tolist() == [127, -128, 127]
    assert m.ft_bias[:2].tolist() == [32767, -32768]
    assert m.clipped["l1.weight"] == 2
    assert m.clipped["ft.bias"] == 2
    assert sum(m.clipped.values()) == 4


@pytest.mark.parametrize(
    "key,value", [("l2.bias", np.nan), ("ft.weight", np.inf), ("psqt.weight", -np.inf)]
)
def test_non_finite_rejected_naming_tensor(key: str, value: float) -> None:
    ck = zero_checkpoint()
    ck[key].reshape(-1)[-1] = value
    with pytest.raises(InputError, match=f"tensor '{key}'.*NaN/inf"):
        quantize_model(ck)


def test_padding_row_dropped() -> None:
    ck = zero_checkpoint()
    ck["ft.weight"][1] = 0.25  # feature 0
    ck["ft.weight"][-1] = -0.25  # feature 22527
    ck["psqt.weight"][1] = 3.0
    m = quantize_model(ck)
    assert m.ft_weight.shape == (22528, 128)
    assert np.all(m.ft_weight[0] == 32) and np.all(m.ft_weight[-1] == -32)
    assert np.all(m.psqt_weight[0] == 48)
    assert np.count_nonzero(m.ft_weight[1:-1]) == 0


@pytest.mark.parametrize("key", ["ft.weight", "psqt.weight"])
def test_nonzero_padding_row_rejected(key: str) -> None:
    ck = zero_checkpoint()
    ck[key][0, 0] = 0.1
    with pytest.raises(InputError, match=f"'{key}' row 0"):
        quantize_model(ck)


def test_hidden_inferred_and_checked() -> None:
    assert quantize_model(zero_checkpoint(128)).hidden == 128
    ck = zero_checkpoint()
    ck["ft.weight"] = np.zeros((22529, 256), np.float32)
    with pytest.raises(InputError, match="H = 128 or 1024"):
        quantize_model(ck)


def test_keys_and_shapes_checked() -> None:
    ck = zero_checkpoint()
    del ck["l2.bias"]
    ck["extra"] = np.zeros(1, np.float32)
    with pytest.raises(InputError, match=r"missing \['l2.bias'\], unknown \['extra'\]"):
        quantize_model(ck)
    ck = zero_checkpoint()
    ck["l1.weight"] = np.zeros((8, 16, 64), np.float32)
    with pytest.raises(InputError, match=r"'l1.weight' has shape \[8, 16, 64\]"):
        quantize_model(ck)


def test_quantized_generated_checkpoint(ckpt128: Checkpoint) -> None:
    m = quantize_model(ckpt128)
    assert m.clipped["l1.weight"] == 1  # the one weight the generator plants out of range
    assert sum(m.clipped.values()) == 1


# Planted defect: a quantizer that rounds half away from zero must fail the rounding check.
def test_planted_round_half_away_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    import stkref.quantize as q

    monkeypatch.setattr(q, "_round", lambda x: np.sign(x) * np.floor(np.abs(x) + 0.5))
    with pytest.raises(AssertionError):
        assert_rounds_half_to_even()


@pytest.mark.parametrize("name", ["ft_weight", "psqt_weight", "l1_weight", "out_bias"])
def test_a_model_refuses_a_tensor_of_the_wrong_type_or_shape(name: str) -> None:
    # The model checks every tensor against TENSOR_LAYOUT (planted by the mutation campaign:
    # the loop over the layout emptied, so a wrong tensor went on to the writer and the oracle).
    import dataclasses

    good = quantize_model(zero_checkpoint())
    arr = getattr(good, name)
    wrong_type = arr.astype(np.int64)
    wrong_shape = np.zeros((*arr.shape[:-1], arr.shape[-1] + 1), arr.dtype)
    for bad in (wrong_type, wrong_shape):
        with pytest.raises(ValueError, match=f"tensor {name}: expected"):
            dataclasses.replace(good, **{name: bad})


@pytest.mark.parametrize("delta", [-1, 1])
def test_every_tensor_of_another_shape_is_refused_by_name(delta: int) -> None:
    """SPEC-NNUE.md "Float checkpoint and quantization": each tensor has exactly its shape for H;
    one a row or a column larger or smaller, in any dimension of any tensor, is refused naming
    the tensor (a tensor one row too large passed before)."""
    from stkref.checkpoint import generate_checkpoint
    from stkref.errors import InputError
    from stkref.quantize import checkpoint_shapes, validate_checkpoint

    base = generate_checkpoint(128, 1)
    for key, shape in checkpoint_shapes(128).items():
        for dim in range(len(shape)):
            if key == "ft.weight" and dim == 1:
                continue  # its columns are H itself: another H, or refused as one
            bent = list(shape)
            bent[dim] += delta
            ckpt = dict(base)
            ckpt[key] = np.zeros(bent, dtype=np.float32)
            with pytest.raises(InputError, match=f"'{key}'"):
                validate_checkpoint(ckpt)
