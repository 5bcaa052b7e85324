"""Records a trained net in golden/nets/trained/ with its provenance (docs/training.md).

ci/record-trained-net.py --checkpoint build/train/net.npz --summary build/train/net.json \
    --data build/datagen/seed1.txt --datagen-command "stk-harness datagen ..." [--out-dir DIR]

Copies the float checkpoint, quantizes it to the .nnue the engine loads (stktrain.export), and
writes manifest.json: both digests (checknet --manifest reads `net` and `net_sha256`), the
datagen command, the data's SHA-256, games and positions, the trainer's revision and settings,
the epoch kept and its validation loss. --output-scale F multiplies the evaluation by F (the
output layer and the PSQT weights, exact in float): the calibration to the classical scale the
search's margins were tuned on (F = 1 / the slope stktrain.netquality measures). Every file is
written through the checked writer.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from stkref import inputs, options
from stkref.checkpoint import checkpoint_digest, load_checkpoint, save_checkpoint
from stkref.cli import ToolParser, run_tool
from stkref.errors import InputError
from stkref.junit import git_revision, write_text_atomic
from stkref.netfile import sha256_file, write
from stkref.outputs import report_tree
from stkref.quantize import quantize_model
from stktrain.datafile import read_records

ROOT = Path(__file__).resolve().parents[3]  # harness/python/<package>/ -> the repository


NAME = "stk-h128-trained"


def main(argv: list[str] | None = None) -> int:
    ap = ToolParser(
        prog="python -m stktrain.record_net",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        outputs=lambda a: report_tree(
            "--out-dir", a.out_dir, (f"{NAME}.npz", f"{NAME}.nnue", "manifest.json")
        ),
    )
    ap.add_argument("--checkpoint", type=inputs.input_file(), required=True)
    ap.add_argument(
        "--summary", type=inputs.input_file(), required=True, help="stktrain.train --summary JSON"
    )
    ap.add_argument(
        "--data", type=inputs.input_file(inputs.DATA_LIMIT), action="append", required=True
    )
    ap.add_argument("--datagen-command", required=True)
    ap.add_argument(
        "--datagen-rate",
        type=options.real(0.0, 1e9),
        default=0.0,
        help="positions/s per core datagen printed for this data (recorded as measured)",
    )
    ap.add_argument("--out-dir", type=Path, default=ROOT / "golden/nets/trained")
    ap.add_argument(
        "--output-scale",
        type=options.real(0.5, 2.0),
        default=1.0,
        help="multiply the evaluation by F (0.5..2)",
    )
    a = ap.parse_args(argv)
    try:
        summary = json.loads(inputs.read_input_text(a.summary))
    except ValueError as e:
        raise InputError(f"{a.summary}: not a training summary ({e})") from e
    # float32 as trained (the trainer folds in float64): half the bytes in the repository, and
    # the .nnue is quantized from exactly what is stored.
    ckpt = {k: v.astype(np.float32) for k, v in load_checkpoint(a.checkpoint).items()}
    for key in ("out.weight", "out.bias", "psqt.weight"):  # eval = out(h2) + psqt: both scale
        ckpt[key] = (ckpt[key] * np.float32(a.output_scale)).astype(np.float32)
    records = read_records(a.data)
    model = quantize_model(ckpt)
    if sum(model.clipped.values()):
        raise InputError(f"{a.checkpoint}: the export clips {model.clipped}: not recorded")
    npz, nnue = a.out_dir / f"{NAME}.npz", a.out_dir / f"{NAME}.nnue"
    a.out_dir.mkdir(parents=True, exist_ok=True)
    save_checkpoint(ckpt, npz)
    write(model, str(nnue))
    manifest = {
        "generator": "ci/record-trained-net.py",
        "hidden": model.hidden,
        "output_scale": a.output_scale,
        "checkpoint": npz.name,
        "checkpoint_digest": checkpoint_digest(ckpt),
        "net": nnue.name,
        "net_sha256": sha256_file(nnue),
        "datagen": {
            "command": a.datagen_command,
            "files": [
                {"name": p.name, "sha256": sha256_file(p, inputs.DATA_LIMIT)} for p in a.data
            ],
            "records": len(records),
            "quiet_records": sum(r.quiet for r in records),
            "games": len({r.game for r in records}),
            "positions_per_second_per_core": a.datagen_rate or None,
        },
        "trainer": {
            # The trainer's own record; a summary from before it had one: HEAD when recorded.
            "revision": summary.get("revision") or f"{git_revision()} (at recording)",
            "settings": summary["settings"],
            "k_cp": summary["scale_cp"],
            "train_positions": summary["train_positions"],
            "validation_positions": summary["validation_positions"],
            "kept_epoch": summary["kept_epoch"],
            "validation_loss": summary["kept_val_loss"],
            "initial_validation_loss": summary["history"][0]["val_loss"],
            "seconds": round(summary["seconds"], 1),
            "positions_per_second": round(
                max(h.get("positions_per_second", 0.0) for h in summary["history"])
            ),
        },
    }
    write_text_atomic(a.out_dir / "manifest.json", json.dumps(manifest, indent=2) + "\n")
    print(f"wrote {npz}, {nnue} (sha256 {manifest['net_sha256']}), {a.out_dir / 'manifest.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(run_tool(main))
