from __future__ import annotations

import json
import os
import struct
import subprocess
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from stkref.cli import run_tool
from stkref.errors import InputError
from stkref.fhmodel import features, predict, write_model
from stkref.fhrecords import (
    DUMP_FIELDS,
    HEADER_DTYPE,
    LABEL,
    RECORD_DTYPE,
    TIERS,
    WHOLE_NODE,
    RecordFormatError,
    decode,
    encode_segment,
    make_records,
    read_records,
    record_offsets,
    write_records,
)
from stkref.fhrecords import (
    main as fhrecords_main,
)
from stkref.fhsynth import quantized_model, synthesize


def node_records(n_moves: int, position: int = 0, side: int = 0) -> np.ndarray:
    """One node: a whole-node record and n_moves valid move records (alpha side)."""
    r = make_records(1 + n_moves)
    r["position_id"], r["side"], r["depth"], r["ply"], r["weight"] = position, side, 3, 5, 4
    r["flags"][0] = WHOLE_NODE | LABEL
    r["legal"] = 20
    for k in range(1, 1 + n_moves):
        r["tier"][k], r["ordinal"][k], r["move_value"][k] = 3, k, -100 * (k % 2)
        r["fh_tries"][k], r["fh_cuts"][k] = 10 * k, k
    r["gap"], r["static_eval"], r["prediction"] = 37, -25, 1234
    return r


def test_layout_matches_contract() -> None:
    rec = {
        "position_id": 0,
        "node_id": 4,
        "side": 8,
        "flags": 9,
        "depth": 10,
        "ply": 11,
        "gap": 12,
        "tier": 14,
        "ordinal": 15,
        "legal": 16,
        "good_captures": 17,
        "move_value": 18,
        "fh_cuts": 20,
        "fh_tries": 22,
        "phase": 24,
        "reserved": 25,
        "prediction": 26,
        "weight": 28,
        "static_eval": 30,
    }
    assert {k: v[1] for k, v in RECORD_DTYPE.fields.items()} == rec
    hdr = {
        "magic": 0,
        "version": 8,
        "record_size": 10,
        "search_depth": 12,
        "full_depth": 14,
        "seed": 16,
        "shard_index": 20,
        "shard_count": 22,
        "record_count": 24,
    }
    assert {k: v[1] for k, v in HEADER_DTYPE.fields.items()} == hdr
    r = make_records(1)
    r["move_value"], r["static_eval"], r["gap"] = -1200, -2, 0x0102
    data = encode_segment(
        r, search_depth=9, full_depth=6, seed=0xDEADBEEF, shard_index=2, shard_count=5
    )
    assert data[:8] == b"STKFHREC"
    assert struct.unpack_from("<HHHHIHHQ", data, 8) == (1, 32, 9, 6, 0xDEADBEEF, 2, 5, 1)
    assert data[32 + 12 : 32 + 14] == b"\x02\x01"
    assert struct.unpack_from("<h", data, 32 + 18)[0] == -1200
    assert data[-2:] == b"\xfe\xff"


def test_round_trip_and_concatenated_segments(tmp_path: Path) -> None:
    a, b = node_records(2), node_records(3, position=7)
    path = tmp_path / "all.fhr"
    write_records(path, a, seed=11, shard_index=0, shard_count=3)
    write_records(path, make_records(0), append=True, seed=11, shard_index=1, shard_count=3)
    write_records(path, b, append=True, seed=11, shard_index=2, shard_count=3)
    recs, headers = read_records(path)
    assert [h.offset for h in headers] == [0, 32 + 3 * 32, 2 * 32 + 3 * 32]
    assert [h.record_count for h in headers] == [3, 0, 4]
    assert [h.shard_index for h in headers] == [0, 1, 2] and headers[2].seed == 11
    assert np.array_equal(recs, np.concatenate([a, b]))
    assert record_offsets(headers).tolist() == [32, 64, 96, 192, 224, 256, 288]
    # `cat shard*.fhr > all.fhr` is the same thing
    cat = encode_segment(a) + encode_segment(b)
    assert np.array_equal(decode(cat)[0], recs)


def _patch(data: bytes, offset: int, fmt: str, value: int) -> bytes:
    return data[:offset] + struct.pack(fmt, value) + data[offset + struct.calcsize(fmt) :]


