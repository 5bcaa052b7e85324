from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stkref.fhmodel import (
    FEATURE_NAMES,
    LEGAL_LG,
    LUT_SIZE,
    NUM_FEATURES,
    Model,
    ModelFormatError,
    ModelSlot,
    SideParams,
    features,
    float_logit,
    format_model,
    lg,
    lg_array,
    make_lut,
    parse_model,
    predict,
    quantize,
    read_model,
    sigmoid,
    write_model,
)
from stkref.fhrecords import (
    CUT_NODE,
    IMPROVING,
    OPP_IMPROVING,
    WHOLE_NODE,
    make_records,
    read_records,
    write_records,
)
from stkref.fhsynth import TRUE_ALPHA, TRUE_BETA, quantized_model, synthesize

F = {name: i for i, name in enumerate(FEATURE_NAMES)}


def test_lg_hand_values() -> None:
    expected = {
        1: 0,
        2: 256,
        3: 384,
        4: 512,
        5: 512 + 64,
        6: 640,
        7: 704,
        8: 768,
        9: 800,
        255: 7 * 256 + 254,
        256: 2048,
        1000: 9 * 256 + 244,
        65536: 4096,
    }
    assert {v: lg(v) for v in expected} == expected
    with pytest.raises(ValueError):
        lg(0)
    with pytest.raises(ValueError):
        lg_array(np.array([3, 0]))


def test_lg_array_equals_scalar() -> None:
    v = np.arange(1, 70_000)
    assert lg_array(v).tolist() == [lg(int(x)) for x in v]


def _hand_records() -> np.ndarray:
    r = make_records(2)
    # 0: alpha move: depth 5, gap 3, ordinal 4 of 30, countermove, SEE ladder -300, improving,
    #    cut node, phase 13, history 7/20, 11 good captures (counted as 8)
    r[0] = (0, 0, 0, IMPROVING | CUT_NODE, 5, 9, 3, 2, 4, 30, 11, -300, 7, 20, 13, 0, 0, 1, 40)
    # 1: beta whole node: depth 9, gap 0, legal unknown (0), opp_improving, phase 24
    r[1] = (0, 1, 1, WHOLE_NODE | OPP_IMPROVING, 9, 2, 0, 0, 0, 0, 0, 0, 0, 0, 24, 0, 0, 1, 70)
    return r


