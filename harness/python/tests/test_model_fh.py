"""Independent models of stkref.fhrecords (the .fhr byte layout and the reader's verdicts) and
stkref.fhmodel (features, LUT, quantization, integer inference), written from
docs/fail-high-predictor.md with struct and plain Python integers."""

from __future__ import annotations

import math
import random
import struct

import numpy as np
import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from stkref import fhmodel, fhrecords, fhsynth

REC = "<IIBBBBHBBBBhHHBBHHh"  # the record table, offsets 0..31
HDR = "<8sHHHHIHHQ"
assert struct.calcsize(REC) == 32 and struct.calcsize(HDR) == 32
FIELDS = [
    "position_id",
    "node_id",
    "side",
    "flags",
    "depth",
    "ply",
    "gap",
    "tier",
    "ordinal",
    "legal",
    "good_captures",
    "move_value",
    "fh_cuts",
    "fh_tries",
    "phase",
    "reserved",
    "prediction",
    "weight",
    "static_eval",
]
LADDER = (0, -100, -300, -500, -900, -1200)

NO_SHRINK = (Phase.explicit, Phase.generate)


@st.composite
def records(draw: st.DrawFn) -> dict[str, int]:
    """A record that keeps every rule of the reader."""
    whole = draw(st.booleans())
    u8, u16 = st.integers(0, 255), st.integers(0, 65535)
    return {
        "position_id": draw(st.integers(0, 2**32 - 1)),
        "node_id": draw(st.integers(0, 2**32 - 1)),
        "side": draw(st.integers(0, 1)),
        "flags": (draw(st.integers(0, 63)) & ~1) | int(whole),
        "depth": draw(st.integers(1, 255)),
        "ply": draw(u8),
        "gap": draw(u16),
        "tier": 0 if whole else draw(st.integers(1, 4)),
        "ordinal": 0 if whole else draw(st.integers(1, 255)),
        "legal": draw(u8),
        "good_captures": draw(u8),
        "move_value": 0 if whole else draw(st.sampled_from(LADDER)),
        "fh_cuts": 0 if whole else draw(u16),
        "fh_tries": 0 if whole else draw(u16),
        "phase": draw(st.integers(0, 24)),
        "reserved": 0,
        "prediction": draw(u16),
        "weight": draw(st.integers(1, 65535)),
        "static_eval": draw(st.integers(-32768, 32767)),
    }


def pack(recs: list[dict[str, int]], count: int | None = None) -> bytes:
    hdr = struct.pack(
        HDR, b"STKFHREC", 1, 32, 9, 6, 123, 0, 1, len(recs) if count is None else count
    )
    return hdr + b"".join(struct.pack(REC, *(r[f] for f in FIELDS)) for r in recs)


# MODEL fhrecords-byte-layout
# checks: harness/python/stkref/fhrecords.py  (each field of a .fhr segment at its documented offset)
# contract: docs/fail-high-predictor.md#record-file-fhr
# planted: ci/mutants/model-fhrecords-byte-layout.patch  (fh_cuts and fh_tries swapped in the record)
@given(st.lists(st.lists(records(), max_size=6), min_size=1, max_size=3))
def test_fhr_decode_equals_struct_model(segments: list[list[dict[str, int]]]) -> None:
    data = b"".join(pack(s) for s in segments)
    recs, headers = fhrecords.decode(data)
    flat = [r for s in segments for r in s]
    assert len(recs) == len(flat) and len(headers) == len(segments)
    for got, want in zip(recs, flat, strict=True):
        assert {f: int(got[f]) for f in FIELDS} == want
    assert fhrecords.decode(fhrecords.encode_segment(recs))[0].tobytes() == recs.tobytes()


# (field, value that breaks the rule) for each rule the reader enforces; whole-node record base
BREAKS = [
    ("side", 2),
    ("tier", 5),
    ("reserved", 1),
    ("flags", 64),
    ("depth", 0),
    ("weight", 0),
]