# Records of the second segment start at 160 (first segment: header + 3 records; its header
# at 128); record k of it is at 160 + 32 k. Record 0 is the whole node, 1.. are moves.
SEG2, REC = 128, 160
MALFORMED: list[tuple[str, Callable[[bytes], bytes], int, str]] = [
    ("magic", lambda d: _patch(d, SEG2, "<B", ord("X")), SEG2, "magic"),
    ("version", lambda d: _patch(d, SEG2 + 8, "<H", 2), SEG2 + 8, "version"),
    ("record_size", lambda d: _patch(d, SEG2 + 10, "<H", 28), SEG2 + 10, "record_size"),
    ("count_past_end", lambda d: _patch(d, SEG2 + 24, "<Q", 5), SEG2 + 24, "past the end"),
    ("count_huge", lambda d: _patch(d, SEG2 + 24, "<Q", 1 << 60), SEG2 + 24, "past the end"),
    ("side", lambda d: _patch(d, REC + 32 + 8, "<B", 2), REC + 32 + 8, "side"),
    ("tier", lambda d: _patch(d, REC + 64 + 14, "<B", 5), REC + 64 + 14, "tier must be 0..4"),
    ("flag_bit6", lambda d: _patch(d, REC + 9, "<B", WHOLE_NODE | 0x40), REC + 9, "bits 6-7"),
    ("flag_bit7", lambda d: _patch(d, REC + 32 + 9, "<B", 0x80), REC + 32 + 9, "bits 6-7"),
    ("reserved", lambda d: _patch(d, REC + 25, "<B", 1), REC + 25, "reserved"),
    ("whole_tier", lambda d: _patch(d, REC + 14, "<B", 3), REC + 14, "whole-node record"),
    ("whole_ordinal", lambda d: _patch(d, REC + 15, "<B", 1), REC + 15, "whole-node record"),
    ("move_tier0", lambda d: _patch(d, REC + 32 + 14, "<B", 0), REC + 32 + 14, "move record"),
    ("move_ordinal0", lambda d: _patch(d, REC + 64 + 15, "<B", 0), REC + 64 + 15, "move record"),
    ("depth0", lambda d: _patch(d, REC + 96 + 10, "<B", 0), REC + 96 + 10, "depth"),
    ("weight0", lambda d: _patch(d, REC + 96 + 28, "<H", 0), REC + 96 + 28, "weight"),
    ("short_header", lambda d: d + b"STKFHREC\x01\x00", 288, "short header"),
]


@pytest.fixture(scope="module")
def good_bytes() -> bytes:
    return encode_segment(node_records(2)) + encode_segment(node_records(3, position=1))


def test_good_bytes_read(good_bytes: bytes) -> None:
    recs, headers = decode(good_bytes)
    assert len(recs) == 7 and len(headers) == 2 and headers[1].offset == SEG2


@pytest.mark.parametrize("case", MALFORMED, ids=[m[0] for m in MALFORMED])
def test_reader_rejects(
    case: tuple[str, Callable[[bytes], bytes], int, str], good_bytes: bytes, tmp_path: Path
) -> None:
    _, patch, offset, words = case
    path = tmp_path / "bad.fhr"
    path.write_bytes(patch(good_bytes))
    with pytest.raises(RecordFormatError) as e:
        read_records(path)
    msg = str(e.value)
    assert msg.startswith(str(path) + ":")
    assert f"byte offset {offset}" in msg and words in msg, msg


def test_first_bad_record_wins(good_bytes: bytes) -> None:
    data = _patch(_patch(good_bytes, REC + 96 + 10, "<B", 0), REC + 32 + 28, "<H", 0)
    with pytest.raises(RecordFormatError, match=f"byte offset {REC + 32 + 28}: weight"):
        decode(data, "x.fhr")


def test_empty_and_unreadable(tmp_path: Path) -> None:
    with pytest.raises(RecordFormatError, match="byte offset 0"):
        decode(b"", "empty.fhr")
    with pytest.raises(RecordFormatError, match="missing.fhr: cannot read"):
        read_records(tmp_path / "missing.fhr")
    assert isinstance(RecordFormatError("x"), InputError)


