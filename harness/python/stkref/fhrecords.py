"""Reader and writer of fail-high predictor records (`.fhr`, docs/fail-high-predictor.md).

A file is one or more segments back to back (32-byte header + record_count records of 32
bytes). Every field is decoded with an explicit little-endian dtype. Reading is all-or-nothing:
the first violation raises `RecordFormatError` naming the file and the byte offset of the
offending field, and nothing is returned.

    python -m stkref.fhrecords dump FILE [--model M]   one JSON object per record
    python -m stkref.fhrecords summary FILE...         counts, label rates, depth histogram

Exit 0 on success, 2 on a bad file or model (the message names file and offset or line).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .cli import ToolParser, run_tool
from .errors import InputError

# The flag bits are named here too: readers of records import them from this module.
from .fhflags import BLACK as BLACK
from .fhflags import CUT_NODE as CUT_NODE
from .fhflags import FLAG_BITS as FLAG_BITS
from .fhflags import IMPROVING as IMPROVING
from .fhflags import LABEL as LABEL
from .fhflags import OPP_IMPROVING as OPP_IMPROVING
from .fhflags import WHOLE_NODE as WHOLE_NODE
from .inputs import DATA_LIMIT, UnreadableInputError, input_file, read_input_bytes
from .outputs import refuse_non_regular, write_bytes_atomic

MAGIC = b"STKFHREC"
VERSION = 1
HEADER_SIZE = 32
RECORD_SIZE = 32

HEADER_DTYPE = np.dtype(
    [
        ("magic", "S8"),
        ("version", "<u2"),
        ("record_size", "<u2"),
        ("search_depth", "<u2"),
        ("full_depth", "<u2"),
        ("seed", "<u4"),
        ("shard_index", "<u2"),
        ("shard_count", "<u2"),
        ("record_count", "<u8"),
    ]
)

RECORD_DTYPE = np.dtype(
    [
        ("position_id", "<u4"),
        ("node_id", "<u4"),
        ("side", "u1"),
        ("flags", "u1"),
        ("depth", "u1"),
        ("ply", "u1"),
        ("gap", "<u2"),
        ("tier", "u1"),
        ("ordinal", "u1"),
        ("legal", "u1"),
        ("good_captures", "u1"),
        ("move_value", "<i2"),
        ("fh_cuts", "<u2"),
        ("fh_tries", "<u2"),
        ("phase", "u1"),
        ("reserved", "u1"),
        ("prediction", "<u2"),
        ("weight", "<u2"),
        ("static_eval", "<i2"),
    ]
)
assert HEADER_DTYPE.itemsize == HEADER_SIZE and RECORD_DTYPE.itemsize == RECORD_SIZE

SIDES = ("alpha", "beta")
TIERS = ("none", "table", "countermove", "quiet", "losing_capture")


class RecordFormatError(InputError):
    """A .fhr file that violates the record contract; the message names file and byte offset."""


@dataclass(frozen=True)
class SegmentHeader:
    offset: int  # byte offset of the header in its file
    version: int
    record_size: int
    search_depth: int
    full_depth: int
    seed: int
    shard_index: int
    shard_count: int
    record_count: int

    @property
    def first_record_offset(self) -> int:
        return self.offset + HEADER_SIZE


def flag(records: np.ndarray, bit: int) -> np.ndarray:
    """0/1 (uint8) per record for one flags bit."""
    out: np.ndarray = ((records["flags"] & bit) != 0).astype(np.uint8)
    return out


def labels(records: np.ndarray) -> np.ndarray:
    return flag(records, LABEL)


def whole_node(records: np.ndarray) -> np.ndarray:
    return flag(records, WHOLE_NODE).astype(bool)


def _field_offset(name: str) -> int:
    return int(RECORD_DTYPE.fields[name][1])  # type: ignore[index]


def _header_error(
    name: str, seg: int, field: str, expected: str, found: object
) -> RecordFormatError:
    off = seg + int(HEADER_DTYPE.fields[field][1])  # type: ignore[index]
    return RecordFormatError(
        f"{name}: segment at byte offset {seg}: header field '{field}' at "
        f"byte offset {off}: expected {expected}, found {found}"
    )


def parse_header(data: bytes, seg: int, name: str) -> SegmentHeader:
    left = len(data) - seg
    if left < HEADER_SIZE:
        raise RecordFormatError(
            f"{name}: segment at byte offset {seg}: short header: {left} "
            f"bytes left, a header has {HEADER_SIZE}"
        )
    h = np.frombuffer(data, HEADER_DTYPE, count=1, offset=seg)[0]
    if data[seg : seg + 8] != MAGIC:
        raise _header_error(name, seg, "magic", repr(MAGIC), repr(data[seg : seg + 8]))
    if int(h["version"]) != VERSION:
        raise _header_error(name, seg, "version", str(VERSION), int(h["version"]))
    if int(h["record_size"]) != RECORD_SIZE:
        raise _header_error(name, seg, "record_size", str(RECORD_SIZE), int(h["record_size"]))
    count = int(h["record_count"])
    end = seg + HEADER_SIZE + count * RECORD_SIZE
    if end > len(data):
        raise _header_error(
            name,
            seg,
            "record_count",
            f"at most {(left - HEADER_SIZE) // RECORD_SIZE} (records end at byte "
            f"offset {end}, past the end of the file at {len(data)})",
            count,
        )
    return SegmentHeader(
        seg,
        VERSION,
        RECORD_SIZE,
        int(h["search_depth"]),
        int(h["full_depth"]),
        int(h["seed"]),
        int(h["shard_index"]),
        int(h["shard_count"]),
        count,
    )


# Record checks in the order the contract lists them: (field, predicate of a bad record, rule).
def _record_checks(r: np.ndarray) -> list[tuple[str, np.ndarray, str]]:
    whole = (r["flags"] & WHOLE_NODE) != 0
    return [
        ("side", r["side"] > 1, "side must be 0 (alpha) or 1 (beta)"),
        ("tier", r["tier"] > 4, "tier must be 0..4"),
        ("flags", (r["flags"] & 0xC0) != 0, "flags bits 6-7 must be zero"),
        ("reserved", r["reserved"] != 0, "reserved byte must be zero"),
        ("tier", whole & (r["tier"] != 0), "a whole-node record has tier 0"),
        ("ordinal", whole & (r["ordinal"] != 0), "a whole-node record has ordinal 0"),
        ("tier", ~whole & (r["tier"] == 0), "a move record has tier 1..4"),
        ("ordinal", ~whole & (r["ordinal"] == 0), "a move record has ordinal >= 1"),
        ("depth", r["depth"] == 0, "depth must be >= 1"),
        ("weight", r["weight"] == 0, "weight must be >= 1"),
    ]


def check_records(records: np.ndarray, first_offset: int, name: str) -> None:
    """Raises on the first bad record (lowest offset), naming its first violated rule."""
    checks = _record_checks(records)
    bad = np.zeros(records.shape, bool)
    for _, mask, _ in checks:
        bad |= mask
    if not bad.any():
        return
    i = int(np.argmax(bad))
    rec_off = first_offset + i * RECORD_SIZE
    field, _, rule = next(c for c in checks if c[1][i])
    raise RecordFormatError(
        f"{name}: record at byte offset {rec_off}: field '{field}' at byte "
        f"offset {rec_off + _field_offset(field)}: {rule}, found "
        f"{int(records[field][i])}"
    )


def decode(data: bytes, name: str = "<bytes>") -> tuple[np.ndarray, list[SegmentHeader]]:
    if not data:
        raise RecordFormatError(
            f"{name}: empty file at byte offset 0: a file has at least one segment"
        )
    headers: list[SegmentHeader] = []
    parts: list[np.ndarray] = []
    seg = 0
    while seg < len(data):
        h = parse_header(data, seg, name)
        recs = np.frombuffer(data, RECORD_DTYPE, count=h.record_count, offset=h.first_record_offset)
        check_records(recs, h.first_record_offset, name)
        headers.append(h)
        parts.append(recs)
        seg = h.first_record_offset + h.record_count * RECORD_SIZE
    return np.concatenate(parts), headers  # concatenate copies: the result owns its memory


def read_records(path: str | os.PathLike[str]) -> tuple[np.ndarray, list[SegmentHeader]]:
    name = os.fspath(path)
    try:
        data = read_input_bytes(path, DATA_LIMIT)
    except UnreadableInputError as e:
        raise RecordFormatError(f"{name}: cannot read: {e.why}") from e
    return decode(data, name)


def read_many(paths: Sequence[str | os.PathLike[str]]) -> tuple[np.ndarray, np.ndarray]:
    """All records of several files, plus the index of the file each record came from."""
    if not paths:
        raise InputError("no record files given")
    recs, src = [], []
    for i, p in enumerate(paths):
        r, _ = read_records(p)
        recs.append(r)
        src.append(np.full(len(r), i, np.int32))
    return np.concatenate(recs), np.concatenate(src)


def record_offsets(headers: Sequence[SegmentHeader]) -> np.ndarray:
    """Byte offset of every record, in file order."""
    if not headers:
        return np.zeros(0, np.int64)
    return np.concatenate(
        [
            h.first_record_offset + RECORD_SIZE * np.arange(h.record_count, dtype=np.int64)
            for h in headers
        ]
    )


def encode_segment(
    records: np.ndarray,
    *,
    search_depth: int = 0,
    full_depth: int = 6,
    seed: int = 0,
    shard_index: int = 0,
    shard_count: int = 1,
) -> bytes:
    h = np.zeros(1, HEADER_DTYPE)
    h["magic"], h["version"], h["record_size"] = MAGIC, VERSION, RECORD_SIZE
    h["search_depth"], h["full_depth"], h["seed"] = search_depth, full_depth, seed
    h["shard_index"], h["shard_count"], h["record_count"] = shard_index, shard_count, len(records)
    return h.tobytes() + np.ascontiguousarray(records, RECORD_DTYPE).tobytes()


def write_records(
    path: str | os.PathLike[str], records: np.ndarray, *, append: bool = False, **header: int
) -> None:
    """One segment (header fields as keywords of encode_segment); append adds a segment."""
    data = encode_segment(records, **header)
    target = Path(path)
    if not append:
        write_bytes_atomic(target, data)
        return
    refuse_non_regular(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    with open(target, "ab") as f:
        f.write(data)


def make_records(n: int) -> np.ndarray:
    """n zeroed records (fill the fields, then write_records)."""
    return np.zeros(n, RECORD_DTYPE)


# ---- command line ----------------------------------------------------------------------------

DUMP_FIELDS = (
    "position_id",
    "node_id",
    "side",
    "whole_node",
    "label",
    "improving",
    "opp_improving",
    "cut_node",
    "black",
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
    "prediction",
    "weight",
    "static_eval",
)


def dump_lines(
    records: np.ndarray,
    headers: Sequence[SegmentHeader],
    model_predictions: np.ndarray | None = None,
) -> list[str]:
    """The JSON lines of `dump` (keys in DUMP_FIELDS order; flags as 0/1 integers)."""
    from .fhmodel import features

    feats = features(records).tolist()
    offsets = record_offsets(headers).tolist()
    cols = {
        f: (flag(records, FLAG_BITS[f]) if f in FLAG_BITS else records[f]).tolist()
        for f in DUMP_FIELDS
    }
    out = []
    for i in range(len(records)):
        obj: dict[str, object] = {"offset": offsets[i]}
        obj.update((f, cols[f][i]) for f in DUMP_FIELDS)
        obj["features"] = feats[i]
        if model_predictions is not None:
            obj["model_prediction"] = int(model_predictions[i])
        out.append(json.dumps(obj, separators=(", ", ": ")))
    return out


def summarize(records: np.ndarray) -> dict[str, object]:
    w = records["weight"].astype(np.float64)
    y = labels(records).astype(bool)
    whole = whole_node(records)
    groups: dict[str, dict[str, float | int]] = {}
    for side in (0, 1):
        for kind, kmask in (("whole", whole), ("move", ~whole)):
            for tier in range(len(TIERS)):
                m = (records["side"] == side) & kmask & (records["tier"] == tier)
                if not m.any():
                    continue
                groups[f"{SIDES[side]}/{kind}/{TIERS[tier]}"] = {
                    "records": int(m.sum()),
                    "weight": float(w[m].sum()),
                    "label_rate": float(y[m].mean()),
                    "weighted_label_rate": float((w[m] * y[m]).sum() / w[m].sum()),
                }
    depth = Counter(records["depth"].tolist())
    return {
        "records": len(records),
        "weight": float(w.sum()),
        "label_rate": float(y.mean()) if len(y) else None,
        "groups": groups,
        "depth_histogram": {str(d): depth[d] for d in sorted(depth)},
    }


def _dump(args: argparse.Namespace) -> int:
    records, headers = read_records(args.file)
    preds = None
    if args.model:
        from .fhmodel import predict, read_model

        preds = predict(read_model(args.model), records)
    sys.stdout.write("".join(line + "\n" for line in dump_lines(records, headers, preds)))
    return 0


def _summary(args: argparse.Namespace) -> int:
    for path in args.files:
        records, headers = read_records(path)
        s = summarize(records)
        print(
            f"file {path}: {len(headers)} segments, {s['records']} records, weight "
            f"{s['weight']:.0f}, label rate {s['label_rate']}"
        )
        for h in headers:
            print(
                f"  segment @{h.offset}: search_depth {h.search_depth} full_depth "
                f"{h.full_depth} seed {h.seed} shard {h.shard_index}/{h.shard_count} "
                f"records {h.record_count}"
            )
        print("  side/kind/tier                records      weight  label rate  weighted")
        for key, g in s["groups"].items():  # type: ignore[attr-defined]
            print(
                f"  {key:<28} {g['records']:>8} {g['weight']:>11.0f}  {g['label_rate']:>10.4f}"
                f"  {g['weighted_label_rate']:>8.4f}"
            )
        hist: dict[str, int] = s["depth_histogram"]  # type: ignore[assignment]
        print("  depth histogram: " + ", ".join(f"{d}:{n}" for d, n in hist.items()))
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = ToolParser(
        prog="python -m stkref.fhrecords",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = ap.add_subparsers(dest="command", required=True)
    d = sub.add_parser("dump", help="one JSON object per record")
    d.add_argument("file", type=input_file(DATA_LIMIT))
    d.add_argument("--model", type=input_file(), help="fhmodel text file: adds model_prediction")
    s = sub.add_parser("summary", help="counts by side/kind/tier, label rates, depth histogram")
    s.add_argument("files", nargs="+", type=input_file(DATA_LIMIT))
    args = ap.parse_args(argv)
    return _dump(args) if args.command == "dump" else _summary(args)


if __name__ == "__main__":
    sys.exit(run_tool(main))