def test_features_hand_example() -> None:
    f = features(_hand_records())
    assert f.dtype == np.int64 and f.shape == (2, NUM_FEATURES)
    move = {
        "depth_lg": 576,
        "gap_lg": 512,
        "ordinal_lg": 576,
        "ordinal_frac": 1024 // 30,
        "whole_node": 0,
        "tier_tt": 0,
        "tier_counter": 256,
        "tier_losing_capture": 0,
        "move_value": -75,
        "improving": 256,
        "opp_improving": 0,
        "cut_node": 256,
        "phase": 130,
        "fh_rate": (256 * 7 + 32) // 22,
        "fh_tries_lg": 1024 + 80,
        "good_captures": 256,
        "cut_x_good": 256,
        "legal_lg": 1024 + 240,
        "gap_sq": 1024,
        "ordinal_sq": 1296,
        "gap_x_ordinal": 1152,
        "value_x_gap": -150,
        "value_x_ordinal": -169,
        "rate_x_tries": ((256 * 7 + 32) // 22 * 1104) >> 8,
        "whole_x_depth": 0,
        "whole_x_gap": 0,
        "depth_sq": 1296,
        "depth_x_gap": 1152,
    }
    node = {
        "depth_lg": 800,
        "gap_lg": 0,
        "ordinal_lg": 0,
        "ordinal_frac": 0,
        "whole_node": 256,
        "tier_tt": 0,
        "tier_counter": 0,
        "tier_losing_capture": 0,
        "move_value": 0,
        "improving": 0,
        "opp_improving": 256,
        "cut_node": 0,
        "phase": 240,
        "fh_rate": 16,
        "fh_tries_lg": 0,
        "good_captures": 0,
        "cut_x_good": 0,
        "legal_lg": 0,
        "gap_sq": 0,
        "ordinal_sq": 0,
        "gap_x_ordinal": 0,
        "value_x_gap": 0,
        "value_x_ordinal": 0,
        "rate_x_tries": 0,
        "whole_x_depth": 800,
        "whole_x_gap": 0,
        "depth_sq": 2500,
        "depth_x_gap": 0,
    }
    assert dict(zip(FEATURE_NAMES, f[0].tolist())) == move
    assert dict(zip(FEATURE_NAMES, f[1].tolist())) == node


def _weights(**named: int) -> tuple[int, ...]:
    return tuple(named.get(n, 0) for n in FEATURE_NAMES)


STAIRS = tuple(32 * i for i in range(LUT_SIZE))  # p = 32 * idx: the index is visible


def test_integer_inference_hand_example() -> None:
    r = _hand_records()
    m = Model(
        8, SideParams(100, _weights(depth_lg=2, move_value=3)), SideParams(-257, _weights()), STAIRS
    )
    # alpha: 100 + 2*576 + 3*(-75) = 1027 -> z = 1027 >> 8 = 4 -> idx 1028
    # beta: -257 -> z = floor(-257 / 256) = -2 (truncation would give -1) -> idx 1022
    assert predict(m, r).tolist() == [32 * 1028, 32 * 1022]
    assert predict(m, r).dtype == np.uint16
    clamp = Model(8, SideParams(2**31 - 1, _weights()), SideParams(-(2**31), _weights()), STAIRS)
    assert predict(clamp, r).tolist() == [32 * 2047, 0]


def scalar_predict(model: Model, rec: np.void) -> int:
    """Independent per-record reference: Python integers straight from the contract text."""
    flags = int(rec["flags"])
    cut = (flags >> 4) & 1
    good = min(int(rec["good_captures"]), 8)
    legal, ordinal, mv = int(rec["legal"]), int(rec["ordinal"]), int(rec["move_value"])
    cuts, tries, tier = int(rec["fh_cuts"]), int(rec["fh_tries"]), int(rec["tier"])
    f = [
        lg(int(rec["depth"])),
        lg(int(rec["gap"]) + 1),
        lg(ordinal + 1),
        256 * ordinal // legal if legal else 0,
        256 * (flags & 1),
        256 * (tier == 1),
        256 * (tier == 2),
        256 * (tier == 4),
        int(mv / 4),
        256 * ((flags >> 2) & 1),
        256 * ((flags >> 3) & 1),
        256 * cut,
        10 * int(rec["phase"]),
        (256 * cuts + 32) // (tries + 2),
        lg(tries + 1),
        32 * good,
        32 * good if cut else 0,
        lg(legal + 1),
    ]
    p = model.side(int(rec["side"]))
    acc = p.bias + sum(w * x for w, x in zip(p.weights, f))
    return model.lut[min(max((acc >> model.shift) + 1024, 0), 2047)]


def test_stored_predictions_recomputed(tmp_path: Path) -> None:
    model = quantized_model()
    recs = synthesize(np.random.default_rng(3), 3000, stored_model=model)
    path = tmp_path / "s.fhr"
    write_records(path, recs, seed=3)
    back, _ = read_records(path)
    assert np.array_equal(predict(model, back), back["prediction"])
    assert [scalar_predict(model, r) for r in back[:800]] == back["prediction"][:800].tolist()
    assert len(np.unique(back["prediction"])) > 200


def test_quantized_model_tracks_float_model() -> None:
    recs = synthesize(np.random.default_rng(4), 3000)
    f = features(recs)
    p = predict(quantized_model(), recs, f) / 65536.0
    beta = recs["side"] == 1
    logit = np.where(
        beta,
        float_logit(TRUE_BETA.bias, TRUE_BETA.weights, f),
        float_logit(TRUE_ALPHA.bias, TRUE_ALPHA.weights, f),
    )
    # z is the logit in 1/64 units and the LUT samples the middle of each step
    assert np.max(np.abs(p - sigmoid(logit))) < 0.25 / 64 + 1e-4


def test_quantize_scales_and_rounding() -> None:
    q = quantize(0.5, [1.0, -0.25] + [0.0] * (NUM_FEATURES - 2), 18)
    assert q.bias == 1 << 23 and q.weights[:2] == (1 << 16, -(1 << 14))
    # shift 8: weights scale by 64, bias by 16384; halves round to even
    q = quantize(1.5 / 16384, [0.5 / 64, 1.5 / 64, -2.5 / 64] + [0.0] * (NUM_FEATURES - 3), 8)
    assert q.bias == 2 and q.weights[:3] == (0, 2, -2)
    with pytest.raises(ValueError, match="int32"):
        quantize(200.0, [0.0] * NUM_FEATURES, 18)


def test_make_lut_saturates() -> None:
    lut = make_lut(floor=0.001, ceiling=0.002)
    assert lut[0] == round(65535 * 0.001) and lut[2047] == round(65535 * 0.998)
    assert all(b >= a for a, b in zip(lut, lut[1:]))
    with pytest.raises(ValueError, match="floor"):
        make_lut(floor=0.6)


def test_make_lut() -> None:
    lut = make_lut()
    assert len(lut) == 2048 and lut[0] == 0 and lut[2047] == 65535
    assert all(b >= a for a, b in zip(lut, lut[1:]))
    assert all(lut[i] + lut[2047 - i] == 65535 for i in range(1024))
    assert lut[1024] == round(65535 / (1 + math.exp(-0.5 / 64)))
    assert lut[1024 + 64] == round(65535 / (1 + math.exp(-64.5 / 64)))


def test_model_text_round_trip(tmp_path: Path) -> None:
    m = quantized_model(intercept_shift=-0.3)
    path = tmp_path / "m.txt"
    write_model(path, m, ["seed 5", "two comments"])
    text = path.read_text()
    assert text.startswith("# seed 5\n# two comments\nstk-fhmodel 1\nfeatures depth_lg gap_lg")
    assert read_model(path) == m
    # comments, blank lines and any LUT line breaks are accepted
    body = text.split("lut 2048\n")
    values = " ".join(body[1].split()[:-1])
    one_line = body[0] + "\n# note\n\nlut 2048\n" + values + "\n\nend\n# tail\n"
    assert parse_model(one_line) == m
    per_line = body[0] + "lut 2048\n" + "\n".join(body[1].split())
    assert parse_model(per_line) == m


def _valid_text() -> str:
    return format_model(
        Model(18, SideParams(5, _weights(gap_lg=-7)), SideParams(-3, _weights()), make_lut())
    )


def _replace_line(n: int, new: str) -> Callable[[str], str]:
    def edit(text: str) -> str:
        lines = text.split("\n")
        lines[n - 1] = new
        return "\n".join(lines)

    return edit


ZEROS = " ".join(["0"] * NUM_FEATURES)
LUT_LAST = 6 + 128  # the LUT takes lines 7..134 (16 values a line), "end" is line 135
MALFORMED_MODELS: list[tuple[str, Callable[[str], str], int, str]] = [
    ("magic", _replace_line(1, "stk-model 1"), 1, "expected 'stk-fhmodel 1'"),
    ("version", _replace_line(1, "stk-fhmodel 2"), 1, "expected 'stk-fhmodel 1'"),
    ("feature_order", lambda t: t.replace("depth_lg gap_lg", "gap_lg depth_lg"), 2, "in order"),
    ("feature_count", lambda t: t.replace(" depth_x_gap\n", "\n"), 2, "expected 'features"),
    ("shift_low", _replace_line(3, "shift 7"), 3, "outside 8..30"),
    ("shift_high", _replace_line(3, "shift 31"), 3, "outside 8..30"),
    ("shift_text", _replace_line(3, "shift 1e1"), 3, "not an integer"),
    (
        "alpha_short",
        _replace_line(4, "alpha 1 " + " ".join(["0"] * (NUM_FEATURES - 1))),
        4,
        "expected 'alpha",
    ),
    ("alpha_float", _replace_line(4, "alpha 1.5 " + ZEROS), 4, "not an integer"),
    ("alpha_int32", _replace_line(4, "alpha 2147483648 " + ZEROS), 4, "outside"),
    ("beta_int32", _replace_line(5, "beta -2147483649 " + ZEROS), 5, "outside"),
    ("sides_swapped", _replace_line(4, "beta 0 " + ZEROS), 4, "expected 'alpha"),
    (
        "beta_legal_lg",
        _replace_line(
            5, "beta 0 " + " ".join(["0"] * 17) + " 1 " + " ".join(["0"] * (NUM_FEATURES - 18))
        ),
        5,
        "legal_lg",
    ),
    ("lut_size", _replace_line(6, "lut 1024"), 6, "lut size must be 2048"),
    ("lut_range", _replace_line(LUT_LAST, " ".join(["65536"] * 16)), LUT_LAST, "0..65535"),
    ("lut_negative", _replace_line(7, "-1 " + " ".join(["0"] * 15)), 7, "0..65535"),
    (
        "lut_decreasing",
        _replace_line(LUT_LAST, " ".join(["65535"] * 15 + ["7"])),
        LUT_LAST,
        "decreases",
    ),
    ("lut_short", _replace_line(LUT_LAST, ""), LUT_LAST + 1, "2032 values"),
    ("lut_long", _replace_line(LUT_LAST, " ".join(["65535"] * 17)), LUT_LAST, "more than 2048"),
    ("no_end", lambda t: t.replace("\nend\n", "\n"), LUT_LAST + 1, "unexpected end of file"),
    ("after_end", lambda t: t + "alpha 0\n", LUT_LAST + 2, "content after 'end'"),
    ("empty", lambda t: "# only a comment\n", 2, "unexpected end of file"),
]


def test_valid_text_layout() -> None:
    lines = _valid_text().split("\n")
    assert lines[5] == "lut 2048" and lines[LUT_LAST] == "end"
    parse_model(_valid_text())


@pytest.mark.parametrize("case", MALFORMED_MODELS, ids=[m[0] for m in MALFORMED_MODELS])
def test_model_rejects(case: tuple[str, Callable[[str], str], int, str], tmp_path: Path) -> None:
    _, edit, line, words = case
    path = tmp_path / "bad.txt"
    path.write_text(edit(_valid_text()))
    with pytest.raises(ModelFormatError) as e:
        read_model(path)
    assert str(e.value).startswith(f"{path}:{line}: ") and words in str(e.value), str(e.value)


def test_load_is_transactional(tmp_path: Path) -> None:
    good, bad = tmp_path / "good.txt", tmp_path / "bad.txt"
    good.write_text(_valid_text())
    bad.write_text(_valid_text().replace("shift 18", "shift 40"))
    slot = ModelSlot()
    first = slot.load(good)
    with pytest.raises(ModelFormatError, match="bad.txt:3"):
        slot.load(bad)
    assert slot.model is first and slot.path == str(good)
    with pytest.raises(ModelFormatError, match="missing.txt"):
        slot.load(tmp_path / "missing.txt")
    assert slot.model is first


def test_writer_refuses_invalid_models() -> None:
    bad_beta = Model(18, SideParams(0, _weights()), SideParams(0, _weights(legal_lg=1)), make_lut())
    with pytest.raises(ValueError, match="legal_lg"):
        format_model(bad_beta)
    with pytest.raises(ValueError, match="non-decreasing"):
        format_model(
            Model(
                18,
                SideParams(0, _weights()),
                SideParams(0, _weights()),
                tuple(reversed(make_lut())),
            )
        )


# -- the writer refuses exactly what the reader refuses ----------------------------------------

_INT32 = (-(2**31), 2**31 - 1)


def _raw_model_text(m: Model) -> str:
    """The model file as docs/fail-high-predictor.md#model-file-text lays it out, written with no
    check at all (a side's bias then its weights; the lut values 16 to a line)."""
    lines = ["stk-fhmodel 1", "features " + " ".join(FEATURE_NAMES), f"shift {m.shift}"]
    for key, p in (("alpha", m.alpha), ("beta", m.beta)):
        lines.append(" ".join([key, str(p.bias), *map(str, p.weights)]))
    lines.append("lut 2048")
    lines += [" ".join(map(str, m.lut[i : i + 16])) for i in range(0, len(m.lut), 16)]
    return "\n".join([*lines, "end"]) + "\n"


@st.composite
def models_at_the_edges(draw, rule: str, broken: bool) -> Model:
    """A valid model with one of the docs' rules pushed to its edge: kept at it, or broken by one
    (the others kept, so that the verdict is that rule's)."""
    weights = [draw(st.integers(-1000, 1000)) for _ in range(NUM_FEATURES)]
    beta = list(weights)
    beta[LEGAL_LG] = 0
    shift, bias = 18, 0
    lut = [min(65535, i * 32) for i in range(LUT_SIZE)]
    edge = EDGES[rule][broken]
    at = draw(st.integers(0, NUM_FEATURES - 1))
    i = draw(st.integers(1, LUT_SIZE - 1))
    if rule in ("shift low", "shift high"):
        shift = edge
    elif rule in ("weights", "weights short"):
        weights = (weights + [0] * 2)[:edge]
    elif rule == "int32 low":
        weights[at] = edge
    elif rule == "int32 high":
        bias = edge
    elif rule == "beta legal_lg":
        beta[LEGAL_LG] = edge
    elif rule in ("lut size", "lut size short"):
        lut = (lut + [65535] * 2)[:edge]
    elif rule == "lut top":
        lut[-1] = edge
    elif rule == "lut bottom":
        lut[0] = edge
    elif rule == "lut order":
        lut[i] = lut[i - 1] - edge
    return Model(shift, SideParams(bias, tuple(weights)), SideParams(0, tuple(beta)), tuple(lut))


# Each rule of the docs: (the value at its edge that keeps it, the nearest that breaks it). A weight
# count breaks both ways (drawn either side).
EDGES = {
    "shift low": (8, 7),
    "shift high": (30, 31),
    "weights": (NUM_FEATURES, NUM_FEATURES + 1),
    "weights short": (NUM_FEATURES, NUM_FEATURES - 1),
    "int32 low": (_INT32[0], _INT32[0] - 1),
    "int32 high": (_INT32[1], _INT32[1] + 1),
    "beta legal_lg": (0, 1),
    "lut size": (LUT_SIZE, LUT_SIZE + 1),
    "lut size short": (LUT_SIZE, LUT_SIZE - 1),
    "lut top": (65535, 65536),
    "lut bottom": (0, -1),
    "lut order": (0, 1),
}


# MODEL fhmodel-writer-reader-agree
# checks: harness/python/stkref/fhmodel.py  (which fail-high models are valid: the writer's check and the reader's)
# contract: docs/fail-high-predictor.md#model-file-text
# planted: ci/mutants/model-fhmodel-writer-reader-agree.patch  (a side with more weights than features written)
@pytest.mark.parametrize("broken", [False, True])
@pytest.mark.parametrize("rule", list(EDGES))
@settings(max_examples=8, deadline=None)
@given(data=st.data())
def test_the_writer_refuses_exactly_what_the_reader_refuses(rule: str, broken: bool, data) -> None:
    """A metamorphic relation, no oracle needed: a model the writer writes reads back equal, and
    one the writer refuses, written out by hand in the same layout, the reader refuses too; each
    rule at its edge both ways (every rule drawn, not left to the generator's bias)."""
    m = data.draw(models_at_the_edges(rule, broken))
    try:
        text = format_model(m)
    except ValueError:
        with pytest.raises(ModelFormatError):
            parse_model(_raw_model_text(m), "m.txt")
        return
    assert text == _raw_model_text(m)
    assert parse_model(text, "m.txt") == m