def _dump(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    rc = run_tool(lambda: fhrecords_main(argv))
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_dump_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    recs = synthesize(np.random.default_rng(5), 60, stored_model=quantized_model())
    path, model_path = tmp_path / "s.fhr", tmp_path / "m.txt"
    write_records(path, recs[:10])
    write_records(path, recs[10:], append=True)
    model = quantized_model(intercept_shift=0.5)
    write_model(model_path, model)
    rc, out, _ = _dump(["dump", str(path), "--model", str(model_path)], capsys)
    assert rc == 0
    rows = [json.loads(line) for line in out.splitlines()]
    assert len(rows) == len(recs)
    assert list(rows[0]) == ["offset", *DUMP_FIELDS, "features", "model_prediction"]
    assert rows[0]["offset"] == 32 and rows[10]["offset"] == 32 + 10 * 32 + 32
    assert [r["features"] for r in rows] == features(recs).tolist()
    assert [r["model_prediction"] for r in rows] == predict(model, recs).tolist()
    assert [r["prediction"] for r in rows] == recs["prediction"].tolist()
    assert [r["label"] for r in rows] == ((recs["flags"] & LABEL) != 0).astype(int).tolist()
    rc, out, _ = _dump(["dump", str(path)], capsys)
    assert "model_prediction" not in json.loads(out.splitlines()[0])


def test_summary_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "s.fhr"
    write_records(path, node_records(3))
    rc, out, _ = _dump(["summary", str(path)], capsys)
    assert rc == 0
    assert "4 records" in out and "alpha/whole/none" in out and "alpha/move/quiet" in out
    assert "depth histogram: 3:4" in out


def test_bad_file_exit_2(
    tmp_path: Path, good_bytes: bytes, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.fhr"
    path.write_bytes(_patch(good_bytes, REC + 25, "<B", 9))
    for cmd in ("dump", "summary"):
        rc, _, err = _dump([cmd, str(path)], capsys)
        assert rc == 2 and "bad.fhr" in err and f"byte offset {REC + 25}" in err


def _normalized(line: str) -> dict[str, object]:
    return {k: int(v) if isinstance(v, bool) else v for k, v in json.loads(line).items()}


@pytest.mark.skipif(
    not os.environ.get("STK_HARNESS"), reason="set STK_HARNESS (stk-harness binary)"
)
def test_engine_dump_agrees(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`stk-harness fhdump` and this reader agree on every record, feature and prediction
    (the model: STK_FHMODEL if set, else a quantized synthetic model written here). The
    records: STK_FHR_SAMPLE if set, else a small collection run by the engine here."""
    sample = os.environ.get("STK_FHR_SAMPLE") or str(tmp_path / "sample.fhr")
    if "STK_FHR_SAMPLE" not in os.environ:
        positions = tmp_path / "positions.epd"
        positions.write_text(
            'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - id "kiwipete";\n'
            'k7/8/2K5/8/8/8/8/1R6 w - - id "mate-in-2";\n'
            'r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - id "qgd";\n'
        )
        proc = subprocess.run(
            [
                os.environ["STK_HARNESS"],
                "fhcollect",
                "--positions",
                str(positions),
                "--depth",
                "7",
                "--out",
                sample,
                "--out-dir",
                str(tmp_path),
            ],
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert proc.returncode == 0, proc.stdout + proc.stderr
    model = os.environ.get("STK_FHMODEL") or str(tmp_path / "m.txt")
    if "STK_FHMODEL" not in os.environ:
        write_model(model, quantized_model())
    for extra in ([], ["--model", model]):
        proc = subprocess.run(
            [os.environ["STK_HARNESS"], "fhdump", sample, *extra],
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert proc.returncode == 0, proc.stderr
        rc, ours, _ = _dump(["dump", sample, *extra], capsys)
        assert rc == 0
        theirs_lines, ours_lines = proc.stdout.splitlines(), ours.splitlines()
        assert len(theirs_lines) == len(ours_lines)
        for i, (t, o) in enumerate(zip(theirs_lines, ours_lines)):
            assert _normalized(t) == _normalized(o), f"record {i}: engine {t}\nreference {o}"


def test_summary_names_every_tier_present(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # One move record in each ordering tier: each has its group, the last one too (planted by
    # the mutation campaign: `range(4)` over the five tiers dropped losing captures).
    r = node_records(len(TIERS) - 1)  # moves have tiers 1.., the whole node "none"
    for k in range(1, len(TIERS)):
        r["tier"][k] = k
    path = tmp_path / "t.fhr"
    write_records(path, r)
    rc, out, _ = _dump(["summary", str(path)], capsys)
    assert rc == 0
    assert "alpha/whole/none" in out
    for tier in TIERS[1:]:
        assert f"alpha/move/{tier}" in out, tier
