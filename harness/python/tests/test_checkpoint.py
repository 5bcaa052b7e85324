from __future__ import annotations

import importlib.util
from pathlib import Path

import chess
import numpy as np
import pytest

from stkref.checkpoint import (
    Checkpoint,
    checkpoint_digest,
    generate_checkpoint,
    load_checkpoint,
    save_checkpoint,
)
from stkref.checkpoint import (
    main as checkpoint_main,
)
from stkref.cli import run_tool
from stkref.errors import InputError
from stkref.features import active_features
from stkref.netfile import read
from stkref.positions import curated_positions
from stkref.quantize import checkpoint_shapes
from stktrain.export import main as export_main


def test_shapes_dtypes_padding(ckpt128: Checkpoint) -> None:
    assert {k: v.shape for k, v in ckpt128.items()} == checkpoint_shapes(128)
    assert all(v.dtype == np.float32 for v in ckpt128.values())
    assert not ckpt128["ft.weight"][0].any() and not ckpt128["psqt.weight"][0].any()


def test_seeded_and_deterministic(ckpt128: Checkpoint) -> None:
    assert checkpoint_digest(generate_checkpoint(128, 1)) == checkpoint_digest(ckpt128)
    assert checkpoint_digest(generate_checkpoint(128, 2)) != checkpoint_digest(ckpt128)


def test_activations_mostly_unsaturated(ckpt128: Checkpoint) -> None:
    """FT accumulators mostly inside 0..1 and hidden layer 1 neither all 0 nor all 1."""
    t = {k: v.astype(np.float64) for k, v in ckpt128.items()}
    inside, h1_mid = [], []
    for pos in curated_positions():
        board = pos.board()
        accs = []
        for color in (board.turn, not board.turn):
            rows = np.array(active_features(board, color)) + 1
            acc = t["ft.bias"] + t["ft.weight"][rows].sum(axis=0)
            inside.append(np.mean((acc > 0) & (acc < 1)))
            half = acc.size // 2
            accs.append(np.clip(acc[:half], 0, 1) * np.clip(acc[half:], 0, 1) * 127 / 128)
        b = min(max((chess.popcount(board.occupied) - 1) // 4, 0), 7)
        s1 = t["l1.weight"][b] @ np.concatenate(accs) + t["l1.bias"][b]
        h1_mid.append(np.mean((s1 > 0) & (s1 < 1)))
    assert np.mean(inside) > 0.8
    assert np.mean(h1_mid) > 0.5


def test_ties_are_planted(ckpt128: Checkpoint) -> None:
    """Dense and PSQT weights include exact half steps, so the rounding rule is observable."""
    for key, scale in (("l1.weight", 64), ("out.weight", 64), ("psqt.weight", 16)):
        scaled = ckpt128[key].astype(np.float64) * scale
        ties = np.count_nonzero(scaled - np.floor(scaled) == 0.5)
        assert ties > scaled.size / 40, key


def test_npz_round_trip(tmp_path: Path, ckpt128: Checkpoint) -> None:
    path = tmp_path / "c.npz"
    save_checkpoint(ckpt128, path)
    back = load_checkpoint(path)
    assert checkpoint_digest(back) == checkpoint_digest(ckpt128)


def test_load_rejects_bad_files(tmp_path: Path, ckpt128: Checkpoint) -> None:
    bad = dict(ckpt128)
    bad["l1.bias"] = bad["l1.bias"].copy()
    bad["l1.bias"][3, 4] = np.nan
    path = tmp_path / "nan.npz"
    save_checkpoint(bad, path)
    with pytest.raises(InputError, match=r"nan.npz: .*tensor 'l1.bias'.*NaN/inf"):
        load_checkpoint(path)
    with pytest.raises(InputError, match="unknown checkpoint type"):
        load_checkpoint(tmp_path / "c.bin")
    with pytest.raises(InputError, match="cannot read"):
        load_checkpoint(tmp_path / "missing.npz")
    garbage = tmp_path / "garbage.npz"
    garbage.write_bytes(b"not a zip")
    with pytest.raises(InputError, match="garbage.npz"):
        load_checkpoint(garbage)


@pytest.mark.skipif(importlib.util.find_spec("torch") is not None, reason="torch is installed")
def test_torch_checkpoint_without_torch(tmp_path: Path) -> None:
    path = tmp_path / "model.pt"
    path.write_bytes(b"\0")
    with pytest.raises(InputError, match="needs torch"):
        load_checkpoint(path)


def test_checkpoint_and_export_cli(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], ckpt128: Checkpoint
) -> None:
    out = tmp_path / "c.npz"
    assert run_tool(lambda: checkpoint_main(["--hidden", "128", "--seed", "1", str(out)])) == 0
    text = capsys.readouterr().out
    assert "seed 1" in text
    assert '"seed": 1' in out.with_suffix(".json").read_text()
    net = tmp_path / "c.nnue"
    assert run_tool(lambda: export_main([str(out), str(net)])) == 0
    text = capsys.readouterr().out
    assert "clipped l1.weight    1" in text and "total clipped 1" in text
    assert read(net).hidden == 128
    assert run_tool(lambda: export_main([str(tmp_path / "nope.npz"), str(net)])) == 2