# MODEL fhrecords-reader-verdicts
# checks: harness/python/stkref/fhrecords.py  (each rejected record, named by its byte offset)
# contract: docs/fail-high-predictor.md#record-file-fhr
# planted: ci/mutants/model-fhrecords-reader-verdicts.patch  (a side of 2 accepted)
@pytest.mark.parametrize(("field", "value"), BREAKS)  # each rule, not a draw (rule_choice.py)
@settings(max_examples=8)
@given(st.lists(records(), min_size=1, max_size=5), st.data())
def test_fhr_reader_rejects_each_rule_at_its_offset(
    field: str, value: int, recs: list[dict[str, int]], data: st.DataObject
) -> None:
    i = data.draw(st.integers(0, len(recs) - 1))
    bad = [dict(r) for r in recs]
    bad[i][field] = value
    offset = 32 + 32 * i
    with pytest.raises(fhrecords.RecordFormatError, match=rf"\b{offset}\b"):
        fhrecords.decode(pack(bad))
    fhrecords.decode(pack(recs))  # the same file without the break: keeps
    with pytest.raises(fhrecords.RecordFormatError):
        fhrecords.decode(pack(recs, count=len(recs) + 1))  # count runs past the end by one


def lg(v: int) -> int:
    b = math.floor(math.log2(v))
    while 2 ** (b + 1) <= v:  # exact floor(log2) for large v
        b += 1
    while 2**b > v:
        b -= 1
    return 256 * b + (((v << 8) >> b) & 255)


def model_features(r: dict[str, int]) -> list[int]:
    flags = r["flags"]
    whole, improving, opp, cut = (
        (flags >> 0) & 1,
        (flags >> 2) & 1,
        (flags >> 3) & 1,
        (flags >> 4) & 1,
    )
    good = min(r["good_captures"], 8)
    f = [0] * 28
    f[0] = lg(r["depth"])
    f[1] = lg(r["gap"] + 1)
    f[2] = lg(r["ordinal"] + 1)
    f[3] = 256 * r["ordinal"] // r["legal"] if r["legal"] else 0
    f[4] = 256 * whole
    f[5], f[6], f[7] = (256 * (r["tier"] == t) for t in (1, 2, 4))
    f[8] = r["move_value"] // 4
    f[9], f[10], f[11] = 256 * improving, 256 * opp, 256 * cut
    f[12] = 10 * r["phase"]
    f[13] = (256 * r["fh_cuts"] + 32) // (r["fh_tries"] + 2)
    f[14] = lg(r["fh_tries"] + 1)
    f[15] = 32 * good
    f[16] = 32 * good if cut else 0
    f[17] = lg(r["legal"] + 1)
    f[18] = (f[1] * f[1]) >> 8
    f[19] = (f[2] * f[2]) >> 8
    f[20] = (f[1] * f[2]) >> 8
    f[21] = (f[8] * f[1]) >> 8
    f[22] = (f[8] * f[2]) >> 8
    f[23] = (f[13] * f[14]) >> 8
    f[24] = f[0] if whole else 0
    f[25] = f[1] if whole else 0
    f[26] = (f[0] * f[0]) >> 8
    f[27] = (f[0] * f[1]) >> 8
    return f


# MODEL fhmodel-features
# checks: harness/python/stkref/fhmodel.py  (the 28 integer features of a record)
# contract: docs/fail-high-predictor.md#features-model-input
# planted: ci/mutants/model-fhmodel-features.patch  (fh_rate without the +2 prior on the tries)
@given(st.lists(records(), min_size=1, max_size=8))
def test_fh_features_equal_model(recs: list[dict[str, int]]) -> None:
    got = fhmodel.features(fhrecords.decode(pack(recs))[0])
    for row, r in zip(got, recs, strict=True):
        assert [int(x) for x in row] == model_features(r)


@given(st.integers(1, 2**40))
def test_lg_equals_model(v: int) -> None:
    assert fhmodel.lg(v) == lg(v)
    assert int(fhmodel.lg_array(np.array([v]))[0]) == lg(v)


def test_lg_documented_values() -> None:
    assert [fhmodel.lg(v) for v in (1, 2, 3)] == [0, 256, 384]


def model_lut() -> list[int]:
    return [round(65535 / (1 + math.exp(-((i - 1024 + 0.5) / 64)))) for i in range(2048)]


def random_model(rnd: random.Random, shift: int) -> fhmodel.Model:
    def side(beta: bool) -> fhmodel.SideParams:
        ws = [rnd.randint(-(2**31), 2**31 - 1) >> rnd.randint(0, 31) for _ in range(28)]
        if beta:
            ws[17] = 0
        return fhmodel.SideParams(rnd.randint(-(2**31), 2**31 - 1) >> rnd.randint(0, 31), tuple(ws))

    lut = tuple(sorted(rnd.randint(0, 65535) for _ in range(2048)))  # any non-decreasing LUT
    return fhmodel.Model(shift, side(False), side(True), lut)


