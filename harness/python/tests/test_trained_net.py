"""The trained net in golden/nets/trained/: its manifest names what made it (docs/trained-net.md),
its digests are the files', and quantizing the stored checkpoint gives the stored net byte for
byte (so drift on the pair measures the net the engine loads). Planted: one changed weight."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np

from stkref.checkpoint import checkpoint_digest, load_checkpoint
from stkref.netfile import encode
from stkref.quantize import quantize_model

DIR = Path(__file__).resolve().parents[3] / "golden/nets/trained"
MANIFEST = json.loads((DIR / "manifest.json").read_text())


def test_the_manifest_records_the_provenance():
    dg, tr = MANIFEST["datagen"], MANIFEST["trainer"]
    assert "datagen" in dg["command"] and "--seed" in dg["command"]
    assert dg["games"] > 1000 and dg["quiet_records"] <= dg["records"]
    assert all(len(f["sha256"]) == 64 for f in dg["files"])
    assert all(c in "0123456789abcdef" for c in tr["revision"][:40])
    assert tr["validation_loss"] < tr["initial_validation_loss"]
    assert tr["settings"]["hidden"] == MANIFEST["hidden"] == 128


def test_the_digests_are_the_files():
    net = (DIR / MANIFEST["net"]).read_bytes()
    assert hashlib.sha256(net).hexdigest() == MANIFEST["net_sha256"]
    ckpt = load_checkpoint(DIR / MANIFEST["checkpoint"])
    assert checkpoint_digest(ckpt) == MANIFEST["checkpoint_digest"]


def test_the_checkpoint_quantizes_to_the_stored_net():
    ckpt = load_checkpoint(DIR / MANIFEST["checkpoint"])
    stored = (DIR / MANIFEST["net"]).read_bytes()
    assert encode(quantize_model(ckpt)) == stored
    # Planted: one feature-transformer weight moved by a quantum; the bytes must differ.
    ckpt["ft.weight"] = ckpt["ft.weight"].copy()
    ckpt["ft.weight"][5, 3] += np.float32(1.0 / 127.0) * 2
    assert encode(quantize_model(ckpt)) != stored


def test_recording_a_net_writes_its_provenance_and_scales_exactly(tmp_path: Path):
    """ci/record-trained-net.py on a seeded checkpoint: the manifest's digests are the files', and
    --output-scale 1.25 multiplies the float evaluation by 1.25 in every position (planted:
    a scale applied to the output layer alone would leave the PSQT part unscaled)."""
    import subprocess
    import sys

    import chess

    from stkref.checkpoint import generate_checkpoint, save_checkpoint
    from stkref.floatmodel import evaluate_float

    root = DIR.parents[2]
    ckpt = tmp_path / "net.npz"
    seeded = generate_checkpoint(128, 3)
    seeded["l1.weight"] = np.clip(seeded["l1.weight"], -127 / 64, 127 / 64)  # as trained: no clip
    save_checkpoint(seeded, ckpt)
    summary = {
        "settings": {"hidden": 128},
        "scale_cp": 160.0,
        "train_positions": 9,
        "validation_positions": 1,
        "kept_epoch": 1,
        "kept_val_loss": 0.04,
        "history": [{"val_loss": 0.07}, {"val_loss": 0.04, "positions_per_second": 10.0}],
        "seconds": 1.0,
    }
    (tmp_path / "s.json").write_text(json.dumps(summary))
    data = tmp_path / "d.txt"
    data.write_text(f"{chess.STARTING_FEN} | 20 | 0.5 | 0 | 1\n")
    fens = [
        chess.STARTING_FEN,
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    ]
    evals = {}
    for scale in ("1", "1.25"):
        out = tmp_path / scale
        argv = [sys.executable, str(root / "ci/record-trained-net.py"), "--checkpoint", str(ckpt)]
        argv += ["--summary", str(tmp_path / "s.json"), "--data", str(data), "--out-dir", str(out)]
        argv += ["--datagen-command", "stk-harness datagen --seed 1", "--output-scale", scale]
        proc = subprocess.run(argv, capture_output=True, text=True, check=False)
        assert proc.returncode == 0, proc.stderr
        man = json.loads((out / "manifest.json").read_text())
        net = (out / man["net"]).read_bytes()
        assert hashlib.sha256(net).hexdigest() == man["net_sha256"]
        assert man["output_scale"] == float(scale) and man["datagen"]["records"] == 1
        stored = load_checkpoint(out / man["checkpoint"])
        assert encode(quantize_model(stored)) == net
        evals[scale] = [evaluate_float(stored, chess.Board(f)) for f in fens]
    for a, b in zip(evals["1"], evals["1.25"], strict=True):
        assert abs(b.eval - 1.25 * a.eval) < 1e-3 and abs(b.psqt - 1.25 * a.psqt) < 1e-3
