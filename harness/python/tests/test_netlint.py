"""Net lint (stktrain.netlint): the seeded golden net passes its gates; planted, a net with one
feature-transformer row scaled up fails the int16 headroom gate, by exit status and in JUnit."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import chess
import numpy as np

from stkref.cli import run_tool
from stkref.features import active_features
from stkref.netfile import read, write
from stktrain import netlint

ROOT = Path(__file__).resolve().parents[3]
GOLDEN = ROOT / "golden" / "nets" / "stk-h128-seed1.nnue"


def lint(net: Path, out: Path, *extra: str) -> int:
    argv = ["--net", str(net), "--random", "40", "--reports-dir", str(out), "--config", "t"]
    return run_tool(lambda: netlint.main([*argv, *extra]))


def test_the_golden_net_passes_and_reports_every_layer(tmp_path: Path):
    assert lint(GOLDEN, tmp_path) == 0
    s = json.loads((tmp_path / "netlint" / "t.json").read_text())
    assert s["report"]["passed"] and s["ft"]["overflow_lanes"] == 0
    assert 0 < s["ft"]["clipped_low_share"] < 1 and s["ft"]["int16_headroom"] > 2
    assert set(s["per_bucket"]) and all("l1" in r and "l2" in r for r in s["per_bucket"].values())


def test_a_scaled_up_feature_row_fails_the_headroom_gate(tmp_path: Path):
    model = read(str(GOLDEN))
    hot = active_features(chess.Board(), chess.WHITE)[0]  # a pawn every game starts with
    model.ft_weight[hot] = np.clip(model.ft_weight[hot].astype(np.int64) * 4000, -32767, 32767)
    planted = tmp_path / "planted.nnue"
    write(model, str(planted))
    epd = tmp_path / "start.epd"
    epd.write_text(chess.Board().epd() + "\n")
    assert lint(planted, tmp_path, "--epd", str(epd)) == 1
    xml = ET.parse(tmp_path / "junit" / "netlint-t.xml").getroot()
    failed = [c.get("name") for c in xml.iter("testcase") if c.find("failure") is not None]
    assert failed == ["int16 accumulator headroom"], failed
    # Past int16 the lint must see what the engine computes: lanes wrapped at 16 bits, as the
    # oracle wraps them (mutation testing: a wrap at 15 or 17 bits survived on the golden net).
    from stkref import oracle

    board = chess.Board()
    out = netlint.activations(model, [board])["layers"][oracle.output_bucket(board)]["out"][0]
    assert int(out) >> 4 == oracle.evaluate(model, board).positional


def test_the_lint_computes_what_the_oracle_computes():
    """Every figure rests on the layer values: they must be the oracle's (the engine's, to 0 cp).
    Planted by mutation testing: an l1 clamp at 128 instead of 127, a lower clamp at -1."""
    from stkref import oracle
    from stkref.positions import curated_positions

    model = read(str(GOLDEN))
    boards = [p.board() for p in curated_positions()]
    acts = netlint.activations(model, boards)
    s = netlint.lint(model, boards)
    by_bucket: dict[int, list[chess.Board]] = {}
    for board in boards:
        by_bucket.setdefault(oracle.output_bucket(board), []).append(board)
    for b, group in by_bucket.items():
        h1s = []
        for k, board in enumerate(group):
            parts = oracle.evaluate(model, board)
            assert int(acts["layers"][b]["out"][k]) >> 4 == parts.positional, board.fen()
            acc_s = oracle.accumulate(model, active_features(board, board.turn))[0]
            acc_o = oracle.accumulate(model, active_features(board, not board.turn))[0]
            x = np.concatenate([oracle.transform(acc_s), oracle.transform(acc_o)])
            h1s.append(oracle.clipped_relu(oracle.dense(model.l1_weight[b], model.l1_bias[b], x)))
        zeros = float(np.mean(np.stack(h1s) == 0))
        assert s["per_bucket"][str(b)]["l1"]["clipped_low_share"] == zeros


def test_headroom_figures_are_the_limits_over_the_largest_values(tmp_path: Path):
    # Each headroom is its integer limit over the largest value seen, and its gate fails when set
    # above it (planted by the mutation campaign: `INT32_MAX * worst` passed every gate).
    assert lint(GOLDEN, tmp_path) == 0
    s = json.loads((tmp_path / "netlint" / "t.json").read_text())
    assert s["int32_headroom"] == (2**31 - 1) / s["int32_max_abs_sum"]
    assert s["ft"]["int16_headroom"] == 32767 / s["ft"]["max_abs"]
    above = f"{s['int32_headroom'] * 1.01:.3f}"
    assert lint(GOLDEN, tmp_path, "--min-int32-headroom", above) == 1
    xml = ET.parse(tmp_path / "junit" / "netlint-t.xml").getroot()
    failed = [c.get("name") for c in xml.iter("testcase") if c.find("failure") is not None]
    assert failed == ["int32 dense-sum headroom"], failed