# MODEL fhmodel-inference
# checks: harness/python/stkref/fhmodel.py  (acc >> shift + 1024, clamped, through the LUT, per side)
# contract: docs/fail-high-predictor.md#model-file-text
# planted: ci/mutants/model-fhmodel-inference.patch  (the LUT index clamped to 2046)
@given(
    st.lists(records(), min_size=1, max_size=8),
    st.integers(8, 30),
    st.integers(0, 2**32 - 1),
)
def test_fh_predict_equals_model(recs: list[dict[str, int]], shift: int, seed: int) -> None:
    model = random_model(random.Random(seed), shift)
    got = fhmodel.predict(model, fhrecords.decode(pack(recs))[0])
    lut = model.lut
    for p, r in zip(got, recs, strict=True):
        params = model.beta if r["side"] else model.alpha
        acc = params.bias + sum(
            w * f for w, f in zip(params.weights, model_features(r), strict=True)
        )
        assert int(p) == lut[min(max((acc >> shift) + 1024, 0), 2047)]


# MODEL fhmodel-lut-and-quantize
# checks: harness/python/stkref/fhmodel.py  (the LUT values and the float-to-integer weights)
# contract: docs/fail-high-predictor.md#model-file-text
# planted: ci/mutants/model-fhmodel-lut-and-quantize.patch  (the bias scaled by 2^(shift+4))
@given(
    st.floats(-8, 8, allow_nan=False),
    st.lists(st.floats(-2, 2, allow_nan=False), min_size=28, max_size=28),
    st.integers(8, 22),
)
def test_fh_lut_and_quantize_equal_model(b: float, betas: list[float], shift: int) -> None:
    assert list(fhmodel.make_lut()) == model_lut()
    q = fhmodel.quantize(b, betas, shift)
    assert q.bias == round(b * 2 ** (shift + 6))
    assert list(q.weights) == [round(x * 2 ** (shift - 2)) for x in betas]


# MODEL fhmodel-text-round-trip
# checks: harness/python/stkref/fhmodel.py  (format then parse is the identity; each rule refused)
# contract: docs/fail-high-predictor.md#model-file-text
# planted: ci/mutants/model-fhmodel-text-round-trip.patch  (a nonzero beta legal_lg weight accepted)
@settings(max_examples=20)
@given(st.integers(8, 30), st.integers(0, 2**32 - 1))
def test_fh_model_text_round_trip_and_verdicts(shift: int, seed: int) -> None:
    rnd = random.Random(seed)
    model = random_model(rnd, shift)
    text = fhmodel.format_model(model, ["a comment"])
    assert fhmodel.parse_model(text) == model
    assert fhmodel.format_model(fhmodel.parse_model(text), ["a comment"]) == text
    beta = text.splitlines()
    i = next(n for n, line in enumerate(beta) if line.startswith("beta "))
    toks = beta[i].split()
    toks[2 + 17] = "1"  # the beta side's legal_lg weight: smallest nonzero breaks
    broken = "\n".join([*beta[:i], " ".join(toks), *beta[i + 1 :]]) + "\n"
    with pytest.raises(fhmodel.ModelFormatError):
        fhmodel.parse_model(broken)
    for bad_shift in (7, 31):
        with pytest.raises(fhmodel.ModelFormatError):
            fhmodel.parse_model(text.replace(f"\nshift {shift}\n", f"\nshift {bad_shift}\n"))


# MODEL fhflags-bits
# checks: harness/python/stkref/fhflags.py  (each flag's bit in a record's flags byte)
# contract: docs/fail-high-predictor.md#record-file-fhr
# planted: ci/mutants/model-fhflags-bits.patch  (improving and opp_improving swapped)
@given(st.lists(records(), min_size=1, max_size=8))
def test_flag_bits_are_the_documented_ones(recs: list[dict[str, int]]) -> None:
    from stkref import fhflags

    documented = ["whole_node", "label", "improving", "opp_improving", "cut_node", "black"]
    assert {n: 1 << i for i, n in enumerate(documented)} == fhflags.FLAG_BITS
    decoded = fhrecords.decode(pack(recs))[0]
    for i, name in enumerate(documented):
        got = fhrecords.flag(decoded, fhflags.FLAG_BITS[name])
        assert [bool(x) for x in got] == [bool(r["flags"] >> i & 1) for r in recs], name
    assert [bool(x) for x in fhrecords.labels(decoded)] == [bool(r["flags"] & 2) for r in recs]


