"""stktrain.train (docs/training.md): the loss falls on data a net can learn, the result is a
checkpoint stktrain.export quantizes, seeds fix the result, a resumed run equals an unbroken one,
the validation split is by game, and bad data is named by file and line."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import numpy as np
import pytest

# One compilation of the training step for all runs of this file (JAX's persistent cache).
os.environ.setdefault(
    "JAX_COMPILATION_CACHE_DIR", os.path.join(tempfile.gettempdir(), "stk-jax-cache")
)
pytest.importorskip("jax")
pytest.importorskip("optax")

from conftest import material_games

from stkref.checkpoint import checkpoint_digest, load_checkpoint
from stkref.cli import run_tool
from stktrain import train
from stktrain.export import main as export_main


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("train") / "data.txt"
    material_games(path, 40, 1)
    return path


def run(data: Path, out: Path, *extra: str) -> int:
    # --lambda 1: the target is the score alone (material: a function of the position), so the
    # validation loss can fall on 40 games; game results of random games are noise.
    argv = [
        "--data",
        str(data),
        "--out",
        str(out),
        "--epochs",
        "3",
        "--batch",
        "256",
        "--lambda",
        "1",
    ]
    return run_tool(lambda: train.main([*argv, *extra]))


def test_the_loss_falls_and_the_checkpoint_exports(data: Path, tmp_path: Path, capsys):
    out = tmp_path / "net.npz"
    assert run(data, out, "--summary", str(tmp_path / "s.json")) == 0
    text = capsys.readouterr().out
    assert "validation by game" in text and "positions/s" in text and "ETA" in text
    lines = text.splitlines()
    first = next(line for line in lines if "epoch 0 train loss" in line)
    last = next(line for line in lines if "epoch 3/3" in line)
    assert last.endswith("ETA 0 s"), last  # nothing left after the last epoch
    import json

    s = json.loads((tmp_path / "s.json").read_text())
    h = s["history"]
    from stkref.junit import git_revision

    assert s["revision"] == git_revision()  # the net's provenance: the commit the trainer ran from
    assert f"train loss {h[0]['train_loss']:.6f} val loss {h[0]['val_loss']:.6f}" in first, first
    assert h[-1]["val_loss"] < 0.5 * h[0]["val_loss"], h
    assert h[-1]["train_loss"] < h[0]["train_loss"], h
    ckpt = load_checkpoint(out)
    assert not ckpt["ft.weight"][0].any()  # the padding row stays zero
    assert np.abs(ckpt["l1.weight"]).max() <= 127 / 64 + 1e-6  # inside int8 at x64
    assert run_tool(lambda: export_main([str(out), str(tmp_path / "net.nnue")])) == 0
    assert (tmp_path / "net.nnue").stat().st_size > 0


def test_seeds_fix_the_net_and_a_resumed_run_equals_an_unbroken_one(data: Path, tmp_path: Path):
    assert run(data, tmp_path / "a.npz") == 0
    assert run(data, tmp_path / "b.npz") == 0
    digest = checkpoint_digest(load_checkpoint(tmp_path / "a.npz"))
    assert checkpoint_digest(load_checkpoint(tmp_path / "b.npz")) == digest
    # Two epochs, then a resumed third: the same net as three at once.
    argv = [
        "--data",
        str(data),
        "--out",
        str(tmp_path / "c.npz"),
        "--batch",
        "256",
        "--lambda",
        "1",
    ]
    assert run_tool(lambda: train.main([*argv, "--epochs", "2"])) == 0
    assert run_tool(lambda: train.main([*argv, "--epochs", "3", "--resume"])) == 0
    assert checkpoint_digest(load_checkpoint(tmp_path / "c.npz")) == digest
    # Planted: another seed must give another net (a seed that is ignored would pass the above).
    assert run(data, tmp_path / "d.npz", "--seed", "2") == 0
    assert checkpoint_digest(load_checkpoint(tmp_path / "d.npz")) != digest


def test_the_validation_split_is_by_game(data: Path):
    d = train.read_data([data], quiet_only=True, max_positions=0)
    tr, va = train.split_by_game(d, 0.2, 1)
    assert len(tr) + len(va) == len(d)
    assert not set(tr.game.tolist()) & set(va.game.tolist())
    assert len(set(va.game.tolist())) == 8  # 20% of 40 games


def test_the_scale_is_fitted_to_the_results():
    rng = np.random.default_rng(1)
    score = rng.normal(0, 400, 20000).astype(np.float32)
    result = (rng.random(20000) < 1 / (1 + np.exp(-score / 250))).astype(np.float32)
    assert abs(train.fit_scale(score, result) - 250) <= 40


def test_bad_data_is_named_by_file_and_line(data: Path, tmp_path: Path, capsys):
    bad = tmp_path / "bad.txt"
    lines = data.read_text().splitlines()
    bad.write_text("\n".join([*lines[:5], lines[5].replace(" | ", " ; ", 1), *lines[6:]]) + "\n")
    assert run(bad, tmp_path / "x.npz") == 2
    assert f"{bad}:6" in capsys.readouterr().err
    assert not (tmp_path / "x.npz").exists()


ROOT = Path(__file__).resolve().parents[3]
HARNESS = Path(os.environ.get("STK_HARNESS") or ROOT / "build/release/harness/stk-harness")
ENGINE = Path(os.environ.get("STK_ENGINE") or ROOT / "build/release/engine/stk")


def test_the_pipeline_from_self_play_to_a_net_the_engine_plays(tmp_path: Path):
    """datagen -> train -> export -> checknet -> 0 cp engine-vs-oracle parity, on tiny data."""
    import subprocess
    import sys

    if not HARNESS.exists() or not ENGINE.exists():
        pytest.skip("needs the release build (stk-harness and stk)")
    data = tmp_path / "d.txt"
    gen = [
        str(HARNESS),
        "datagen",
        "--games",
        "8",
        "--nodes",
        "300",
        "--balance-nodes",
        "300",
        "--max-plies",
        "40",
        "--out",
        str(data),
        "--out-dir",
        str(tmp_path / "r"),
    ]
    proc = subprocess.run(gen, capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    net = tmp_path / "net.npz"
    assert (
        run_tool(
            lambda: train.main(
                [
                    "--data",
                    str(data),
                    "--out",
                    str(net),
                    "--epochs",
                    "2",
                    "--batch",
                    "128",
                    "--val-fraction",
                    "0.25",
                ]
            )
        )
        == 0
    )
    nnue = tmp_path / "net.nnue"
    assert run_tool(lambda: export_main([str(net), str(nnue)])) == 0
    check = subprocess.run(
        [str(HARNESS), "checknet", str(nnue), "--junit", str(tmp_path / "r/junit/checknet-t.xml")],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert check.returncode == 0, check.stdout + check.stderr
    parity = subprocess.run(
        [
            sys.executable,
            "-m",
            "stkref.parity",
            "eval",
            "--engine",
            str(ENGINE),
            "--net",
            str(nnue),
            "--random",
            "40",
            "--reports-dir",
            str(tmp_path / "r"),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        env={**os.environ, "PYTHONPATH": str(ROOT / "harness" / "python")},
    )
    assert parity.returncode == 0, parity.stdout[-3000:] + parity.stderr[-3000:]


def test_the_epoch_kept_is_the_one_that_generalizes_best(data: Path, tmp_path: Path):
    """--keep best writes the epoch of lowest validation loss; planted: a learning rate so high
    that the later epochs are worse, where --keep last must give another net."""
    import json

    digests, summaries = {}, {}
    for keep in ("best", "last"):
        out = tmp_path / f"{keep}.npz"
        summary = tmp_path / f"{keep}.json"
        assert run(data, out, "--lr", "3", "--keep", keep, "--summary", str(summary)) == 0
        digests[keep] = checkpoint_digest(load_checkpoint(out))
        summaries[keep] = json.loads(summary.read_text())
    h = summaries["best"]["history"]
    best = min(h, key=lambda r: r["val_loss"])
    assert summaries["best"]["kept_epoch"] == best["epoch"] != h[-1]["epoch"], h
    assert summaries["last"]["kept_epoch"] == h[-1]["epoch"]
    assert digests["best"] != digests["last"]


def test_weight_decay_is_applied_and_a_negative_one_refused(data: Path, tmp_path: Path, capsys):
    import json

    assert run(data, tmp_path / "n.npz", "--weight-decay", "-1") == 2
    assert "argument --weight-decay: -1 is outside [0, 100]" in capsys.readouterr().err
    plain, decayed = tmp_path / "p.json", tmp_path / "d.json"
    assert run(data, tmp_path / "p.npz", "--summary", str(plain)) == 0
    assert run(data, tmp_path / "d.npz", "--weight-decay", "0.5", "--summary", str(decayed)) == 0
    assert json.loads(decayed.read_text())["settings"]["weight_decay"] == 0.5
    a = checkpoint_digest(load_checkpoint(tmp_path / "p.npz"))
    assert checkpoint_digest(load_checkpoint(tmp_path / "d.npz")) != a  # the decay changed it


def test_the_learning_rate_drops_at_its_epoch(data: Path, tmp_path: Path):
    """--lr-drop E --lr-gamma 0: from epoch E on nothing moves, so epochs E.. keep epoch E-1's
    validation loss exactly (Adam's step is the rate times a finite ratio); gamma 1 is no drop,
    and a run resumed across the drop equals an unbroken one (planted: the drop one epoch late,
    epoch E's loss moves)."""
    import json

    def history(out: str, *extra: str) -> list[dict[str, float]]:
        summary = tmp_path / f"{out}.json"
        assert run(data, tmp_path / f"{out}.npz", "--summary", str(summary), *extra) == 0
        return json.loads(summary.read_text())["history"]

    h = history("drop", "--lr-drop", "2", "--lr-gamma", "0")
    assert [r["lr"] for r in h[1:]] == [1e-3, 0.0, 0.0]
    assert h[1]["val_loss"] != h[0]["val_loss"]
    assert h[3]["val_loss"] == h[2]["val_loss"] == h[1]["val_loss"], h
    plain = history("plain")
    assert plain[2]["val_loss"] != plain[1]["val_loss"]  # the control: without it they move
    history("one", "--lr-drop", "2", "--lr-gamma", "1")
    same = checkpoint_digest(load_checkpoint(tmp_path / "one.npz"))
    assert same == checkpoint_digest(load_checkpoint(tmp_path / "plain.npz"))
    # resumed after epoch 2 of a drop at 3: the optimizer's step count carries the schedule
    drop = ("--lr-drop", "3", "--lr-gamma", "0.25")
    history("whole", *drop)
    argv = ["--data", str(data), "--out", str(tmp_path / "r.npz"), "--batch", "256"]
    argv += ["--lambda", "1", *drop]
    assert run_tool(lambda: train.main([*argv, "--epochs", "2"])) == 0
    assert run_tool(lambda: train.main([*argv, "--epochs", "3", "--resume"])) == 0
    whole = checkpoint_digest(load_checkpoint(tmp_path / "whole.npz"))
    assert checkpoint_digest(load_checkpoint(tmp_path / "r.npz")) == whole


def test_without_the_factorizer_an_unseen_feature_keeps_its_first_weights(
    data: Path, tmp_path: Path
):
    """The factorizer shares a feature's learning with its king-independent row: with it, a
    feature no position has still moves; without it (--no-factorizer), its row is the initial
    one exactly (planted: the flag read but the factor rows still trained)."""
    d = train.read_data([data], quiet_only=True, max_positions=0)
    seen = np.union1d(np.unique(d.stm), np.unique(d.opp))
    first = train.initial_params(128, 1)["ft.weight"].astype(np.float64)
    unseen = np.setdiff1d(np.arange(first.shape[0]), seen)
    assert len(unseen) > 1000
    rows = {}
    for name, extra in (("on", ()), ("off", ("--no-factorizer",))):
        assert run(data, tmp_path / f"{name}.npz", "--keep", "last", *extra) == 0
        rows[name] = load_checkpoint(tmp_path / f"{name}.npz")["ft.weight"][unseen]
    assert np.array_equal(rows["off"], first[unseen])
    assert not np.array_equal(rows["on"], first[unseen])


def test_the_summary_names_the_commit_the_run_started_from(data: Path, tmp_path: Path, monkeypatch):
    """A run lasts an hour or more: the summary names the commit checked out when it started,
    not when it ended (planted: read at the end, the summary named a later, dirty tree)."""
    trained = []
    fit = train.train

    def training(*args, **kw):  # the tree moves on while the run trains
        result = fit(*args, **kw)
        trained.append(True)
        return result

    monkeypatch.setattr(train, "train", training)
    monkeypatch.setattr(train, "git_revision", lambda: "ended-at" if trained else "started-at")
    summary = tmp_path / "s.json"
    assert run(data, tmp_path / "n.npz", "--summary", str(summary)) == 0
    assert json.loads(summary.read_text())["revision"] == "started-at"
