"""Golden net: a small seeded checkpoint, its export and the oracle's evals, pinned in files.

python -m stkref.golden --out DIR [--update-golden]   write DIR/{stk-h128-seed1.npz,.nnue,
                                                      expected_evals.jsonl, manifest.json}
python -m stkref.golden --check DIR                   recompute and compare; exit 1 on any
                                                      difference, 2 if DIR is unusable

--check re-quantizes the stored checkpoint and requires the stored net bit for bit (pins the
quantizer: rounding rule, padding row, scales), then evaluates both the stored net and the fresh
export with the oracle and requires the stored evals exactly (pins the integer inference).
Existing golden files are only rewritten with --update-golden, which prints the diff.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import chess
import numpy as np

from .checkpoint import checkpoint_digest, generate_checkpoint, load_checkpoint, save_checkpoint
from .cli import ToolParser, run_tool
from .errors import InputError
from .floatmodel import FloatModel
from .inputs import UnreadableInputError, folder, read_input_text
from .junit import (
    Outcome,
    TestCase,
    TestSuite,
    add_build_properties,
    write_report,
    write_text_atomic,
)
from .model import TENSOR_LAYOUT, QuantizedModel
from .netfile import read as read_net
from .netfile import sha256_file
from .netfile import write as write_net
from .oracle import evaluate
from .outputs import Output, report_tree
from .quantize import quantize_model

SEED = 1
HIDDEN = 128
STEM = f"stk-h{HIDDEN}-seed{SEED}"
EVALS = "expected_evals.jsonl"
MANIFEST = "manifest.json"
FLOAT_TOLERANCE_CP = 1e-6  # float reference: only summation order may move it

# Fixed on purpose (not taken from positions.CURATED, which may grow): changing this list is a
# golden update.
GOLDEN_POSITIONS: tuple[tuple[str, str], ...] = (
    ("startpos", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
    ("startpos-e4", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"),
    ("italian", "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"),
    ("qgd", "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8"),
    ("opposite-castling", "2kr1b1r/pppq1ppp/2n1bn2/3pp3/3PP3/2N1BN2/PPPQ1PPP/R3KB1R w KQ - 6 8"),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
    ("kings-both-queenside", "2kr3r/ppp2ppp/2n5/3q4/3P4/2N5/PPPQ1PPP/2KR3R w - - 0 1"),
    ("kings-both-kingside", "r4rk1/ppp2ppp/2n5/3q4/3P4/2N5/PPPQ1PPP/5RK1 b - - 0 1"),
    ("white-qside-black-kside", "5rk1/pp3ppp/8/8/8/8/PP3PPP/2KR4 w - - 0 1"),
    ("white-kside-black-qside", "2kr4/ppp2ppp/8/8/8/8/PPP2PPP/6K1 b - - 0 1"),
    ("kings-e1-d8", "3k4/8/8/8/8/8/8/4K2R w K - 0 1"),
    ("kp-centre", "8/8/4k3/8/3P4/8/4K3/8 w - - 0 1"),
    ("kpp-vs-kp", "8/5k2/8/2p5/8/8/1PP5/4K3 w - - 0 1"),
    ("three-queens", "3QQ3/8/8/2k5/8/8/1K6/4q3 w - - 0 1"),
    ("promotions-pending", "8/1P4kP/8/8/8/8/p5K1/8 w - - 0 1"),
    ("ep-white-to-move", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"),
    ("black-in-check", "r3k3/8/8/1B6/8/8/8/4K3 b q - 0 1"),
    ("white-up-a-rook", "6k1/5ppp/8/8/8/8/5PPP/R5K1 b - - 0 1"),
    ("black-up-a-queen", "3q2k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1"),
    ("rook-endgame", "8/5pk1/6p1/8/3R4/6P1/r4PK1/8 w - - 0 40"),
    ("ecm-style", "2q1r1k1/1ppb4/r2p1Pp1/p4n1p/2P1n3/5NPP/PP3Q1K/2BRRB2 w - - 0 1"),
)


def golden_records(model: QuantizedModel, floats: FloatModel) -> list[dict[str, Any]]:
    out = []
    for pid, fen in GOLDEN_POSITIONS:
        board = chess.Board(fen)
        e = evaluate(model, board)
        out.append(
            {
                "id": pid,
                "fen": fen,
                "eval": e.eval,
                "bucket": e.bucket,
                "psqt": e.psqt,
                "positional": e.positional,
                "float_eval": round(floats.evaluate(board).eval, 6),
            }
        )
    return out


def _paths(directory: Path) -> dict[str, Path]:
    return {
        "npz": directory / f"{STEM}.npz",
        "nnue": directory / f"{STEM}.nnue",
        "evals": directory / EVALS,
        "manifest": directory / MANIFEST,
    }


def read_records(path: Path) -> list[dict[str, Any]]:
    try:
        lines = read_input_text(path).splitlines()
    except UnreadableInputError as e:
        raise InputError(f"{path}: cannot read: {e.why}") from e
    out = []
    for n, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError as e:
            raise InputError(f"{path}:{n}: not JSON: {e}") from e
    return out


def diff_records(expected: list[dict[str, Any]], actual: list[dict[str, Any]]) -> list[str]:
    out = []
    if [r["id"] for r in expected] != [r["id"] for r in actual]:
        out.append(
            f"position lists differ: {[r['id'] for r in expected]} vs {[r['id'] for r in actual]}"
        )
        return out
    for e, a in zip(expected, actual, strict=True):
        for key in ("fen", "eval", "bucket", "psqt", "positional"):
            if e.get(key) != a.get(key):
                out.append(f"{e['id']}: {key} expected {e.get(key)!r}, got {a.get(key)!r}")
        if abs(float(e.get("float_eval", 0.0)) - float(a["float_eval"])) > FLOAT_TOLERANCE_CP:
            out.append(
                f"{e['id']}: float_eval expected {e.get('float_eval')}, got {a['float_eval']}"
            )
    return out


def write_golden(directory: Path, update: bool) -> int:
    paths = _paths(directory)
    existing = [p for p in paths.values() if p.exists()]
    if existing and not update:
        raise InputError(
            f"{directory}: golden files exist ({', '.join(p.name for p in existing)})"
            "; pass --update-golden to rewrite them"
        )
    print(f"seed {SEED}")
    ckpt = generate_checkpoint(HIDDEN, SEED)
    model = quantize_model(ckpt)
    records = golden_records(model, FloatModel(ckpt))
    if paths["evals"].exists():
        changes = diff_records(read_records(paths["evals"]), records)
        print("golden diff:" if changes else "golden diff: none")
        for c in changes:
            print("  " + c)
    directory.mkdir(parents=True, exist_ok=True)
    save_checkpoint(ckpt, paths["npz"])
    write_net(model, paths["nnue"])
    write_text_atomic(paths["evals"], "".join(json.dumps(r) + "\n" for r in records))
    manifest = {
        "generator": "python -m stkref.golden",
        "seed": SEED,
        "hidden": HIDDEN,
        "checkpoint": paths["npz"].name,
        "checkpoint_digest": checkpoint_digest(ckpt),
        "net": paths["nnue"].name,
        "net_sha256": sha256_file(paths["nnue"]),
        "clipped": model.clipped,
        "positions": len(records),
    }
    write_text_atomic(paths["manifest"], json.dumps(manifest, indent=2) + "\n")
    for p in paths.values():
        print(f"wrote {p}")
    return 0


def check_golden(directory: Path, junit: Path | None) -> int:
    paths = _paths(directory)
    for key in ("npz", "nnue", "evals"):
        if not paths[key].exists():
            raise InputError(f"{paths[key]}: golden file missing")
    suite = TestSuite("golden.nets")
    suite.property("golden_dir", str(directory.resolve()))
    suite.property("net_sha256", sha256_file(paths["nnue"]))
    add_build_properties(suite)
    ckpt = load_checkpoint(paths["npz"])
    stored = read_net(paths["nnue"])
    fresh = quantize_model(ckpt)
    expected = read_records(paths["evals"])
    floats = FloatModel(ckpt)

    export = suite.add(TestCase("golden.nets", "export-reproduces-net"))
    tensor_diffs = [
        f"{n}: {int(np.count_nonzero(getattr(fresh, n) != getattr(stored, n)))} values differ"
        if getattr(fresh, n).shape == getattr(stored, n).shape
        else f"{n}: shape {getattr(fresh, n).shape} vs {getattr(stored, n).shape}"
        for n, _ in TENSOR_LAYOUT
        if fresh.hidden != stored.hidden
        or not np.array_equal(getattr(fresh, n), getattr(stored, n))
    ]
    if tensor_diffs:
        export.outcome, export.message = (
            Outcome.FAILED,
            "quantizing the checkpoint no longer reproduces the stored net",
        )
        export.detail = "\n".join(tensor_diffs)
    for name, model in (("stored-net-evals", stored), ("fresh-export-evals", fresh)):
        case = suite.add(TestCase("golden.nets", name))
        diffs = diff_records(expected, golden_records(model, floats))
        if diffs:
            case.outcome, case.message = Outcome.FAILED, f"{len(diffs)} differences"
            case.detail = "\n".join(diffs)
    for c in suite.cases:
        print(f"{c.name}: {c.outcome.value}" + (f": {c.message}\n{c.detail}" if c.detail else ""))
    if junit is not None:
        write_report(junit, [suite])
        print(f"junit {junit}")
    print("PASS" if suite.all_passed() else "FAIL")
    return 0 if suite.all_passed() else 1


def outputs(a: argparse.Namespace) -> list[Output]:
    if a.out is None:
        return []
    return report_tree("--out", a.out, [p.name for p in _paths(a.out).values()])


def build_parser() -> ToolParser:
    ap = ToolParser(
        prog="python -m stkref.golden",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        reports=lambda a: [(a.junit, "golden.nets")] if a.junit is not None else [],
        outputs=outputs,
    )
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--out", type=Path, help="write the golden files into DIR")
    mode.add_argument("--check", type=folder, help="recompute and compare against DIR")
    ap.add_argument(
        "--update-golden",
        action="store_true",
        help="with --out: allow rewriting existing golden files (prints the diff)",
    )
    ap.add_argument("--junit", type=Path, default=None, help="with --check: JUnit XML path")
    return ap


def main(argv: list[str] | None = None) -> int:
    ap = build_parser()
    args = ap.parse_args(argv)
    if args.out is not None:
        return write_golden(args.out, args.update_golden)
    return check_golden(args.check, args.junit)


if __name__ == "__main__":
    sys.exit(run_tool(main))