def model_float_logit(side: fhsynth.FloatSide, feats: list[int]) -> float:
    return side.bias + sum(b * f / 256 for b, f in zip(side.weights, feats, strict=True))


# MODEL fhsynth-sampling-and-labels
# checks: harness/python/stkref/fhsynth.py  (records as the collection keeps them: sampling, weights, labels)
# contract: docs/fail-high-predictor.md#population-gate-1
# planted: ci/mutants/model-fhsynth-sampling-and-labels.patch  (nodes kept with half the documented probability)
@settings(max_examples=3, phases=NO_SHRINK)  # 6000 nodes per example: no shrinking
@given(st.integers(0, 2**32 - 1), st.sampled_from([4, 6]))
def test_fhsynth_equals_model(seed: int, k: int) -> None:
    nodes = 6000
    stored = fhsynth.quantized_model()
    r = fhsynth.synthesize(np.random.default_rng(seed), nodes, stored_model=stored, full_depth=k)
    back = fhrecords.decode(fhrecords.encode_segment(r))[0]  # every record keeps the contract
    assert back.tobytes() == r.tobytes()
    recs = [{f: int(x[f]) for f in FIELDS} for x in r]
    kept_by_depth = [0] * 13
    node_keys, moves_per_node = set(), []
    for i, x in enumerate(recs):
        whole = x["flags"] & 1
        d = x["depth"]
        assert x["weight"] == (2 ** (k - d) if d < k else 1)  # inverse keep probability
        if whole:
            kept_by_depth[d] += 1
            key = (x["position_id"], x["node_id"])  # a node is named once
            assert key not in node_keys, key
            node_keys.add(key)
            # a node: the whole-node record, then its move records 1, 2, ... (alpha only), each
            # naming its node; an alpha node tries 1 to max_moves (6) moves, no more than legal
            j = i + 1
            while j < len(recs) and not recs[j]["flags"] & 1:
                assert recs[j]["ordinal"] == j - i and recs[j]["depth"] == d
                assert recs[j]["side"] == 0 == x["side"]
                assert (recs[j]["position_id"], recs[j]["node_id"]) == key
                j += 1
            if x["side"] == 0:
                assert 1 <= j - i - 1 <= min(6, x["legal"]), (j - i - 1, x["legal"])
                moves_per_node.append(j - i - 1)
    assert max(moves_per_node) == 6  # the whole range is drawn
    # depth uniform on 1..12 before sampling: kept nodes at depth d ~ nodes/12 * 2^-(K-d)
    for d in range(1, 13):
        p = 2.0 ** (d - k) if d < k else 1.0
        mean = nodes / 12 * p
        sd = (nodes / 12 * p * (1 - p / 12)) ** 0.5 + 1
        assert abs(kept_by_depth[d] - mean) < 5 * sd, (d, kept_by_depth[d], mean)
    # labels: Bernoulli draws of the float model, per side (sum of p vs realized count)
    for s, truth in ((0, fhsynth.TRUE_ALPHA), (1, fhsynth.TRUE_BETA)):
        ps = [
            1 / (1 + math.exp(-model_float_logit(truth, model_features(x))))
            for x in recs
            if x["side"] == s
        ]
        hits = sum(1 for x in recs if x["side"] == s and x["flags"] & 2)
        var = sum(p * (1 - p) for p in ps)
        assert abs(hits - sum(ps)) < 5 * var**0.5 + 1, (s, hits, sum(ps))
    assert [int(p) for p in r["prediction"]] == [int(p) for p in fhmodel.predict(stored, r)]


TIER_NAMES = ("none", "table", "countermove", "quiet", "losing_capture")


def model_summary(recs: list[dict[str, int]]) -> dict:
    groups: dict[str, list[dict[str, int]]] = {}
    for r in recs:
        key = f"{('alpha', 'beta')[r['side']]}/{'whole' if r['flags'] & 1 else 'move'}/"
        groups.setdefault(key + TIER_NAMES[r["tier"]], []).append(r)

    def rate(rs: list[dict[str, int]]) -> float:
        return sum(1 for r in rs if r["flags"] & 2) / len(rs)

    depths: dict[str, int] = {}
    for r in recs:
        depths[str(r["depth"])] = depths.get(str(r["depth"]), 0) + 1
    return {
        "records": len(recs),
        "weight": float(sum(r["weight"] for r in recs)),
        "label_rate": rate(recs) if recs else None,
        "groups": {
            k: {
                "records": len(rs),
                "weight": float(sum(r["weight"] for r in rs)),
                "label_rate": rate(rs),
                "weighted_label_rate": sum(r["weight"] for r in rs if r["flags"] & 2)
                / sum(r["weight"] for r in rs),
            }
            for k, rs in groups.items()
        },
        "depth_histogram": dict(sorted(depths.items(), key=lambda kv: int(kv[0]))),
    }


# MODEL fhrecords-summary
# checks: harness/python/stkref/fhrecords.py  (the summary figures of record files; shards concatenated)
# contract: docs/fail-high-predictor.md#summary-python--m-stkreffhrecords-summary-file
# planted: ci/mutants/model-fhrecords-summary.patch  (the weighted label rate divided by the record count)
@given(
    st.lists(st.lists(records(), max_size=8), min_size=1, max_size=3),
    st.randoms(use_true_random=False),
)
def test_fhr_summary_equals_model(shards: list[list[dict[str, int]]], rnd: random.Random) -> None:
    data = b"".join(pack(s) for s in shards)
    flat = [r for s in shards for r in s]
    got = fhrecords.summarize(fhrecords.decode(data)[0])
    want = model_summary(flat)
    assert got["records"] == want["records"] and got["depth_histogram"] == want["depth_histogram"]
    assert got["weight"] == want["weight"] and got["label_rate"] == pytest.approx(
        want["label_rate"]
    )
    assert set(got["groups"]) == set(want["groups"])
    for k, g in want["groups"].items():
        for f, v in g.items():
            assert got["groups"][k][f] == pytest.approx(v), (k, f)
    shuffled = list(flat)
    rnd.shuffle(shuffled)
    again = fhrecords.summarize(fhrecords.decode(pack(shuffled))[0])
    assert again["groups"].keys() == got["groups"].keys()
    for k in got["groups"]:
        for f, v in got["groups"][k].items():
            assert again["groups"][k][f] == pytest.approx(v)


def model_text(model: fhmodel.Model, lut: list[int] | None = None, bias: int | None = None) -> str:
    """The documented text layout, written here (not by format_model)."""
    lines = ["stk-fhmodel 1", "features " + " ".join(fhmodel.FEATURE_NAMES), f"shift {model.shift}"]
    a_bias = model.alpha.bias if bias is None else bias
    lines.append(" ".join(map(str, ["alpha", a_bias, *model.alpha.weights])))
    lines.append(" ".join(map(str, ["beta", model.beta.bias, *model.beta.weights])))
    values = list(model.lut) if lut is None else lut
    lines += ["lut 2048"] + [" ".join(map(str, values[i : i + 16])) for i in range(0, 2048, 16)]
    return "\n".join([*lines, "end"]) + "\n"


# MODEL fhmodel-file-verdicts
# checks: harness/python/stkref/fhmodel.py  (a model file read from the documented layout; each limit both ways)
# contract: docs/fail-high-predictor.md#model-file-text
# planted: ci/mutants/model-fhmodel-file-verdicts.patch  (a LUT that steps down by one accepted)
@settings(max_examples=20)
@given(seed=st.integers(0, 2**32 - 1), data=st.data())
def test_fh_model_file_limits_both_ways(seed: int, data: st.DataObject) -> None:
    model = random_model(random.Random(seed), data.draw(st.integers(8, 30)))
    assert fhmodel.parse_model(model_text(model)) == model  # the layout the docs give: keeps
    lut = list(model.lut)
    i = data.draw(st.integers(1, 2047))
    lut[i - 1 : i + 1] = [lut[i], lut[i]]  # flat: keeps
    fhmodel.parse_model(model_text(model, lut=lut))
    if lut[i] > 0:
        lut[i] -= 1  # one step down: breaks
        with pytest.raises(fhmodel.ModelFormatError):
            fhmodel.parse_model(model_text(model, lut=lut))
    top = [min(v, 65535) for v in model.lut]
    top[-1] = 65535
    fhmodel.parse_model(model_text(model, lut=top))  # 65535 keeps
    top[-1] = 65536
    with pytest.raises(fhmodel.ModelFormatError):
        fhmodel.parse_model(model_text(model, lut=top))  # 65536 breaks
    for b, ok in ((2**31 - 1, True), (2**31, False), (-(2**31), True), (-(2**31) - 1, False)):
        if ok:
            assert fhmodel.parse_model(model_text(model, bias=b)).alpha.bias == b
        else:
            with pytest.raises(fhmodel.ModelFormatError):
                fhmodel.parse_model(model_text(model, bias=b))


# MODEL fhrecords-segment-header
# checks: harness/python/stkref/fhrecords.py  (each segment header refused at its byte offset: magic, version, size, count)
# contract: docs/fail-high-predictor.md#record-file-fhr
# planted: ci/mutants/model-fhrecords-segment-header.patch  (a header field named at its offset in the segment, not in the file)
@pytest.mark.parametrize(  # each field, not a draw (rule_choice.py: 'version' went undrawn)
    "field", ["magic", "version", "record_size", "record_count", "short"]
)
@settings(max_examples=8)
@given(first=st.lists(records(), max_size=3), second=st.lists(records(), max_size=3))
def test_fhr_segment_header_refused_at_its_offset(
    first: list[dict[str, int]], second: list[dict[str, int]], field: str
) -> None:
    seg = 32 + 32 * len(first)  # the second segment's byte offset
    good = pack(first) + pack(second)
    assert len(fhrecords.decode(good)[0]) == len(first) + len(second)  # keeps
    tail = bytearray(pack(second))
    if field == "magic":
        tail[0:8] = b"STKFHREc"
    elif field == "version":
        struct.pack_into("<H", tail, 8, 2)
    elif field == "record_size":
        struct.pack_into("<H", tail, 10, 33)
    elif field == "record_count":
        struct.pack_into("<Q", tail, 24, len(second) + 1)  # one record past the end: breaks
    else:
        tail = tail[:31]  # one byte short of a header
    with pytest.raises(fhrecords.RecordFormatError) as e:
        fhrecords.decode(pack(first) + bytes(tail), "x.fhr")
    msg = str(e.value)
    assert msg.startswith("x.fhr: ") and f"offset {seg}" in msg
    if field != "short":  # the field named at its documented offset in the segment
        off = {"magic": 0, "version": 8, "record_size": 10, "record_count": 24}[field]
        assert f"'{field}' at byte offset {seg + off}" in msg


# MODEL fhmodel-file-line-numbers
# checks: harness/python/stkref/fhmodel.py  (a bad model file refused naming the file and the line, comments counted)
# contract: docs/fail-high-predictor.md#model-file-text
# planted: ci/mutants/model-fhmodel-file-line-numbers.patch  (lines numbered from 0)
@settings(max_examples=30)
@given(
    seed=st.integers(0, 2**32 - 1),
    comments=st.lists(st.integers(0, 140), max_size=4),
    bad=st.integers(0, 133),
)
def test_fh_model_file_errors_name_the_line(seed: int, comments: list[int], bad: int) -> None:
    model = random_model(random.Random(seed), 18)
    lines = model_text(model).splitlines()
    # break one line (header, a side, the lut header, a lut row or 'end') by an extra token
    lines[bad] = lines[bad] + " x"
    for at in sorted(comments, reverse=True):  # comments and blank lines anywhere before/after
        lines.insert(min(at, len(lines)), "# a comment" if at % 2 else "")
    number = lines.index(next(x for x in lines if x.endswith(" x"))) + 1
    with pytest.raises(fhmodel.ModelFormatError, match=rf"^m\.txt:{number}: "):
        fhmodel.parse_model("\n".join(lines) + "\n", "m.txt")


# MODEL fhrecords-dump-lines
# checks: harness/python/stkref/fhrecords.py  (the dump: one JSON object a record, offset, fields, flags, features)
# contract: docs/harnesses/fhdump.md#what-it-proves
# planted: ci/mutants/model-fhrecords-dump-lines.patch  (improving and opp_improving listed in swapped order)
@given(st.lists(st.lists(records(), max_size=4), min_size=1, max_size=3))
def test_fhr_dump_equals_model(segments: list[list[dict[str, int]]]) -> None:
    import json

    recs, headers = fhrecords.decode(b"".join(pack(s) for s in segments))
    lines = fhrecords.dump_lines(recs, headers)
    want, offset = [], 0
    flag_names = ["whole_node", "label", "improving", "opp_improving", "cut_node", "black"]
    for seg in segments:
        offset += 32  # the segment header
        for r in seg:
            obj: dict[str, object] = {"offset": offset}
            for f in FIELDS:
                if f == "flags":
                    obj.update({n: r["flags"] >> i & 1 for i, n in enumerate(flag_names)})
                elif f != "reserved":
                    obj[f] = r[f]
            obj["features"] = model_features(r)
            want.append(obj)
            offset += 32
    got = [json.loads(x) for x in lines]
    assert [list(o) for o in got] == [list(o) for o in want]  # the keys in order
    assert got == want
